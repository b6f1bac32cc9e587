// The run loop; see run.hpp.
#include "engine/run.hpp"

#include "gl/buffer.hpp"

#include <algorithm>
#include <climits>

namespace murmur::engine {

std::uint64_t Trigger::nextAfter(std::uint64_t state) const {
    if (state < from) return from;
    return from + ((state - from) / every + 1) * every;
}

RunTarget runTarget(Simulation& sim) {
    return {[&sim](int steps) { sim.step(steps); }, [&sim] { return std::vector<OrderParams>{sim.measure()}; },
            [&sim] { return sim.requestSample(SampleWhen::WithNextStep); },
            [&sim](SampleTicket ticket) { return std::vector<OrderParams>{sim.takeSample(ticket)}; }, true};
}

std::uint64_t Run::advance(std::uint64_t steps, bool at_start) {
    try {
        return advanceTo(state_ + steps, at_start);
    } catch (...) {
        dropAsked();
        throw;
    }
}

// A sample asked of the target is taken from it even when the advance ends by an exception (a
// non-finite flock, a stop inside a step, a writer's failure), so that none is left waiting in
// it; the samplers are not called.
void Run::dropAsked() noexcept {
    for (std::optional<Asked>* pending : {&landed_, &asked_}) {
        if (!*pending) continue;
        const SampleTicket ticket = (*pending)->ticket;
        pending->reset();
        try {
            (void)target_.take_sample(ticket);
        } catch (...) {  // the exception on its way out says what went wrong
        }
    }
}

std::uint64_t Run::advanceTo(std::uint64_t end, bool at_start) {
    const std::uint64_t begin = state_;
    if (at_start) operationsAt(end);
    while (state_ < end) {
        if (stopped()) return state_ - begin;
        std::uint64_t next = nextStop(end);
        if (most_) next = std::min(next, state_ + std::max<std::uint64_t>(1, most_(end - state_)));
        stepStretch(next - state_);
        if (stopped()) return state_ - begin;
        operationsAt(end);
        if (after_ && after_()) {
            takeAll();
            return state_ - begin;
        }
    }
    takeAll();  // a sample of the last stretch's start, when the last state has none
    return end - begin;
}

// The next state where an operation is due, the advance's end, or as far as one step() call goes.
std::uint64_t Run::nextStop(std::uint64_t end) const {
    std::uint64_t next = std::min(end, state_ + std::uint64_t(INT_MAX));
    for (const Sampling& s : samplers_) next = std::min(next, s.when.nextAfter(state_));
    for (const Writing& w : writers_) next = std::min(next, w.when.nextAfter(state_));
    return next;
}

// The samplers due at this state (measured now at the advance's end, else with the next step),
// then the writers, in the order they were added.
void Run::operationsAt(std::uint64_t end) {
    const auto due = [&](const Trigger& t) { return t.dueAt(state_) || (t.last && state_ == end); };
    Asked asked;
    asked.state = state_;
    for (const Sampling& s : samplers_)
        if (due(s.when)) asked.by.push_back(&s);
    if (!asked.by.empty()) {
        if (state_ < end) {
            asked.ticket = target_.measure_with_next_step();
            asked_ = std::move(asked);
        } else {
            takeLanded();
            const std::uint64_t before = gl::bytesReadBack();
            std::vector<OrderParams> flocks = target_.measure();
            take(asked, std::move(flocks), gl::bytesReadBack() - before);
        }
    }
    for (const Writing& w : writers_)
        if (due(w.when)) w.write(state_);
}

// A stretch of steps; the sample measured in the last one taken now, and one measured in this
// one now too unless it may wait for the next stretch.
void Run::stepStretch(std::uint64_t steps) {
    const std::uint64_t before = gl::bytesReadBack();
    target_.step(int(steps));
    state_ += steps;
    const std::uint64_t stepped = gl::bytesReadBack() - before;
    takeLanded();
    if (asked_) {
        asked_->stretch_bytes = stepped;
        landed_ = std::move(asked_);
        asked_.reset();
        if (!target_.samples_may_wait) takeLanded();
    }
}

void Run::take(const Asked& asked, std::vector<OrderParams> flocks, std::uint64_t bytes) {
    const Sample sample{asked.state, std::move(flocks), asked.stretch_bytes + bytes};
    for (const Sampling* s : asked.by) s->take(sample);
}

void Run::takeLanded() {
    if (!landed_) return;
    const Asked landed = std::move(*landed_);
    landed_.reset();
    const std::uint64_t before = gl::bytesReadBack();
    std::vector<OrderParams> flocks = target_.take_sample(landed.ticket);
    take(landed, std::move(flocks), gl::bytesReadBack() - before);
}

// Every sample asked for, now: one measured in the last stretch, and one asked of the current
// state with a next step that will not come (a stop), measured as the target does then.
void Run::takeAll() {
    takeLanded();
    if (asked_) {
        landed_ = std::move(asked_);
        asked_.reset();
    }
    takeLanded();
}

bool Run::stopped() {
    if (!stop_ || !stop_()) return false;
    takeAll();
    return true;
}

}  // namespace murmur::engine
