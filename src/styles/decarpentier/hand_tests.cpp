// Decarpentier style by hand (docs/model.md, "Decarpentier style"): which three neighbours count,
// the avoid / preferred-distance / velocity-match terms, the per-axis clamps, speed smoothing and
// diving. quietParams(): 2D, 100 units, wrap, dt 0.1, speeds [0, 10]. Tolerance kVecTol = 1e-5.
#include "styles/decarpentier/cpu.hpp"
#include "model/rng.hpp"
#include "model/spawn.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

using namespace murmur;
using namespace murmur::test;

namespace {
// Decarpentier with unit weights, preferred distance 1, no level-flight damping, smoothing 0.5,
// dive 2.5 /s, neighbours within 10 units.
Params dcParams() {
    Params p = quietParams();
    p.style = Style::Decarpentier;
    p.species[0].separation = {10.0f, 1.0f};  // avoid weight (and the look radius)
    p.species[0].alignment = {10.0f, 1.0f};   // velocity-match weight
    p.species[0].cohesion = {10.0f, 1.0f};    // preferred-distance weight
    p.species[0].dc.preferred_distance = 1.0f;
    p.dc.horizontal = 0.0f;
    p.species[0].dc.smoothing = 0.5f;
    p.dc.dive = 2.5f;
    return p;
}
}  // namespace

TEST(Decarpentier, ThreeNeighboursAreTheTwoNearestAndTheNearestBeyondTheFarFactor) {
    Params p = dcParams();
    p.dc.far_factor = 3.0f;
    const RuleContext ctx(p);
    // Self at (50, 50); the others at distances 4 (id 9), 2 (id 3), 1 (id 5), 2.5 (id 7), 4 (id 8).
    const Boid self = boid(0, {50, 50, 0});
    const Flock others = {boid(9, {54, 50, 0}), boid(3, {50, 52, 0}), boid(5, {49, 50, 0}), boid(7, {50, 47.5f, 0}),
                          boid(8, {50, 46, 0})};
    ThreeNeighbours t;
    auto d2Of = [&](const Boid& o) { return glm::dot(o.p - self.p, o.p - self.p); };
    for (std::uint32_t j = 0; j < others.size(); ++j) t.offerFirst(ctx, self, others[j], d2Of(others[j]), j);
    for (std::uint32_t j = 0; j < others.size(); ++j) t.offerSecond(ctx, self, others[j], d2Of(others[j]), j);
    t.collect(ctx, others, self);
    ASSERT_EQ(t.n, 3u);
    expectVec(t.offset[0], {-1, 0, 0}, "distance 1 (id 5)");
    expectVec(t.offset[1], {0, 2, 0}, "distance 2 (id 3)");
    expectVec(t.offset[2], {0, -4, 0}, "beyond 3 x 1: distance 4, the tie between ids 8 and 9 to id 8");
    ThreeNeighbours lone;
    const Flock one = {boid(1, {52, 50, 0})};
    lone.offerFirst(ctx, self, one[0], 4, 0);
    lone.offerSecond(ctx, self, one[0], 4, 0);
    lone.collect(ctx, one, self);
    EXPECT_EQ(lone.n, 1u);
}

TEST(Decarpentier, PreferredDistanceAndAvoidBalanceAlongTheHeading) {
    // A at (50,50) v (2,0); B (same species) 4 ahead, same velocity: dir (1,0), d 4.
    // avoid -dir/d = (-0.25,0); preferred dir*(1 - 1/4) = (0.75,0); match 0 -> a = (0.5, 0),
    // all forward: v1 = (2.05, 0); speed 2.05 mixed half with 2 -> 2.025.
    const Flock out = stepOnce({boid(0, {50, 50, 0}, {2, 0, 0}), boid(1, {54, 50, 0}, {2, 0, 0})}, dcParams());
    expectVec(out[0].v, {2.025f, 0, 0}, "A");
}

