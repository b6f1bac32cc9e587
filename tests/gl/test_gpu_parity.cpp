// CPU/GPU parity: one step from the same state, matched by id, across dimensions, bounds, field
// of view, styles, sizes and states built to hurt; then 50 steps on a small flock.
// Tolerances, in float steps where the quantity has a magnitude of its own:
// - velocity: |dv| within 1e-4 x max_speed (about 840 to 1,680 float steps of max_speed): the
//   neighbour sums are the same terms added in another order (and fused on some GPUs);
// - position: each coordinate within kPositionUlps = 2 float steps (ulps) of its magnitude (the
//   larger of before and after the step; in wrap, the world size: a fold subtracts L), beyond
//   what the boid's velocity difference
//   explains (|dv| x dt): p' = p + v' dt rounds once on each backend, and a wrap folds it once more.
#include "cpu/cpu_simulation.hpp"
#include "cpu/neighbour_rules.hpp"
#include "gl_env.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/rng.hpp"
#include "model/spawn.hpp"
#include "model/styles.hpp"

#include <gtest/gtest.h>

#include <glm/geometric.hpp>

#include <cmath>
#include <string>

using namespace murmur;

namespace {

// FarOut and FarApart (open sky): the random flock moved 4,000 units out, or split in two halves
// 8,000 units apart.
enum class State { Random, CellBorders, WorldEdges, Coincident, DenseClump, FarOut, FarApart };
// Influences beyond the three rules (docs/model.md, "Influences").
enum class Feature { None, Wind, Attractor, Repeller, Scatter, Cap1, Cap7, Obstacles, Leader, Species, Predators, Perching, All, Cap12, Cap20, Adaptive, AdaptiveCap };

struct Case {
    int dims;
    Bounds bounds;
    float fov;
    Style style;
    std::uint32_t n;
    State state;
    Feature feature = Feature::None;
};

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
    const Case& c = info.param;
    static const char* states[] = {"random", "borders", "edges", "coincident", "clump", "far", "apart"};
    static const char* features[] = {"", "_wind", "_attractor", "_repeller", "_scatter", "_cap1", "_cap7", "_obstacles", "_leader", "_species", "_predators", "_perching", "_all", "_cap12", "_cap20", "_adaptive", "_adaptive_cap7"};
    return std::to_string(c.dims) + "d_" + boundsName(c.bounds) + "_fov" +
           std::to_string(int(c.fov)) + "_" + styleInfo(c.style).name + "_n" +
           std::to_string(c.n) + "_" + states[int(c.state)] + features[int(c.feature)];
}

