// The GPU's scan and counting sort on their own, against the CPU versions, at sizes that cross
// block boundaries (1, one block, one block + 1, many blocks, more than one level of blocks).
#include "cpu/flock_rules.hpp"
#include "cpu/grid.hpp"
#include "gl_env.hpp"
#include "gpu/gpu_simulation.hpp"
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

// SCAN_BLOCK = 1024 elements per work group; 1024*1024 + 1 needs a third level.
INSTANTIATE_TEST_SUITE_P(Sizes, GpuScan,
                         ::testing::Values(1u, 2u, 255u, 1024u, 1025u, 4096u + 17u, 1024u * 1024u + 1u, 3000000u));

class GpuSort : public ::testing::TestWithParam<int> {};

TEST_P(GpuSort, CountScanScatterMatchCpu) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.dims = GetParam();
    p.world_size = 50.0f;
    p.boids = 5000;
    Flock f = spawn(p);
    f[0].p = glm::vec3(0.0f);           // world corner
    f[1].p = glm::vec3(49.9999f, 0, 0);  // far edge
    f[2].p = glm::vec3(10.0f, 10.0f, p.dims == 3 ? 10.0f : 0.0f);  // on cell borders
    gpu::GpuSimulation sim;
    sim.upload(f, p);
    const auto bins = sim.binOnly();
    UniformGrid grid;
    grid.build(makeGridSpec(p), f, RuleContext(p).L);
    EXPECT_EQ(bins.count, grid.counts());
    EXPECT_EQ(bins.start, grid.starts());
    // Within a cell the GPU's order depends on atomics; compare each cell's ids as a set.
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
    EXPECT_NO_GL_ERRORS();
}

INSTANTIATE_TEST_SUITE_P(Dims, GpuSort, ::testing::Values(2, 3));
