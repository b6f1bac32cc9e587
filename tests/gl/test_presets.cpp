// Every built-in preset of a seed write-up runs 1,000 steps on both backends without NaN, within
// its speed limit and its world, with its characteristic behaviour checked.
#include "cpu/cpu_simulation.hpp"
#include "cpu/neighbour_rules.hpp"
#include "cpu/order_params.hpp"
#include "gpu/gpu_simulation.hpp"
#include "io/preset_json.hpp"
#include "model/flock_stats.hpp"
#include "model/spawn.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <algorithm>
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
        // Without the speed limit (seed 001) the rules still steer toward max_speed: within 2x.
        const float limit = p.rulesOf(b.species).max_speed * (p.speed_limit ? 1.0f + 1e-5f : 2.0f);
        const bool speed_ok = glm::length(b.v) <= limit;
        bool inside = true;
        for (int k = 0; k < p.dims; ++k) inside = inside && b.p[k] >= 0.0f && b.p[k] < p.world_size;
        if (!finite || !speed_ok || (p.bounds == Bounds::Wrap && !inside)) ++bad;
    }
    EXPECT_EQ(bad, 0u) << what << ": boids not finite, too fast or outside the world";
}

// Mean over prey of the distance to the nearest predator and to the nearest other prey.
struct Spacing {
    double to_predator = 0, to_prey = 0;
    double predator_to_prey = 0;  // mean over predators of the distance to the nearest prey
};
Spacing spacing(const Flock& f, const Params& p) {
    const RuleContext ctx(p);
    Spacing s;
    std::size_t prey = 0;
    for (const Boid& a : f) {
        if (p.roles[a.species].predator) continue;
        float pred = 1e30f, other = 1e30f;
        for (const Boid& b : f) {
            if (b.id == a.id) continue;
            const float d = glm::length(offsetBetween(ctx, a.p, b.p));
            if (p.roles[b.species].predator) pred = std::min(pred, d);
            else other = std::min(other, d);
        }
        s.to_predator += pred;
        s.to_prey += other;
        ++prey;
    }
    s.to_predator /= double(prey);
    s.to_prey /= double(prey);
    std::size_t predators = 0;
    for (const Boid& a : f) {
        if (!p.roles[a.species].predator) continue;
        float nearest = 1e30f;
        for (const Boid& b : f)
            if (!p.roles[b.species].predator) nearest = std::min(nearest, glm::length(offsetBetween(ctx, a.p, b.p)));
        s.predator_to_prey += nearest;
        ++predators;
    }
    s.predator_to_prey /= double(std::max<std::size_t>(predators, 1));
    return s;
}

// Flocks of one species: its boids linked within the group radius (measureRadiiOf), each boid's
// flock labelled by a representative member; -1 for other species.
std::vector<int> flockLabels(const Flock& f, const Params& p, std::uint32_t species) {
    const RuleContext ctx(p);
    const float r = measureRadiiOf(p).group;
    std::vector<int> parent(f.size());
    for (std::size_t i = 0; i < f.size(); ++i) parent[i] = int(i);
    auto root = [&](int x) {
        while (parent[x] != x) x = parent[x] = parent[parent[x]];
        return x;
    };
    for (std::size_t i = 0; i < f.size(); ++i)
        for (std::size_t j = i + 1; j < f.size(); ++j)
            if (f[i].species == species && f[j].species == species && glm::length(offsetBetween(ctx, f[i].p, f[j].p)) < r)
                parent[root(int(i))] = root(int(j));
    std::vector<int> by_id(f.size(), -1);
    for (std::size_t i = 0; i < f.size(); ++i)
        if (f[i].species == species) by_id[f[i].id] = root(int(i));
    return by_id;
}

// Polarization within each species' flocks (of kMinGroupSize or more), weighted by size, and
// the share of the species' boids in such flocks.
struct Flocks {
    double polarization = 0, grouped = 0;
};
Flocks speciesFlocks(const Flock& f, const Params& p, std::uint32_t species) {
    Flock one;
    for (const Boid& b : f)
        if (b.species == species) one.push_back(b);
    OrderParams o;
    o.boids = std::uint32_t(one.size());
    measureGroups(one, p, o);
    return {o.group_polarization, o.grouped_share};
}

// Of the pairs of one species in the same flock in `before`, the share still together in `after`.
double pairsKept(const Flock& before, const Flock& after, const Params& p, std::uint32_t species) {
    const auto a = flockLabels(before, p, species), b = flockLabels(after, p, species);
    double was = 0, kept = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = i + 1; j < a.size(); ++j)
            if (a[i] >= 0 && a[i] == a[j]) {
                ++was;
                kept += b[i] == b[j];
            }
    return was > 0 ? kept / was : 0.0;
}

