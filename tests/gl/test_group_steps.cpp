// Small flocks stepped many steps a dispatch in work groups (flock_steps.comp,
// GpuSimulation::enableStepsInGroups): the same bits as the step's passes one step at a time,
// alone and in ensembles, with or without a sample taken on the way; the path taken exactly where
// it applies, in as many dispatches as llvmpipe's loop budget allows; with the ordered flock in
// shared memory (what a GPU takes) and in images (what llvmpipe takes) alike.
#include "gpu/dispatch.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/spawn.hpp"
#include "model/styles.hpp"

#include "flock_bits.hpp"
#include "gl_env.hpp"
#include "row_limit.hpp"

#include <gtest/gtest.h>

#include <array>
#include <string>

using namespace murmur;

namespace {

using Memory = gpu::GpuSimulation::GroupMemory;
constexpr Memory kMemories[] = {Memory::Shared, Memory::Images};
std::string nameOf(Memory m) { return m == Memory::Shared ? "shared memory" : "images"; }

// A flock whose grid lists every cell around each boid: a world of 2.4 (wrapped: 4 cells an axis,
// the most a boid's list holds being 5) or 1.4 (walled: 2, of at most 3) of its largest radius a
// side (the grid's cells are at least half the radius).
Params smallFlock(Style style, std::uint32_t dims, Bounds bounds, std::uint32_t boids, std::uint64_t seed) {
    Params p;
    p.style = style;
    p.dims = dims;
    p.bounds = bounds;
    p.boids = boids;
    p.seed = seed;
    p.world_size = (bounds == Bounds::Wrap ? 2.4f : 1.4f) * p.largestRadius();
    return p;
}

struct Stepped {
    Flock by_slot;  // as the state buffers hold it (what download() and the renderer read)
    Flock by_id;
    std::vector<std::uint32_t> neighbours;
    std::uint64_t dispatches = 0;  // while stepping
    OrderParams sample;            // of the state after `steps` steps, taken with the next step
};

// `steps` steps of one flock, in work groups (the ordered flock in `memory`) or step by step; with
// `steps_after`, a sample then taken with that many more steps (requestSample with the next step).
Stepped runAlone(const Flock& flock, const Params& p, int steps, bool in_groups, Memory memory = Memory::Auto, int steps_after = 0) {
    gpu::GpuSimulation sim;
    sim.enableStepsInGroups(in_groups, memory);
    sim.upload(flock, p);
    const std::uint64_t before = gpu::dispatchCount();
    sim.step(steps);
    Stepped r;
    r.dispatches = gpu::dispatchCount() - before;
    if (steps_after > 0) {
        const SampleTicket ticket = sim.requestSample(SampleWhen::WithNextStep);
        sim.step(steps_after);
        r.sample = sim.takeSample(ticket);
    }
    r.by_slot = sim.download();
    r.by_id = byId(r.by_slot);
    r.neighbours = sim.neighbourCounts();
    return r;
}

void expectSameRuns(const Stepped& got, const Stepped& want, const Flock& start, const std::string& what) {
    ASSERT_EQ(got.by_id.size(), want.by_id.size()) << what;
    EXPECT_EQ(differingBits(got.by_id, want.by_id), 0u) << what;
    ASSERT_EQ(got.by_slot.size(), want.by_slot.size()) << what;
    for (std::size_t i = 0; i < got.by_slot.size(); ++i)
        ASSERT_EQ(got.by_slot[i].id, want.by_slot[i].id) << what << ": slot " << i << " holds another boid";
    EXPECT_EQ(got.neighbours, want.neighbours) << what;
    EXPECT_NE(differingBits(got.by_id, byId(start)), 0u) << what << ": moved";
}

// Steps in work groups against steps one by one: the same bits, in `dispatches` dispatches
// against at least four a step.
void expectGroupStepsAreSteps(const Params& p, int steps, std::uint64_t dispatches, const std::string& what) {
    const Flock start = spawn(p);
    const Stepped off = runAlone(start, p, steps, false);
    EXPECT_GE(off.dispatches, 4u * std::uint64_t(steps)) << what;
    for (Memory m : kMemories) {
        const Stepped on = runAlone(start, p, steps, true, m);
        expectSameRuns(on, off, start, what + ", " + nameOf(m));
        EXPECT_EQ(on.dispatches, dispatches) << what << ", " << nameOf(m);
    }
}

}  // namespace