Params paramsFor(const Case& c) {
    Params p;
    p.dims = c.dims;
    p.bounds = c.bounds;
    p.species[0].fov_deg = c.fov;
    p.style = c.style;
    p.boids = c.n;
    // About 15 neighbours per boid whatever N, so large flocks stay quick on llvmpipe.
    const double density = 15.0 / (c.dims == 3 ? 4.18879 * 125.0 : 3.14159 * 25.0);  // per unit^dims at r=5
    p.world_size = float(std::max(12.0, std::pow(double(c.n) / density, 1.0 / c.dims)));
    p.species[0].separation = {2.0f, 1.5f};
    p.species[0].alignment = {5.0f, 1.0f};
    p.species[0].cohesion = {5.0f, 1.0f};
    if (styleInfo(c.style).traits.offsets_per_step) {
        p.species[0].separation.weight = 0.125f;
        p.species[0].alignment.weight = 0.25f;
        p.species[0].cohesion.weight = 0.01f;
        p.dt = 0.5f;
    }
    p.margin = 3.0f;
    const float L = p.world_size, z = c.dims == 3 ? 1.0f : 0.0f;
    const Feature f = c.feature;
    const bool all = f == Feature::All;
    if (f == Feature::Wind || all) p.wind = {1.5f, -0.75f, 0.5f};
    if (f == Feature::Attractor || all) p.attractor = {{0.3f * L, 0.6f * L, 0.5f * L}, 0.4f, 0.0f};
    if (f == Feature::Repeller || all) p.repeller = {{0.5f * L, 0.5f * L, 0.5f * L}, 0.8f, 0.3f * L};
    if (f == Feature::Scatter || all) p.scatter = true;
    if (f == Feature::Cap1) p.neighbour_cap = 1;
    if (f == Feature::Cap12) p.neighbour_cap = 12;  // the GPU's 16-entry list (gpu/variant.cpp's capSlots)
    if (f == Feature::Cap20) p.neighbour_cap = 20;  // its 32-entry list
    if (f == Feature::Cap7 || all) p.neighbour_cap = 7;
    if (f == Feature::Adaptive || f == Feature::AdaptiveCap) p.topological = {6.5f, 9.0f, 0.3f};
    if (f == Feature::AdaptiveCap) p.neighbour_cap = 7;
    if (f == Feature::Obstacles || all) {
        p.obstacles = {{{0.25f * L, 0.25f * L, 0.5f * L * z}, 0.1f * L}, {{0.7f * L, 0.6f * L, 0.3f * L * z}, 0.15f * L},
                       {{0.0f, 0.5f * L, 0.0f}, 0.08f * L}};  // the last one straddles the world's edge
        p.obstacle_margin = 2.0f;
        p.obstacle_push = 15.0f;
    }
    if (f == Feature::Leader || all) {
        p.leader = true;
        p.leader_at = {0.9f * L, 0.1f * L, 0.5f * L};
    }
    if (f == Feature::Species || f == Feature::Predators || all) {
        // Three species with their own rules and speeds; in Predators, species 2 hunts.
        p.species_count = 3;
        p.roles[1].share = 2.0f;
        p.species[1] = {{1.5f, 2.0f}, {4.0f, 0.5f}, {5.0f, 1.5f}, 200.0f, 1.0f, 4.0f, 6.0f};
        p.species[2] = {{2.5f, 1.0f}, {3.0f, 1.0f}, {5.0f, 0.8f}, 300.0f, 0.5f, 5.0f, 12.0f};
        if (f != Feature::Species) {
            p.roles[2].predator = true;
            p.roles[2].chase = 3.0f;
            p.roles[2].share = 0.3f;
            p.roles[0].flee = {4.5f, 2.0f};
            p.roles[1].flee = {3.5f, 1.0f};
        }
        if (styleInfo(c.style).traits.offsets_per_step) {
            p.roles[2].chase = 0.05f;
            p.roles[0].flee.weight = 0.2f;
            p.roles[1].flee.weight = 0.1f;
            for (std::size_t sp = 1; sp < kMaxSpecies; ++sp) {
                SpeciesRules& k = p.species[sp];
                k.separation.weight *= 0.1f;
                k.alignment.weight *= 0.2f;
                k.cohesion.weight *= 0.01f;
            }
        }
    }
    if (c.style == Style::Decarpentier) {  // all of its terms on, with a height to keep
        p.species[0].dc.preferred_distance = 1.5f;
        p.dc.height = 0.5f * L;
        p.dc.height_weight = 0.3f;
        p.dc.far_factor = 2.5f;
        p.dc.vertical_avoid = 0.5f;  // each vertical weight its own value, so a swapped packing shows
        p.dc.vertical_distance = 2.0f;
        p.dc.vertical_match = 0.25f;
        p.species[1].dc = {1.0f, 4.0f, 6.0f, 15.0f, 3.0f, 0.7f};  // and species 1 manoeuvres its own way
        p.species[2].dc = {2.5f, 12.0f, 9.0f, 30.0f, 14.0f, 0.2f};
    }
    if (c.style == Style::Couzin) {  // a zone of attraction beyond orientation's, noise, a turn that binds
        p.couzin.orientation_width = 3.0f;                              // r_o 5
        p.couzin.attraction_width = std::min(8.0f, 0.5f * L) - 5.0f;  // r_a 8
        p.couzin.noise = 0.1f;
        p.couzin.turn_rate = 150.0f;
    }
    if (f == Feature::Perching || all) {
        p.perching = true;
        p.perch_ground = 0.4f * L;
        p.perch_min = 0.05f;
        p.perch_max = 0.5f;
    }
    if (styleInfo(c.style).traits.offsets_per_step) {  // offsets per step: keep them modest
        p.attractor.weight *= 0.05f;
        p.repeller.weight *= 0.1f;
    }
    return p;
}

