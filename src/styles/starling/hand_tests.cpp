// Starling style by hand (docs/model.md, "Starling style"): centrality on a lattice, separation's
// fade, the rear blind angle and the social force's clip, cohesion by centrality squared, level
// flight at cruise speed and height lost in a banked turn. Each steps once on the CPU here and on
// the GPU in murmur_gpu_hand_tests. Tolerance: kVecTol = 1e-5 (m/s) unless a case says.
#include "styles/starling/cpu.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

using namespace murmur;
using namespace murmur::test;

namespace {
// The starling style with no social force, mass 1 kg, cruise speed 1 m/s (the tests' birds fly
// at it, so speed control adds nothing), the roost beyond the world: dims, 100 m, dt 0.1 s.
Params starlingParams(int dims) {
    Params p = quietParams();
    p.style = Style::Starling;
    p.dims = dims;
    p.species[0].max_speed = 20.0f;
    p.starling.mass = 1.0f;
    p.starling.cruise_speed = 1.0f;
    p.starling.core = 0.5f;
    p.species[0].separation = {1.0f, 0.0f};
    p.starling.roost_radius = 1000.0f;
    p.starling.altitude_weight = 0.0f;
    return p;
}
}  // namespace

TEST(Starling, CentralityIsZeroInsideALatticeAndGrowsTowardItsCorners) {
    // A 3 x 3 x 3 lattice of spacing 1 m, neighbours within 1.1 m: the centre sees six, evenly
    // (C = 0); a face's centre four in the face and one inward, C = 1/5; a corner three, along
    // the axes, C = |(1, 1, 1)| / 3 = 0.57735. Kept in steer.y (within 1e-6).
    Params p = starlingParams(3);
    p.species[0].cohesion = {1.1f, 0.0f};
    Flock lattice;
    for (int x = 0; x < 3; ++x)
        for (int y = 0; y < 3; ++y)
            for (int z = 0; z < 3; ++z)
                lattice.push_back(boid(std::uint32_t(lattice.size()), {50.0f + float(x), 50.0f + float(y), 50.0f + float(z)}, {1, 0, 0}));
    const Flock out = stepOnce(lattice, p);
    const auto at = [](int x, int y, int z) { return std::size_t(x * 9 + y * 3 + z); };
    EXPECT_NEAR(out[at(1, 1, 1)].steer.y, 0.0f, 1e-6f) << "the centre";
    EXPECT_NEAR(out[at(1, 1, 0)].steer.y, 0.2f, 1e-6f) << "a face's centre";
    EXPECT_NEAR(out[at(0, 0, 0)].steer.y, 0.57735027f, 1e-6f) << "a corner";
}

TEST(Starling, SeparationFadesFromTheCoreToItsRadius) {
    // 2D, separation radius 4 m, core 0.5 m, weight 1 N. A at (50, 50), B 2.25 m above it, both at
    // (1, 0) m/s: t = (2.25 - 0.5) / 3.5 = 0.5, fade 1 - t^2 (3 - 2t) = 0.5: A is pushed (0, -0.5)
    // N, dv = F / m dt = (0, -0.05); B the other way.
    Params p = starlingParams(2);
    p.species[0].separation = {4.0f, 1.0f};
    const Flock out = stepOnce({boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {50, 52.25f, 0}, {1, 0, 0})}, p);
    expectVec(out[0].v, {1.0f, -0.05f, 0.0f}, "A");
    expectVec(out[1].v, {1.0f, 0.05f, 0.0f}, "B");
}

TEST(Starling, TheRearBlindAngleHidesAlignmentAndTheSocialForceIsClipped) {
    // 2D, alignment weight 1 N within 5 m. A at (50, 50) flying (1, 0); B 2 m straight behind,
    // flying (0, 1). Blind angle 90 degrees: A does not see B (v unchanged). Blind angle 0: the
    // pull (0, 1) - (1, 0) has length sqrt 2 and is clipped to max_social 1 N: (-0.70711,
    // 0.70711) N, dv over 0.1 s = (-0.070711, 0.070711).
    Params p = starlingParams(2);
    p.species[0].alignment = {5.0f, 1.0f};
    const Flock flock = {boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {48, 50, 0}, {0, 1, 0})};
    p.starling.blind_angle = 90.0f;
    expectVec(stepOnce(flock, p)[0].v, {1.0f, 0.0f, 0.0f}, "blind behind");
    p.starling.blind_angle = 0.0f;
    expectVec(stepOnce(flock, p)[0].v, {1.0f - 0.070710678f, 0.070710678f, 0.0f}, "seen, clipped");
}

