// Every built-in preset of a seed write-up runs 1,000 steps on both backends without NaN, within
// its speed limit and its world, with its characteristic behaviour checked.
#include "cpu/cpu_simulation.hpp"
#include "gpu/gpu_simulation.hpp"
#include "io/preset_json.hpp"
#include "model/flock_stats.hpp"
#include "model/spawn.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <memory>

using namespace murmur;

namespace {

struct Outcome {
    Flock flock;
    double polarization;
};

Outcome runPreset(Simulation& sim, const Params& p, int steps) {
    sim.upload(spawn(p), p);
    sim.step(steps);
    Flock f = sim.download();
    return {f, polarization(f)};
}

void expectSane(const Flock& f, const Params& p, const std::string& what) {
    std::size_t bad = 0;
    for (const Boid& b : f) {
        const bool finite = std::isfinite(b.p.x + b.p.y + b.p.z + b.v.x + b.v.y + b.v.z);
        const bool speed_ok = glm::length(b.v) <= p.max_speed * (1.0f + 1e-5f);
        bool inside = true;
        for (int k = 0; k < p.dims; ++k) inside = inside && b.p[k] >= 0.0f && b.p[k] < p.world_size;
        if (!finite || !speed_ok || (p.bounds == Bounds::Wrap && !inside)) ++bad;
    }
    EXPECT_EQ(bad, 0u) << what << ": boids not finite, too fast or outside the world";
}

class SeedPreset : public ::testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(SeedPreset, ThousandStepsOnBothBackends) {
    MURMUR_REQUIRE_GL();
    const std::string name = GetParam();
    const Params p = loadPresetFile(resolvePreset(name), Params{});
    CpuSimulation cpu;
    gpu::GpuSimulation gpu;
    const Outcome a = runPreset(cpu, p, 1000), b = runPreset(gpu, p, 1000);
    ASSERT_EQ(a.flock.size(), p.boids);
    ASSERT_EQ(b.flock.size(), p.boids);
    expectSane(a.flock, p, name + " cpu");
    expectSane(b.flock, p, name + " gpu");
    if (p.leader) {  // Processing's led boid sits where it is led, on both backends
        for (const Flock* f : {&a.flock, &b.flock}) {
            for (const Boid& x : *f) {
                if (x.id == 0) {
                    EXPECT_EQ(x.p, glm::vec3(p.leader_at.x, p.leader_at.y, 0.0f)) << name;
                }
            }
        }
    }
    // Flocks that align strongly do so on both backends (the two diverge chaotically step by
    // step, so only the statistic is compared).
    if (name == "processing" || name == "gloss") {
        EXPECT_GT(a.polarization, 0.8) << name << " cpu";
        EXPECT_GT(b.polarization, 0.8) << name << " gpu";
    }
    if (name == "gloss") {  // the field of view: a boid sees neighbours ahead only, within 100 units
        EXPECT_EQ(p.fov_deg, 140.0f);
    }
    EXPECT_NO_GL_ERRORS();
}

INSTANTIATE_TEST_SUITE_P(Presets, SeedPreset, ::testing::Values("parker", "processing", "flockrb", "gloss"));