Flock stateFor(const Case& c, const Params& p) {
    Flock f = spawn(p);
    Pcg32 rng(c.n, 99);
    if (c.style == Style::Gloss)  // a stored acceleration (the view's axis) for all but every 4th boid
        for (std::size_t i = 0; i < f.size(); ++i)
            if (i % 4 != 0)
                f[i].steer = glm::vec4(2.0f * rng.uniform() - 1.0f, 2.0f * rng.uniform() - 1.0f,
                                       c.dims == 3 ? 2.0f * rng.uniform() - 1.0f : 0.0f, 0.0f) * 10.0f;
    if (c.style == Style::Starling)  // a bank for all but every 3rd bird, in (-0.6, 0.6) rad
        for (std::size_t i = 0; i < f.size(); ++i)
            if (i % 3 != 0) f[i].steer.x = 1.2f * rng.uniform() - 0.6f;
    if (p.topological.on())  // each boid's own radius: a fifth with none yet (max_radius), the rest in [1, 9)
        for (std::size_t i = 0; i < f.size(); ++i) f[i].steer.w = i % 5 == 0 ? 0.0f : 1.0f + 8.0f * rng.uniform();
    const GridSpec g = makeGridSpec(p);
    const float L = p.world_size, edge = g.open ? 1.0f / g.inv_cell.x : L / float(g.cells.x);
    const float z_on = c.dims == 3 ? 1.0f : 0.0f;
    for (std::size_t i = 0; i < f.size(); ++i) {
        glm::vec3& pos = f[i].p;
        switch (c.state) {
            case State::Random: break;
            case State::CellBorders:  // exactly on cell borders on every axis
                pos = glm::vec3(float(rng.next() % g.cells.x) * edge, float(rng.next() % g.cells.y) * edge,
                                z_on * float(rng.next() % g.cells.z) * edge);
                break;
            case State::WorldEdges:  // on the world's faces, edges and corners (soft: some outside)
                for (int k = 0; k < c.dims; ++k) {
                    const std::uint32_t r = rng.next() % 4;
                    if (r == 0) pos[k] = 0.0f;
                    if (r == 1) pos[k] = c.bounds == Bounds::Wrap ? std::nextafter(L, 0.0f) : L + 0.5f;
                    if (r == 2 && c.bounds != Bounds::Wrap) pos[k] = -0.7f;
                }
                break;
            case State::Coincident:  // pairs on exactly the same point
                if (i % 2 == 1) pos = f[i - 1].p;
                break;
            case State::FarOut:
                pos += glm::vec3(4000.0f, -2500.0f, 3000.0f * z_on);
                break;
            case State::FarApart:
                pos += glm::vec3(i % 2 ? 4000.0f : -4000.0f, 1000.0f, 0.0f);
                break;
            case State::DenseClump:  // everyone inside one radius
                pos = glm::vec3(L * 0.5f) + glm::vec3(rng.uniform() - 0.5f, rng.uniform() - 0.5f, z_on * (rng.uniform() - 0.5f)) * 3.0f;
                pos.z *= z_on;
                break;
        }
    }
    if (c.feature == Feature::Perching || c.feature == Feature::All) {
        // A fifth on the ground (some about to take off), a fifth just above it diving in.
        for (std::size_t i = 0; i < f.size(); ++i) {
            if (i % 5 == 0) {
                f[i].p.y = p.perch_ground;
                f[i].v = glm::vec3(0.0f);
                f[i].perch = i % 3 == 0 ? 0.5f * p.dt : 0.3f;
            } else if (i % 5 == 1) {
                f[i].p.y = p.perch_ground + 0.05f;
                f[i].v.y = -0.5f * p.species[0].max_speed;
            }
        }
    }
    return f;
}


struct Diff {
    float pos = 0, vel = 0;
    float pos_ulps = 0;  // the largest coordinate difference beyond |dv| dt, in float steps of its magnitude
};

constexpr float kPositionUlps = 2.0f;

// The spacing of floats at |x| (one ulp).
float ulpOf(float x) {
    x = std::fabs(x);
    return std::nextafter(x, INFINITY) - x;
}

