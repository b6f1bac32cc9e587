// The Vicsek style against the paper's phenomenon (Vicsek et al. 1995, Fig. 2a): at density 4
// per r^2 the flock orders at low noise and stays disordered at high noise. CPU reference; the
// GPU is held to it by parity (Cases/Parity.*vicsek*) and the hand cases.
#include "cpu/cpu_simulation.hpp"
#include "io/preset_json.hpp"
#include "model/flock_stats.hpp"
#include "model/spawn.hpp"

#include <glm/geometric.hpp>

#include <gtest/gtest.h>

#include <cmath>

using namespace murmur;

namespace {
// The preset at L = 10 (N = 400, density 4), noise eta, after `steps` steps: polarization, the
// paper's v_a (the mean heading's length).
double polarizationAfter(float eta, int steps) {
    Params p = loadPresetFile(resolvePreset("vicsek"), Params{});
    p.world_size = 10.0f;
    p.boids = 400;
    p.vicsek.noise = eta;
    CpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step(steps);
    const Flock f = sim.download();
    for (const Boid& b : f) EXPECT_NEAR(glm::length(b.v), 0.03f, 1e-6f) << "constant speed v0";
    return polarization(f);
}
}  // namespace

TEST(Vicsek, OrdersAtLowNoiseAndNotAtHighNoise) {
    const double low = polarizationAfter(0.5f, 600), high = polarizationAfter(5.0f, 600);
    EXPECT_GT(low, 0.9) << "eta 0.5: the paper's v_a is above 0.9";
    EXPECT_LT(high, 0.2) << "eta 5: disordered (v_a of order 1/sqrt(N) = 0.05)";
}

TEST(Vicsek, ThePresetIsThePapersSetting) {
    const Params p = loadPresetFile(resolvePreset("vicsek"), Params{});
    EXPECT_EQ(p.style, Style::Vicsek);
    EXPECT_EQ(p.dims, 2u);
    EXPECT_EQ(p.bounds, Bounds::Wrap);
    EXPECT_FLOAT_EQ(float(p.boids) / (p.world_size * p.world_size), 4.0f) << "density 4 per r^2";
    EXPECT_FLOAT_EQ(p.species[0].alignment.radius, 1.0f);
    EXPECT_FLOAT_EQ(p.species[0].max_speed, 0.03f);
    EXPECT_FLOAT_EQ(p.dt, 1.0f);
    EXPECT_EQ(p.integrator, Integrator::Explicit) << "x(t+1) = x(t) + v(t)";
}
