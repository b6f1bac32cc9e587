// Recording the flock: frames piped to ffmpeg (FILE.mp4 or FILE.mkv, H.264 at a constant frame
// rate) or written as a numbered PNG sequence (DIR/). The video goes to a temporary file beside
// the target and is renamed over it only when ffmpeg ends well: a failed recording never leaves
// a damaged video under the user's name.
#pragma once

#include "io/atomic_file.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace murmur::render {

// The full path of `program` on PATH, or "" when it is not there.
std::string findOnPath(const std::string& program);

// Checks a --record target before any work: a known extension or a folder ending in '/', ffmpeg
// on PATH for a video, a writable place. Throws InputError naming the problem and what is valid.
void checkRecordTarget(const std::string& target);

// "murmur-YYYYMMDD-HHMMSS.mp4" in dir (or a "...-frames/" folder when ffmpeg is missing).
std::string recordingName(const std::string& dir = ".");

class Recorder {
public:
    Recorder(std::string target, int width, int height, int fps);
    ~Recorder();  // unfinished: stops ffmpeg and removes the temporary file
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    // One frame, RGBA8 bottom row first (GL order), width x height of the constructor.
    void add(const std::vector<std::uint8_t>& rgba_bottom_up);
    // Ends the recording; returns "FILE (N frames at F fps)". Throws std::runtime_error if ffmpeg
    // failed (nothing is left under the target's name then).
    std::string finish();
    // Ends the recording and keeps nothing of it: the video's temporary file, or the frames this
    // run wrote (a run that failed leaves no output).
    void abandon();

    std::uint64_t frames() const { return frames_; }
    const std::string& target() const { return target_; }
    int width() const { return width_; }
    int height() const { return height_; }

private:
    void stopEncoder();

    std::string target_, temp_;
    std::optional<SignalSafeTempFile> temp_file_;  // the video being encoded, until renamed
    int width_, height_, fps_;
    bool png_sequence_;
    std::uint64_t frames_ = 0;
    int pipe_fd_ = -1;
    pid_t encoder_ = -1;
    bool finished_ = false;
};

}  // namespace murmur::render