// start (by id, optional): the state both stepped from; a coordinate's float steps are counted at
// the largest magnitude the step computed with (p' = p + v dt may cancel to near 0).
Diff compare(const Flock& cpu, const Flock& gpu, const Params& p, const Flock* start = nullptr) {
    const RuleContext ctx(p);
    Diff d;
    for (std::size_t i = 0; i < cpu.size(); ++i) {
        const glm::vec3 dp = offsetBetween(ctx, cpu[i].p, gpu[i].p);  // wrap: the same point may fold either way
        d.pos = std::max(d.pos, glm::length(dp));
        d.vel = std::max(d.vel, glm::length(cpu[i].v - gpu[i].v));
        for (int k = 0; k < 3; ++k) {
            const float explained = std::fabs(cpu[i].v[k] - gpu[i].v[k]) * p.dt * (1.0f + 1e-6f);
            const float beyond = std::max(0.0f, std::fabs(dp[k]) - explained);
            // The magnitude the step computed at: the coordinate, or in wrap the world size (a
            // fold subtracts L, so a boid that crossed 0 or L rounds there).
            const float before = start ? std::fabs((*start)[i].p[k]) : 0.0f;
            const float magnitude = std::max({std::fabs(cpu[i].p[k]), std::fabs(gpu[i].p[k]), before, ctx.wrap ? ctx.L[k] : 0.0f});
            d.pos_ulps = std::max(d.pos_ulps, beyond / ulpOf(magnitude));
        }
        EXPECT_NEAR(cpu[i].perch, gpu[i].perch, 1e-5f) << "perch time of boid " << i << " (s)";
        if (p.topological.on()) {  // the same count moves R the same way; pow rounds within a few float steps
            EXPECT_NEAR(cpu[i].steer.w, gpu[i].steer.w, 1e-5f * p.topological.max_radius) << "search radius of boid " << i;
        }
        EXPECT_TRUE(std::isfinite(gpu[i].p.x + gpu[i].p.y + gpu[i].p.z + gpu[i].v.x + gpu[i].v.y + gpu[i].v.z)) << i;
    }
    return d;
}

}  // namespace

class Parity : public ::testing::TestWithParam<Case> {};

TEST_P(Parity, OneStepMatchesCpuById) {
    MURMUR_REQUIRE_GL();
    const Case c = GetParam();
    const Params p = paramsFor(c);
    ASSERT_TRUE(validate(p).empty()) << describe(validate(p));
    const Flock start = stateFor(c, p);
    CpuSimulation cpu;
    gpu::GpuSimulation gpu;
    cpu.upload(start, p);
    gpu.upload(start, p);
    cpu.step();
    gpu.step();
    const Flock a = byId(cpu.download()), b = byId(gpu.download());
    ASSERT_EQ(b.size(), a.size());
    const Flock start_by_id = byId(start);
    const Diff d = compare(a, b, p, &start_by_id);
    EXPECT_LE(d.vel, 1e-4f * p.species[0].max_speed) << "max |dvelocity| (units/s)";
    EXPECT_LE(d.pos_ulps, kPositionUlps) << "positions differ by more than the velocities explain (float steps; max |dposition| "
                                         << d.pos << " units)";

    // Neighbour counts identical except for boids with a neighbour within 1e-5 of a radius (or
    // of the field-of-view cone), where float rounding may decide either way.
    const auto nc = cpu.neighbourCounts(), ng = gpu.neighbourCounts();
    const RuleContext ctx(p);
    const float r_max = p.largestRadius();
    std::size_t mismatched = 0;
    for (std::size_t i = 0; i < nc.size(); ++i) {
        if (nc[i] == ng[i]) continue;
        bool borderline = false;
        for (const Boid& o : start) {
            if (o.id == start[i].id) continue;
            const glm::vec3 dd = offsetBetween(ctx, start[i].p, o.p);
            const float dist = glm::length(dd);
            if (std::fabs(dist - r_max) < 1e-5f * std::max(1.0f, r_max)) borderline = true;
            if (ctx.species[0].use_fov && dist < r_max && dist > 0 && glm::dot(start[i].v, start[i].v) > 0) {
                const float cosang = glm::dot(glm::normalize(start[i].v), dd / dist);
                if (std::fabs(cosang - ctx.species[0].cos_half_fov) < 1e-5f) borderline = true;
            }
        }
        if (!borderline) ++mismatched;
        EXPECT_TRUE(borderline) << "boid " << i << ": cpu " << nc[i] << " neighbours, gpu " << ng[i];
        if (mismatched > 5) break;
    }
    EXPECT_NO_GL_ERRORS();
}

