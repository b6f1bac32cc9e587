// The GPU's scan and counting sort on their own, against the CPU versions, at sizes that cross
// block boundaries (1, one block, one block + 1, many blocks, more than one level of blocks).
#include "cpu/flock_rules.hpp"
#include "cpu/grid.hpp"
#include "flock_bits.hpp"
#include "gl_env.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/grid_spec.hpp"
#include "model/rng.hpp"
#include "model/spawn.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace murmur;

class GpuScan : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(GpuScan, MatchesCpuExclusiveScan) {
    MURMUR_REQUIRE_GL();
    const std::uint32_t n = GetParam();
    std::vector<std::uint32_t> values(n);
    Pcg32 rng(n, 1);
    for (auto& v : values) v = rng.next() % 9;  // includes zeros, like empty cells
    gpu::GpuSimulation sim;
    EXPECT_EQ(sim.scan(values), exclusiveScan(values));
    EXPECT_NO_GL_ERRORS();
}

// SCAN_BLOCK = 1024 elements per work group; from 1024*1024 + 1 elements (1,025 blocks) the last
// group scans the block totals in more than one round.
INSTANTIATE_TEST_SUITE_P(Sizes, GpuScan,
                         ::testing::Values(1u, 2u, 255u, 1024u, 1025u, 4096u + 17u, 1024u * 1024u + 1u, 3000000u));

class GpuSort : public ::testing::TestWithParam<int> {
protected:
    static Params sortParams() {
        Params p;
        p.dims = GetParam();
        p.world_size = 50.0f;
        p.boids = 5000;
        return p;
    }
    // The GPU's binning equals the CPU grid's of the same flock: counts, starts, and each
    // cell's ids (as a set: the CPU's order within a cell is the flock's).
    static void expectBinnedAsCpu(const gpu::GpuSimulation::Binning& bins, const Params& p, const Flock& f) {
        UniformGrid grid;
        grid.build(makeGridSpec(p), f, RuleContext(p).L);
        ASSERT_EQ(bins.count, grid.counts());
        ASSERT_EQ(bins.start, grid.starts());
        for (std::size_t c = 0; c < bins.count.size(); ++c) {
            std::vector<std::uint32_t> gpu_ids(bins.sorted_ids.begin() + bins.start[c],
                                               bins.sorted_ids.begin() + bins.start[c] + bins.count[c]);
            std::vector<std::uint32_t> cpu_ids;
            for (std::uint32_t k = grid.starts()[c]; k < grid.starts()[c] + grid.counts()[c]; ++k)
                cpu_ids.push_back(f[grid.sorted()[k]].id);
            std::sort(gpu_ids.begin(), gpu_ids.end());
            std::sort(cpu_ids.begin(), cpu_ids.end());
            ASSERT_EQ(gpu_ids, cpu_ids) << "cell " << c;
        }
    }
};

TEST_P(GpuSort, CountScanScatterMatchCpu) {
    MURMUR_REQUIRE_GL();
    Params p = sortParams();
    Flock f = spawn(p);
    f[0].p = glm::vec3(0.0f);           // world corner
    f[1].p = glm::vec3(49.9999f, 0, 0);  // far edge
    f[2].p = glm::vec3(10.0f, 10.0f, p.dims == 3 ? 10.0f : 0.0f);  // on cell borders
    gpu::GpuSimulation sim;
    sim.upload(f, p);
    expectBinnedAsCpu(sim.binOnly(), p, f);
    EXPECT_NO_GL_ERRORS();
}

INSTANTIATE_TEST_SUITE_P(Dims, GpuSort, ::testing::Values(2, 3));

// After a step the steer pass has binned what it wrote (grid_bin.glsl): the next binning uses
// those counts and ranks without a count pass, and they must be the CPU's grid of the new state.
// Radii of 2 give a grid of several scan blocks (2D 2,500 cells, 3D 9,261), so the block starts
// and the scan's last group take part.
TEST_P(GpuSort, TheSteerPassBinsTheStateItWrites) {
    MURMUR_REQUIRE_GL();
    Params p = sortParams();
    p.species[0].separation.radius = 1.0f;
    p.species[0].alignment.radius = 2.0f;
    p.species[0].cohesion.radius = 2.0f;
    ASSERT_GT(makeGridSpec(p).total(), 2u * SCAN_BLOCK);
    gpu::GpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step(3);
    const std::uint64_t before = gpu::dispatchCount();
    const auto bins = sim.binOnly();
    EXPECT_EQ(gpu::dispatchCount() - before, 4u) << "scan, scatter, order and the large cells' order: no count pass";
    const Flock f = sim.download();
    expectBinnedAsCpu(bins, p, f);
    // A new grid (cells follow the largest radius): the state is counted afresh.
    const std::uint32_t cells = makeGridSpec(p).total();
    p.species[0].alignment.radius = 6.0f;
    ASSERT_NE(makeGridSpec(p).total(), cells);
    sim.setParams(p);
    expectBinnedAsCpu(sim.binOnly(), p, f);
    EXPECT_NO_GL_ERRORS();
}

