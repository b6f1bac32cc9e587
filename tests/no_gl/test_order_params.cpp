// Order parameters on hand-built states whose answers are known (cpu/order_params.hpp).
#include "cpu/order_params.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

using namespace murmur;
using murmur::test::boid;

namespace {

// 2D wrap world of 100 units; rule radii 4 / 10 / 10, so the nearest neighbour is searched within
// 10 and groups link at 10 (the alignment radius).
Params measured(int dims = 2) {
    Params p;
    p.dims = dims;
    p.world_size = 100.0f;
    p.species[0].separation = {4.0f, 1.0f};
    p.species[0].alignment = {10.0f, 1.0f};
    p.species[0].cohesion = {10.0f, 1.0f};
    return p;
}

// A row of `count` boids from (x, y) along +x, `gap` apart, all with velocity v.
void addRow(Flock& f, int count, float x, float y, float gap, glm::vec3 v) {
    for (int k = 0; k < count; ++k) f.push_back(boid(std::uint32_t(f.size()), {x + gap * float(k), y, 0.0f}, v));
}

}  // namespace

TEST(OrderParams, TwoAlignedGroupsFlyingOppositeWays) {
    // Two rows of 10 boids 2 units apart, 40 units apart from each other: one flies +x, the
    // other -x. Globally the unit velocities cancel (0); each group is perfectly aligned (1).
    Flock f;
    addRow(f, 10, 10.0f, 20.0f, 2.0f, {5.0f, 0.0f, 0.0f});
    addRow(f, 10, 10.0f, 60.0f, 2.0f, {-3.0f, 0.0f, 0.0f});
    const OrderParams o = measureFlock(f, measured(), {});
    EXPECT_NEAR(o.polarization, 0.0, 1e-9);
    EXPECT_NEAR(o.group_polarization, 1.0, 1e-9);
    EXPECT_EQ(o.groups, 2u);
    EXPECT_NEAR(o.largest_group_share, 0.5, 1e-12);
    EXPECT_NEAR(o.grouped_share, 1.0, 1e-12);
    EXPECT_NEAR(o.mean_speed, 4.0, 1e-6);  // (10 x 5 + 10 x 3) / 20
    EXPECT_NEAR(o.milling, 0.0, 1e-9);     // a straight row has r x v = 0 for every boid
}

TEST(OrderParams, ARingCirclingMillsAndAScatteredRingDoesNot) {
    // 24 boids on a circle of radius 8 about (50, 50), each flying tangentially (counter-clockwise):
    // r̂ × v̂ = +1 for every boid, so milling is 1 and polarization 0. Neighbours on the ring are
    // 2 x 8 x sin(7.5°) = 2.09 apart, one group.
    Flock f;
    for (int k = 0; k < 24; ++k) {
        const double a = 2.0 * M_PI * k / 24.0;
        const glm::vec3 r(std::cos(a), std::sin(a), 0.0);
        f.push_back(boid(std::uint32_t(k), glm::vec3(50.0f) * glm::vec3(1, 1, 0) + 8.0f * r, 3.0f * glm::vec3(-r.y, r.x, 0.0f)));
    }
    const OrderParams o = measureFlock(f, measured(), {});
    EXPECT_EQ(o.groups, 1u);
    EXPECT_NEAR(o.milling, 1.0, 1e-6);
    EXPECT_NEAR(o.polarization, 0.0, 1e-6);
    EXPECT_NEAR(o.group_polarization, 0.0, 1e-6);
    // Half of them turned round: the spins cancel (12 x +1 + 12 x -1 = 0).
    for (std::size_t k = 0; k < f.size(); k += 2) f[k].v = -f[k].v;
    EXPECT_NEAR(measureFlock(f, measured(), {}).milling, 0.0, 1e-6);
}