TEST(Starling, CohesionIsWeightedByCentralitySquared) {
    // 2D, cohesion weight 1 N within 5 m. A at (50, 50) flying (1, 0) sees B at (52, 50) and C at
    // (50, 52): C = |(1, 0) + (0, 1)| / 2 = 0.70711, C^2 = 0.5, toward their centre (0.70711,
    // 0.70711): 0.5 x that N, dv over 0.1 s = (0.035355, 0.035355).
    Params p = starlingParams(2);
    p.species[0].cohesion = {5.0f, 1.0f};
    const Flock out = stepOnce({boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {52, 50, 0}, {1, 0, 0}), boid(2, {50, 52, 0}, {1, 0, 0})}, p);
    expectVec(out[0].v, {1.035355339f, 0.035355339f, 0.0f}, "A");
}

TEST(Starling, ALoneBirdAtCruiseSpeedFliesLevel) {
    // 3D, mass 0.08 kg, cruise 10 m/s, flying (10, 0, 0) unbanked: lift m g along y cancels
    // gravity, thrust cancels drag, no social force: v unchanged (within 1e-5 m/s) and no bank.
    Params p = starlingParams(3);
    p.starling.mass = 0.08f;
    p.starling.cruise_speed = 10.0f;
    p.dt = 0.01f;
    const Flock out = stepOnce({boid(0, {50, 50, 50}, {10, 0, 0})}, p);
    expectVec(out[0].v, {10.0f, 0.0f, 0.0f}, "level");
    EXPECT_NEAR(out[0].steer.x, 0.0f, 1e-6f) << "bank";
}

TEST(Starling, ABankedTurnLosesHeight) {
    // The same bird banked 0.5 rad, rolling held (roll_rate 0): lift m g along (0, cos 0.5,
    // sin 0.5) with side axis f x y = (0, 0, 1): over 0.01 s, dv = g (0, cos 0.5 - 1, sin 0.5)
    // 0.01 = (0, -0.0120093, 0.0470317) m/s: it turns toward +z and sinks.
    Params p = starlingParams(3);
    p.starling.mass = 0.08f;
    p.starling.cruise_speed = 10.0f;
    p.starling.roll_rate = 0.0f;
    p.dt = 0.01f;
    Boid b = boid(0, {50, 50, 50}, {10, 0, 0});
    b.steer.x = 0.5f;
    const Flock out = stepOnce({b}, p);
    expectVec(out[0].v, {10.0f, -0.0120093f, 0.0470317f}, "banked");
    EXPECT_NEAR(out[0].steer.x, 0.5f, 1e-6f) << "bank held";
}

TEST(Starling, TheRoostTurnsBirdsHeadingOutOneWay) {
    // Roost 10 m, the birds 20 m out along +x at 10 m/s, mass 0.08, cruise 10 (speed control 0):
    // headed 10 degrees either side of straight out, both want the push toward +side, 0.01 x 10 x
    // (0.5 + 0.5 cos 10) = 0.0992404 N (kept in steer.z); headed 40 degrees off, with the roost
    // sin 40 > sin 20 toward -side, it wants -0.01 x 10 x (0.5 + 0.5 cos 40) = -0.0883022 N.
    // Apart by 20 m in height (no social force); tolerance 1e-6 N.
    Params p = starlingParams(3);
    p.starling.mass = 0.08f;
    p.starling.cruise_speed = 10.0f;
    p.starling.roost_radius = 10.0f;
    p.starling.roost_weight = 0.01f;
    p.dt = 0.01f;
    const float c10 = 9.8480775f, s10 = 1.7364818f, c40 = 7.6604444f, s40 = 6.4278761f;
    const Flock out = stepOnce({boid(0, {70, 30, 50}, {c10, 0, s10}), boid(1, {70, 50, 50}, {c10, 0, -s10}),
                                boid(2, {70, 70, 50}, {c40, 0, -s40})},
                               p);
    EXPECT_NEAR(out[0].steer.z, 0.0992404f, 1e-6f) << "10 degrees toward +z";
    EXPECT_NEAR(out[1].steer.z, 0.0992404f, 1e-6f) << "10 degrees toward -z";
    EXPECT_NEAR(out[2].steer.z, -0.0883022f, 1e-6f) << "40 degrees toward -z";
}