namespace {
// Open sky: every style in both dims, near the origin and far out; the flock split far apart; the
// states built to hurt; the neighbour caps and every influence; a large flock.
void openSkyCases(std::vector<Case>& cases) {
    for (const StyleInfo& s : styles())
        for (int dims : {2, 3})
            for (State st : {State::Random, State::FarOut}) cases.push_back({dims, Bounds::Open, 270, s.style, 700, st});
    for (int dims : {2, 3}) {
        for (State st : {State::CellBorders, State::WorldEdges, State::Coincident, State::DenseClump, State::FarApart})
            cases.push_back({dims, Bounds::Open, 270, Style::Graded, 500, st});
        for (Feature f : {Feature::Cap7, Feature::Cap20, Feature::Attractor, Feature::All})
            cases.push_back({dims, Bounds::Open, 270, Style::Graded, 1000, State::FarOut, f});
    }
    cases.push_back({3, Bounds::Open, 270, Style::Graded, 20000, State::FarOut});
    // The adaptive topological radius: every style that can keep it (not those keeping their
    // steering in its slot; the starling style leaves it free), with and without a cap, wrapped and in open sky far out.
    for (const StyleInfo& s : styles())
        for (int dims : {2, 3})
            if (s.traits.takesAdaptiveRadius()) cases.push_back({dims, Bounds::Open, 270, s.style, 700, State::Random, Feature::Adaptive});
    for (int dims : {2, 3})
        for (Feature f : {Feature::Adaptive, Feature::AdaptiveCap}) {
            cases.push_back({dims, Bounds::Wrap, 270, Style::Graded, 1000, State::Random, f});
            cases.push_back({dims, Bounds::Open, 270, Style::Graded, 1000, State::FarOut, f});
            cases.push_back({dims, Bounds::Wrap, 360, Style::Steering, 500, State::Coincident, f});
        }
}

std::vector<Case> parityCases() {
    std::vector<Case> cases;
    // Every combination of dims, bounds, field of view and style, random state, N = 1000.
    for (int dims : {2, 3})
        for (Bounds b : {Bounds::Wrap, Bounds::Soft})
            for (float fov : {360.0f, 240.0f})
                for (Style s : {Style::Steering, Style::Offset}) cases.push_back({dims, b, fov, s, 1000, State::Random});
    // Sizes.
    for (std::uint32_t n : {1u, 2u, 17u, 20000u}) {
        cases.push_back({2, Bounds::Wrap, 270, Style::Steering, n, State::Random});
        cases.push_back({3, Bounds::Soft, 270, Style::Steering, n, State::Random});
    }
    // States built to hurt, in 2D and 3D, both bounds.
    for (State st : {State::CellBorders, State::WorldEdges, State::Coincident, State::DenseClump})
        for (int dims : {2, 3})
            for (Bounds b : {Bounds::Wrap, Bounds::Soft}) cases.push_back({dims, b, 270, Style::Steering, 500, st});
    cases.push_back({2, Bounds::Wrap, 360, Style::Offset, 500, State::DenseClump});
    // Each influence in 2D and 3D, both styles; obstacles and caps also in soft bounds and on
    // coincident pairs (equal distances: the cap breaks ties by id).
    for (Feature f : {Feature::Wind, Feature::Attractor, Feature::Repeller, Feature::Scatter, Feature::Cap1, Feature::Cap7,
                      Feature::Obstacles, Feature::Leader, Feature::Species, Feature::Predators, Feature::Perching,
                      Feature::All})
        for (int dims : {2, 3})
            for (Style s : {Style::Steering, Style::Offset}) cases.push_back({dims, Bounds::Wrap, 270, s, 1000, State::Random, f});
    // The decarpentier style: every dims/bounds/view combination, the states built to hurt, and
    // with the features it meets in its preset (species, predators, obstacles, perching).
    for (int dims : {2, 3})
        for (Bounds b : {Bounds::Wrap, Bounds::Soft})
            for (float fov : {360.0f, 240.0f}) cases.push_back({dims, b, fov, Style::Decarpentier, 1000, State::Random});
    // Not on the cell-border lattice: with half-radius cells its points put many neighbours at
    // exactly equal distances, and which of them are "the three nearest" then rests on the last
    // bit of each minimum-image offset, which a fused multiply-add (the FMA-built reference, or a
    // GPU compiler) rounds either way: an exact tie, not a disagreement of the two backends. The
    // binning on cell borders is held by the other styles' border cases.
    for (State st : {State::WorldEdges, State::Coincident, State::DenseClump})
        for (int dims : {2, 3}) cases.push_back({dims, Bounds::Wrap, 270, Style::Decarpentier, 500, st});
    for (Feature f : {Feature::Species, Feature::Predators, Feature::Obstacles, Feature::Perching, Feature::Cap7, Feature::All})
        for (int dims : {2, 3}) cases.push_back({dims, Bounds::Wrap, 270, Style::Decarpentier, 1000, State::Random, f});
    // The graded style (the default): every dims/bounds/view combination, the states built to hurt
    // (coincident and nearly coincident boids meet the separation's core), and every feature.
    for (int dims : {2, 3})
        for (Bounds b : {Bounds::Wrap, Bounds::Soft})
            for (float fov : {360.0f, 240.0f}) cases.push_back({dims, b, fov, Style::Graded, 1000, State::Random});
    for (State st : {State::CellBorders, State::WorldEdges, State::Coincident, State::DenseClump})
        for (int dims : {2, 3}) cases.push_back({dims, Bounds::Wrap, 270, Style::Graded, 500, st});
    for (Feature f : {Feature::Wind, Feature::Attractor, Feature::Repeller, Feature::Scatter, Feature::Cap1, Feature::Cap7,
                      Feature::Obstacles, Feature::Leader, Feature::Species, Feature::Predators, Feature::Perching,
                      Feature::All})
        for (int dims : {2, 3}) cases.push_back({dims, Bounds::Wrap, 270, Style::Graded, 1000, State::Random, f});
    for (Feature f : {Feature::Cap1, Feature::Cap7, Feature::Cap12, Feature::Cap20, Feature::Obstacles, Feature::Predators, Feature::All})
        for (int dims : {2, 3}) {
            cases.push_back({dims, Bounds::Soft, 270, Style::Steering, 1000, State::Random, f});
            cases.push_back({dims, Bounds::Wrap, 360, Style::Steering, 500, State::Coincident, f});
        }
    // The gloss style (views around stored accelerations): every dims/bounds/view combination,
    // coincident boids, and with species, predators, perching and everything.
    for (int dims : {2, 3})
        for (Bounds b : {Bounds::Wrap, Bounds::Soft})
            for (float fov : {360.0f, 140.0f}) cases.push_back({dims, b, fov, Style::Gloss, 1000, State::Random});
    for (int dims : {2, 3}) {
        cases.push_back({dims, Bounds::Wrap, 140, Style::Gloss, 500, State::Coincident});
        for (Feature f : {Feature::Species, Feature::Predators, Feature::Perching, Feature::All})
            cases.push_back({dims, Bounds::Wrap, 140, Style::Gloss, 1000, State::Random, f});
    }
    // The Vicsek style (mean heading and hashed angular noise): both dims and bounds, coincident
    // boids, and with species and obstacles.
    for (int dims : {2, 3}) {
        for (Bounds b : {Bounds::Wrap, Bounds::Soft}) cases.push_back({dims, b, 360, Style::Vicsek, 1000, State::Random});
        cases.push_back({dims, Bounds::Wrap, 360, Style::Vicsek, 500, State::Coincident});
        for (Feature f : {Feature::Species, Feature::Obstacles})
            cases.push_back({dims, Bounds::Wrap, 360, Style::Vicsek, 1000, State::Random, f});
    }
    // The Couzin style (zones, blind angle, turning rate, hashed Gaussian noise): both dims and
    // bounds, with and without a blind angle, coincident boids, species and obstacles.
    for (int dims : {2, 3}) {
        for (Bounds b : {Bounds::Wrap, Bounds::Soft})
            for (float fov : {360.0f, 270.0f}) cases.push_back({dims, b, fov, Style::Couzin, 1000, State::Random});
        cases.push_back({dims, Bounds::Wrap, 270, Style::Couzin, 500, State::Coincident});
        for (Feature f : {Feature::Species, Feature::Obstacles})
            cases.push_back({dims, Bounds::Wrap, 270, Style::Couzin, 1000, State::Random, f});
    }
    // Every style in the registry, a new one included: both dims and bounds with a view cone, and
    // with three species and a predator (N = 700 names these apart from the cases above).
    for (const StyleInfo& s : styles())
        for (int dims : {2, 3}) {
            for (Bounds b : {Bounds::Wrap, Bounds::Soft}) cases.push_back({dims, b, 270, s.style, 700, State::Random});
            cases.push_back({dims, Bounds::Wrap, 270, s.style, 700, State::Random, Feature::Predators});
        }
    openSkyCases(cases);
    return cases;
}
}  // namespace

