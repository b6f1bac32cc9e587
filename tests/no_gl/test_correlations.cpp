// Pair correlations (model/correlations.hpp) against hand-made flocks with a known answer:
// C(r) and its first zero, g(r)'s normalisation, the minimum image, and g(r) of a uniform gas.
// Measured through the backend (test_util.hpp's correlationsOn): built into the GPU hand tests
// too, the same cases hold the GPU's pass (OnGpu.Correlations.*).
#include "model/correlations.hpp"
#include "model/spawn.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

using namespace murmur;
using namespace murmur::test;

// Two pairs 10 units apart, each pair's boids 1 apart with the same velocity, the pairs opposite:
// x = 10, 11 at (1, 0) and x = 20, 21 at (-1, 0) (2D wrap, L 100). The mean velocity is 0, so
// u = v and |u|^2 = 1. Bins of 1 over [0, 12): the two 1-apart pairs give C = +1 at r 1.5; the
// four cross pairs, at 9, 10, 10 and 11, give -1 at 9.5, 10.5 and 11.5; every other bin is
// empty (NaN). The first zero lies between (1.5, +1) and (9.5, -1): xi = 5.5. g at 1.5: its 2
// pairs over 6 pairs x the shell's area pi (2^2 - 1^2) / L^2. Tolerance 1e-12 (double; the GPU's
// fixed-point sums hold these whole terms exactly, and its float distances are whole).
TEST(Correlations, TwoOpposedPairsByHand) {
    Params p = quietParams();
    const Flock f = {boid(0, {10, 50, 0}, {1, 0, 0}), boid(1, {11, 50, 0}, {1, 0, 0}), boid(2, {20, 50, 0}, {-1, 0, 0}),
                     boid(3, {21, 50, 0}, {-1, 0, 0})};
    const Correlations c = correlationsOn(f, p, 12, 12.0);
    ASSERT_EQ(c.r.size(), 12u);
    EXPECT_DOUBLE_EQ(c.r[1], 1.5);
    EXPECT_NEAR(c.velocity[1], 1.0, 1e-12);
    EXPECT_NEAR(c.velocity[9], -1.0, 1e-12);
    EXPECT_NEAR(c.velocity[10], -1.0, 1e-12);
    EXPECT_TRUE(std::isnan(c.velocity[5])) << "no pair at r 5.5";
    EXPECT_EQ(c.pairs[1], 2u);
    EXPECT_EQ(c.pairs[10], 2u);
    EXPECT_NEAR(c.xi, 5.5, 1e-12);
    EXPECT_NEAR(c.g[1], 2.0 / (6.0 * std::numbers::pi * 3.0 / 1e4), 1e-9);
    EXPECT_EQ(c.g[5], 0.0);
}

// The same four boids drifting together at (2, 0.5): v = (3, 0.5) and (1, 0.5), the mean (2, 0.5),
// u = +-(1, 0) as before, so C, xi and g are the same (C is of the fluctuations; without the mean
// taken off, C at 1.5 would be 9.25 / 5.25). Tolerance 1e-12 as above.
TEST(Correlations, ACommonDriftIsTakenOff) {
    Params p = quietParams();
    const Flock f = {boid(0, {10, 50, 0}, {3, 0.5f, 0}), boid(1, {11, 50, 0}, {3, 0.5f, 0}), boid(2, {20, 50, 0}, {1, 0.5f, 0}),
                     boid(3, {21, 50, 0}, {1, 0.5f, 0})};
    const Correlations c = correlationsOn(f, p, 12, 12.0);
    ASSERT_EQ(c.velocity.size(), 12u);
    EXPECT_NEAR(c.velocity[1], 1.0, 1e-12);
    EXPECT_NEAR(c.velocity[9], -1.0, 1e-12);
    EXPECT_NEAR(c.xi, 5.5, 1e-12);
}

