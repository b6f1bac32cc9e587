// The engine's run loop (engine::Run) against a target that logs what it is asked: the stretches
// it plans, when samples are asked and taken, writers, stops and the limits on a stretch.
#include "engine/run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

using namespace murmur;


namespace {

// A flock of one number: its state is the steps taken; a sample's polarization is the state it
// was asked of, its ticket that state + 1. Every call is logged ("step 3", "ask 0", "take 0", "now 10").
struct LoggedTarget {
    std::uint64_t state = 0;
    std::vector<std::uint64_t> asked;
    std::vector<std::string> log;
    engine::RunTarget target(bool may_wait) {
        return {[this](int n) {
                    log.push_back("step " + std::to_string(n));
                    state += std::uint64_t(n);
                },
                [this] {
                    log.push_back("now " + std::to_string(state));
                    return std::vector<OrderParams>{sample(state)};
                },
                [this] {
                    log.push_back("ask " + std::to_string(state));
                    asked.push_back(state);
                    return SampleTicket{state + 1};
                },
                [this](SampleTicket ticket) {  // the ticket's own sample, whatever the order
                    const auto of = std::find(asked.begin(), asked.end(), ticket.id - 1);
                    if (of == asked.end()) throw std::logic_error("no such ticket");
                    log.push_back("take " + std::to_string(*of));
                    const OrderParams o = sample(*of);
                    asked.erase(of);
                    return std::vector<OrderParams>{o};
                },
                may_wait};
    }
    static OrderParams sample(std::uint64_t state) {
        OrderParams o;
        o.polarization = float(state);
        return o;
    }
};

std::string joined(const std::vector<std::string>& parts) {
    std::string s;
    for (const std::string& p : parts) s += (s.empty() ? "" : ", ") + p;
    return s;
}

}  // namespace

// Stretches end at each due state; a sample is asked before the stretch after its state and, when
// it may wait, taken once the next stretch is issued; the last state is measured at once.
TEST(RunLoop, SamplesAreAskedWithTheNextStepAndTakenAStretchLate) {
    LoggedTarget t;
    engine::Run run(t.target(true));
    std::vector<std::uint64_t> rows;
    run.addSampler({4}, [&](const engine::Run::Sample& s) {
        EXPECT_EQ(s.flocks.front().polarization, float(s.state)) << "the sample of another state";
        rows.push_back(s.state);
    });
    EXPECT_EQ(run.advance(12), 12u);
    EXPECT_EQ(joined(t.log), "ask 0, step 4, ask 4, step 4, take 0, ask 8, step 4, take 4, take 8, now 12");
    EXPECT_EQ(rows, (std::vector<std::uint64_t>{0, 4, 8, 12}));
}

// Without waiting, each sample is taken right after the stretch it was measured in; `from` and
// `last` (a sweep's burn-in and its end) choose the states; writers follow samplers at a state.
TEST(RunLoop, TriggersFromAStateAndTheLastWithWritersAfterSamplers) {
    LoggedTarget t;
    engine::Run run(t.target(false));
    run.addSampler({5, 3, true}, [&](const engine::Run::Sample& s) { t.log.push_back("row " + std::to_string(s.state)); });
    run.addWriter({6}, [&](std::uint64_t state) { t.log.push_back("frame " + std::to_string(state)); });
    EXPECT_EQ(run.advance(10), 10u);
    EXPECT_EQ(joined(t.log), "frame 0, step 3, ask 3, step 3, take 3, row 3, frame 6, step 2, ask 8, step 2, take 8, row 8, now 10, row 10");
}

// A stretch limit (chunks, a stop check's period) splits stretches; the operations of the start
// state run only when asked (at_start); states count from where the run was made.
TEST(RunLoop, StretchLimitsAndTheStartState) {
    LoggedTarget t;
    engine::Run run(t.target(true), 100);
    run.addWriter({10, 95}, [&](std::uint64_t state) { t.log.push_back("frame " + std::to_string(state)); });
    run.setStretchLimit([](std::uint64_t left) { return std::min<std::uint64_t>(left, 4); });
    EXPECT_EQ(run.advance(12, false), 12u);
    EXPECT_EQ(joined(t.log), "step 4, step 1, frame 105, step 4, step 3");
    EXPECT_EQ(run.state(), 112u);
}

// A stop asked before a stretch or after it (before that state's operations) ends the advance
// there, every sample asked taken first; the after-stretch hook can stop it too.
TEST(RunLoop, AStopEndsTheAdvanceWithItsSamplesTaken) {
    LoggedTarget t;
    engine::Run run(t.target(true));
    std::vector<std::uint64_t> rows;
    run.addSampler({2}, [&](const engine::Run::Sample& s) { rows.push_back(s.state); });
    int stretches = 0;
    run.setStop([&] { return stretches == 3; });
    run.setAfterStretch([&] { return ++stretches == 5; });
    EXPECT_EQ(run.advance(20), 6u);
    EXPECT_EQ(rows, (std::vector<std::uint64_t>{0, 2, 4, 6}));
    EXPECT_EQ(joined(t.log), "ask 0, step 2, ask 2, step 2, take 0, ask 4, step 2, take 2, ask 6, take 4, take 6");
    LoggedTarget u;
    engine::Run hooked(u.target(true));
    int calls = 0;
    hooked.setAfterStretch([&] { return ++calls == 2; });
    hooked.setStretchLimit([](std::uint64_t) { return std::uint64_t(3); });
    EXPECT_EQ(hooked.advance(20), 6u);
}

TEST(RunLoop, NextDueStates) {
    const engine::Trigger every3{3, 7};
    EXPECT_EQ(every3.nextAfter(0), 7u);
    EXPECT_EQ(every3.nextAfter(7), 10u);
    EXPECT_EQ(every3.nextAfter(8), 10u);
    EXPECT_TRUE(every3.dueAt(13));
    EXPECT_FALSE(every3.dueAt(4));
    EXPECT_FALSE(every3.dueAt(14));
}

// An advance ended by an exception (a non-finite flock, a stop inside a step) takes back every
// sample it asked of the target, without handing it to a sampler: none is left queued in the
// target for the next advance to take as its own.
TEST(RunLoop, AnExceptionLeavesNoSampleAskedOfTheTarget) {
    LoggedTarget t;
    engine::RunTarget target = t.target(true);
    const auto step = target.step;
    target.step = [&, step](int n) {
        if (t.state >= 4) throw std::runtime_error("not finite");
        step(n);
    };
    engine::Run run(std::move(target));
    std::vector<std::uint64_t> rows;
    run.addSampler({2}, [&](const engine::Run::Sample& s) { rows.push_back(s.state); });
    EXPECT_THROW(run.advance(10), std::runtime_error);
    EXPECT_TRUE(t.asked.empty()) << "a sample left in the target's queue";
    EXPECT_EQ(rows, (std::vector<std::uint64_t>{0}));
    EXPECT_EQ(joined(t.log), "ask 0, step 2, ask 2, step 2, take 0, ask 4, take 2, take 4");
}
