// The body measures against hand-made flocks with known answers: a box of points with known
// spreads along known axes, a cubic lattice (r1 = the spacing; its centre inside, its corners on
// the border with the centrality worked out by hand), a flock tilted off the vertical.
#include "model/body_shape.hpp"
#include "model/rng.hpp"
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace murmur;
using namespace murmur::test;

namespace {

// The 8 corners of a box of half-sides h (x, y, z) about c, all heading along `v`.
Flock boxCorners(glm::vec3 c, glm::vec3 h, glm::vec3 v) {
    Flock f;
    for (int k = 0; k < 8; ++k)
        f.push_back(boid(std::uint32_t(k), c + glm::vec3(k & 1 ? h.x : -h.x, k & 2 ? h.y : -h.y, k & 4 ? h.z : -h.z), v));
    return f;
}

// An n x n x n lattice of spacing 1 from the origin, ids in x-fastest order.
Flock lattice(int n) {
    Flock f;
    for (int z = 0; z < n; ++z)
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) f.push_back(boid(std::uint32_t(f.size()), glm::vec3(float(x), float(y), float(z)), glm::vec3(1, 0, 0)));
    return f;
}

}  // namespace

// Corners at (+-2, +-1, +-4): the spreads are the half-sides (each coordinate +-a has variance
// a^2), thinnest first 1, 2, 4 along y, x, z: proportions 2 and 4, the thin axis vertical
// (|cos| 1), the heading along z the long axis. Tolerance 1e-9 (double throughout).
TEST(BodyShape, PrincipalAxesOfABoxOfPoints) {
    const BodyShape b = measureBody(boxCorners({10, 20, 30}, {2, 1, 4}, {0, 0, 3}));
    EXPECT_NEAR(b.spread.x, 1.0, 1e-9);
    EXPECT_NEAR(b.spread.y, 2.0, 1e-9);
    EXPECT_NEAR(b.spread.z, 4.0, 1e-9);
    EXPECT_NEAR(b.thin_vs_up, 1.0, 1e-9);
    EXPECT_NEAR(std::fabs(b.middle.x), 1.0, 1e-9);
    EXPECT_NEAR(b.heading_vs_axes.x, 0.0, 1e-9);
    EXPECT_NEAR(b.heading_vs_axes.z, 1.0, 1e-9);
    EXPECT_NEAR(b.centre.y, 20.0, 1e-9);
    const auto named = bodyFigures(b);
    EXPECT_NEAR(named.at("proportion_middle"), 2.0, 1e-9);
    EXPECT_NEAR(named.at("proportion_long"), 4.0, 1e-9);
}

// The same box turned 30 degrees about z: the thin axis leans 30 degrees off the vertical, so
// |cos| against up is cos 30 = 0.866025; a heading along the box's own x (its middle axis) gives
// |cos| 1 there and 0 against the thin axis. Tolerance 1e-6 (the corners are floats).
TEST(BodyShape, ATiltedFlockLeansItsThinAxisOffTheVertical) {
    const double a = 30.0 * 3.14159265358979 / 180.0;
    const glm::vec3 ex(float(std::cos(a)), float(std::sin(a)), 0.0f), ey(-float(std::sin(a)), float(std::cos(a)), 0.0f), ez(0, 0, 1);
    Flock f;
    for (int k = 0; k < 8; ++k) {
        const glm::vec3 at = (k & 1 ? 2.0f : -2.0f) * ex + (k & 2 ? 1.0f : -1.0f) * ey + (k & 4 ? 4.0f : -4.0f) * ez;
        f.push_back(boid(std::uint32_t(k), at, ex));
    }
    const BodyShape b = measureBody(f);
    EXPECT_NEAR(b.thin_vs_up, std::cos(a), 1e-6);
    EXPECT_NEAR(b.heading_vs_axes.y, 1.0, 1e-6);
    EXPECT_NEAR(b.heading_vs_axes.x, 0.0, 1e-6);
}

// A 5x5x5 lattice of spacing 1 (ids x-fastest): every r1 is 1. Centrality over the 7 nearest,
// ties by id: the centre (id 62) has its six at 1, which cancel, and the lowest-id of the twelve
// at sqrt 2, id 32 at (0, -1, -1): |sum| = 1, so 1/7 = 0.142857, inside. A corner has its three at
// 1, three at sqrt 2 and one at sqrt 3, all inward: each axis sums to 1 + 2/sqrt 2 + 1/sqrt 3 =
// 2.991564, |sum| / 7 = 0.740220, the border. Tolerance 1e-9.
TEST(BodyShape, OnALatticeR1IsTheSpacingTheCentreIsInsideAndTheCornersTheBorder) {
    const Flock f = lattice(5);
    const std::vector<Neighbourhood> h = neighbourhoods(f);
    ASSERT_EQ(h.size(), 125u);
    EXPECT_NEAR(h[62].centrality, 1.0 / 7.0, 1e-9);
    const double axis = 1.0 + 2.0 / std::sqrt(2.0) + 1.0 / std::sqrt(3.0);
    for (std::size_t corner : {0u, 4u, 20u, 24u, 100u, 104u, 120u, 124u}) EXPECT_NEAR(h[corner].centrality, axis * std::sqrt(3.0) / 7.0, 1e-9) << corner;
    const BodyShape b = measureBody(f);
    EXPECT_NEAR(b.r1, 1.0, 1e-9);
    EXPECT_NEAR(b.r1_border, 1.0, 1e-9);
    EXPECT_NEAR(b.r1_interior, 1.0, 1e-9);
    EXPECT_GE(b.border_share, 8.0 / 125.0) << "the corners at least";
    EXPECT_LE(b.border_share, 98.0 / 125.0) << "not the 27 with a full shell";
    EXPECT_TRUE(neighbourhoods(lattice(1)).empty()) << "one boid has no neighbourhood";
}

