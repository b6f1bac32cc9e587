// The resume case shared by the CPU test (tests/no_gl/test_io.cpp) and the GPU test
// (tests/gl/test_hand_cases.cpp): 200 steps straight against 100 steps, the state file, 100 more.
#pragma once

#include "io/state_csv.hpp"
#include "model/simulation.hpp"
#include "model/spawn.hpp"

#include <cstddef>
#include <cstdint>

namespace murmur::test {

// Params for a resume test in `style`: every piece of state that outlives a step is in use
// (perch timers, a stored acceleration, wander and amortised steering phased by the step).
inline Params resumeParams(Style style) {
    Params p;
    p.style = style;
    p.boids = 300;
    p.world_size = 60.0f;
    p.perching = true;
    p.perch_ground = 20.0f;
    p.perch_min = 0.05f;
    p.perch_max = 0.4f;
    p.wind = {0.0f, -4.0f, 0.0f};
    p.species[0].fov_deg = 200.0f;
    return p;
}

struct ResumeOutcome {
    std::size_t differ = 0;   // boids whose position, velocity, perch time or stored acceleration differ
    std::size_t perched = 0;  // boids on the ground at the end (the case exercises perching)
    std::uint32_t step_read = 0;  // the step counter the state file gave back
};

// `straight` runs 200 steps; `first` runs 100, goes through formatStateCsv/parseStateCsv, and
// `resumed` takes it (with its step counter) for 100 more. Three fresh simulations of one backend.
inline ResumeOutcome resumeAgainstStraight(Simulation& straight, Simulation& first, Simulation& resumed, const Params& p) {
    straight.upload(spawn(p), p);
    straight.step(200);
    first.upload(spawn(p), p);
    first.step(100);
    ResumeOutcome o;
    const Flock mid = parseStateCsv(formatStateCsv(first.download(), first.stepCount()), p, "mem", &o.step_read);
    resumed.upload(mid, p);
    resumed.setStepCount(o.step_read);
    resumed.step(100);
    const Flock a = byId(straight.download()), b = byId(resumed.download());
    for (std::size_t i = 0; i < a.size(); ++i) {
        o.differ += !(a[i].p == b[i].p && a[i].v == b[i].v && a[i].perch == b[i].perch && a[i].steer == b[i].steer);
        o.perched += a[i].perch > 0.0f;
    }
    return o;
}

}  // namespace murmur::test