TEST(GpuGroupSteps, ManyStepsADispatchAreTheStepsOneByOneInEveryStyleThatTakesThem) {
    MURMUR_REQUIRE_GL();
    int styles_taken = 0;
    for (const StyleInfo& s : styles()) {
        if (s.traits.keeps_steer) continue;  // state flock_steps.comp does not carry: the passes step it
        SCOPED_TRACE(s.name);
        expectGroupStepsAreSteps(smallFlock(s.style, 3, Bounds::Wrap, 64, 5), 30, 1, "3D, wrapped");
        expectGroupStepsAreSteps(smallFlock(s.style, 2, Bounds::Soft, 100, 6), 30, 1, "2D, soft walls");
        ++styles_taken;
    }
    EXPECT_GE(styles_taken, 6);
    EXPECT_NO_GL_ERRORS();
}

// 256 boids with a neighbour cap of 3 and two species: 256 + 2 x 264 x 4 + 32 = 2,400 loop
// iterations a step, so 25 steps a dispatch (kLoopBudget 60,000) and 60 steps in three. Were the
// count short of what the pass runs, llvmpipe would cut its loops and the bits would differ.
TEST(GpuGroupSteps, TheLoopBudgetSplitsTheStepsIntoDispatches) {
    MURMUR_REQUIRE_GL();
    Params p = smallFlock(Style::Steering, 2, Bounds::Wrap, 256, 7);
    p.neighbour_cap = 3;
    p.species_count = 2;
    expectGroupStepsAreSteps(p, 60, 3, "256 boids, cap 3, two species");
    EXPECT_NO_GL_ERRORS();
}

// A flock of `boids` in a world of `radii` of its largest radius a side (the grid: floor(2 radii)
// cells an axis, within the cell budget of 2N).
Params inWorldOf(float radii, Bounds bounds, std::uint32_t boids) {
    Params p = smallFlock(Style::Couzin, 3, bounds, boids, 8);
    p.world_size = radii * p.largestRadius();
    return p;
}

// Where the path does not apply the passes step: a flock past a work group, a grid of more cells
// an axis than a boid's list holds (6 wrapped, 4 walled), a single step. At the edges it does:
// 256 boids, 5 cells an axis wrapped, 3 walled, two steps.
TEST(GpuGroupSteps, TakenWhereTheFlockFitsAWorkGroupAndItsGridListsEveryCell) {
    MURMUR_REQUIRE_GL();
    expectGroupStepsAreSteps(inWorldOf(2.4f, Bounds::Wrap, 256), 12, 1, "256 boids");
    expectGroupStepsAreSteps(inWorldOf(2.9f, Bounds::Wrap, 200), 12, 1, "5 cells an axis, wrapped");
    expectGroupStepsAreSteps(inWorldOf(1.9f, Bounds::Soft, 200), 12, 1, "3 cells an axis, walled");
    expectGroupStepsAreSteps(inWorldOf(2.4f, Bounds::Wrap, 100), 2, 1, "two steps");
    {
        const Params p = inWorldOf(2.4f, Bounds::Wrap, 100);
        const Stepped one = runAlone(spawn(p), p, 1, true);
        EXPECT_GE(one.dispatches, 4u) << "one step: the passes";
    }
    for (const auto& [p, what] : {std::pair{inWorldOf(2.4f, Bounds::Wrap, 257), "257 boids"},
                                  std::pair{inWorldOf(3.2f, Bounds::Wrap, 200), "6 cells an axis, wrapped"},
                                  std::pair{inWorldOf(2.4f, Bounds::Soft, 200), "4 cells an axis, walled"}}) {
        const Flock start = spawn(p);
        const Stepped on = runAlone(start, p, 12, true), off = runAlone(start, p, 12, false);
        expectSameRuns(on, off, start, what);
        EXPECT_GE(on.dispatches, 4u * 12u) << what << ": the passes step it";
    }
    EXPECT_NO_GL_ERRORS();
}

