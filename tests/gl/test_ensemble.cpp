// Ensembles on the GPU (GpuSimulation::uploadEnsemble): each flock of an ensemble steps, and
// measures, to the bit as it does alone, whatever the other flocks' sizes, worlds, radii and
// seeds; and what an ensemble refuses.
#include "cpu/cpu_ensemble.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/gpu_ensemble.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/grid_spec.hpp"
#include "model/spawn.hpp"
#include "model/styles.hpp"

#include "flock_bits.hpp"
#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using namespace murmur;

namespace {

// Three flocks of one style that differ in every way an ensemble allows: size, world, radii,
// weights, speed and seed.
std::vector<Flock> spawnEach(const std::vector<Params>& params) {
    std::vector<Flock> flocks;
    for (const Params& p : params) flocks.push_back(spawn(p));
    return flocks;
}

std::vector<Params> threeFlocks(Style style, std::uint32_t dims, Bounds bounds) {
    std::vector<Params> out;
    for (int k = 0; k < 3; ++k) {
        Params p;
        p.style = style;
        p.dims = dims;
        p.bounds = bounds;
        p.boids = std::array{400u, 1500u, 60u}[std::size_t(k)];
        p.world_size = (dims == 3 ? std::array{30.0f, 45.0f, 14.0f} : std::array{120.0f, 200.0f, 40.0f})[std::size_t(k)];
        p.seed = 11u + std::uint64_t(k) * 7u;
        p.species[0].separation.radius *= 1.0f + 0.25f * float(k);
        p.species[0].alignment.weight *= 1.0f + 0.5f * float(k);
        p.species[0].max_speed *= 1.0f - 0.1f * float(k);
        out.push_back(p);
    }
    return out;
}

void expectEachFlockIsItself(const std::vector<Params>& params, int steps) {
    const std::vector<Flock> flocks = spawnEach(params);
    gpu::GpuSimulation ensemble;
    ensemble.uploadEnsemble(flocks, params);
    ASSERT_EQ(ensemble.flockCount(), 3u);
    ensemble.step(steps);
    const std::vector<OrderParams> all = ensemble.measureFlocks();  // every flock in one set of passes
    ASSERT_EQ(all.size(), 3u);
    for (std::uint32_t k = 0; k < 3; ++k) {
        gpu::GpuSimulation alone;
        alone.upload(flocks[k], params[k]);
        alone.step(steps);
        const Flock got = byId(ensemble.downloadFlock(k)), want = byId(alone.download());
        const OrderParams alone_measured = alone.measure();
        expectSameMeasures(ensemble.measureFlock(k), alone_measured, "flock " + std::to_string(k) + " measured alone in the ensemble");
        expectSameMeasures(all[k], alone_measured, "flock " + std::to_string(k) + " measured with all flocks at once");
        ASSERT_EQ(got.size(), want.size()) << "flock " << k;
        EXPECT_EQ(differingBits(got, want), 0u) << "flock " << k << " of the ensemble against itself alone, " << steps << " steps";
        EXPECT_NE(differingBits(got, byId(flocks[k])), 0u) << "flock " << k << " moved";
    }
}

void expectEachFlockIsItself(Style style, std::uint32_t dims, Bounds bounds, int steps) {
    expectEachFlockIsItself(threeFlocks(style, dims, bounds), steps);
}

}  // namespace

TEST(GpuEnsemble, EachFlockStepsAsItDoesAlone2D) {
    MURMUR_REQUIRE_GL();
    expectEachFlockIsItself(Style::Graded, 2, Bounds::Wrap, 40);
    EXPECT_NO_GL_ERRORS();
}

TEST(GpuEnsemble, EachFlockStepsAsItDoesAlone3DSoftWalls) {
    MURMUR_REQUIRE_GL();
    expectEachFlockIsItself(Style::Steering, 3, Bounds::Soft, 40);
    EXPECT_NO_GL_ERRORS();
}

// Open sky, each flock with the adaptive radius (its R per boid in the stored slot, each flock its
// own target and ceiling): every flock's bits as alone.
TEST(GpuEnsemble, EachFlockStepsAsItDoesAloneInOpenSkyWithTheAdaptiveRadius) {
    MURMUR_REQUIRE_GL();
    std::vector<Params> params = threeFlocks(Style::Graded, 3, Bounds::Open);
    for (std::size_t k = 0; k < params.size(); ++k) params[k].topological = {6.5f + float(k), 4.0f + float(k), 0.2f};
    expectEachFlockIsItself(params, 30);
    EXPECT_NO_GL_ERRORS();
}

TEST(GpuEnsemble, EachFlockStepsAsItDoesAloneInEveryStyle) {
    MURMUR_REQUIRE_GL();
    for (const StyleInfo& s : styles()) {
        SCOPED_TRACE(s.name);
        expectEachFlockIsItself(s.style, 2, Bounds::Wrap, 25);
    }
    EXPECT_NO_GL_ERRORS();
}

