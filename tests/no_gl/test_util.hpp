// Small helpers shared by the tests without GL (tests/no_gl/): a parameter set with every rule switched off, boid
// construction, and the neighbour set of a boid by either search.
#pragma once

#include "cpu/cpu_simulation.hpp"
#include "cpu/flock_rules.hpp"
#include "model/boid.hpp"
#include "model/correlations.hpp"
#include "model/params.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

namespace murmur::test {

// 2D, wrap, 100 units, full field of view, no rule active, no wander, Reynolds' steering style: tests
// switch on what they test.
inline Params quietParams() {
    Params p;
    p.style = Style::Steering;
    p.wander = 0.0f;
    p.dims = 2;
    p.world_size = 100.0f;
    p.bounds = Bounds::Wrap;
    p.species[0].separation = {0.0f, 0.0f};
    p.species[0].alignment = {0.0f, 0.0f};
    p.species[0].cohesion = {0.0f, 0.0f};
    p.species[0].fov_deg = 360.0f;
    p.species[0].min_speed = 0.0f;
    p.species[0].max_speed = 10.0f;
    p.species[0].max_force = 100.0f;
    p.dt = 0.1f;
    return p;
}

inline Boid boid(std::uint32_t id, glm::vec3 p, glm::vec3 v = glm::vec3(0.0f)) {
    Boid b;
    b.id = id;
    b.p = p;
    b.v = v;
    return b;
}

inline bool finite(const Boid& b) {
    return std::isfinite(b.p.x) && std::isfinite(b.p.y) && std::isfinite(b.p.z) && std::isfinite(b.v.x) &&
           std::isfinite(b.v.y) && std::isfinite(b.v.z);
}

// The backend the hand-computed tests run on, chosen by the binary they are linked into (the
// tests are compiled once, tests/CMakeLists.txt's murmur_hand_tests): the CPU reference (brute
// force unless asked; no_gl/backend_cpu.cpp, murmur_cpu_tests), or the GPU pipeline
// (gl/backend_gpu.cpp, murmur_gpu_hand_tests, whose tests are named OnGpu.*): both backends
// against the same arithmetic. Null (a failure added) when the GPU has no GL context.
std::unique_ptr<Simulation> backendUnderTest(NeighbourSearch search = NeighbourSearch::BruteForce);

// `steps` steps of a flock on the backend under test; result by id.
inline Flock stepMany(const Flock& flock, const Params& p, int steps, NeighbourSearch search = NeighbourSearch::BruteForce) {
    const auto sim = backendUnderTest(search);
    if (!sim) return flock;
    sim->upload(flock, p);
    sim->step(steps);
    return byId(sim->download());
}

// The flock's pair correlations as the backend under test measures them (Simulation::pairSums):
// the CPU reference in double, or the GPU's pass in fixed point.
inline Correlations correlationsOn(const Flock& flock, const Params& p, std::uint32_t bins, double r_max) {
    const auto sim = backendUnderTest();
    if (!sim) return {};
    sim->upload(flock, p);
    return correlationsOf(sim->pairSums(p, bins, r_max), p, flock.size(), r_max);
}

// The flock's mean velocity, summed in double.
inline glm::vec3 meanVelocity(const Flock& f) {
    glm::dvec3 sum(0.0);
    for (const Boid& b : f) sum += glm::dvec3(b.v);
    return glm::vec3(sum / double(f.size()));
}

// One step (stepMany).
inline Flock stepOnce(const Flock& flock, const Params& p, NeighbourSearch search = NeighbourSearch::BruteForce) {
    return stepMany(flock, p, 1, search);
}

// Component-wise comparison within kVecTol = 1e-5 (units or units/s).
inline constexpr float kVecTol = 1e-5f;
inline void expectVec(glm::vec3 got, glm::vec3 want, const char* what, float tol = kVecTol) {
    EXPECT_NEAR(got.x, want.x, tol) << what;
    EXPECT_NEAR(got.y, want.y, tol) << what;
    EXPECT_NEAR(got.z, want.z, tol) << what;
}

}  // namespace murmur::test