// Every feature a flock in work groups may have: a neighbour cap of 1, an obstacle, three
// species with predators, a view cone, the leader, in 3D behind soft walls.
TEST(GpuGroupSteps, EveryFeatureOfAFlockInWorkGroupsStepsAsByThePasses) {
    MURMUR_REQUIRE_GL();
    Params p = smallFlock(Style::Steering, 3, Bounds::Soft, 150, 12);
    const float L = p.world_size;
    p.neighbour_cap = 1;
    p.obstacles = {{{0.3f * L, 0.4f * L, 0.5f * L}, 0.1f * L}};
    p.species_count = 3;
    p.roles[2].predator = true;
    p.roles[2].share = 0.2f;
    p.roles[0].flee = {0.5f * L, 2.0f};
    p.species[0].fov_deg = 240.0f;
    p.leader = true;
    expectGroupStepsAreSteps(p, 40, 1, "cap 1, obstacle, predators, view cone, leader");
    EXPECT_NO_GL_ERRORS();
}

// A sample taken with the next step: that step takes the passes (its walk measures), the rest
// one dispatch; the sample and the state are those of the steps one by one.
TEST(GpuGroupSteps, ASampleTakenWithTheNextStepIsTheSameSample) {
    MURMUR_REQUIRE_GL();
    const Params p = smallFlock(Style::Couzin, 3, Bounds::Wrap, 100, 9);
    const Flock start = spawn(p);
    const Stepped off = runAlone(start, p, 40, false, Memory::Auto, 20);
    EXPECT_GT(off.sample.boids, 0u);
    for (Memory m : kMemories) {
        const Stepped on = runAlone(start, p, 40, true, m, 20);
        expectSameRuns(on, off, start, "after the sampled steps, " + nameOf(m));
        expectSameMeasures(on.sample, off.sample, "the sample, " + nameOf(m));
    }
    EXPECT_NO_GL_ERRORS();
}

// Five flocks of different sizes (1 to 256 boids), worlds, zones, seeds and obstacles (one flock's) in one dispatch, its
// work groups in rows of two (three rows, one padding group): each flock is itself alone, and the
// ensemble is the ensemble stepped by the passes, to the bit, state and measures.
TEST(GpuGroupSteps, AnEnsembleOfSmallFlocksStepsEachFlockAsAlone) {
    MURMUR_REQUIRE_GL();
    std::vector<Params> params;
    std::vector<Flock> flocks;
    for (std::uint32_t k = 0; k < 5; ++k) {
        Params p = smallFlock(Style::Couzin, 3, Bounds::Wrap, std::array{100u, 37u, 256u, 1u, 64u}[k], 20 + k);
        p.couzin.orientation_width *= 1.0f + 0.3f * float(k);
        p.world_size = (2.4f - 0.2f * float(k)) * p.largestRadius();
        if (k == 2) p.obstacles = {{{0.5f * p.world_size, 0.4f * p.world_size, 0.6f * p.world_size}, 0.15f * p.world_size}};  // compiled in for all
        params.push_back(p);
        flocks.push_back(spawn(p));
    }
    const RowLimit rows(2);
    gpu::GpuSimulation off;
    off.enableStepsInGroups(false);
    off.uploadEnsemble(flocks, params);
    off.step(30);
    const std::vector<OrderParams> off_measured = off.measureFlocks();
    for (Memory m : kMemories) {
        gpu::GpuSimulation on;
        on.enableStepsInGroups(true, m);
        on.uploadEnsemble(flocks, params);
        const std::uint64_t before = gpu::dispatchCount();
        on.step(30);
        EXPECT_EQ(gpu::dispatchCount() - before, 1u) << "one dispatch (in three rows), " << nameOf(m);
        const std::vector<OrderParams> on_measured = on.measureFlocks();
        for (std::uint32_t k = 0; k < 5; ++k) {
            const std::string what = "flock " + std::to_string(k) + ", " + nameOf(m);
            const Stepped alone = runAlone(flocks[k], params[k], 30, true, m);
            const Flock got = byId(on.downloadFlock(k));
            EXPECT_EQ(differingBits(got, byId(off.downloadFlock(k))), 0u) << what << " against the ensemble stepped by the passes";
            EXPECT_EQ(differingBits(got, alone.by_id), 0u) << what << " against itself alone";
            expectSameMeasures(on_measured[k], off_measured[k], what + " measured");
            if (params[k].boids > 1) {
                EXPECT_NE(differingBits(got, byId(flocks[k])), 0u) << what << " moved";
            }
        }
    }
    EXPECT_NO_GL_ERRORS();
}
