// See cache_folder.hpp.
#include "gl/cache_folder.hpp"

#include <cerrno>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

namespace murmur::gl {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kKeyBytes = 32;

std::string errnoText(int err) { return std::strerror(err); }

std::string octal(mode_t mode) {
    char text[8];
    std::snprintf(text, sizeof text, "%04o", unsigned(mode & 07777));
    return text;
}

// Closes a descriptor on leaving.
struct Fd {
    int fd;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// Reads exactly n bytes; false on a short read or an error.
bool readAll(int fd, std::string& out, std::size_t n) {
    out.resize(n);
    for (std::size_t got = 0; got < n;) {
        const ssize_t r = ::read(fd, out.data() + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        got += std::size_t(r);
    }
    return true;
}

bool writeAll(int fd, const char* data, std::size_t n) {
    for (std::size_t put = 0; put < n;) {
        const ssize_t w = ::write(fd, data + put, n - put);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        put += std::size_t(w);
    }
    return true;
}

std::string randomBytes(std::size_t n) {
    std::string out(n, '\0');
    for (std::size_t got = 0; got < n;) {
        const ssize_t r = ::getrandom(out.data() + got, n - got, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return {};
        got += std::size_t(r);
    }
    return out;
}

// A temporary name beside file, unique to this process and thread.
fs::path temporaryBeside(const fs::path& file) {
    fs::path tmp = file;
    tmp += ".tmp" + std::to_string(::getpid()) + "." + std::to_string(std::hash<std::thread::id>{}(std::this_thread::get_id()));
    return tmp;
}

// Why the key file at fd is not to be trusted, or nullopt.
std::optional<std::string> keyFileProblem(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return errnoText(errno);
    if (!S_ISREG(st.st_mode)) return std::string("not a regular file");
    if (st.st_uid != ::geteuid()) return "owned by user id " + std::to_string(st.st_uid) + ", not yours";
    if (st.st_mode & 077) return "readable or writable by others (mode " + octal(st.st_mode) + ", 0600 expected)";
    if (std::size_t(st.st_size) != kKeyBytes) return "not " + std::to_string(kKeyBytes) + " bytes long";
    return std::nullopt;
}

}  // namespace

std::optional<std::string> privateFolderProblem(const fs::path& dir) {
    std::error_code ec;
    if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
    if (::mkdir(dir.c_str(), 0700) == 0) ::chmod(dir.c_str(), 0700);  // whatever the umask
    else if (errno != EEXIST) return "cannot make " + dir.string() + ": " + errnoText(errno);
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0) return "cannot read " + dir.string() + ": " + errnoText(errno);
    if (!S_ISDIR(st.st_mode)) return dir.string() + " is not a folder" + (S_ISLNK(st.st_mode) ? " (a link)" : "");
    if (st.st_uid != ::geteuid())
        return dir.string() + " is owned by user id " + std::to_string(st.st_uid) + ", not by you";
    if (st.st_mode & 022)
        return dir.string() + " may be written by others (mode " + octal(st.st_mode) + "; chmod 700 it)";
    return std::nullopt;
}

CacheKey cacheKey(const fs::path& dir) {
    const fs::path file = dir / "key";
    Fd fd{::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
    if (fd.fd < 0 && errno == ENOENT) {
        const std::string key = randomBytes(kKeyBytes);
        if (key.empty()) return {{}, "no random bytes for a new key: " + errnoText(errno)};
        const fs::path tmp = temporaryBeside(file);
        Fd out{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)};
        if (out.fd < 0) return {{}, "cannot write " + tmp.string() + ": " + errnoText(errno)};
        const bool written = writeAll(out.fd, key.data(), key.size()) && ::fsync(out.fd) == 0;
        const bool linked = written && (::link(tmp.c_str(), file.c_str()) == 0 || errno == EEXIST);  // one key wins a race
        const int err = errno;
        ::unlink(tmp.c_str());
        if (!linked) return {{}, "cannot write " + file.string() + ": " + errnoText(err)};
        fd.fd = ::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    }
    if (fd.fd < 0) return {{}, "cannot read " + file.string() + ": " + errnoText(errno)};
    if (const auto problem = keyFileProblem(fd.fd)) return {{}, file.string() + " is " + *problem};
    CacheKey k;
    if (!readAll(fd.fd, k.bytes, kKeyBytes)) return {{}, "cannot read " + file.string()};
    return k;
}

EntryRead readEntry(const fs::path& file, std::uintmax_t max_bytes) {
    Fd fd{::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)};
    if (fd.fd < 0 && errno == ENOENT) return {};
    if (fd.fd < 0 && errno == ELOOP) return {EntryRead::Bad, {}, "a link, not a file"};
    if (fd.fd < 0) return {EntryRead::Bad, {}, "cannot be read (" + errnoText(errno) + ")"};
    struct stat st {};
    if (::fstat(fd.fd, &st) != 0) return {EntryRead::Bad, {}, "cannot be read (" + errnoText(errno) + ")"};
    if (!S_ISREG(st.st_mode)) return {EntryRead::Bad, {}, S_ISDIR(st.st_mode) ? "a folder, not a file" : "not a regular file"};
    if (std::uintmax_t(st.st_size) > max_bytes)
        return {EntryRead::Bad, {}, "larger than an entry can be (" + std::to_string(max_bytes >> 20) + " MiB)"};
    EntryRead e{EntryRead::Ok, {}, {}};
    if (!readAll(fd.fd, e.bytes, std::size_t(st.st_size))) return {EntryRead::Bad, {}, "cannot be read whole"};
    return e;
}

void removeEntry(const fs::path& file) {
    std::error_code ec;
    fs::remove_all(file, ec);  // a link is removed, not followed
}

std::optional<std::string> writeEntry(const fs::path& file, const std::string& bytes) {
    const fs::path tmp = temporaryBeside(file);
    Fd out{::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600)};
    if (out.fd < 0) return "cannot write " + tmp.string() + ": " + errnoText(errno);
    if (!writeAll(out.fd, bytes.data(), bytes.size())) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return "cannot write " + tmp.string() + ": " + errnoText(err);
    }
    if (::rename(tmp.c_str(), file.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        return "cannot rename into " + file.string() + ": " + errnoText(err);
    }
    return std::nullopt;
}

}  // namespace murmur::gl
