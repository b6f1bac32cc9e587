// Picking on the GPU (boid_under.comp through GpuSimulation::pick) against the CPU rule
// (render::pickBoid) on the same flocks and pointers, 2D and 3D; and what a pick reads back.
#include "gl/buffer.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/spawn.hpp"
#include "render/camera.hpp"
#include "render/picking.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace murmur;

namespace {

const glm::vec2 kViewport{800.0f, 600.0f};

// Each pointer is picked on both backends. The two project with different float operations
// (the driver's matrix product may fuse), so a pointer almost equidistant from two boids may
// pick either: a differing pick must then be within 1e-3 px (and, in 3D, 1e-3 units of depth)
// of the CPU's on both measures. Returns how many pointers picked a boid.
int expectSamePicks(std::uint32_t dims, std::uint32_t seed) {
    Params p;
    p.dims = dims;
    p.boids = 3000;
    p.world_size = 100.0f;
    p.seed = seed;
    const Flock flock = spawn(p);
    gpu::GpuSimulation sim;
    sim.upload(flock, p);
    render::Camera camera;
    camera.setAspect(kViewport.x / kViewport.y);
    camera.reset(p);
    if (dims == 3) camera.orbit(120.0f, 40.0f);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> x(0.0f, kViewport.x), y(0.0f, kViewport.y);
    int found = 0;
    for (int k = 0; k < 200; ++k) {
        const PickQuery q = render::pickQuery(camera, kViewport, {x(rng), y(rng)}, k % 2 == 0 ? 12.0f : 2.0f);
        const auto cpu = render::pickBoid(flock, q);
        const auto gpu = sim.pick(q);
        EXPECT_EQ(cpu.has_value(), gpu.has_value()) << "pointer " << k;
        if (!cpu || !gpu) continue;
        ++found;
        const Boid& want = flock[*cpu];
        if (*gpu == want.id) continue;
        EXPECT_LT(*gpu, flock.size());
        if (*gpu >= flock.size()) continue;
        const Boid& got = flock[*gpu];  // spawn gives slot i id i
        EXPECT_EQ(got.id, *gpu);
        EXPECT_NEAR(*render::screenDistance(q, got.p), *render::screenDistance(q, want.p), 1e-3) << "pointer " << k;
        EXPECT_NEAR(glm::length(got.p - q.eye), glm::length(want.p - q.eye), dims == 3 ? 1e-3 : 1e9) << "pointer " << k;
    }
    return found;
}

}  // namespace

TEST(GpuPick, PicksTheBoidTheCpuRulePicksIn2D) {
    MURMUR_REQUIRE_GL();
    const int found = expectSamePicks(2, 3);
    EXPECT_GT(found, 20) << "many pointers find a boid in a flock of 3000";
    EXPECT_LT(found, 200) << "some 2 px pointers find none";
    EXPECT_NO_GL_ERRORS();
}

TEST(GpuPick, PicksTheBoidTheCpuRulePicksIn3D) {
    MURMUR_REQUIRE_GL();
    const int found = expectSamePicks(3, 5);
    EXPECT_GT(found, 20);
    EXPECT_LT(found, 200);
    EXPECT_NO_GL_ERRORS();
}

TEST(GpuPick, APickReadsBackSixteenBytes) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 20000;
    p.world_size = 300.0f;
    gpu::GpuSimulation sim;
    sim.upload(spawn(p), p);
    render::Camera camera;
    camera.setAspect(kViewport.x / kViewport.y);
    camera.reset(p);
    const std::uint64_t before = gl::bytesReadBack();
    (void)sim.pick(render::pickQuery(camera, kViewport, kViewport * 0.5f));
    EXPECT_EQ(gl::bytesReadBack() - before, 16u) << "a pick reads back its result, never the flock";
    EXPECT_NO_GL_ERRORS();
}
