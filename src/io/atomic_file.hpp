// Writes a whole file or nothing: the text goes to a temporary file beside the target, which is
// then renamed over it, so a crash or a full disk never leaves a half-written file.
#pragma once

#include <cstdint>
#include <fstream>
#include <optional>
#include <sys/types.h>
#include <string>

namespace murmur {

// A temporary file named from pattern ("NAME.tmp.XXXXXX", made by mkstemp) that SIGINT or SIGTERM
// removes while this object lives (kill -9 cannot: nothing runs). keep() when it has been renamed
// into place. At most 4 at once; not thread-safe (murmur writes files from one thread).
class SignalSafeTempFile {
public:
    explicit SignalSafeTempFile(const std::string& pattern);  // throws std::runtime_error
    ~SignalSafeTempFile();
    SignalSafeTempFile(const SignalSafeTempFile&) = delete;
    SignalSafeTempFile& operator=(const SignalSafeTempFile&) = delete;
    int create();  // mkstemp: the open descriptor, or -1 (errno set)
    const std::string& path() const { return path_; }
    void keep();  // renamed into place: a signal no longer removes it
    void setWriter(pid_t child);  // a child process writing it: a signal stops it before removing the file

private:
    int slot_ = 0;
    bool created_ = false;
    std::string path_;
};

// Throws std::runtime_error naming the path and the cause on failure (no file left behind).
// Through a symlink it replaces the file the link points to (the link stays); a replaced file
// keeps its permissions; a directory, device, FIFO or socket, or a read-only file, is refused.
void writeFileAtomic(const std::string& path, const std::string& contents);

// Why writeFileAtomic would refuse the existing file at path (following symlinks), if it would.
std::optional<std::string> targetProblem(const std::string& path);

// A finished temporary file given the permissions of the file it will replace at target, or,
// for a new file, the usual ones (0666 less the umask): mkstemp made it 0600.
void giveReplacementMode(const std::string& temp, const std::string& target);

// path with its symlinks followed to the file a write should replace.
std::string resolvedTarget(const std::string& path);

// Why path's file name is refused as an output's, if it is: a name that is only an extension
// (".csv", "dir/.png", "..h5": nothing but dots before its last dot) would be written as a hidden
// file. Every output murmur writes (its files and the Python module's) is checked with it.
std::optional<std::string> extensionOnlyNameProblem(const std::string& path);

// Checks up front that writeFileAtomic(path) can succeed: a file name that is more than an
// extension, an existing, writable directory, a name file systems hold, no refused target.
// Throws InputError naming flag and path if not.
void checkWritableTarget(const std::string& path, const std::string& flag);

// Whole file as a string; throws std::runtime_error naming the path on failure.
std::string readFile(const std::string& path);
// The same for a file of at most max_bytes, checked before it is read ("PATH: N bytes; WHAT holds
// at most MAX" otherwise): an input that is not what it claims is never read whole.
std::string readFile(const std::string& path, std::uintmax_t max_bytes, const std::string& what);
// The file open for reading, if it is a regular file (a device or FIFO could be read forever);
// throws std::runtime_error naming the path and the problem.
std::ifstream openForReading(const std::string& path);

}  // namespace murmur
