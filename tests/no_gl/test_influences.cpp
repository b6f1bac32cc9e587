// Hand-computed cases of the influences beyond the three rules (docs/model.md, "Influences"):
// wind, attractor, repeller, scatter, the neighbour cap, obstacles; and the obstacle invariant
// over many steps. quietParams(): 2D, 100 units, wrap, no rule active, dt 0.1, max_speed 10,
// max_force 100. Tolerance kVecTol = 1e-5 (units or units/s, test_util.hpp).
#include "cpu/cpu_simulation.hpp"
#include "cpu/neighbour_rules.hpp"
#include "io/input_error.hpp"
#include "io/preset_json.hpp"
#include "model/rng.hpp"
#include "model/spawn.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include <glm/geometric.hpp>

#include <cmath>

using namespace murmur;
using namespace murmur::test;


TEST(Influences, WindIsAnAccelerationInBothStyles) {
    Params p = quietParams();
    p.wind = {2.0f, -1.0f, 7.0f};  // z ignored in 2D
    // v' = (1,0) + (2,-1)*0.1 = (1.2, -0.1); p' = (50,50) + v'*0.1.
    Flock out = stepOnce({boid(0, {50, 50, 0}, {1, 0, 0})}, p);
    expectVec(out[0].v, {1.2f, -0.1f, 0}, "steering");
    expectVec(out[0].p, {50.12f, 49.99f, 0}, "steering position");
    p.style = Style::Offset;
    out = stepOnce({boid(0, {50, 50, 0}, {1, 0, 0})}, p);
    expectVec(out[0].v, {1.2f, -0.1f, 0}, "offset");
}

// The harmonic trap, by hand (2D, L 100: the world's centre (50, 50); dt 0.1): a = -k (p - c).
TEST(Influences, TheTrapPullsTowardItsCentreInEveryKindOfStyle) {
    Params p = quietParams();
    p.trap = {{10, -20, 0}, 2.0f};  // centre (60, 30)
    // A boid at rest at (63, 26): p - c = (3, -4), a = (-6, 8); v' = (-0.6, 0.8), p' = (62.94, 26.08).
    Flock out = stepOnce({boid(0, {63, 26, 0})}, p);
    expectVec(out[0].v, {-0.6f, 0.8f, 0}, "steering");
    expectVec(out[0].p, {62.94f, 26.08f, 0}, "steering position", 1e-4f);  // float tolerance 1e-4 at 60
    p.style = Style::Offset;  // an acceleration times dt, as the wind
    expectVec(stepOnce({boid(0, {63, 26, 0})}, p)[0].v, {-0.6f, 0.8f, 0}, "offset");
    // Constant speed (Vicsek, no noise, speed 1): heading +x, the trap's pull at (60, 35) is (0, -10):
    // (1, 0) + (0, -10) x 0.1 = (1, -1), at speed 1: (0.70710678, -0.70710678).
    p.style = Style::Vicsek;
    p.vicsek.noise = 0.0f;
    p.species[0].max_speed = 1.0f;
    expectVec(stepOnce({boid(0, {60, 35, 0}, {1, 0, 0})}, p)[0].v, {0.70710678f, -0.70710678f, 0}, "vicsek");
    // Couzin (no noise, any turn), alone: straight on, then turned by the trap the same way.
    p.style = Style::Couzin;
    p.couzin.noise = 0.0f;
    p.couzin.turn_rate = 1800.0f;
    expectVec(stepOnce({boid(0, {60, 35, 0}, {1, 0, 0})}, p)[0].v, {0.70710678f, -0.70710678f, 0}, "couzin");
    // 3D, in open sky: (50, 50, 50) + (0, 0, 5) is the centre; a boid 1 above it at rest:
    // a = (0, 0, -2), v' = (0, 0, -0.2).
    p = quietParams();
    p.dims = 3;
    p.bounds = Bounds::Open;
    p.trap = {{0, 0, 5}, 2.0f};
    expectVec(stepOnce({boid(0, {50, 50, 56})}, p)[0].v, {0, 0, -0.2f}, "3D");
}

TEST(Influences, AttractorSteersTowardItsPointAcrossTheWrap) {
    Params p = quietParams();
    p.attractor = {{5, 50, 0}, 0.5f, 0};
    // Boid at (95,50) at rest: the minimum image of the attractor is at +10 in x.
    // steer = setMag((10,0), 10) - 0 = (10,0); a = 0.5*(10,0) = (5,0); v' = (0.5, 0).
    Flock out = stepOnce({boid(0, {95, 50, 0})}, p);
    expectVec(out[0].v, {0.5f, 0, 0}, "steering");
    // Offset style (Parker's tend to place): v' = (10,0)*0.5 = (5,0).
    p.style = Style::Offset;
    out = stepOnce({boid(0, {95, 50, 0})}, p);
    expectVec(out[0].v, {5, 0, 0}, "offset");
}

