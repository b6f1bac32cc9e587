// The step's clocks: GPU timer queries per pass (count, scan, scatter, steer) when enabled, and a
// step profiled pass by pass when asked for: on the CPU's clock with glFinish after each pass
// (right on any driver, at the cost of stalling that one step: software renderers, whose timer
// queries stamp when the queue is flushed rather than when the work runs), or by timer queries
// of its own, read when they are ready and never waited for (hardware GPUs: profileByQueries).
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
    // Profiled steps timed by timer queries (no stall; the figures a step or more late) instead
    // of glFinish after each pass.
    void profileByQueries(bool on);
    bool profilesByQueries() const { return bool(profile_timer_); }
    bool profileAsked() const { return profile_next_; }
    // A step begins: a profiled one (asked for) first waits for the GPU; true if this one is.
    bool beginStep();
    void done(int pass);  // after pass `pass`: the timer's mark and the profile's
    void endStep();       // the timer's frame closes
    void abandon();       // a step left unfinished (interrupted): no profile, the frame closed
    // The last profiled step's milliseconds per pass; empty before (by queries: the last whose
    // queries have landed, collected by this call or a step's start without waiting).
    const std::vector<double>& profiledMs() const {
        collectProfile();
        return profiled_ms_;
    }
    std::vector<std::pair<std::string, double>> profiledPasses() const;

private:
    void collectProfile() const;  // by queries: any profiled step's times that have landed

    std::unique_ptr<gl::PassTimer> timer_, profile_timer_;
    bool profile_next_ = false, profiling_ = false, profiling_by_queries_ = false;
    std::chrono::steady_clock::time_point since_;
    mutable std::vector<double> profiled_ms_;  // by queries: filled as they land, when asked
    std::vector<double> profiling_ms_;
};

}  // namespace murmur::gpu