INSTANTIATE_TEST_SUITE_P(Cases, Parity, ::testing::ValuesIn(parityCases()), caseName);

namespace {
// The spawn of p run `steps` steps on the CPU reference and on the GPU; both flocks by id.
std::pair<Flock, Flock> spawnAndRunBoth(const Params& p, int steps) {
    const Flock start = spawn(p);
    CpuSimulation cpu;
    gpu::GpuSimulation gpu;
    cpu.upload(start, p);
    gpu.upload(start, p);
    cpu.step(steps);
    gpu.step(steps);
    return {byId(cpu.download()), byId(gpu.download())};
}
}  // namespace

// Decarpentier's amortised steering: everyone steers on the first step, a third of the flock on
// each later one, the rest coast on their stored steering; four steps stay together.
TEST(ParityLong, DecarpentierAmortisedSteeringOverFourSteps) {
    MURMUR_REQUIRE_GL();
    for (int dims : {2, 3}) {
        Params p;
        p.dims = dims;
        p.style = Style::Decarpentier;
        p.boids = 1000;
        p.world_size = dims == 3 ? 30.0f : 80.0f;
        p.dc.steer_hz = 10.0f;  // every 3rd step at dt = 1/30
        const auto [a, b] = spawnAndRunBoth(p, 4);
        const Diff d = compare(a, b, p);
        EXPECT_LE(d.pos, 1e-3f) << dims << "D";
        EXPECT_LE(d.vel, 1e-2f) << dims << "D";
        float steer = 0.0f;
        for (std::size_t i = 0; i < a.size(); ++i) steer = std::max(steer, glm::length(a[i].steer - b[i].steer));
        EXPECT_LE(steer, 1e-2f) << dims << "D: stored steering (xyz in units/s^2, w neighbour count)";
    }
    EXPECT_NO_GL_ERRORS();
}