TEST(Influences, RepellerActsOnlyWithinItsRadius) {
    Params p = quietParams();
    p.repeller = {{50, 50, 0}, 1.0f, 5.0f};
    // Inside (d = (3,0) from the boid at 47): flee along -d: steer = (-10,0), v' = (-1,0).
    Flock out = stepOnce({boid(0, {47, 50, 0}), boid(1, {40, 50, 0})}, p);
    expectVec(out[0].v, {-1, 0, 0}, "inside");
    expectVec(out[1].v, {0, 0, 0}, "outside (7 > 5)");
    p.style = Style::Offset;  // Parker's tend away: v' = -d * 1 = (-3, 0)
    out = stepOnce({boid(0, {47, 50, 0}), boid(1, {40, 50, 0})}, p);
    expectVec(out[0].v, {-3, 0, 0}, "offset inside");
    expectVec(out[1].v, {0, 0, 0}, "offset outside");
}

TEST(Influences, ScatterTurnsCohesionIntoRepulsion) {
    Params p = quietParams();
    p.species[0].cohesion = {5.0f, 1.0f};
    // A (50,50), B (53,50): A's cohesion steer is (10,0) toward B; scattering it is (-10,0).
    Flock out = stepOnce({boid(0, {50, 50, 0}), boid(1, {53, 50, 0})}, p);
    expectVec(out[0].v, {1, 0, 0}, "cohesion");
    p.scatter = true;
    out = stepOnce({boid(0, {50, 50, 0}), boid(1, {53, 50, 0})}, p);
    expectVec(out[0].v, {-1, 0, 0}, "scatter");
}

TEST(Influences, NeighbourCapKeepsTheNearestAndBreaksTiesById) {
    Params p = quietParams();
    p.species[0].cohesion = {10.0f, 1.0f};
    p.neighbour_cap = 1;
    // A (50,50); B (52,50) at 2; C (50,47) at 3. With k = 1 only B counts: cohesion toward +x.
    Flock out = stepOnce({boid(0, {50, 50, 0}), boid(1, {52, 50, 0}), boid(2, {50, 47, 0})}, p);
    expectVec(out[0].v, {1, 0, 0}, "k=1");
    // Tie: B (52,50) and D (48,50) both at 2: the lower id (D = 1) wins: steer toward -x.
    out = stepOnce({boid(0, {50, 50, 0}), boid(2, {52, 50, 0}), boid(1, {48, 50, 0})}, p);
    expectVec(out[0].v, {-1, 0, 0}, "tie to the lower id");
    // The grid search gives the same answer.
    out = stepOnce({boid(0, {50, 50, 0}), boid(2, {52, 50, 0}), boid(1, {48, 50, 0})}, p, NeighbourSearch::Grid);
    expectVec(out[0].v, {-1, 0, 0}, "tie, grid search");
    NearestK k3(3);
    for (auto [d2, id] : {std::pair{4.0f, 9u}, {1.0f, 5u}, {9.0f, 2u}, {4.0f, 3u}, {0.5f, 8u}}) k3.offer(d2, id);
    // Sorted: (0.5,8) (1,5) (4,3) | (4,9) (9,2).
    EXPECT_TRUE(k3.admits(4.0f, 3u));
    EXPECT_FALSE(k3.admits(4.0f, 9u));
    EXPECT_FALSE(k3.admits(9.0f, 2u));
}

