// Invariants of the model: 2D keeps z exactly 0; spawn is deterministic to the byte; degenerate
// states and parameters never give NaN or Inf.
#include "cpu/cpu_simulation.hpp"
#include "cpu/neighbour_rules.hpp"
#include "model/spawn.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <cstring>

using namespace murmur;
using namespace murmur::test;

namespace {
std::uint64_t fnv1a(const Flock& f) {
    std::uint64_t h = 1469598103934665603ull;
    for (const Boid& b : f) {
        unsigned char bytes[sizeof(float) * 6 + 8];
        const float vals[6] = {b.p.x, b.p.y, b.p.z, b.v.x, b.v.y, b.v.z};
        std::memcpy(bytes, vals, sizeof vals);
        std::memcpy(bytes + sizeof vals, &b.id, 4);
        std::memcpy(bytes + sizeof vals + 4, &b.species, 4);
        for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ull;
    }
    return h;
}
}  // namespace

TEST(Invariants, TwoDimensionsKeepZExactlyZero) {
    Params p;
    p.boids = 300;
    p.world_size = 50.0f;
    for (Style s : {Style::Steering, Style::Offset})
        for (Bounds b : {Bounds::Wrap, Bounds::Soft}) {
            p.style = s;
            p.bounds = b;
            CpuSimulation sim;
            sim.upload(spawn(p), p);
            sim.step(50);
            for (const Boid& boid : sim.download()) {
                ASSERT_EQ(boid.p.z, 0.0f);
                ASSERT_EQ(boid.v.z, 0.0f);
            }
        }
}

TEST(Invariants, SpawnIsDeterministicToTheByte) {
    Params p;
    p.boids = 1000;
    p.world_size = 200.0f;  // the golden values were taken in a 200-unit world
    // Golden values: the same bytes on every machine and compiler (only +,-,*,/,sqrt are used).
    EXPECT_EQ(fnv1a(spawn(p)), 0x54d0a2b05bedf4dbull);
    p.dims = 3;
    EXPECT_EQ(fnv1a(spawn(p)), 0xeb585fe24290e277ull);
    p.seed = 2;
    EXPECT_NE(fnv1a(spawn(p)), 0xeb585fe24290e277ull);
    // Spawned boids are inside the box at speeds within the range.
    for (const Boid& b : spawn(p)) {
        for (int k = 0; k < 3; ++k) {
            EXPECT_GE(b.p[k], 0.0f);
            EXPECT_LT(b.p[k], p.world_size);
        }
        const float s = glm::length(b.v);
        EXPECT_GE(s, p.species[0].min_speed * (1 - 1e-6f));
        EXPECT_LE(s, p.species[0].max_speed * (1 + 1e-6f));
    }
}

// spawn.heading turns each direction toward +x and keeps each speed (within 1e-5 relative): at 1
// every boid heads along +x; at 0.9 every heading is within 90 degrees of it and the mean heading
// close to it; positions are the unturned spawn's.
TEST(Invariants, SpawnHeadingTurnsTheDirectionsTowardPlusX) {
    Params p;
    p.boids = 500;
    p.dims = 3;
    const Flock plain = spawn(p);
    for (float h : {1.0f, 0.9f}) {
        p.spawn_heading = h;
        const Flock turned = spawn(p);
        glm::dvec3 mean(0.0);
        for (std::size_t i = 0; i < plain.size(); ++i) {
            EXPECT_EQ(turned[i].p, plain[i].p) << i;
            const float s = glm::length(turned[i].v);
            EXPECT_NEAR(s, glm::length(plain[i].v), 1e-5f * s) << i;
            if (h == 1.0f) {
                EXPECT_NEAR(turned[i].v.x, s, 1e-5f * s) << i;
            }
            EXPECT_GT(turned[i].v.x, 0.0f) << i;
            mean += glm::dvec3(turned[i].v / s);
        }
        EXPECT_GT(mean.x / double(plain.size()), 0.9) << h;
    }
}

