// Temporary file + fsync + rename; see atomic_file.hpp.
#include "io/atomic_file.hpp"

#include "io/input_error.hpp"
#include "model/param_table.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace murmur {
namespace {

// The temporary files being written, removed by SIGINT or SIGTERM before the process goes on to
// end as it would have (a handler found is run after). A few fixed slots, so the handler touches
// only static memory: an atomic write and a recording can be under way at once.
constexpr int kSlots = 4;
char g_temp_paths[kSlots][4096];
volatile std::sig_atomic_t g_temp_armed[kSlots] = {};
volatile pid_t g_temp_writer[kSlots] = {};  // a child writing the file (ffmpeg, python): stopped first
bool g_slot_used[kSlots] = {};
int g_holds = 0;  // slots in use: the handlers are installed while it is above 0
struct sigaction g_old_int {}, g_old_term {};

extern "C" void removeTempOnSignal(int sig) {
    for (int k = 0; k < kSlots; ++k)
        if (g_temp_armed[k]) {
            if (g_temp_writer[k] > 0) ::kill(g_temp_writer[k], SIGKILL);  // else it would make the file again
            ::unlink(g_temp_paths[k]);
        }
    ::sigaction(sig, sig == SIGINT ? &g_old_int : &g_old_term, nullptr);
    ::raise(sig);
}

}  // namespace

SignalSafeTempFile::SignalSafeTempFile(const std::string& pattern) {
    if (pattern.size() >= sizeof g_temp_paths[0]) throw std::runtime_error("cannot write " + pattern + ": the path is too long");
    while (slot_ < kSlots && g_slot_used[slot_]) ++slot_;
    if (slot_ == kSlots) throw std::runtime_error("cannot write " + pattern + ": too many files being written at once");
    g_slot_used[slot_] = true;
    std::snprintf(g_temp_paths[slot_], sizeof g_temp_paths[slot_], "%s", pattern.c_str());
    if (g_holds++ == 0) {  // a signal the process was started ignoring (nohup, a background job) stays ignored
        struct sigaction sa {};
        sa.sa_handler = removeTempOnSignal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGINT, nullptr, &g_old_int);
        ::sigaction(SIGTERM, nullptr, &g_old_term);
        if (g_old_int.sa_handler != SIG_IGN) ::sigaction(SIGINT, &sa, nullptr);
        if (g_old_term.sa_handler != SIG_IGN) ::sigaction(SIGTERM, &sa, nullptr);
    }
    g_temp_armed[slot_] = 1;  // armed before the file exists: mkstemp writes the name here first
}

SignalSafeTempFile::~SignalSafeTempFile() {
    if (g_temp_armed[slot_] && created_) ::unlink(g_temp_paths[slot_]);  // made and never kept: not left behind
    g_temp_armed[slot_] = 0;
    g_temp_writer[slot_] = 0;
    g_slot_used[slot_] = false;
    if (--g_holds == 0) {
        ::sigaction(SIGINT, &g_old_int, nullptr);
        ::sigaction(SIGTERM, &g_old_term, nullptr);
    }
}

int SignalSafeTempFile::create() {
    const int fd = ::mkstemp(g_temp_paths[slot_]);
    path_ = g_temp_paths[slot_];
    created_ = fd >= 0;
    return fd;
}

void SignalSafeTempFile::setWriter(pid_t child) { g_temp_writer[slot_] = child; }

void SignalSafeTempFile::keep() {
    g_temp_armed[slot_] = 0;
    g_temp_writer[slot_] = 0;
}

std::optional<std::string> targetProblem(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;  // a new file (or a dangling link's target)
    if (S_ISDIR(st.st_mode)) return "is a directory";
    if (!S_ISREG(st.st_mode)) return "is not a regular file (a device, FIFO or socket): murmur writes regular files only";
    if ((st.st_mode & 0222) == 0) return "is read-only: make it writable or choose another file";
    return std::nullopt;
}

