// The step's clocks: GPU timer queries per pass (count, scan, scatter, steer) when enabled, and a
// step profiled pass by pass on the CPU's clock when asked for (glFinish after each pass: right on
// any driver, at the cost of stalling that one step).
#pragma once

#include "gl/query.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace murmur::gpu {

class PassClock {
public:
    static constexpr int kPasses = 4;  // 0 count, 1 scan, 2 scatter, 3 steer
    void enableTiming(bool on);
    const gl::PassTimer* timer() const { return timer_.get(); }
    gl::PassTimer* timer() { return timer_.get(); }
    void profileNext() { profile_next_ = true; }
    bool profileAsked() const { return profile_next_; }
    // A step begins: a profiled one (asked for) first waits for the GPU; true if this one is.
    bool beginStep();
    void done(int pass);  // after pass `pass`: the timer's mark and the profile's
    void endStep();       // the timer's frame closes
    void abandon();       // a step left unfinished (interrupted): no profile, the frame closed
    // The last profiled step's milliseconds per pass; empty before.
    const std::vector<double>& profiledMs() const { return profiled_ms_; }
    std::vector<std::pair<std::string, double>> profiledPasses() const;

private:
    std::unique_ptr<gl::PassTimer> timer_;
    bool profile_next_ = false, profiling_ = false;
    std::chrono::steady_clock::time_point since_;
    std::vector<double> profiled_ms_, profiling_ms_;
};

}  // namespace murmur::gpu