namespace {

// Three flocks of `style`, obstacles in the second alone.
std::vector<Params> obstaclesInFlockOne(Style style, std::uint32_t dims) {
    std::vector<Params> params = threeFlocks(style, dims, Bounds::Wrap);
    const float L = params[1].world_size, z = dims == 3 ? 0.5f : 0.0f;
    params[1].obstacles = {{{0.3f * L, 0.4f * L, z * L}, 0.15f * L}, {{0.7f * L, 0.7f * L, z * L}, 0.1f * L}};
    return params;
}

}  // namespace

// Obstacles in one flock compile the obstacle loops in for all (OBSTACLES: ensembleVariantParams);
// the flocks without any, built alone without those loops, still step to the same bits, and the
// flock with obstacles meets them (it differs from itself without). Also after the programs are
// built again (reloadShaders), and in every style (2D: each style's own use of the obstacles).
TEST(GpuEnsemble, ObstaclesInOneFlockLeaveTheOthersAsTheyAreAlone) {
    MURMUR_REQUIRE_GL();
    for (std::uint32_t dims : {2u, 3u}) {
        SCOPED_TRACE(dims);
        std::vector<Params> params = obstaclesInFlockOne(Style::Steering, dims);
        ASSERT_NE(gpu::variantOf(params[1]), gpu::variantOf(params[0])) << "obstacles are a switch of their own";
        expectEachFlockIsItself(params, 30);

        gpu::GpuSimulation reloaded, alone;
        reloaded.uploadEnsemble(spawnEach(params), params);
        reloaded.reloadShaders(gl::ShaderLibrary{});
        reloaded.step(20);
        alone.upload(spawn(params[1]), params[1]);
        alone.step(20);
        EXPECT_EQ(differingBits(byId(reloaded.downloadFlock(1)), byId(alone.download())), 0u) << "flock 1 after reloadShaders";

        // A sampled step's own steer pass (requestSample with the next step) is built for the same flocks.
        gpu::GpuSimulation plain, sampled;
        plain.uploadEnsemble(spawnEach(params), params);
        sampled.uploadEnsemble(spawnEach(params), params);
        plain.step(20);
        sampled.step(20);
        const SampleTicket ticket = sampled.requestSample(SampleWhen::WithNextStep);
        plain.step(1);
        sampled.step(1);
        EXPECT_EQ(sampled.takeFlockSamples(ticket).size(), 3u);
        for (std::uint32_t k = 0; k < 3; ++k)
            EXPECT_EQ(differingBits(byId(sampled.downloadFlock(k)), byId(plain.downloadFlock(k))), 0u) << "flock " << k << ": the sampled step";

        gpu::GpuSimulation with, without;
        const Flock start = spawn(params[1]);
        with.upload(start, params[1]);
        Params none = params[1];
        none.obstacles.clear();
        without.upload(start, none);
        with.step(30);
        without.step(30);
        EXPECT_GT(differingBits(byId(with.download()), byId(without.download())), 100u) << "the obstacles changed the flight";
    }
    for (const StyleInfo& s : styles()) {
        SCOPED_TRACE(s.name);
        expectEachFlockIsItself(obstaclesInFlockOne(s.style, 2), 15);
    }
    EXPECT_NO_GL_ERRORS();
}

// A sample of all flocks dispatches one work group a flock for its sums and its largest groups;
// past MAX_DISPATCH_X flocks that goes in rows (forced here at 2 a row: three flocks, two rows, one
// padding group), and each flock's figures are still its own to the bit.
TEST(GpuEnsemble, AllFlocksAtOnceInDispatchRowsAreEachFlocksOwn) {
    MURMUR_REQUIRE_GL();
    std::vector<Params> params = threeFlocks(Style::Graded, 2, Bounds::Wrap);
    const std::vector<Flock> flocks = spawnEach(params);
    gpu::GpuSimulation ensemble;
    ensemble.uploadEnsemble(flocks, params);
    ensemble.step(30);
    gpu::setDispatchRowLimit(2);
    const std::vector<OrderParams> all = ensemble.measureFlocks();
    gpu::setDispatchRowLimit(MAX_DISPATCH_X);
    ASSERT_EQ(all.size(), 3u);
    for (std::uint32_t k = 0; k < 3; ++k) {
        const OrderParams one = ensemble.measureFlock(k);
        EXPECT_GT(one.largest_groups[0].boids, 0u) << "flock " << k << " has groups to list";
        expectSameMeasures(all[k], one, "flock " + std::to_string(k) + " in dispatch rows");
    }
    EXPECT_NO_GL_ERRORS();
}