TEST(OrderParams, MillingIn3DIsTheLengthOfTheMeanSpin) {
    // A ring in the x-z plane circling about +y: r̂ × v̂ = (0, ±1, 0) depending on the sense; all
    // the same sense gives 1.
    Flock f;
    for (int k = 0; k < 16; ++k) {
        const double a = 2.0 * M_PI * k / 16.0;
        const glm::vec3 r(std::cos(a), 0.0, std::sin(a));
        f.push_back(boid(std::uint32_t(k), glm::vec3(50.0f) + 5.0f * r, glm::vec3(r.z, 0.0f, -r.x)));
    }
    EXPECT_NEAR(measureFlock(f, measured(3), {}).milling, 1.0, 1e-6);
}

TEST(OrderParams, ALatticeHasItsSpacingAsNearestNeighbourDistance) {
    // A square lattice 3.125 units apart filling 50 x 50 (16 x 16 boids) in the 100-unit world:
    // every nearest neighbour is 3.125 away, the histogram (32 bins of 10/32 = 0.3125 over [0, 10))
    // puts them all in bin 10 ([3.125, 3.4375)) and the median interpolates to the middle of that
    // bin's mass: 0.3125 x (10 + 128/256) = 3.28125.
    Flock f;
    for (int y = 0; y < 16; ++y) addRow(f, 16, 10.0f, 10.0f + 3.125f * float(y), 3.125f, {1.0f, 0.0f, 0.0f});
    const OrderParams o = measureFlock(f, measured(), {});
    EXPECT_NEAR(o.nn_mean, 3.125, 1e-6);
    EXPECT_EQ(o.nn_histogram[10], 256u);
    EXPECT_NEAR(o.nn_median, 3.28125, 1e-9);
    EXPECT_NEAR(o.nn_radius, 10.0f, 0.0f);
}

TEST(OrderParams, ABoidAloneCountsAtTheSearchRadius) {
    // Two boids 3 apart and one 55 away from both: nearest distances 3, 3 and (none within 10)
    // 10; mean 16/3; the lone one sits in the last bin and is no group (fewer than 5 boids).
    Flock f{boid(0, {10, 10, 0}, {1, 0, 0}), boid(1, {13, 10, 0}, {1, 0, 0}), boid(2, {50, 50, 0}, {1, 0, 0})};
    const OrderParams o = measureFlock(f, measured(), {});
    EXPECT_NEAR(o.nn_mean, 16.0 / 3.0, 1e-6);
    EXPECT_EQ(o.nn_histogram[kNnBins], 1u);
    EXPECT_EQ(o.groups, 0u);
    EXPECT_NEAR(o.grouped_share, 0.0, 0.0);
}

TEST(OrderParams, AGroupAcrossTheWrapIsOneGroup) {
    // Ten boids 2 apart from x = 91 across the edge to x = 109 -> 9 (folded): one group in wrap
    // mode, two groups of five (91..99 and 1..9) in a walled world.
    Flock f;
    for (int k = 0; k < 10; ++k) {
        const float x = std::fmod(91.0f + 2.0f * float(k), 100.0f);
        f.push_back(boid(std::uint32_t(k), {x, 50.0f, 0.0f}, {0.0f, 2.0f, 0.0f}));
    }
    Params p = measured();
    EXPECT_EQ(measureFlock(f, p, {}).groups, 1u);
    EXPECT_NEAR(measureFlock(f, p, {}).largest_group_share, 1.0, 0.0);
    p.bounds = Bounds::Soft;
    EXPECT_EQ(measureFlock(f, p, {}).groups, 2u);
}

TEST(OrderParams, LinksAreStrictlyShorterThanTheGroupRadius) {
    // Two rows of 5, 2 apart within, the rows exactly 10 (the alignment radius) apart: two groups;
    // 9.99 apart: one.
    for (float gap : {10.0f, 9.99f}) {
        Flock f;
        addRow(f, 5, 10.0f, 20.0f, 2.0f, {1.0f, 0.0f, 0.0f});
        addRow(f, 5, 10.0f, 20.0f + gap, 2.0f, {1.0f, 0.0f, 0.0f});
        EXPECT_EQ(measureFlock(f, measured(), {}).groups, gap == 10.0f ? 2u : 1u) << gap;
    }
}

