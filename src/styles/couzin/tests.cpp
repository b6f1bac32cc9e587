// The Couzin style against the paper's four collective states (Couzin et al. 2002, Fig. 1 and
// the polarization / milling curves against the orientation zone's width): the four presets,
// each from two seeds, averaged over steps 2000-3000 (200-300 s of model time). CPU reference;
// the GPU is held to it by parity (Cases/Parity.*couzin*) and the hand cases.
#include "cpu/cpu_simulation.hpp"
#include "io/preset_json.hpp"
#include "model/spawn.hpp"

#include <glm/geometric.hpp>

#include <gtest/gtest.h>

#include <string>

using namespace murmur;

namespace {
struct StateMeans {
    double polarization = 0, milling = 0, largest_group = 0;
};

// The preset from `seed`: the group measures every 20 steps over steps 2000-3000.
StateMeans statesOf(const std::string& preset, std::uint64_t seed) {
    Params p = loadPresetFile(resolvePreset(preset), Params{});
    p.seed = seed;
    CpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step(2000);
    StateMeans m;
    int samples = 0;
    for (int k = 0; k <= 50; ++k, ++samples) {
        if (k > 0) sim.step(20);
        const OrderParams o = sim.measure();
        m.polarization += o.group_polarization;
        m.milling += o.milling;
        m.largest_group += o.largest_group_share;
    }
    for (const Boid& b : sim.download()) EXPECT_NEAR(glm::length(b.v), 3.0f, 1e-5f) << "constant speed s";
    m.polarization /= samples;
    m.milling /= samples;
    m.largest_group /= samples;
    return m;
}
}  // namespace

// Ranges: swarm, both low; torus, milling high and polarization low; dynamic parallel, aligned
// but short of the highly parallel state's near-perfect order; highly parallel, polarization
// near 1. The whole flock stays one group in each.
TEST(Couzin, TheFourPresetsReachTheFourStates) {
    for (std::uint64_t seed : {1u, 2u}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        const StateMeans swarm = statesOf("couzin-swarm", seed), torus = statesOf("couzin-torus", seed),
                         dynamic = statesOf("couzin-dynamic", seed), parallel = statesOf("couzin-parallel", seed);
        EXPECT_LT(swarm.polarization, 0.3);
        EXPECT_LT(swarm.milling, 0.4);
        EXPECT_LT(torus.polarization, 0.3);
        EXPECT_GT(torus.milling, 0.6);
        EXPECT_GT(dynamic.polarization, 0.7);
        EXPECT_LT(dynamic.polarization, 0.97);
        EXPECT_LT(dynamic.milling, 0.3);
        EXPECT_GT(parallel.polarization, 0.97);
        for (const StateMeans* m : {&swarm, &torus, &dynamic, &parallel}) EXPECT_GT(m->largest_group, 0.95) << "one group";
    }
}

TEST(Couzin, ThePresetsAreThePapersSetting) {
    const float widths[4] = {0.0f, 2.0f, 4.0f, 12.0f};
    int k = 0;
    for (const char* name : {"couzin-swarm", "couzin-torus", "couzin-dynamic", "couzin-parallel"}) {
        SCOPED_TRACE(name);
        const Params p = loadPresetFile(resolvePreset(name), Params{});
        EXPECT_EQ(p.style, Style::Couzin);
        EXPECT_EQ(p.dims, 3u);
        EXPECT_EQ(p.boids, 100u);
        EXPECT_FLOAT_EQ(p.species[0].separation.radius, 1.0f) << "r_r";
        EXPECT_FLOAT_EQ(p.couzin.orientation_width, widths[k++]) << "delta r_o";
        EXPECT_FLOAT_EQ(p.couzin.attraction_width, 14.0f) << "delta r_a";
        EXPECT_FLOAT_EQ(p.species[0].fov_deg, 270.0f) << "alpha";
        EXPECT_FLOAT_EQ(p.couzin.turn_rate, 40.0f) << "theta, deg/s";
        EXPECT_FLOAT_EQ(p.species[0].max_speed, 3.0f) << "s";
        EXPECT_FLOAT_EQ(p.couzin.noise, 0.05f) << "sigma";
        EXPECT_FLOAT_EQ(p.dt, 0.1f) << "tau";
        // A wrapped world ten zones of attraction across: the group never meets itself across the wrap.
        EXPECT_GE(p.world_size, 10.0f * p.rulesOf(0).cohesion.radius);
    }
}