// A boid resting on the ground keeps its stored acceleration (the gloss view's axis, the
// decarpentier steering) for when it takes off, on both backends: four steps from a flock with a
// fifth of it on the ground, stored accelerations compared boid by boid.
TEST(ParityLong, RestingBoidsKeepTheirStoredAcceleration) {
    MURMUR_REQUIRE_GL();
    for (Style s : {Style::Gloss, Style::Decarpentier}) {
        const Case c{2, Bounds::Wrap, 140, s, 1000, State::Random, Feature::Perching};
        const Params p = paramsFor(c);
        const Flock start = stateFor(c, p);
        CpuSimulation cpu;
        gpu::GpuSimulation gpu;
        cpu.upload(start, p);
        gpu.upload(start, p);
        cpu.step(4);
        gpu.step(4);
        const Flock a = byId(cpu.download()), b = byId(gpu.download()), before = byId(start);
        // Boids on the ground all four steps (rest 0.3 s > 4 dt) keep their stored acceleration
        // bit for bit on both backends (no arithmetic touches it, so this holds under FMA too).
        std::size_t resting = 0, kept_cpu = 0, kept_gpu = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (!(before[i].perch > 4.0f * p.dt)) continue;
            ++resting;
            kept_cpu += glm::vec3(a[i].steer) == glm::vec3(before[i].steer);
            kept_gpu += glm::vec3(b[i].steer) == glm::vec3(before[i].steer);
        }
        const char* style = styleInfo(s).name;
        EXPECT_GT(resting, 50u) << style << ": boids on the ground all four steps";
        EXPECT_EQ(kept_cpu, resting) << style << ": CPU";
        EXPECT_EQ(kept_gpu, resting) << style << ": GPU";
    }
    EXPECT_NO_GL_ERRORS();
}

