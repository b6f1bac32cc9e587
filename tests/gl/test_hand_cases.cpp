// The hand-computed cases (tests/no_gl/hand_cases.hpp) through the GPU pipeline: the GPU held to
// the same arithmetic as the CPU reference, independently of parity.
#include "no_gl/hand_cases.hpp"
#include "no_gl/source_cases.hpp"
#include "cpu/grid.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/gpu_simulation.hpp"
#include "gpu/variant.hpp"
#include "no_gl/resume_case.hpp"
#include "model/spawn.hpp"
#include "model/styles.hpp"

#include "flock_bits.hpp"
#include "gl_env.hpp"

#include <cstdlib>

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <cstring>
#include <vector>

using namespace murmur;
using namespace murmur::test;

TEST(GpuHandCases, EveryCaseByHand) {
    MURMUR_REQUIRE_GL();
    gpu::GpuSimulation gpu;
    for (const HandCase& c : handCases()) expectHandCase(gpu, c);
    EXPECT_NO_GL_ERRORS();
}

TEST(GpuSlices, ASlicedStepEqualsOneDispatchAndCanBeInterrupted) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 3000;  // 12 work groups of 256
    p.world_size = 150.0f;
    const Flock start = spawn(p);
    gpu::GpuSimulation whole, sliced;
    whole.upload(start, p);
    int calls = 0;
    sliced.setInterruptInSlices([&] { return ++calls < 0; }, 5, 0.0);  // in slices of 5 groups
    sliced.upload(start, p);
    whole.step(4);
    sliced.step(4);
    // 12 groups of 256 boids, 3 slices a step (the tiled walk, MURMUR_GPU_WALK=tiles: 47 of 64 in
    // slices of 20, as many boids a slice).
    EXPECT_EQ(calls, 12);
    EXPECT_FALSE(sliced.interrupted());
    // By id: the scatter's order within a cell, and so the rounding of sums, may differ between
    // two GPU runs; a boid a slice missed would be a whole step (v dt ~ 0.3 units) behind.
    const Flock a = byId(whole.download()), b = byId(sliced.download());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        differ += glm::length(a[i].p - b[i].p) > 1e-3f || glm::length(a[i].v - b[i].v) > 1e-2f;
    EXPECT_EQ(differ, 0u) << "slicing the dispatch changes nothing (beyond 1e-3 units, 1e-2 units/s)";
    // Asked to stop after the second slice: the stepping stops and later steps do nothing.
    gpu::GpuSimulation stopped;
    calls = 0;
    stopped.setInterruptInSlices([&] { return ++calls >= 2; }, 5, 0.0);
    stopped.upload(start, p);
    stopped.step(3);
    EXPECT_TRUE(stopped.interrupted());
    EXPECT_EQ(calls, 2);
    stopped.step(1);
    EXPECT_EQ(calls, 2);
    EXPECT_NO_GL_ERRORS();
}

// A thin 3D flock (about one boid a cell, 15 cells an axis) with a clump of 2,500 of its boids in
// the first two cells of one row: the tiled walk (MURMUR_GPU_WALK=tiles) stages a group's rows
// in shared memory, and the row through the clump overflows the tile (read from the sorted copy)
// while the others are staged; rows cross the wrap.
Flock thinFlockWithAClump(Params& p) {
    p.dims = 3;
    p.boids = 4500;
    p.world_size = 8.0f * p.largestRadius();
    Flock flock = spawn(p);
    const float cell = p.world_size / float(makeGridSpec(p).cells.x);
    for (std::size_t i = 2000; i < flock.size(); ++i) {
        const float f = float(i);
        flock[i].p = glm::vec3(cell * (0.05f + 1.9f * std::fmod(f * 0.618034f, 1.0f)), cell * (3.05f + 0.9f * std::fmod(f * 0.754877f, 1.0f)),
                               cell * (5.05f + 0.9f * std::fmod(f * 0.569840f, 1.0f)));
    }
    return flock;
}

