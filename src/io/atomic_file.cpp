// Temporary file + fsync + rename; see atomic_file.hpp.
#include "io/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace murmur {

void writeFileAtomic(const std::string& path, const std::string& contents) {
    std::string tmpl = path + ".tmp.XXXXXX";
    const int fd = mkstemp(tmpl.data());
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
    const int saved = errno;
    ok = ok && ::fsync(fd) == 0;
    ok = (::close(fd) == 0) && ok;
    // mkstemp creates 0600; give the file the usual permissions (subject to umask).
    if (ok) {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::chmod(tmpl.c_str(), 0666 & ~mask);
    }
    if (!ok || std::rename(tmpl.c_str(), path.c_str()) != 0) {
        const int err = ok ? errno : saved;
        std::remove(tmpl.c_str());
        throw std::runtime_error("cannot write " + path + ": " + std::strerror(err ? err : EIO));
    }
}

std::string readFile(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) throw std::runtime_error("cannot read " + path + ": it is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace murmur
