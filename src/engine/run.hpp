// The one loop that steps a flock toward its outputs (HOOMD-blue's Simulation.run with triggered
// writers and analyzers): a Run holds what it steps (one flock, or the flocks of an ensemble at
// once) and a schedule of operations at chosen states, plans the stretches of steps between the
// states where something is due, and asks the step after a due sample to measure it (on the GPU
// that step's steer pass walks for it). The headless run, the library's step and its recording,
// Python's time series and sweeps are its clients.
#pragma once

#include "model/order_params.hpp"
#include "model/simulation.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace murmur::engine {

// What a run steps and samples: every flock's order parameters at once (one for a flock alone).
struct RunTarget {
    std::function<void(int steps)> step;
    std::function<std::vector<OrderParams>()> measure;       // of the current state, now
    std::function<SampleTicket()> measure_with_next_step;                  // of the current state, in the next step
    std::function<std::vector<OrderParams>(SampleTicket)> take_sample;   // a sample asked with a next step
    // May a sample be taken a stretch late, once the stretch after the one it was measured in is
    // issued (its figures come back from a GPU while that stretch runs)?
    bool samples_may_wait = false;
};
// A flock alone (Simulation::requestSample with the next step): its samples may wait.
RunTarget runTarget(Simulation& sim);

// The states an operation is due at: `from`, from + every, from + 2 every, ... and, with
// `last`, the state an advance ends at.
struct Trigger {
    std::uint64_t every = 1;
    std::uint64_t from = 0;
    bool last = false;
    bool dueAt(std::uint64_t state) const { return state >= from && (state - from) % every == 0; }
    std::uint64_t nextAfter(std::uint64_t state) const;  // the first due state after `state`
};

class Run {
public:
    // States are counted from `state` (the caller's count: a headless run's steps, the library's
    // step counter).
    explicit Run(RunTarget target, std::uint64_t state = 0) : target_(std::move(target)), state_(state) {}

    // An analyzer: the order parameters of each due state, handed to `take` in state order (the
    // last state of an advance measured at once, any other with the step after it), with the
    // bytes read back for it: those of the stretch it was measured in and of taking it.
    struct Sample {
        std::uint64_t state = 0;
        std::vector<OrderParams> flocks;  // one for a flock alone
        std::uint64_t bytes_read = 0;
    };
    using Sampler = std::function<void(const Sample& sample)>;
    void addSampler(Trigger when, Sampler take) { samplers_.push_back({when, std::move(take)}); }
    // A writer: called at each due state with the state as it is (a trajectory or video frame).
    using Writer = std::function<void(std::uint64_t state)>;
    void addWriter(Trigger when, Writer write) { writers_.push_back({when, std::move(write)}); }
    // Asked before each stretch and after it, before the operations: true stops the advance there
    // (every sample asked for is taken first).
    void setStop(std::function<bool()> stop) { stop_ = std::move(stop); }
    // The most steps a stretch may take, asked before each with the steps left (a fixed count,
    // or chunks sized by their time).
    void setStretchLimit(std::function<std::uint64_t(std::uint64_t left)> most) { most_ = std::move(most); }
    // Called after each stretch's operations (a progress report, a finite check); true stops.
    void setAfterStretch(std::function<bool()> after) { after_ = std::move(after); }

    // Steps `steps` on from the current state, doing the operations due at the state it starts
    // from (with `at_start`) and at each state a stretch ends at. Returns the steps taken: fewer
    // when stopped. An exception from the target or an operation passes through, the samples
    // asked of the target taken back first (not handed to the samplers).
    std::uint64_t advance(std::uint64_t steps, bool at_start = true);
    std::uint64_t state() const { return state_; }

private:
    struct Sampling {
        Trigger when;
        Sampler take;
    };
    struct Writing {
        Trigger when;
        Writer write;
    };
    struct Asked {
        std::uint64_t state = 0;
        std::vector<const Sampling*> by;  // the samplers due then
        SampleTicket ticket;              // the target's, for a sample asked with the next step
        std::uint64_t stretch_bytes = 0;  // read back in the stretch it was measured in
    };
    std::uint64_t advanceTo(std::uint64_t end, bool at_start);
    void dropAsked() noexcept;
    std::uint64_t nextStop(std::uint64_t end) const;
    void operationsAt(std::uint64_t end);
    void stepStretch(std::uint64_t steps);
    void take(const Asked& asked, std::vector<OrderParams> flocks, std::uint64_t bytes);
    void takeLanded();
    void takeAll();
    bool stopped();

    RunTarget target_;
    std::uint64_t state_;
    std::vector<Sampling> samplers_;
    std::vector<Writing> writers_;
    std::function<bool()> stop_;
    std::function<std::uint64_t(std::uint64_t)> most_;
    std::function<bool()> after_;
    std::optional<Asked> asked_;   // a sample of this state, measured with the next stretch's first step
    std::optional<Asked> landed_;  // one measured with the last stretch, taken once the next is issued
};

}  // namespace murmur::engine
