// GL query objects, and GPU timestamps per pass read back without stalling the step loop.
#pragma once

#include "gl/handle.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace murmur::gl {

class Query {
public:
    explicit Query(GLenum target);
    GLuint id() const { return handle_.id(); }

private:
    Handle<deleteQuery> handle_;
};

// Timestamps between named passes. mark(i) after pass i; results are read only once available
// (older frames), so no call here waits on the GPU unless finish() is asked to.
class PassTimer {
public:
    explicit PassTimer(std::vector<std::string> pass_names, int frames_in_flight = 4);

    void begin();          // timestamp before the first pass
    bool canBegin();       // begin() would not wait: the slot it reuses has been read (polls)
    void mark(int pass);   // timestamp after pass `pass`
    void end();            // closes the frame; collects any finished frame's times
    bool poll();           // collects any finished frame's times, waiting for none; true if one was
    void finish();         // waits for every frame in flight (end of run)
    // Mean milliseconds per pass over the frames collected since reset().
    std::vector<double> meanMs() const;
    // Milliseconds of every collected frame since reset(): [pass][frame].
    const std::vector<std::vector<double>>& samples() const { return samples_; }
    std::uint64_t framesCollected() const { return samples_.empty() ? 0 : samples_[0].size(); }
    const std::vector<std::string>& names() const { return names_; }
    void reset();

private:
    bool collect(int slot, bool wait);

    std::vector<std::string> names_;
    std::vector<std::vector<Query>> frames_;  // [slot][0..passes]
    std::vector<bool> pending_;
    int slot_ = 0;
    std::vector<std::vector<double>> samples_;
};

}  // namespace murmur::gl