// Border and interior r1 apart. The 5x5x5 lattice with a companion 0.3 outside each corner, on
// the diagonal: every corner and companion is border (a corner's seven nearest are its companion,
// outward, and six inward: each axis sums to 1 + 2/sqrt 2 - 1/sqrt 3 = 1.837, |sum| / 7 = 0.45; a
// companion's are all inward), and their r1 is 0.3; every other boid keeps r1 = 1 (a companion is
// more than 1 from any lattice boid but its corner). So r1_interior is exactly 1 and r1_border
// below 1. And a ball filled uniformly does not report a denser border (border r1 within 15 % of
// the interior's, or above: an edge boid has neighbours on one side only).
TEST(BodyShape, CloserBoidsOnTheBorderShowAsASmallerBorderR1) {
    Flock f = lattice(5);
    const float out = 0.3f / std::sqrt(3.0f);
    for (std::uint32_t corner : {0u, 4u, 20u, 24u, 100u, 104u, 120u, 124u}) {
        const glm::vec3 at = f[corner].p, dir(at.x > 0 ? 1.0f : -1.0f, at.y > 0 ? 1.0f : -1.0f, at.z > 0 ? 1.0f : -1.0f);
        f.push_back(boid(std::uint32_t(f.size()), at + out * dir, glm::vec3(1, 0, 0)));
    }
    const std::vector<Neighbourhood> h = neighbourhoods(f);
    for (std::size_t i = 125; i < f.size(); ++i) EXPECT_GE(h[i].centrality, kBorderCentrality) << "companion " << i;
    EXPECT_NEAR(h[0].centrality, std::sqrt(3.0) * (1.0 + 2.0 / std::sqrt(2.0) - 1.0 / std::sqrt(3.0)) / 7.0, 1e-6);
    const BodyShape b = measureBody(f);
    EXPECT_NEAR(b.r1_interior, 1.0, 1e-6);
    EXPECT_LT(b.r1_border, 0.95);
    Pcg32 rng(3, 9);
    Flock ball;
    while (ball.size() < 3000) {
        const glm::vec3 p = glm::vec3(rng.uniform() * 2 - 1, rng.uniform() * 2 - 1, rng.uniform() * 2 - 1) * 10.0f;
        if (glm::length(p) <= 10.0f) ball.push_back(boid(std::uint32_t(ball.size()), p, glm::vec3(1, 0, 0)));
    }
    const BodyShape u = measureBody(ball);
    EXPECT_GT(u.r1_border / u.r1_interior, 0.85) << u.r1_border << " at the border, " << u.r1_interior << " inside";
    EXPECT_GT(u.border_share, 0.0);
    EXPECT_LT(u.border_share, 0.6);
}

// A flock that is not finite is refused, naming a boid, not measured into NaN (or worse: a NaN
// cast to a cell index).
TEST(BodyShape, ANonFiniteFlockIsRefused) {
    Flock f = lattice(3);
    f[5].p.y = std::nanf("");
    EXPECT_THROW(measureBody(f), std::invalid_argument);
    EXPECT_EQ(measureBody(Flock{}).boids, 0u);
}

// The k nearest from the cells are the brute force's: r1 and the border over a random flock
// against an all-pairs count (the same boids, so the same figures to 1e-12).
TEST(BodyShape, NearestFromTheCellsMatchesAllPairs) {
    Pcg32 rng(8, 1);
    Flock f;
    for (std::uint32_t i = 0; i < 600; ++i)
        f.push_back(boid(i, glm::vec3(rng.uniform() * 30, rng.uniform() * 3, rng.uniform() * 60), glm::vec3(0, 0, 1)));
    const BodyShape b = measureBody(f);
    double r1 = 0.0;
    for (const Boid& a : f) {
        double best = 1e300;
        for (const Boid& o : f)
            if (o.id != a.id) best = std::min(best, double(glm::length(glm::dvec3(o.p) - glm::dvec3(a.p))));
        r1 += best;
    }
    EXPECT_NEAR(b.r1, r1 / 600.0, 1e-12);
}
