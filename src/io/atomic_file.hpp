// Writes a whole file or nothing: the text goes to a temporary file beside the target, which is
// then renamed over it, so a crash or a full disk never leaves a half-written file.
#pragma once

#include <optional>
#include <string>

namespace murmur {

// Throws std::runtime_error naming the path and the cause on failure (no file left behind).
// Through a symlink it replaces the file the link points to (the link stays); a replaced file
// keeps its permissions; a directory, device, FIFO or socket, or a read-only file, is refused.
void writeFileAtomic(const std::string& path, const std::string& contents);

// Why writeFileAtomic would refuse the existing file at path (following symlinks), if it would.
std::optional<std::string> targetProblem(const std::string& path);

// path with its symlinks followed to the file a write should replace.
std::string resolvedTarget(const std::string& path);

// Checks up front that writeFileAtomic(path) can succeed: an existing, writable directory, a name
// file systems hold, no refused target. Throws InputError naming flag and path if not.
void checkWritableTarget(const std::string& path, const std::string& flag);

// Whole file as a string; throws std::runtime_error naming the path on failure.
std::string readFile(const std::string& path);

}  // namespace murmur