TEST(GpuEnsemble, RefusesFlocksThatNeedOtherShadersOrTheSequentialOrder) {
    MURMUR_REQUIRE_GL();
    std::vector<Params> params = threeFlocks(Style::Graded, 2, Bounds::Wrap);
    const std::vector<Flock> flocks = spawnEach(params);
    gpu::GpuSimulation sim;
    params[2].dims = 3;
    try {
        sim.uploadEnsemble(flocks, params);
        ADD_FAILURE() << "a 3D flock in a 2D ensemble was taken";
    } catch (const std::invalid_argument& e) {  // the user's words first, the differing switches last
        const std::string said = e.what();
        EXPECT_EQ(said.rfind("flock 2 (graded, 3D, wrap) cannot step with flock 0 (graded, 2D, wrap) on the GPU", 0), 0u) << said;
        EXPECT_NE(said.find("Differing switches: DIMS 3 vs 2"), std::string::npos) << said;
        EXPECT_EQ(said.find("STYLE_GLSL"), std::string::npos) << "only the switches that differ: " << said;
    }
    params[2].dims = 2;
    params[1].update = UpdateOrder::Sequential;
    EXPECT_THROW(sim.uploadEnsemble(flocks, params), std::invalid_argument);
    params[1].update = UpdateOrder::Parallel;
    params.pop_back();
    EXPECT_THROW(sim.uploadEnsemble(flocks, params), std::invalid_argument) << "three flocks, two parameter sets";
    EXPECT_NO_GL_ERRORS();
}

// The same ensemble on both backends: the CPU reference steps each flock in turn (each to the bit
// what it is alone), the GPU all at once; after three steps every boid of every flock within the
// multi-step parity tolerances (1e-3 units, 1e-2 units/s: float sums in another order).
TEST(GpuEnsemble, MatchesTheCpuReferenceEnsemble) {
    MURMUR_REQUIRE_GL();
    for (std::uint32_t dims : {2u, 3u}) {
        SCOPED_TRACE(dims);
        const std::vector<Params> params = threeFlocks(Style::Graded, dims, Bounds::Wrap);
        const std::vector<Flock> flocks = spawnEach(params);
        CpuEnsemble cpu;
        gpu::GpuEnsemble gpu;
        cpu.upload(flocks, params);
        gpu.upload(flocks, params);
        cpu.step(3);
        gpu.step(3);
        ASSERT_EQ(cpu.flocks(), 3u);
        for (std::uint32_t k = 0; k < 3; ++k) {
            const Flock a = byId(cpu.download(k)), b = byId(gpu.download(k));
            ASSERT_EQ(a.size(), b.size());
            float dp = 0.0f, dv = 0.0f;
            for (std::size_t i = 0; i < a.size(); ++i) {
                dp = std::max(dp, glm::length(a[i].p - b[i].p));
                dv = std::max(dv, glm::length(a[i].v - b[i].v));
            }
            EXPECT_LE(dp, 1e-3f) << "flock " << k;
            EXPECT_LE(dv, 1e-2f) << "flock " << k;
            CpuSimulation alone;
            alone.upload(flocks[k], params[k]);
            alone.step(3);
            EXPECT_EQ(differingBits(a, byId(alone.download())), 0u) << "the CPU's flock " << k << " is itself alone";
        }
    }
    EXPECT_NO_GL_ERRORS();
}

// One simulation reused for a flock with a larger grid (as a run-by-run sweep does) measures
// that flock as a new simulation does. On zink (Mesa 22.3) it did not until ZINK_INLINE_UNIFORMS
// was set false (gl::workAroundDriverBugs): a stale specialisation of the scan's cell count
// shifted every cell's start from the old grid's size on.
TEST(GpuEnsemble, AReusedSimulationBinsAGrownGridAsANewOne) {
    MURMUR_REQUIRE_GL();
    std::vector<Params> params(2);
    params[0].boids = params[1].boids = 100;
    params[0].world_size = 60.0f;
    params[1].world_size = 90.0f;
    ASSERT_NE(makeGridSpec(params[0]).total(), makeGridSpec(params[1]).total());
    gpu::GpuSimulation reused, fresh;
    reused.upload(spawn(params[0]), params[0]);
    reused.step(1);
    (void)reused.measure();
    reused.upload(spawn(params[1]), params[1]);
    fresh.upload(spawn(params[1]), params[1]);
    reused.step(1);
    fresh.step(1);
    const auto a = reused.binOnly(), b = fresh.binOnly();
    EXPECT_EQ(a.start, b.start) << "cell starts";
    EXPECT_EQ(a.sorted_ids, b.sorted_ids);
    EXPECT_EQ(reused.measure().polarization, fresh.measure().polarization);
    EXPECT_NO_GL_ERRORS();
}