// Edits made live, one after another, each to p (a switch of the shader variant on or off): two
// steps, the edit on both backends, `after` steps; both agree after each edit, and an edit that
// `changes` the flight made it differ from a GPU run left with p by more than the tolerance.
namespace {

struct LiveEdit {
    std::string what;
    Params params;
    bool changes;
};

void expectLiveEditsSeenByBothBackends(const Params& p, const std::vector<LiveEdit>& edits, int after) {
    const Flock start = spawn(p);
    CpuSimulation cpu;
    gpu::GpuSimulation gpu, unedited;
    cpu.upload(start, p);
    gpu.upload(start, p);
    unedited.upload(start, p);
    for (const LiveEdit& edit : edits) {
        cpu.step(2);
        gpu.step(2);
        unedited.step(2);
        cpu.setParams(edit.params);
        gpu.setParams(edit.params);
        cpu.step(after);
        gpu.step(after);
        unedited.step(after);
        const Flock a = byId(cpu.download()), b = byId(gpu.download()), c = byId(unedited.download());
        const Diff d = compare(a, b, edit.params), unchanged = compare(a, c, edit.params);
        EXPECT_LE(d.pos, 1e-3f) << edit.what;
        EXPECT_LE(d.vel, 1e-2f) << edit.what << ": units/s";
        if (edit.changes) {
            EXPECT_GT(unchanged.vel, 0.1f) << edit.what << " changed nothing: units/s";
        }
        cpu.upload(a, edit.params);  // the next edit starts from the same state on all three
        gpu.upload(a, edit.params);
        unedited.upload(a, p);
    }
}

}  // namespace

// A view cone set live (fov 360 -> 120 -> 360) rebuilds the steer pass with and without its cone
// test (the VIEW_CONE variant): a GPU left all round would differ from the CPU by far more than
// the tolerance.
TEST(ParityLong, AViewConeSetLiveIsSeenByBothBackends) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.dims = 3;
    p.boids = 1000;
    p.world_size = 12.0f;
    p.species[0].fov_deg = 360.0f;
    Params cone = p;
    cone.species[0].fov_deg = 120.0f;
    expectLiveEditsSeenByBothBackends(p, {{"fov 120", cone, true}, {"fov 360", p, false}}, 2);
    EXPECT_NO_GL_ERRORS();
}

// Obstacles set live (none -> two -> none) rebuild the passes with and without the obstacle loops
// (the OBSTACLES variant).
TEST(ParityLong, ObstaclesSetLiveAreSeenByBothBackends) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.dims = 2;
    p.boids = 1000;
    p.world_size = 40.0f;
    Params two = p;
    two.obstacles = {{{10.0f, 12.0f, 0.0f}, 5.0f}, {{28.0f, 25.0f, 0.0f}, 7.0f}};
    expectLiveEditsSeenByBothBackends(p, {{"two obstacles", two, true}, {"none", p, false}}, 2);
    EXPECT_NO_GL_ERRORS();
}

TEST(ParityLong, FiftyStepsStayCloseAndFinite) {
    MURMUR_REQUIRE_GL();
    for (int dims : {2, 3}) {
        Params p;
        p.dims = dims;
        p.boids = 200;
        p.world_size = dims == 3 ? 25.0f : 60.0f;
        const auto [a, b] = spawnAndRunBoth(p, 50);
        const Diff d = compare(a, b, p);
        // Flocks are chaotic: rounding differences grow each step. 50 steps of a sparse flock stay
        // within 1e-2 units (max_speed*dt = 0.33 units per step).
        EXPECT_LE(d.pos, 1e-2f) << dims << "D";
        EXPECT_LE(d.vel, 1e-1f) << dims << "D";
    }
    EXPECT_NO_GL_ERRORS();
}
