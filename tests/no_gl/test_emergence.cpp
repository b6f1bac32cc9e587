// Emergence: from a random start with the default preset, alignment makes the flock polarized;
// without alignment it stays disordered.
#include "cpu/cpu_simulation.hpp"
#include "model/density.hpp"
#include "model/flock_stats.hpp"
#include "model/spawn.hpp"

#include <gtest/gtest.h>

using namespace murmur;

namespace {
double polarizationAfter(float alignment_weight, int steps) {
    // The default preset (tests/test_io checks presets/default.json equals Params{}) at its
    // density with 500 boids.
    Params p = keepDensity(Params{}, 500, 2).params;
    p.species[0].alignment.weight = alignment_weight;
    CpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step(steps);
    return polarization(sim.download());
}
}  // namespace

TEST(Emergence, AlignmentPolarizesTheFlock) {
    const double start = polarizationAfter(1.0f, 0);
    const double with = polarizationAfter(1.0f, 600);
    const double without = polarizationAfter(0.0f, 600);
    EXPECT_LT(start, 0.1);  // a random start is disordered
    EXPECT_GT(with, 0.35);
    EXPECT_GT(with, 4.0 * without) << "with alignment " << with << ", without " << without;
}
