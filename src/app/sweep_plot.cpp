// --sweep-plot; see sweep_plot.hpp.
#include "app/sweep_plot.hpp"

#include "render/recorder.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ostream>

extern char** environ;

namespace murmur {

const char* sweepPlotScript();  // generated from scripts/sweep_plot.py (cmake/EmbedText.cmake)

int plotSweep(const std::string& csv, const std::string& png, const std::string& of, std::ostream& out, std::ostream& err) {
    // Debian's python3-matplotlib belongs to /usr/bin/python3; a python3 first on PATH (pyenv, a
    // virtual environment) may not have it. argv[0] is the full path: Python finds its prefix (and
    // so its packages) from argv[0], through PATH when it has no slash.
    const std::string python = ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3" : render::findOnPath("python3");
    const char* argv[] = {python.c_str(), "-c", sweepPlotScript(), csv.c_str(), png.c_str(), "--of", of.c_str(), nullptr};
    pid_t pid = -1;
    posix_spawn_file_actions_t actions;  // the script's "wrote" line is ours to print; its errors go to stderr
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    const int rc = python.empty() ? ENOENT : posix_spawn(&pid, python.c_str(), &actions, nullptr, const_cast<char* const*>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        err << "murmur: --sweep-plot: cannot run python3 (" << std::strerror(rc)
            << "); install python3-matplotlib, or plot later with scripts/sweep_plot.py " << csv << " " << png << "\n";
        return 1;
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        out << "wrote " << png << " (" << of << ")\n";
        return 0;
    }
    err << "murmur: --sweep-plot: the plot was not written (" << csv << " holds the sweep)\n";
    return 1;
}

}  // namespace murmur
