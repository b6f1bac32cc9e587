// Writes a whole file or nothing: the text goes to a temporary file beside the target, which is
// then renamed over it, so a crash or a full disk never leaves a half-written file.
#pragma once

#include <string>

namespace murmur {

// Throws std::runtime_error naming the path and the cause on failure (no file left behind).
void writeFileAtomic(const std::string& path, const std::string& contents);

// Whole file as a string; throws std::runtime_error naming the path on failure.
std::string readFile(const std::string& path);

}  // namespace murmur