// A lattice around A (50,50): four boids at 1, four at sqrt 2 (ids 5-8 on the diagonals), four at
// 2. With k = 7 the four at 1 and the three lowest-id diagonals count, so A's cohesion steers away
// from the diagonal left out; with k = 8 the eight balance (no steer); the boids at 2 never count.
// The list the GPU keeps is 8 entries long for k = 7 and 8 (gpu/variant.cpp's capSlots).
TEST(Influences, NeighbourCapOnALatticeKeepsTheKNearestWithTiesById) {
    Params p = quietParams();
    p.species[0].cohesion = {3.0f, 1.0f};
    p.neighbour_cap = 7;
    const auto lattice = [](std::uint32_t last_diagonal_at) {  // which diagonal gets the highest id, 8
        Flock f{boid(0, {50, 50, 0})};
        const float ring1[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}, ring2[4][2] = {{2, 0}, {-2, 0}, {0, 2}, {0, -2}};
        const float diagonals[4][2] = {{1, 1}, {-1, 1}, {-1, -1}, {1, -1}};
        for (std::uint32_t i = 0; i < 4; ++i) f.push_back(boid(1 + i, {50 + ring1[i][0], 50 + ring1[i][1], 0}));
        std::uint32_t id = 5;
        for (std::uint32_t i = 0; i < 4; ++i)
            f.push_back(boid(i == last_diagonal_at ? 8 : id++, {50 + diagonals[i][0], 50 + diagonals[i][1], 0}));
        for (std::uint32_t i = 0; i < 4; ++i) f.push_back(boid(9 + i, {50 + ring2[i][0], 50 + ring2[i][1], 0}));
        return f;
    };
    const float away[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};  // opposite each diagonal
    for (std::uint32_t left_out = 0; left_out < 4; ++left_out) {
        const Flock out = stepOnce(lattice(left_out), p);
        const Boid& a = *std::find_if(out.begin(), out.end(), [](const Boid& b) { return b.id == 0; });
        ASSERT_GT(glm::length(a.v), 1e-3f) << "diagonal " << left_out;
        const glm::vec3 dir = glm::normalize(a.v), want = glm::normalize(glm::vec3(away[left_out][0], away[left_out][1], 0.0f));
        EXPECT_NEAR(dir.x, want.x, 1e-4f) << "k = 7 leaves out the diagonal with the highest id, " << left_out;
        EXPECT_NEAR(dir.y, want.y, 1e-4f) << "k = 7 leaves out the diagonal with the highest id, " << left_out;
    }
    p.neighbour_cap = 8;
    const Flock out = stepOnce(lattice(0), p);
    const Boid& a = *std::find_if(out.begin(), out.end(), [](const Boid& b) { return b.id == 0; });
    EXPECT_LT(glm::length(a.v), 1e-4f) << "k = 8: the ring at 1 and the four diagonals balance";
}

// The adaptive radius by hand, 2D (exponent 1/2), count 6.5, rate 0.5, max_radius 5, on the same
// lattice: A with R = 1.2 sees the four at 1 (seen 4), so R' = 1.2 + 0.5 (1.2 sqrt(6.5 / 5) - 1.2)
// = 1.284105; with R = 1.5 also the four diagonals (seen 8): R' = 1.5 + 0.5 (1.5 sqrt(6.5 / 9) - 1.5)
// = 1.3873775; a boid with none yet (0) starts at max_radius and sees all twelve within 3 (the
// cohesion radius bounds it too): R' = 5 + 0.5 (5 sqrt(6.5 / 13) - 5) = 4.267767. Tolerance 1e-5.
TEST(Influences, AdaptiveRadiusMovesTowardTheCountByHand) {
    Params p = quietParams();
    p.species[0].cohesion = {3.0f, 0.0f};
    p.topological = {6.5f, 5.0f, 0.5f};
    for (const auto& [start, want] : {std::pair{1.2f, 1.284105f}, std::pair{1.5f, 1.3873775f}, std::pair{0.0f, 4.267767f}}) {
        Flock f{boid(0, {50, 50, 0})};
        f[0].steer.w = start;
        const float at[12][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {-1, -1}, {1, -1}, {2, 0}, {-2, 0}, {0, 2}, {0, -2}};
        for (std::uint32_t i = 0; i < 12; ++i) {
            f.push_back(boid(1 + i, {50 + at[i][0], 50 + at[i][1], 0}));
            f.back().steer.w = 0.1f;  // the others see no one: each R' = 0.1 + 0.05 (sqrt(6.5) - 1)
        }
        const Flock out = stepOnce(f, p);
        EXPECT_NEAR(out[0].steer.w, want, 1e-5f) << "from R = " << start;
        EXPECT_NEAR(out[5].steer.w, 0.1f + 0.05f * (std::sqrt(6.5f) - 1.0f), 1e-5f);
    }
}

