// How the default flocks fly over a long run, on both backends (the targets of docs/model.md,
// "The default flock"): spacing kept, neighbours not piling up, aligned groups, and in 2D
// several groups that form, split and merge; with alignment off, a disordered swarm. Run at
// 1,500 boids with the default density (the world shrinks with the count).
#include "cpu/cpu_simulation.hpp"
#include "gpu/gpu_simulation.hpp"
#include "io/preset_json.hpp"
#include "model/density.hpp"
#include "model/spawn.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

using namespace murmur;

namespace {

constexpr std::uint32_t kBoids = 1500;
constexpr int kSteps = 3000, kEvery = 100;

struct Flight {
    double spawn_neighbours = 0;   // mean neighbours counted in the first step
    std::vector<OrderParams> rows;  // every kEvery steps, from step kEvery
};

Flight fly(Simulation& sim, const Params& p, int steps = kSteps) {
    Flight f;
    sim.upload(spawn(p), p);
    sim.step(1);
    f.spawn_neighbours = sim.measure().mean_neighbours;
    for (int done = 1; done < steps;) {
        const int run = std::min(kEvery - done % kEvery, steps - done);
        sim.step(run);
        done += run;
        if (done % kEvery == 0) f.rows.push_back(sim.measure());
    }
    return f;
}

Params preset(const char* name) {
    const Params p = loadPresetFile(resolvePreset(name), Params{});
    return keepDensity(p, kBoids, p.dims).params;
}

std::vector<std::unique_ptr<Simulation>> backends() {
    std::vector<std::unique_ptr<Simulation>> s;
    s.push_back(std::make_unique<CpuSimulation>());
    s.push_back(std::make_unique<gpu::GpuSimulation>());
    return s;
}

// The targets every default flock meets after flying kSteps.
void expectWellSpaced(const Flight& f, const Params& p, const std::string& who) {
    SCOPED_TRACE(who);
    const OrderParams& end = f.rows.back();
    EXPECT_GE(end.nn_median, 0.6 * p.species[0].separation.radius) << "median nearest neighbour";
    double most = 0;
    for (const OrderParams& o : f.rows) most = std::max(most, o.mean_neighbours);
    EXPECT_LE(most, 2.5 * f.spawn_neighbours) << "mean neighbours at most 2.5x those at spawn (" << f.spawn_neighbours << ")";
    EXPECT_GE(end.group_polarization, 0.85) << "polarization within groups";
    EXPECT_GT(end.mean_speed, 0.7 * p.species[0].max_speed) << "a flying flock is near its top speed";
}

}  // namespace

TEST(Flight, DefaultFlockKeepsItsSpacingAndFormsGroupsIn2D) {
    MURMUR_REQUIRE_GL();
    const Params p = preset("default");
    ASSERT_EQ(p.dims, 2);
    for (auto& sim : backends()) {
        const Flight f = fly(*sim, p);
        expectWellSpaced(f, p, sim->name());
        // Not one network spanning the world: after the start the flock is in several groups
        // at some time, and their number both rises (a split) and falls (a merge).
        std::uint32_t most_groups = 0;
        double smallest_largest = 1.0;
        bool split = false, merged = false;
        for (std::size_t k = 3; k < f.rows.size(); ++k) {
            most_groups = std::max(most_groups, f.rows[k].groups);
            smallest_largest = std::min(smallest_largest, f.rows[k].largest_group_share);
            split |= f.rows[k].groups > f.rows[k - 1].groups;
            merged |= f.rows[k].groups < f.rows[k - 1].groups;
        }
        EXPECT_GE(most_groups, 3u) << sim->name();
        EXPECT_LT(smallest_largest, 0.95) << sim->name() << ": the largest group never below 95% of the flock";
        EXPECT_TRUE(split) << sim->name();
        EXPECT_TRUE(merged) << sim->name();
    }
    EXPECT_NO_GL_ERRORS();
}

TEST(Flight, DefaultFlockKeepsItsSpacingIn3D) {
    MURMUR_REQUIRE_GL();
    const Params p = preset("default3d");
    ASSERT_EQ(p.dims, 3);
    for (auto& sim : backends()) expectWellSpaced(fly(*sim, p), p, sim->name());
    EXPECT_NO_GL_ERRORS();
}

TEST(Flight, WithoutAlignmentTheFlockIsADisorderedSwarm) {
    MURMUR_REQUIRE_GL();
    for (const char* name : {"default", "default3d"}) {
        Params p = preset(name);
        p.species[0].alignment.weight = 0.0f;
        for (auto& sim : backends()) {
            const Flight f = fly(*sim, p, 1000);
            EXPECT_LT(f.rows.back().group_polarization, 0.3) << name << " " << sim->name();
            EXPECT_LT(f.rows.back().polarization, 0.3) << name << " " << sim->name();
        }
    }
    EXPECT_NO_GL_ERRORS();
}