TEST(Decarpentier, SidewaysTermsTurnWithinTheirClampAndDivingSpeedsUp) {
    Params p = dcParams();
    // B 4 to the left of A (which heads +x): a = (0, 0.5) is all sideways: v1 = (2, 0.05), speed
    // 2.000625, mixed half with 2 = 2.0003125, times gravity's 1 - 2.5 * dir.y (0.0249922) * 0.1
    // = 1.9878144: v = (1.9871935, 0.0496798).
    Flock out = stepOnce({boid(0, {50, 50, 0}, {2, 0, 0}), boid(1, {50, 54, 0}, {2, 0, 0})}, p);
    expectVec(out[0].v, {1.9871935f, 0.0496798f, 0}, "turning");
    // B 1 to the left: avoid (0,-1), preferred 0: sideways -1 clamped to accel_side 0.1.
    p.species[0].dc.accel_side = 0.1f;
    p.dc.dive = 0.0f;
    p.species[0].dc.smoothing = 0.0f;
    out = stepOnce({boid(0, {50, 50, 0}, {2, 0, 0}), boid(1, {50, 51, 0}, {2, 0, 0})}, p);
    expectVec(out[0].v, {2, -0.01f, 0}, "clamped turn");
    // Diving alone: heading straight down at 2, no neighbours: speed 2 x (1 + 2.5 x 1 x 0.1) = 2.5;
    // climbing 2 x (1 - 0.25) = 1.5: gravity scales the speed.
    p.dc.dive = 2.5f;
    out = stepOnce({boid(0, {50, 50, 0}, {0, -2, 0})}, p);
    expectVec(out[0].v, {0, -2.5f, 0}, "diving");
    out = stepOnce({boid(0, {50, 50, 0}, {0, 2, 0})}, p);
    expectVec(out[0].v, {0, 1.5f, 0}, "climbing");
}

TEST(Decarpentier, LevelFlightAndHeightPullVertically) {
    Params p = dcParams();
    p.dc.dive = 0.0f;
    p.species[0].dc.smoothing = 0.0f;
    p.dc.horizontal = 2.0f;
    p.dc.height = 60.0f;
    p.dc.height_weight = 0.5f;
    // Heading +x with v.y = 0 at y = 50: a.y = -2*0 + 0.5*(60-50) = 5 sideways (up in 2D):
    // within accel_side 20: v1 = (2, 0.5); smoothing 0: v = v1.
    const Flock out = stepOnce({boid(0, {50, 50, 0}, {2, 0, 0})}, p);
    expectVec(out[0].v, {2, 0.5f, 0}, "pulled up");
}

TEST(Decarpentier, SteeringIsAmortisedAtItsRateWithEachBoidOnItsOwnPhase) {
    Params p;
    p.style = Style::Decarpentier;
    p.dt = 1.0f / 30.0f;
    p.dc.steer_hz = 10.0f;
    EXPECT_EQ(p.stepsPerSteer(), 3u);  // 10 Hz at 30 steps/s
    p.dc.steer_hz = 0.0f;
    EXPECT_EQ(p.stepsPerSteer(), 1u);
    p.dc.steer_hz = 10.0f;
    // Every boid steers on the first step, then once every 3 steps; phases spread over 0..2.
    std::uint32_t per_phase[3] = {0, 0, 0};
    for (std::uint32_t id = 0; id < 300; ++id) {
        EXPECT_TRUE(steersAt(id, 0, 3));
        int count = 0;
        for (std::uint32_t t = 1; t <= 30; ++t) count += steersAt(id, t, 3);
        EXPECT_EQ(count, 10) << id;
        ++per_phase[steerPhase(id, 3)];
    }
    for (std::uint32_t n : per_phase) EXPECT_GT(n, 70u);
    // In a run, a boid's stored steering changes only on its steering steps.
    p.boids = 400;
    p.world_size = 40.0f;
    CpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step();
    Flock before = sim.download();
    sim.step();  // step index 1
    const Flock after = sim.download();
    std::size_t kept = 0, changed = 0;
    for (std::size_t i = 0; i < after.size(); ++i) {
        ASSERT_EQ(after[i].id, before[i].id);
        if (steersAt(after[i].id, 1, 3)) changed += after[i].steer != before[i].steer;
        else {
            EXPECT_EQ(after[i].steer, before[i].steer) << "boid " << after[i].id << " steered off its phase";
            ++kept;
        }
    }
    EXPECT_GT(kept, 200u);
    EXPECT_GT(changed, 50u);
}
