// ffmpeg through a pipe, or PNG frames; see recorder.hpp.
#include "render/recorder.hpp"

#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "render/screenshot.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace murmur::render {
namespace {

namespace fs = std::filesystem;

bool isVideo(const std::string& t) { return t.ends_with(".mp4") || t.ends_with(".mkv"); }
bool isFolder(const std::string& t) { return t.ends_with("/"); }

// A frame folder murmur made holds this file: its old frames may be replaced by a new run's.
constexpr const char* kFramesMarker = ".murmur-frames";

bool isFrameName(const std::string& name) {
    return name.size() == 16 && name.starts_with("frame_") && name.ends_with(".png") &&
           name.find_first_not_of("0123456789", 6) == 12;
}

// Why frames may not go into this existing folder: it holds files murmur did not write there.
std::optional<std::string> frameFolderProblem(const fs::path& dir) {
    if (!fs::is_directory(dir)) return std::nullopt;
    const bool ours = fs::exists(dir / kFramesMarker);
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (name == kFramesMarker || (ours && isFrameName(name))) continue;
        return "the folder holds " + (ours ? "files besides murmur's frames (" + name + ")" : "files murmur did not write (" + name + ")") +
               "; give an empty or new folder, or one an earlier --record DIR/ made";
    }
    return std::nullopt;
}

std::string frameName(const std::string& dir, std::uint64_t k) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06llu.png", static_cast<unsigned long long>(k));
    return (fs::path(dir) / name).string();
}

}  // namespace

std::string findOnPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    if (!path) return "";
    std::string dirs = path;
    for (std::size_t start = 0; start <= dirs.size();) {
        const std::size_t colon = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = dirs.substr(start, colon - start);
        const std::string candidate = (fs::path(dir.empty() ? "." : dir) / program).string();
        if (::access(candidate.c_str(), X_OK) == 0 && fs::is_regular_file(candidate)) return candidate;
        start = colon + 1;
    }
    return "";
}

void checkRecordTarget(const std::string& target) {
    if (isFolder(target)) {
        const fs::path dir(target);
        const fs::path parent = dir.parent_path().parent_path();
        if (fs::exists(dir.parent_path()) && !fs::is_directory(dir.parent_path()))
            throw InputError("--record " + target + ": exists and is not a folder");
        if (!fs::exists(dir.parent_path()) && !parent.empty() && !fs::is_directory(parent))
            throw InputError("--record " + target + ": folder " + parent.string() + " does not exist");
        if (const auto problem = frameFolderProblem(dir.parent_path())) throw InputError("--record " + target + ": " + *problem);
        return;
    }
    if (!isVideo(target))
        throw InputError("--record " + target + ": give FILE.mp4 or FILE.mkv (a video through ffmpeg) or DIR/ (PNG frames)");
    if (findOnPath("ffmpeg").empty())
        throw InputError("--record " + target + ": a video needs ffmpeg, which is not on PATH (apt-get install ffmpeg); "
                         "or record PNG frames with --record DIR/");
    checkWritableTarget(target, "--record");
}

std::string recordingName(const std::string& dir) {
    return freshName(dir, findOnPath("ffmpeg").empty() ? "-frames/" : ".mp4");
}