// With the adaptive topological radius on, a spawned boid starts at the radius whose sphere holds
// n_c - 1 others at the spawn's density (the count the rule settles at), not at max_radius: in a
// spawn ball of radius r, R0 = r ((n_c - 1) / N)^(1/3) (within 1e-6 relative); in a wrapped box the
// mean count of others within R0 is within 0.5 of n_c - 1; capped at max_radius; 0 when off or
// when the style keeps its own state in the slot.
TEST(Invariants, SpawnStartsTheAdaptiveRadiusAtTheSpawnsDensity) {
    Params p;
    p.dims = 3;
    p.boids = 2000;
    p.world_size = 20.0f;
    p.topological = {6.5f, 100.0f, 0.05f};
    p.spawn_radius = 8.0f;
    const double ball = 8.0 * std::cbrt(5.5 / 2000.0);
    for (const Boid& b : spawn(p)) ASSERT_NEAR(b.steer.w, ball, 1e-6 * ball);
    p.spawn_radius = 0.0f;
    const Flock box = spawn(p);
    const float r0 = box[0].steer.w;
    EXPECT_NEAR(r0, std::cbrt(5.5 * 8000.0 / (2000.0 * 4.18879020478639)), 1e-5);
    const RuleContext ctx(p);
    double count = 0.0;
    for (const Boid& a : box)
        for (const Boid& b : box) {
            const glm::vec3 d = offsetBetween(ctx, a.p, b.p);
            if (b.id != a.id && glm::dot(d, d) < r0 * r0) count += 1.0;
        }
    EXPECT_NEAR(count / double(box.size()), 5.5, 0.5);
    p.topological.max_radius = 0.5f;
    EXPECT_EQ(spawn(p)[7].steer.w, 0.5f);
    p.topological.count = 0.0f;
    EXPECT_EQ(spawn(p)[7].steer.w, 0.0f);
    p.topological.count = 6.5f;
    p.style = Style::Decarpentier;
    EXPECT_EQ(spawn(p)[7].steer.w, 0.0f);
}

TEST(Invariants, DegenerateStatesStayFinite) {
    for (int dims : {2, 3})
        for (Style style : {Style::Steering, Style::Offset})
            for (Bounds bounds : {Bounds::Wrap, Bounds::Soft}) {
                Params p;
                p.dims = dims;
                p.style = style;
                p.bounds = bounds;
                p.world_size = 50.0f;
                p.species[0].min_speed = 0.0f;
                // All boids at one point, at rest: |d| = 0 everywhere.
                Flock f;
                for (std::uint32_t i = 0; i < 50; ++i) f.push_back(boid(i, {25, 25, dims == 3 ? 25.0f : 0.0f}));
                // A pair coincident and moving, and boids on the world's corner.
                f.push_back(boid(50, {10, 10, 0}, {1, 0, 0}));
                f.push_back(boid(51, {10, 10, 0}, {0, 1, 0}));
                f.push_back(boid(52, {0, 0, 0}, {-3, -3, 0}));
                for (float fov : {0.0f, 360.0f})
                    for (float r : {0.0f, 5.0f}) {
                        p.species[0].fov_deg = fov;
                        p.species[0].separation = {r, 1.0f};
                        p.species[0].alignment = {r, 1.0f};
                        p.species[0].cohesion = {r, 1.0f};
                        CpuSimulation sim;
                        sim.upload(f, p);
                        sim.step(30);
                        for (const Boid& b : sim.download())
                            ASSERT_TRUE(finite(b)) << "dims " << dims << " fov " << fov << " r " << r << " id " << b.id;
                    }
            }
}

TEST(Invariants, EmptyAndSingleFlocks) {
    Params p;
    CpuSimulation sim;
    sim.upload({}, p);
    sim.step(5);
    EXPECT_TRUE(sim.download().empty());
    sim.upload({boid(0, {5, 5, 0}, {1, 0, 0})}, p);
    sim.step(5);
    ASSERT_EQ(sim.download().size(), 1u);
    EXPECT_TRUE(finite(sim.download()[0]));
    EXPECT_EQ(sim.neighbourCounts(), std::vector<std::uint32_t>{0});
}

// A slow CPU step answers the window's Esc: the interrupt is asked every 1,024 boids, and once it
// says stop, the step ends there and later steps do nothing (the window then closes). Without
// an interrupt nothing changes.
TEST(CpuInterrupt, AStepStopsWhenTheInterruptSaysSo) {
    Params p;
    p.boids = 5000;
    CpuSimulation sim;
    sim.upload(spawn(p), p);
    int asked = 0;
    sim.setInterrupt([&] { return ++asked == 2; });
    sim.step(3);
    EXPECT_TRUE(sim.interrupted());
    EXPECT_EQ(asked, 2) << "asked every 1,024 boids until it said stop";
    sim.step();
    EXPECT_EQ(asked, 2) << "a step after the interrupt ran";
    CpuSimulation plain, checked;
    plain.upload(spawn(p), p);
    checked.upload(spawn(p), p);
    checked.setInterrupt([] { return false; });
    plain.step(2);
    checked.step(2);
    const Flock a = plain.download(), b = checked.download();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].p, b[i].p) << "an interrupt that never fires changed boid " << i;
}