std::string resolvedTarget(const std::string& path) {
    std::string target = path;
    for (int hops = 0; hops < 40; ++hops) {  // follow symlinks to the real file, as a write through them would
        struct stat st {};
        if (::lstat(target.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return target;
        std::string link(std::size_t(st.st_size > 0 ? st.st_size : 4096), '\0');
        const ssize_t n = ::readlink(target.c_str(), link.data(), link.size());
        if (n < 0) return target;
        link.resize(std::size_t(n));
        if (link.empty() || link[0] != '/') {
            const std::size_t slash = target.rfind('/');
            if (slash != std::string::npos) link = target.substr(0, slash + 1) + link;
        }
        target = link;
    }
    return target;
}

void giveReplacementMode(const std::string& temp, const std::string& target) {
    struct stat old {};
    if (::stat(target.c_str(), &old) == 0) {
        ::chmod(temp.c_str(), old.st_mode & 07777);
    } else {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::chmod(temp.c_str(), 0666 & ~mask);
    }
}

void writeFileAtomic(const std::string& given, const std::string& contents) {
    // Write beside the real file (through symlinks) and rename over it, keeping its permissions;
    // refuse what a rename would destroy (a device, FIFO, socket) or what is read-only.
    const std::string path = resolvedTarget(given);
    if (const auto problem = targetProblem(path)) throw std::runtime_error("cannot write " + given + ": it " + *problem);
    SignalSafeTempFile temp(path + ".tmp.XXXXXX");
    const int fd = temp.create();
    const std::string tmpl = temp.path();
    if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    const char* data = contents.data();
    std::size_t left = contents.size();
    bool ok = true;
    while (left > 0 && ok) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0 && errno == EINTR) continue;
        ok = n > 0;
        if (ok) {
            data += n;
            left -= std::size_t(n);
        }
    }
    int saved = ok ? 0 : errno;  // the first failure's cause, taken where it happened
    if (ok && ::fsync(fd) != 0) ok = false, saved = errno;
    if (::close(fd) != 0 && ok) ok = false, saved = errno;
    if (ok) giveReplacementMode(tmpl, path);  // a replaced file keeps its permissions
    if (!ok || std::rename(tmpl.c_str(), path.c_str()) != 0) {
        const int err = ok ? errno : saved;  // `temp` removes the file as the throw unwinds
        throw std::runtime_error("cannot write " + given + ": " + std::strerror(err ? err : EIO));
    }
    temp.keep();
}

std::optional<std::string> extensionOnlyNameProblem(const std::string& path) {
    const std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    const std::size_t dot = name.rfind('.');
    if (name.empty() || name[0] != '.' || dot + 1 == name.size()) return std::nullopt;  // "." and ".." are folders
    if (name.find_first_not_of('.') < dot) return std::nullopt;                        // ".run.csv": a name before .csv
    const std::string ext = name.substr(dot);
    return "the file needs a name before " + echo(ext) + " (FILE" + echo(ext) + "), not a hidden file";
}

void checkWritableTarget(const std::string& path, const std::string& flag) {
    namespace fs = std::filesystem;
    if (const auto problem = extensionOnlyNameProblem(path)) throw InputError(flag + " " + echo(path) + ": " + *problem);
    const std::string real = resolvedTarget(path);  // a symlink's file is the one replaced
    fs::path dir = fs::path(real).parent_path();
    if (dir.empty()) dir = ".";
    // The temporary file beside it adds ".tmp.XXXXXX" (11 bytes) to the name.
    if (fs::path(real).filename().string().size() + 11 > 255)
        throw InputError(flag + " " + echo(path) + ": the file name is longer than 244 bytes (with the 11 of the temporary "
                         "file written beside it, more than file systems hold)");
    if (const auto problem = targetProblem(real)) throw InputError(flag + " " + path + ": it " + *problem);
    if (!fs::is_directory(dir)) throw InputError(flag + " " + path + ": directory " + dir.string() + " does not exist");
    if (::access(dir.c_str(), W_OK) != 0) throw InputError(flag + " " + path + ": directory " + dir.string() + " is not writable");
}

std::ifstream openForReading(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw std::runtime_error("cannot read " + path + ": it is a directory");
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))  // /dev/zero would read until memory ran out
        throw std::runtime_error("cannot read " + path + ": it is not a regular file (a device, FIFO or socket)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    return in;
}

std::string readFile(const std::string& path, std::uintmax_t max_bytes, const std::string& what) {
    std::error_code ec;
    if (const std::uintmax_t size = std::filesystem::file_size(path, ec); !ec && size > max_bytes)
        throw std::runtime_error(path + ": " + std::to_string(size) + " bytes; " + what + " holds at most " + std::to_string(max_bytes));
    return readFile(path);
}

std::string readFile(const std::string& path) {
    std::ifstream in = openForReading(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace murmur
