// Invariants over many steps on both backends: perching (boids land, every perched boid sits on
// the ground at rest, and boids that landed take off again) and obstacles (no boid ends a step
// inside one).
#include "cpu/cpu_simulation.hpp"
#include "cpu/neighbour_rules.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/spawn.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <memory>
#include <set>

using namespace murmur;

TEST(Perching, PerchedBoidsRestOnTheGroundAndRejoinOnBothBackends) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.dims = 3;
    p.world_size = 60.0f;
    p.boids = 1500;
    p.perching = true;
    p.perch_ground = 10.0f;
    p.perch_min = 0.2f;
    p.perch_max = 1.0f;
    p.wind = {0.0f, -3.0f, 0.0f};  // push the flock down so that many land
    const Flock start = spawn(p);
    CpuSimulation cpu;
    gpu::GpuSimulation gpu;
    for (Simulation* sim : std::initializer_list<Simulation*>{&cpu, &gpu}) {
        sim->upload(start, p);
        std::set<std::uint32_t> landed, rejoined;
        std::size_t bad = 0;
        for (int round = 0; round < 30; ++round) {
            sim->step(5);
            for (const Boid& b : sim->download()) {
                if (b.perch > 0.0f) {
                    landed.insert(b.id);
                    if (b.v != glm::vec3(0.0f) || b.p.y != p.perch_ground) ++bad;
                } else if (landed.count(b.id)) {
                    rejoined.insert(b.id);
                }
            }
        }
        EXPECT_EQ(bad, 0u) << sim->name() << ": perched boids off the ground or moving";
        EXPECT_GT(landed.size(), 50u) << sim->name();
        EXPECT_GT(rejoined.size(), 20u) << sim->name();
    }
    EXPECT_NO_GL_ERRORS();
}

// The GPU stores perch times only while perching is on (gpu::bytesPerBoid): a flock uploaded
// without it and switched to it live gets the buffers then, and lands as the CPU's does.
TEST(Perching, SwitchedOnLiveAfterAnUploadWithoutIt) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.dims = 3;
    p.world_size = 40.0f;
    p.boids = 600;
    p.perch_ground = 10.0f;
    p.perch_min = 0.5f;
    p.perch_max = 1.0f;
    p.wind = {0.0f, -3.0f, 0.0f};
    EXPECT_EQ(gpu::bytesPerBoid(p), 92u) << "76, and 16 for the image counts in wrap bounds";
    Params on = p;
    on.perching = true;
    EXPECT_EQ(gpu::bytesPerBoid(on), 100u);
    CpuSimulation cpu;
    gpu::GpuSimulation gpu;
    std::size_t landed[2] = {0, 0};
    int k = 0;
    for (Simulation* sim : std::initializer_list<Simulation*>{&cpu, &gpu}) {
        sim->upload(spawn(p), p);
        sim->step(3);
        sim->setParams(on);
        sim->step(60);
        for (const Boid& b : sim->download())
            if (b.perch > 0.0f) {
                ++landed[k];
                EXPECT_EQ(b.p.y, p.perch_ground) << sim->name() << " boid " << b.id;
            }
        ++k;
    }
    EXPECT_GT(landed[1], 20u);
    // The same flock on both: the landed counts agree to within a few boids (float differences).
    EXPECT_NEAR(double(landed[0]), double(landed[1]), 0.1 * double(landed[0]) + 3.0);
    EXPECT_NO_GL_ERRORS();
}

TEST(Obstacles, NoBoidEndsAStepInsideOneOnBothBackends) {
    MURMUR_REQUIRE_GL();
    for (int dims : {2, 3}) {
        Params p;
        p.dims = dims;
        p.world_size = 80.0f;
        p.boids = 1500;
        const float z = dims == 3 ? 40.0f : 0.0f;
        p.attractor = {{40, 40, z}, 0.5f, 0};  // pull the flock onto them
        p.obstacles = {{{40, 40, z}, 8.0f}, {{47, 45, z}, 4.0f}, {{0, 40, z}, 6.0f}};  // overlapping; one across the wrap
        const RuleContext ctx(p);
        CpuSimulation cpu;
        gpu::GpuSimulation gpu;
        for (Simulation* sim : std::initializer_list<Simulation*>{&cpu, &gpu}) {
            sim->upload(spawn(p), p);
            std::size_t inside = 0;
            for (int s = 0; s < 120; ++s) {
                sim->step();
                if (s % 4 != 3) continue;
                for (const Boid& b : sim->download())
                    for (const glm::vec4& o : ctx.obstacles) {
                        const glm::vec3 d = offsetBetween(ctx, glm::vec3(o), b.p);
                        if (glm::dot(d, d) < o.w * o.w * (1.0f - 1e-5f)) ++inside;
                    }
            }
            EXPECT_EQ(inside, 0u) << sim->name() << " " << dims << "D";
        }
    }
    EXPECT_NO_GL_ERRORS();
}