// In a uniform gas the adaptive radius settles where the boids within it, the boid itself included,
// number topological.count: 2,000 boids at rest in a wrapped cube of 20 (density 1/4), count 6.5,
// so the mean neighbour count settles between 5 and 6 (each boid's R hovers at its 6th nearest:
// 5 or 6 within it) and the mean R near R* = (5.5 / (density 4 pi / 3))^(1/3) = 1.738 (within 10 %:
// the mean 6th-nearest distance of a Poisson gas is not exactly R*). Counted by brute force from
// the flock after 100 steps from R = max_radius = 5.
TEST(Influences, AdaptiveRadiusSettlesWhereTheMeanCountIsTheTarget) {
    Params p = quietParams();
    p.dims = 3;
    p.world_size = 20.0f;
    p.boids = 2000;
    p.species[0].cohesion = {6.0f, 0.0f};
    p.topological = {6.5f, 5.0f, 0.2f};
    Pcg32 rng(11, 5);
    Flock f;
    for (std::uint32_t i = 0; i < p.boids; ++i)
        f.push_back(boid(i, {rng.uniform() * 20.0f, rng.uniform() * 20.0f, rng.uniform() * 20.0f}, glm::vec3(0.0f)));
    const Flock out = stepMany(f, p, 100, NeighbourSearch::Grid);
    const RuleContext ctx(p);
    double count = 0.0, reach = 0.0;
    for (const Boid& a : out) {
        reach += a.steer.w;
        for (const Boid& b : out) {
            const glm::vec3 d = offsetBetween(ctx, a.p, b.p);
            if (b.id != a.id && glm::dot(d, d) < a.steer.w * a.steer.w) count += 1.0;
        }
    }
    count /= double(out.size());
    reach /= double(out.size());
    const double r_star = std::cbrt(5.5 / (0.25 * 4.0 * 3.14159265358979 / 3.0));
    EXPECT_GT(count, 5.0);
    EXPECT_LT(count, 6.0);
    EXPECT_NEAR(reach / r_star, 1.0, 0.10) << "mean R " << reach << ", R* " << r_star;
}

TEST(Influences, ObstaclePushFadesAcrossItsBand) {
    Params p = quietParams();
    p.obstacles = {{{50, 50, 0}, 10.0f}};
    p.obstacle_margin = 4.0f;
    p.obstacle_push = 20.0f;
    // Boid at (63,50): clearance 3 of margin 4: push 20*(1-3/4) = 5 along +x; v' = (0.5, 0).
    // Boid at (50,70): clearance 10 > 4: no push.
    const Flock out = stepOnce({boid(0, {63, 50, 0}), boid(1, {50, 70, 0})}, p);
    expectVec(out[0].v, {0.5f, 0, 0}, "in the band");
    expectVec(out[1].v, {0, 0, 0}, "outside the band");
}

TEST(Influences, NoBoidEndsAStepInsideAnObstacle) {
    Params p = quietParams();
    p.obstacles = {{{50, 50, 0}, 10.0f}};
    p.obstacle_margin = 0.0f;
    p.obstacle_push = 0.0f;
    // Heading straight in at 10 units/s from 0.5 outside: p' would be 1.5 inside; it is moved to
    // the surface (radius * 1.0001) and the inward velocity removed.
    Flock out = stepOnce({boid(0, {39.5f, 50, 0}, {10, 0, 0}), boid(1, {50, 50, 0}, {0, 0, 0})}, p);
    expectVec(out[0].p, {50 - 10.001f, 50, 0}, "on the surface");
    expectVec(out[0].v, {0, 0, 0}, "inward speed removed");
    // At the very centre: out along +x.
    expectVec(out[1].p, {60.001f, 50, 0}, "from the centre");
}

TEST(Influences, ObstaclesHoldOverManyStepsIn2DAnd3D) {
    for (int dims : {2, 3}) {
        Params p;
        p.dims = dims;
        p.world_size = 80.0f;
        p.boids = 600;
        p.attractor = {{40, 40, 40}, 0.5f, 0};  // pull the flock onto the obstacles
        p.obstacles = {{{40, 40, dims == 3 ? 40.0f : 0.0f}, 8.0f}, {{20, 60, dims == 3 ? 30.0f : 0.0f}, 5.0f},
                       {{47, 45, dims == 3 ? 40.0f : 0.0f}, 4.0f}};  // overlapping the first
        ASSERT_TRUE(validate(p).empty()) << describe(validate(p));
        CpuSimulation sim;
        sim.upload(spawn(p), p);
        const RuleContext ctx(p);
        std::size_t inside = 0;
        for (int s = 0; s < 200; ++s) {
            sim.step();
            for (const Boid& b : sim.download()) {
                ASSERT_TRUE(finite(b));
                for (const glm::vec4& o : ctx.obstacles) {
                    const glm::vec3 d = offsetBetween(ctx, glm::vec3(o), b.p);
                    if (glm::dot(d, d) < o.w * o.w * (1.0f - 1e-5f)) ++inside;
                }
            }
        }
        EXPECT_EQ(inside, 0u) << dims << "D";
    }
}