// Same seed, same parameters, same driver: the same flock to the bit after any number of steps
// (grid_order.comp puts each cell's boids in id order, so every sum runs in the same order).
TEST(GpuRuns, AreReproducibleToTheBit) {
    MURMUR_REQUIRE_GL();
    for (int kind : {0, 1, 2}) {
        // The default graded flock with wander; decarpentier's style with perching; a thin 3D flock
        // with a clump (20 steps).
        const bool decarpentier = kind == 1;
        Params p;
        p.boids = 3000;
        p.world_size = 360.0f;
        if (decarpentier) {
            p.style = Style::Decarpentier;
            p.perching = true;
            p.perch_ground = 100.0f;
        }
        const Flock start = kind == 2 ? thinFlockWithAClump(p) : spawn(p);
        std::vector<Flock> runs;
        for (int run = 0; run < 4; ++run) {
            // Run 2 on the other read path (MURMUR_GPU_READS): the same bits through textures or
            // storage; run 3 on the other walk (MURMUR_GPU_WALK): each boid its rows, or tiles.
            const std::string reads = gpu::sortedReadsName(gpu::sortedReads()), walk = gpu::cellWalkName(gpu::cellWalk());
            if (run == 2) ::setenv("MURMUR_GPU_READS", reads == "storage" ? "textures" : "storage", 1);
            if (run == 3) ::setenv("MURMUR_GPU_WALK", walk == "tiles" ? "rows" : "tiles", 1);
            gpu::GpuSimulation gpu;
            gpu.upload(start, p);
            gpu.step(kind == 2 ? 20 : 300);
            runs.push_back(byId(gpu.download()));
            if (run == 2) ::setenv("MURMUR_GPU_READS", reads.c_str(), 1);
            if (run == 3) ::setenv("MURMUR_GPU_WALK", walk.c_str(), 1);
        }
        for (int run = 1; run < 4; ++run) {
            std::size_t differ = 0;
            for (std::size_t i = 0; i < start.size(); ++i) {
                const Boid &a = runs[0][i], &b = runs[std::size_t(run)][i];
                differ += std::memcmp(&a.p, &b.p, sizeof a.p) != 0 || std::memcmp(&a.v, &b.v, sizeof a.v) != 0 ||
                          a.perch != b.perch || std::memcmp(&a.steer, &b.steer, sizeof a.steer) != 0;
            }
            EXPECT_EQ(differ, 0u) << (decarpentier ? "decarpentier" : kind == 2 ? "a clump" : "graded") << ": run " << run << " differs from run 0"
                                  << (run == 2 ? " (the other read path)" : run == 3 ? " (the other walk)" : "");
        }
    }
    EXPECT_NO_GL_ERRORS();
}

// Dispatches over 65,535 work groups are split into rows (src/gpu/dispatch.hpp), which only
// flocks of 16.7M boids (33.6M for the scan) reach. With the row limit lowered, every pass takes
// the split path here: the scan still equals the CPU's, and a step and the measures are the same
// as with one row, to the bit.
TEST(GpuRows, SplitDispatchesGiveTheSameResults) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 3000;  // 12 work groups of 256; rows of 5 leave 3 padding groups
    p.world_size = 360.0f;
    const Flock start = spawn(p);
    auto run = [&](std::uint32_t row) {
        gpu::setDispatchRowLimit(row);
        gpu::GpuSimulation gpu;
        gpu.upload(start, p);
        gpu.step(20);
        const Flock by_id = byId(gpu.download());
        const OrderParams o = gpu.measure();
        std::vector<std::uint32_t> values(70000);  // 69 scan blocks: rows of 5 and 14 rows
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = std::uint32_t((i * 2654435761u) >> 28);
        const auto scanned = gpu.scan(values);
        gpu::setDispatchRowLimit(MAX_DISPATCH_X);
        EXPECT_EQ(scanned, exclusiveScan(values)) << "rows of " << row;
        return std::make_pair(by_id, o);
    };
    const auto [one, one_o] = run(MAX_DISPATCH_X);
    const auto [split, split_o] = run(5);
    EXPECT_EQ(differingBits(one, split), 0u);
    EXPECT_EQ(one_o.polarization, split_o.polarization);
    EXPECT_EQ(one_o.nn_histogram, split_o.nn_histogram);
    EXPECT_EQ(one_o.mean_neighbours, split_o.mean_neighbours);
    EXPECT_NO_GL_ERRORS();
}

TEST(GpuSourceCases, EveryPresetStepsAsItsSourceOnTheGpu) {
    MURMUR_REQUIRE_GL();
    gpu::GpuSimulation gpu;
    for (const HandCase& c : sourceCases()) expectHandCase(gpu, c);
    EXPECT_NO_GL_ERRORS();
}

TEST(GpuRuns, AResumedRunIsBitForBitTheUninterruptedOne) {
    // 100 steps, the state file (with perch timers, stored steering and "# step"), 100 more: the
    // same bits as 200 steps straight, on the GPU as on the CPU (tests/no_gl/test_io.cpp).
    MURMUR_REQUIRE_GL();
    for (const StyleInfo& info : styles()) {  // every style; the ones that keep steering matter most
        const Style style = info.style;
        const Params p = resumeParams(style);
        gpu::GpuSimulation straight, first, resumed;
        EXPECT_EQ(resumeAgainstStraight(straight, first, resumed, p).differ, 0u)
            << info.name << ": boids that differ after the resume";
    }
    EXPECT_NO_GL_ERRORS();
}