TEST(OrderParams, MeanNeighboursAreTheStepsCounts) {
    Flock f{boid(0, {10, 10, 0}), boid(1, {12, 10, 0})};
    EXPECT_NEAR(measureFlock(f, measured(), {3u, 6u}).mean_neighbours, 4.5, 1e-12);
}

TEST(OrderParams, HistogramMedianInterpolatesWithinItsBin) {
    std::array<std::uint32_t, kNnBins + 1> h{};
    h[0] = 1;
    h[2] = 3;  // 4 in all: half (2) is reached 1/3 of the way into bin 2
    EXPECT_NEAR(histogramMedian(h, 32.0f), 2.0 + 1.0 / 3.0, 1e-12);
    h = {};
    h[kNnBins] = 5;  // nobody has a neighbour within the radius
    EXPECT_NEAR(histogramMedian(h, 8.0f), 8.0, 0.0);
}

// The largest groups one by one, hand-built in a 2D wrap world of 100: a ring of 24 milling about
// (50, 50); a row of 10 across the wrap (x 95 .. 113, so 95 .. 99 and 1 .. 13); two rows of 5
// (equal sizes: the lower first id first); a pair (no group). Listed: the ring, the wrapped row,
// then the rows of 5 by first id; the fourth slot holds the second row of 5.
TEST(OrderParams, TheLargestGroupsAreListedWithTheirOwnFigures) {
    Flock f;
    addRow(f, 5, 20.0f, 80.0f, 2.0f, {0.0f, 2.0f, 0.0f});  // ids 0-4
    for (int k = 0; k < 24; ++k) {                         // ids 5-28
        const double a = 2.0 * M_PI * k / 24.0;
        const glm::vec3 r(std::cos(a), std::sin(a), 0.0);
        f.push_back(boid(std::uint32_t(f.size()), glm::vec3(50.0f, 50.0f, 0.0f) + 8.0f * r, 3.0f * glm::vec3(-r.y, r.x, 0.0f)));
    }
    addRow(f, 10, 95.0f, 10.0f, 2.0f, {1.0f, 0.0f, 0.0f});  // ids 29-38, across x = 100
    for (Boid& b : f)
        if (b.p.x >= 100.0f) b.p.x -= 100.0f;
    addRow(f, 5, 20.0f, 30.0f, 2.0f, {-1.0f, 0.0f, 0.0f});  // ids 39-43
    addRow(f, 2, 70.0f, 90.0f, 2.0f, {1.0f, 0.0f, 0.0f});   // ids 44-45: a pair, no group
    const OrderParams o = measureFlock(f, measured(), {});
    ASSERT_EQ(o.groups, 4u);
    const GroupFigures& ring = o.largest_groups[0];
    EXPECT_EQ(ring.boids, 24u);
    EXPECT_EQ(ring.first_id, 5u);
    EXPECT_NEAR(ring.milling, 1.0, 1e-6);
    EXPECT_NEAR(ring.polarization, 0.0, 1e-6);
    EXPECT_NEAR(ring.centre.x, 50.0, 1e-5);
    EXPECT_NEAR(ring.centre.y, 50.0, 1e-5);
    const GroupFigures& wrapped = o.largest_groups[1];
    EXPECT_EQ(wrapped.boids, 10u);
    EXPECT_EQ(wrapped.first_id, 29u);
    EXPECT_NEAR(wrapped.polarization, 1.0, 1e-9);
    EXPECT_NEAR(wrapped.milling, 0.0, 1e-9);
    EXPECT_NEAR(wrapped.centre.x, 4.0, 1e-5) << "the mean of 95 .. 113, folded into the world";
    EXPECT_NEAR(wrapped.centre.y, 10.0, 1e-5);
    EXPECT_EQ(o.largest_groups[2].boids, 5u);
    EXPECT_EQ(o.largest_groups[2].first_id, 0u) << "equal sizes: the lower first id first";
    EXPECT_NEAR(o.largest_groups[2].centre.x, 24.0, 1e-5);
    EXPECT_NEAR(o.largest_groups[2].centre.y, 80.0, 1e-5);
    EXPECT_EQ(o.largest_groups[3].boids, 5u);
    EXPECT_EQ(o.largest_groups[3].first_id, 39u);
    EXPECT_NEAR(o.largest_groups[3].polarization, 1.0, 1e-9);
    // One group fewer than listed: the last slot is empty.
    f.resize(39);
    const OrderParams fewer = measureFlock(f, measured(), {});
    ASSERT_EQ(fewer.groups, 3u);
    EXPECT_EQ(fewer.largest_groups[3].boids, 0u);
    EXPECT_EQ(fewer.largest_groups[3].centre, glm::dvec3(0.0));
}

