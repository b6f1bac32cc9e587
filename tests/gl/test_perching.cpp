// Perching over many steps on both backends: boids land, every perched boid sits on the ground at
// rest, and boids that landed take off again.
#include "cpu/cpu_simulation.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/spawn.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

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