// Within each cell the sorted copy is in id order, whatever the cell's size: a cell of at most
// ORDER_SMALL_CELL boids sorted by one invocation, a larger one by a work group (on llvmpipe and
// lavapipe one invocation's loops stop after 65,535 iterations: an insertion sort of a cell of
// 1,500 boids by one invocation ended unsorted, and Cucker-Smale runs over every pair, one cell,
// did not reproduce). Cells here: one of 1,500 boids; one of 129; a grid of small ones.
TEST(GpuSort, EveryCellIsInIdOrderWhateverItsSize) {
    MURMUR_REQUIRE_GL();
    for (std::uint32_t n : {1500u, 129u, 3000u}) {
        SCOPED_TRACE(n);
        Params p;
        p.boids = n;
        p.world_size = n == 3000u ? 200.0f : 120.0f;
        if (n != 3000u) p.style = Style::CuckerSmale;  // every pair: one cell
        ASSERT_EQ(makeGridSpec(p).total() == 1u, n != 3000u);
        gpu::GpuSimulation a, b;
        a.upload(spawn(p), p);
        b.upload(spawn(p), p);
        a.step(3);
        b.step(3);
        const auto bins = a.binOnly();
        std::uint32_t slot = 0, out_of_order = 0;
        for (std::uint32_t c = 0; c < bins.count.size(); ++c)
            for (std::uint32_t k = 1; k < bins.count[c]; ++k)
                out_of_order += bins.sorted_ids[bins.start[c] + k] < bins.sorted_ids[bins.start[c] + k - 1];
        slot = bins.start.back();
        EXPECT_EQ(slot, n);
        EXPECT_EQ(out_of_order, 0u);
        a.step(2);
        b.step(2);
        EXPECT_EQ(differingBits(byId(a.download()), byId(b.download())), 0u) << "two runs, to the bit";
    }
    EXPECT_NO_GL_ERRORS();
}

// Five dispatches per step once running (scan, scatter, order, the large cells' order, steer;
// the fourth indirect, with no work group unless a cell holds more than ORDER_SMALL_CELL boids),
// whatever the size, and in wrap bounds a sixth (the image count); one more after an upload or a
// change of parameters (the count). Measuring between steps (which bins the state itself) changes
// neither the count nor the flock.
TEST(GpuStep, FiveDispatchesPerStepAndACountAfterAChange) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.dims = 3;
    p.boids = 3000;
    p.world_size = 60.0f;
    gpu::GpuSimulation sim, measured;
    sim.upload(spawn(p), p);
    measured.upload(spawn(p), p);
    auto dispatchesOf = [&](gpu::GpuSimulation& s, int steps) {
        const std::uint64_t before = gpu::dispatchCount();
        s.step(steps);
        return gpu::dispatchCount() - before;
    };
    EXPECT_EQ(dispatchesOf(sim, 1), 7u) << "the first step counts";
    EXPECT_EQ(dispatchesOf(sim, 10), 60u) << "five and the image count";
    p.species[0].alignment.weight *= 1.5f;  // any change
    sim.setParams(p);
    EXPECT_EQ(dispatchesOf(sim, 2), 13u);
    measured.step(1);
    for (int k = 0; k < 5; ++k) {  // the same 11 steps before the change
        measured.step(2);
        (void)measured.measure();
    }
    measured.setParams(p);
    measured.step(2);
    EXPECT_EQ(measured.measure().boids, p.boids);
    EXPECT_EQ(dispatchesOf(measured, 1), 2u) << "measure() binned this state: the step reuses it, its steer pass and the image count alone";
    EXPECT_EQ(dispatchesOf(sim, 1), 6u);
    EXPECT_EQ(differingBits(byId(sim.download()), byId(measured.download())), 0u) << "the same steps with and without measuring between them, to the bit";
    p.bounds = Bounds::Soft;  // no periodic images to count
    sim.setParams(p);
    sim.step(1);
    EXPECT_EQ(dispatchesOf(sim, 3), 15u);
    EXPECT_NO_GL_ERRORS();
}