// The step is too coarse when a boid moves farther in a step than the mean nearest-neighbour
// distance: a D'Orsogna flock collapsed to 0.001 at speed 1.36 and dt 0.05 moves 0.068 a step,
// and dt at most 0.001 / 1.36 = 0.000735 resolves it; a flock whose stride is under its spacing,
// or one boid, says nothing.
TEST(OrderParams, TheStepIsTooCoarseWhenABoidOutrunsItsNearestNeighbour) {
    const auto warning = stepResolutionWarning(100, 1.36, 0.001, 0.05);
    ASSERT_TRUE(warning.has_value());
    for (const char* figure : {"0.068 units a step", "mean speed 1.36 x dt 0.05", "distance 0.001", "at most 0.000735"})
        EXPECT_NE(warning->find(figure), std::string::npos) << figure << " in: " << *warning;
    EXPECT_FALSE(stepResolutionWarning(100, 1.36, 0.07, 0.05).has_value()) << "0.068 a step under 0.07 apart";
    EXPECT_FALSE(stepResolutionWarning(1, 1.36, 0.0, 0.05).has_value()) << "one boid has no neighbour";
}

// The group_radius key sets the group measures' link: the two rows 40 apart are two groups at the
// alignment radius (10) and one at 45; refused past half the world in wrap mode.
TEST(OrderParams, TheGroupRadiusKeyChoosesTheGroupsLink) {
    Flock f;
    addRow(f, 10, 10.0f, 20.0f, 2.0f, {5.0f, 0.0f, 0.0f});
    addRow(f, 10, 10.0f, 60.0f, 2.0f, {-3.0f, 0.0f, 0.0f});
    Params p = measured();
    EXPECT_EQ(measureFlock(f, p, {}).groups, 2u);
    p.group_radius = 45.0f;
    const OrderParams one = measureFlock(f, p, {});
    EXPECT_EQ(one.groups, 1u);
    EXPECT_NEAR(one.largest_group_share, 1.0, 1e-12);
    p.group_radius = 51.0f;
    const auto problems = validate(p);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].field, "group_radius");
    EXPECT_NE(problems[0].message.find("valid range [0, world_size/2]"), std::string::npos) << problems[0].message;
}

// The stats CSV (--stats-out, the window's log) names each figure once, and each row's values
// follow its header: nn_mean and nn_median are the measured ones.
TEST(OrderParams, TheStatsCsvNamesEachFigureOnceInTheRowsOrder) {
    std::vector<std::string> names;
    std::istringstream header(orderParamsHeader());
    for (std::string name; std::getline(header, name, ',');) names.push_back(name);
    for (std::size_t a = 0; a < names.size(); ++a)
        for (std::size_t b = a + 1; b < names.size(); ++b) EXPECT_NE(names[a], names[b]) << "column " << a << " and " << b;
    OrderParams o;
    o.nn_mean = 1.5;
    o.nn_median = 2.25;
    std::vector<std::string> values;
    std::istringstream row(orderParamsRow(o));
    for (std::string value; std::getline(row, value, ',');) values.push_back(value);
    ASSERT_EQ(values.size(), names.size());
    const auto at = [&](const std::string& name) { return values[std::size_t(std::find(names.begin(), names.end(), name) - names.begin())]; };
    EXPECT_EQ(at("nn_mean"), "1.5");
    EXPECT_EQ(at("nn_median"), "2.25");
}