// A flock moving as one: 3,001 boids (the default spawn's places, 2D wrap, L 300) all at
// (1.3, -0.7). Its fluctuations are rounding at most (the GPU's float mean of 3,001 equal
// velocities is off by about 1e-7 of the speed; the CPU's double mean is exact), below
// correlationsResolved's 1e-10 of mean |v|^2: C is NaN in every bin and there is no xi, on both
// backends alike. Ten boids turned by 0.01 rad are resolved: C is a number wherever there are pairs.
TEST(Correlations, AFlockMovingAsOneHasNoCorrelationOnEitherBackend) {
    Params p;
    p.boids = 3001;
    Flock f = spawn(p);
    for (Boid& b : f) b.v = {1.3f, -0.7f, 0.0f};
    const Correlations one = correlationsOn(f, p, 8, 16.0);
    for (std::size_t b = 0; b < one.velocity.size(); ++b) {
        EXPECT_GT(one.pairs[b], 0u) << "bin at r " << one.r[b];
        EXPECT_TRUE(std::isnan(one.velocity[b])) << "bin at r " << one.r[b] << ": C " << one.velocity[b];
    }
    EXPECT_TRUE(std::isnan(one.xi));
    for (std::size_t k = 0; k < 10; ++k) f[k * 300].v = {1.3f * std::cos(0.01f) + 0.7f * std::sin(0.01f), 1.3f * std::sin(0.01f) - 0.7f * std::cos(0.01f), 0.0f};
    const Correlations turned = correlationsOn(f, p, 8, 16.0);
    for (std::size_t b = 0; b < turned.velocity.size(); ++b) EXPECT_FALSE(std::isnan(turned.velocity[b])) << "bin at r " << turned.r[b];
}

// Across the edge: x = 0.5 and 99.5 are 1 apart in wrap bounds and 99 apart in soft ones.
TEST(Correlations, PairsAreTakenAtTheMinimumImageInWrapBoundsOnly) {
    Params p = quietParams();
    const Flock f = {boid(0, {0.5f, 50, 0}, {1, 0, 0}), boid(1, {99.5f, 50, 0}, {0, 1, 0})};
    EXPECT_EQ(correlationsOn(f, p, 4, 4.0).pairs[1], 1u);
    p.bounds = Bounds::Soft;
    const Correlations soft = correlationsOn(f, p, 4, 4.0);
    EXPECT_EQ(soft.pairs[0] + soft.pairs[1] + soft.pairs[2] + soft.pairs[3], 0u);
    EXPECT_TRUE(std::isnan(soft.xi)) << "no pair, no zero";
}

// 6,000 boids spread uniformly over a square of 300 (the default spawn): g(r) is 1 within
// counting noise. The bins from r 2 hold 4,000 pairs and more (sd about 1.6 %): within 0.08.
TEST(Correlations, AUniformGasHasGOfOne) {
    Params p;
    p.boids = 6000;
    const Correlations c = correlationsOn(spawn(p), p, 10, 10.0);
    for (std::size_t b = 2; b < c.g.size(); ++b) EXPECT_NEAR(c.g[b], 1.0, 0.08) << "bin at r " << c.r[b];
}

TEST(Correlations, BinsAndReachOutsideTheirRangesAreNamed) {
    const Params p;  // wrap, L 300
    EXPECT_NE(correlationProblem(p, 0, 0.0).value_or("").find("bins = 0: valid: [1, 1024]"), std::string::npos);
    EXPECT_NE(correlationProblem(p, 64, 151.0).value_or("").find("past half the world (150)"), std::string::npos);
    EXPECT_NE(correlationProblem(p, 64, -1.0).value_or("").find("r_max = -1: valid: above 0"), std::string::npos);
    EXPECT_FALSE(correlationProblem(p, 64, 150.0).has_value());
    EXPECT_FALSE(correlationProblem(p, 64, 0.0).has_value()) << "0: half the world";
}