TEST(Influences, TheLeaderSitsWhereItIsLedAndTheOthersFollowIt) {
    Params p = quietParams();
    p.species[0].alignment = {20.0f, 1.0f};
    p.leader = true;
    p.leader_at = {98, 50, 0};
    // Boid 0 at (2,50) is led across the wrap to (98,50): moved -4 in x in one step of 0.1 s,
    // so its velocity is (-40,0) limited to max_speed 10: (-10,0).
    Flock out = stepOnce({boid(0, {2, 50, 0}), boid(1, {10, 50, 0})}, p);
    expectVec(out[0].p, {98, 50, 0}, "leader position");
    expectVec(out[0].v, {-10, 0, 0}, "leader velocity");
    // Boid 1 treats the leader as a flockmate: alignment toward its velocity at step t (0 here,
    // so setMag gives 0 and the steer is -v: it stays at rest).
    expectVec(out[1].v, {0, 0, 0}, "follower");
    out = stepOnce(out, p);
    expectVec(out[0].p, {98, 50, 0}, "the leader stays at the pointer");
    // Now boid 1 sees the leader 12 units away (across the wrap) moving at (-10,0): alignment
    // steer = setMag((-10,0), 10) - 0 = (-10,0); v' = (-1, 0).
    expectVec(out[1].v, {-1, 0, 0}, "follower aligns with the leader");
}

TEST(Influences, PerchingLandsRestsAndRejoins) {
    Params p = quietParams();
    p.perching = true;
    p.perch_ground = 20.0f;
    p.perch_min = 0.25f;
    p.perch_max = 0.25f;  // a fixed rest: 0.25 s = 2.5 steps of 0.1 s
    p.species[0].min_speed = 2.0f;
    // Boid 0 at y = 20.5 diving at 10 units/s: y' would be 19.5, so it lands on y = 20 at rest.
    // Boid 1 flies level above the ground and does not land.
    Flock f = stepOnce({boid(0, {50, 20.5f, 0}, {0, -10, 0}), boid(1, {50, 30, 0}, {5, 0, 0})}, p);
    expectVec(f[0].p, {50, 20, 0}, "on the ground");
    expectVec(f[0].v, {0, 0, 0}, "at rest");
    EXPECT_NEAR(f[0].perch, 0.25f, 1e-6f);
    EXPECT_EQ(f[1].perch, 0.0f);
    // Two steps later (0.05 s left) it is still there; the third step takes it up at
    // max(min_speed, max_speed / 2) = 5 units/s: y = 20 + 5 * 0.1.
    f = stepOnce(stepOnce(f, p), p);
    expectVec(f[0].p, {50, 20, 0}, "still resting");
    EXPECT_NEAR(f[0].perch, 0.05f, 1e-6f);
    f = stepOnce(f, p);
    EXPECT_EQ(f[0].perch, 0.0f);
    expectVec(f[0].v, {0, 5, 0}, "taking off");
    expectVec(f[0].p, {50, 20.5f, 0}, "rejoining");
}

TEST(Influences, PerchedBoidsAreOutOfTheFlock) {
    Params p = quietParams();
    p.perching = true;
    p.species[0].cohesion = {10.0f, 1.0f};
    Boid resting = boid(1, {53, 50, 0});
    resting.perch = 2.0f;
    // A sees only a boid on the ground: no cohesion, and no neighbour counted.
    const Flock out = stepOnce({boid(0, {50, 50, 0}), resting}, p);
    expectVec(out[0].v, {0, 0, 0}, "ignores the perched boid");
}

TEST(Influences, PresetsCarryObstaclesAndRejectBadOnes) {
    Params p;
    p.obstacles = {{{10, 20, 0}, 5}, {{100, 100, 0}, 30}};
    const Params back = parsePreset(formatPreset(p), Params{}, "test");
    EXPECT_EQ(back.obstacles, p.obstacles);
    EXPECT_THROW(parsePreset(R"({"obstacles": [{"x": 10, "y": 10, "radius": 0}]})", Params{}, "t"), InputError);
    EXPECT_THROW(parsePreset(R"({"obstacles": [{"x": 10, "y": 10, "r": 3}]})", Params{}, "t"), InputError);
    EXPECT_THROW(parsePreset(R"({"obstacles": [{"x": 500, "y": 10, "radius": 3}]})", Params{}, "t"), InputError);
    EXPECT_THROW(parsePreset(R"({"obstacles": 3})", Params{}, "t"), InputError);
    try {
        parsePreset(R"({"obstacles": [{"x": 10, "y": 10, "radius": 500}]})", Params{}, "t");
        FAIL() << "a radius over half the world is accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("obstacles[0].radius"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("(0, 150]"), std::string::npos) << e.what();
    }
}
