// --sweep-plot; see sweep_plot.hpp.
#include "app/sweep_plot.hpp"

#include "io/atomic_file.hpp"
#include "render/recorder.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ostream>

extern char** environ;

namespace murmur {

const char* sweepPlotScript();  // generated from scripts/sweep_plot.py (cmake/EmbedText.cmake)

namespace {

// The file a plot replaces keeps its mode; a new one gets a new file's usual mode (mkstemp made
// the temporary 0600).
void giveModeOf(const std::string& temp, const std::string& target) {
    struct stat old {};
    if (::stat(target.c_str(), &old) == 0) {
        ::chmod(temp.c_str(), old.st_mode & 07777);
        return;
    }
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(temp.c_str(), 0666 & ~mask);
}

}  // namespace

int plotSweep(const std::string& csv, const std::string& png, const std::string& of, std::ostream& out, std::ostream& err) {
    // Drawn into a temporary file beside the real target (through a symlink, which stays), removed
    // on Ctrl-C or SIGTERM, renamed into place when the script succeeds.
    const std::string target = resolvedTarget(png);
    SignalSafeTempFile temp(target + ".tmp.XXXXXX");
    const int fd = temp.create();
    if (fd < 0) {
        err << "murmur: --sweep-plot " << png << ": cannot create a file beside it: " << std::strerror(errno) << "\n";
        return 1;
    }
    ::close(fd);
    // Debian's python3-matplotlib belongs to /usr/bin/python3; a python3 first on PATH (pyenv, a
    // virtual environment) may not have it. argv[0] is the full path: Python finds its prefix (and
    // so its packages) from argv[0], through PATH when it has no slash. "--" ends the options, so
    // a file named "-x.png" is a file.
    const std::string python = ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : render::findOnPath("python3");
    const char* argv[] = {python.c_str(), "-c", sweepPlotScript(), "--of", of.c_str(), "--direct", "--", csv.c_str(),
                          temp.path().c_str(), nullptr};
    pid_t pid = -1;
    posix_spawn_file_actions_t actions;  // the script's "wrote" line is ours to print; its errors go to stderr
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    const int rc = python.empty() ? ENOENT : posix_spawn(&pid, python.c_str(), &actions, nullptr, const_cast<char* const*>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc == 0) temp.setWriter(pid);  // a signal stops python before removing its file
    if (rc != 0) {  // `temp` removes its file on every return but the one after keep()
        err << "murmur: --sweep-plot: cannot run python3 (" << std::strerror(rc)
            << "); install python3-matplotlib, or plot later with scripts/sweep_plot.py " << csv << " " << png << "\n";
        return 1;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    temp.setWriter(0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        giveModeOf(temp.path(), target);
        if (std::rename(temp.path().c_str(), target.c_str()) == 0) {
            temp.keep();
            out << "wrote " << png << " (" << of << ")\n";
            return 0;
        }
    }
    err << "murmur: --sweep-plot: the plot was not written (" << csv << " holds the sweep)\n";
    return 1;
}

}  // namespace murmur