class SeedPreset : public ::testing::TestWithParam<const char*> {};

}  // namespace

TEST_P(SeedPreset, ThousandStepsOnBothBackends) {
    MURMUR_REQUIRE_GL();
    const std::string name = GetParam();
    Params p = loadPresetFile(resolvePreset(name), Params{});
    if (name == "predators") {  // 400 of its 2,000 boids at the same density (quick on llvmpipe),
        p.world_size *= std::sqrt(400.0f / float(p.boids));  // with 6 predators rather than 2
        p.boids = 400;
        p.roles[2].share = 0.03f;
    }
    if (name == "decarpentier") {  // 1,000 of its 6,000 birds at the same density (5 predators)
        p.world_size *= std::cbrt(1000.0f / float(p.boids));
        p.margin *= std::cbrt(1000.0f / float(p.boids));
        p.boids = 1000;
    }
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
    if (name == "gloss") {
        // Its field of view (140 degrees) applies: from the flown state, a boid counts far fewer
        // neighbours than the same boids would seeing all round (a 140-degree cone holds 39 % of a
        // uniform neighbourhood; an aligned flock's cone ahead holds about half).
        Params all_round = p;
        all_round.species[0].fov_deg = 360.0f;
        CpuSimulation cone, round;
        cone.upload(a.flock, p);
        round.upload(a.flock, all_round);
        cone.step(1);
        round.step(1);
        const double seen = meanOf(cone.neighbourCounts()), around = meanOf(round.neighbourCounts());
        EXPECT_GT(around, 1.0);
        EXPECT_LT(seen, 0.7 * around) << "gloss sees " << seen << " neighbours, all round " << around;
    }
    if (name == "decarpentier") {
        // Its own style in 3D with three species, a predator among them; the birds keep to their
        // speed ranges (checked above) and fly mostly level: mean |v.y| / |v| below 0.5.
        EXPECT_EQ(p.style, Style::Decarpentier);
        for (const Outcome* o : {&a, &b}) {
            double level = 0;
            for (const Boid& x : o->flock) level += std::abs(x.v.y) / std::max(glm::length(x.v), 1e-6f);
            EXPECT_LT(level / double(o->flock.size()), 0.5) << name;
        }
        // The write-up's flocks: each prey species flies in flocks, aligned within them, that hold
        // together. Measured (CPU, seed 1, step 1000): sparrows 0.96 within flocks, 96 % in
        // flocks; gulls 0.985, 89 %; 95 % of the pairs flying together still together 2 s later
        // (seeds 2 and 3: 76 %, 73 %).
        for (const Outcome* o : {&a, &b})
            for (std::uint32_t s : {0u, 1u}) {
                const Flocks f = speciesFlocks(o->flock, p, s);
                EXPECT_GE(f.polarization, 0.8) << "species " << s << (o == &a ? " cpu" : " gpu");
                EXPECT_GE(f.grouped, 0.7) << "species " << s << (o == &a ? " cpu" : " gpu");
            }
        CpuSimulation later;
        later.upload(a.flock, p);
        later.step(60);
        const Flock after = later.download();
        for (std::uint32_t s : {0u, 1u}) EXPECT_GE(pairsKept(a.flock, after, p, s), 0.7) << "species " << s << " flocks hold together";
    }
    if (name == "predators") {
        // Prey keep farther from predators than from each other, on both backends; and farther
        // than the same flock with fleeing switched off.
        for (const Outcome* o : {&a, &b}) {
            const Spacing sp = spacing(o->flock, p);
            EXPECT_GT(sp.to_predator, 3.0 * sp.to_prey) << name << ": to predator " << sp.to_predator << ", to prey " << sp.to_prey;
        }
        Params no_flee = p;
        for (auto& role : no_flee.roles) role.flee.weight = 0.0f;
        CpuSimulation cpu_no_flee;
        const Outcome c = runPreset(cpu_no_flee, no_flee, 1000);
        // Measured 5.59 vs 0.845 units (6.6x) on the CPU reference; 3x leaves room for another seed.
        EXPECT_GT(spacing(a.flock, p).predator_to_prey, 3.0 * spacing(c.flock, p).predator_to_prey)
            << "fleeing keeps prey away from predators: nearest prey to a predator " << spacing(a.flock, p).predator_to_prey
            << " with fleeing vs " << spacing(c.flock, p).predator_to_prey << " without";
        std::size_t predators = 0;
        for (const Boid& x : a.flock) predators += p.roles[x.species].predator;
        EXPECT_GE(predators, 4u);
    }
    EXPECT_NO_GL_ERRORS();
}

INSTANTIATE_TEST_SUITE_P(Presets, SeedPreset, ::testing::Values("parker", "processing", "flockrb", "gloss", "predators", "decarpentier"));