Recorder::Recorder(std::string target, int width, int height, int fps)
    : target_(std::move(target)), width_(width), height_(height), fps_(fps), png_sequence_(isFolder(target_)) {
    if (png_sequence_) {
        fs::create_directories(target_);
        if (const auto problem = frameFolderProblem(target_)) throw InputError("--record " + target_ + ": " + *problem);
        for (const fs::directory_entry& e : fs::directory_iterator(target_))  // an earlier run's frames: one run per folder
            if (isFrameName(e.path().filename().string())) fs::remove(e.path());
        writeFileAtomic((fs::path(target_) / kFramesMarker).string(), "PNG frames written by murmur --record; may be replaced by the next\n");
        return;
    }
    temp_file_.emplace(resolvedTarget(target_) + ".tmp.XXXXXX");  // removed on Ctrl-C or SIGTERM while recording
    const int fd = temp_file_->create();
    temp_ = temp_file_->path();
    if (fd < 0) throw std::runtime_error("--record " + target_ + ": cannot create " + temp_ + ": " + std::strerror(errno));
    ::close(fd);
    int fds[2];
    if (::pipe(fds) != 0) throw std::runtime_error(std::string("--record: no pipe: ") + std::strerror(errno));
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    const std::string rate = std::to_string(fps);
    const std::string format = target_.ends_with(".mkv") ? "matroska" : "mp4";
    // Raw RGBA in, flipped upright, padded to even sizes (H.264's 4:2:0 needs them), yuv420p out so
    // every player opens it.
    const char* argv[] = {"ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba",
                          "-s", size.c_str(), "-framerate", rate.c_str(), "-i", "-",
                          "-vf", "vflip,pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-preset", "veryfast",
                          "-crf", "20", "-pix_fmt", "yuv420p", "-r", rate.c_str(), "-f", format.c_str(), temp_.c_str(), nullptr};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    const std::string ffmpeg = findOnPath("ffmpeg");
    const int rc = posix_spawn(&encoder_, ffmpeg.c_str(), &actions, nullptr, const_cast<char* const*>(argv), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[0]);
    if (rc != 0) {
        ::close(fds[1]);  // temp_file_ removes the temporary as the throw unwinds
        encoder_ = -1;
        throw std::runtime_error("--record: cannot start ffmpeg: " + std::string(std::strerror(rc)));
    }
    pipe_fd_ = fds[1];
    temp_file_->setWriter(encoder_);  // a signal stops ffmpeg before removing its file
    ::fcntl(pipe_fd_, F_SETFD, FD_CLOEXEC);
    std::signal(SIGPIPE, SIG_IGN);  // an encoder that dies is an error to report, not a reason to die
}

Recorder::~Recorder() {
    if (!finished_) stopEncoder();  // then temp_file_ removes the unfinished video
}

void Recorder::abandon() {
    if (finished_) return;
    stopEncoder();
    if (!temp_.empty()) ::unlink(temp_.c_str());
    for (std::uint64_t k = 0; png_sequence_ && k < frames_; ++k) ::unlink(frameName(target_, k).c_str());
    if (png_sequence_) {
        std::error_code ec;
        fs::remove(fs::path(target_) / kFramesMarker, ec);
        fs::remove(fs::path(target_), ec);  // only if it is empty now: a folder the run made
    }
    finished_ = true;
}

void Recorder::stopEncoder() {
    if (pipe_fd_ >= 0) ::close(pipe_fd_);
    pipe_fd_ = -1;
    if (encoder_ > 0) {
        int status = 0;
        ::waitpid(encoder_, &status, 0);
        encoder_ = -1;
    }
}

void Recorder::add(const std::vector<std::uint8_t>& rgba) {
    if (rgba.size() != std::size_t(width_) * std::size_t(height_) * 4)
        throw std::runtime_error("--record: a frame of the wrong size");
    if (png_sequence_) {
        writePng(frameName(target_, frames_), width_, height_, rgba);
        ++frames_;
        return;
    }
    const std::uint8_t* data = rgba.data();
    std::size_t left = rgba.size();
    while (left > 0) {
        const ssize_t n = ::write(pipe_fd_, data, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error("--record " + target_ + ": ffmpeg stopped taking frames (" + std::strerror(errno) + ")");
        data += n;
        left -= std::size_t(n);
    }
    ++frames_;
}

std::string Recorder::finish() {
    if (png_sequence_) {
        finished_ = true;
        return target_ + " (" + std::to_string(frames_) + " PNG frames)";
    }
    const std::string summary = target_ + " (" + std::to_string(frames_) + " frames at " + std::to_string(fps_) + " fps)";
    ::close(pipe_fd_);
    pipe_fd_ = -1;
    int status = 0;
    ::waitpid(encoder_, &status, 0);
    encoder_ = -1;
    temp_file_->setWriter(0);  // it has ended: nothing to stop
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || frames_ == 0) {
        ::unlink(temp_.c_str());
        finished_ = true;
        throw std::runtime_error("--record " + target_ + ": ffmpeg failed" +
                                 (frames_ == 0 ? std::string(" (no frames were recorded)") : " (its message is above)") +
                                 "; no video written");
    }
    const std::string real = resolvedTarget(target_);
    if (std::rename(temp_.c_str(), real.c_str()) != 0) {
        ::unlink(temp_.c_str());
        finished_ = true;
        throw std::runtime_error("--record " + target_ + ": cannot rename the finished video: " + std::strerror(errno));
    }
    temp_file_->keep();
    const mode_t mask = ::umask(0);  // mkstemp made it 0600: give it a new file's usual mode
    ::umask(mask);
    ::chmod(real.c_str(), 0666 & ~mask);
    finished_ = true;
    return summary;
}

}  // namespace murmur::render
