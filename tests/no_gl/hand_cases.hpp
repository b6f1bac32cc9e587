// Hand-computed one-step cases, shared by the CPU test (test_graded.cpp) and the GPU test
// (tests/gl/test_hand_cases.cpp): both backends against the same arithmetic, not against each
// other, so a mistake made in both (scripts/mutants.py) still fails. Each case's arithmetic is in
// its comment; tolerance kVecTol = 1e-5 (units or units/s).
#pragma once

#include "model/boid.hpp"
#include "model/params.hpp"
#include "model/rng.hpp"
#include "model/simulation.hpp"
#include "test_util.hpp"

#include <cmath>
#include <string>
#include <vector>

namespace murmur::test {

struct Expected {
    std::uint32_t id;
    glm::vec3 v, p;
};

struct HandCase {
    std::string name;
    Params params;
    Flock start;
    std::vector<Expected> expected;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> neighbours{};  // (id, neighbour count) after the step
    float tol = kVecTol;  // units or units/s
};

// One step of c on sim (either backend), every expectation checked: velocities and positions
// within kVecTol, neighbour counts exactly.
inline void expectHandCase(Simulation& sim, const HandCase& c) {
    SCOPED_TRACE(c.name);
    sim.upload(c.start, c.params);
    sim.step(1);
    const Flock by_id = byId(sim.download());
    for (const Expected& e : c.expected) {
        SCOPED_TRACE("boid " + std::to_string(e.id));
        expectVec(by_id[e.id].v, e.v, "velocity", c.tol);
        expectVec(by_id[e.id].p, e.p, "position", c.tol);
    }
    const auto counts = sim.neighbourCounts();
    for (auto [id, n] : c.neighbours) EXPECT_EQ(counts.at(id), n) << "neighbours of " << id;
}

inline Params gradedQuiet() {
    Params p = quietParams();
    p.style = Style::Graded;
    return p;
}

// Couzin style, 2D, zones 1 / 3 / 10, speed 3, dt 0.1, all round view, no noise, a turn of 180
// degrees per step (any direction reached at once).
inline Params couzinQuiet() {
    Params p = quietParams();
    p.style = Style::Couzin;
    p.species[0].separation = {1.0f, 1.0f};
    p.couzin.orientation_width = 2.0f;  // r_o 3
    p.couzin.attraction_width = 7.0f;   // r_a 10
    p.species[0].max_speed = 3.0f;
    p.couzin.noise = 0.0f;
    p.couzin.turn_rate = 1800.0f;
    return p;
}

inline std::vector<HandCase> handCases() {
    std::vector<HandCase> cases;
    {
        // Separation, two neighbours at different distances and one exactly at the radius.
        // r_sep 5, w 1, max_force 2, dt 0.1. A (50,50) v (1,0); B (52,50): d (2,0), -dir (r/|d| - 1)
        // = (-1,0) x 1.5; C (50,46): d (0,-4), (0,1) x 0.25; D (50,55): |d| = 5, not < 5: nothing.
        // S = (-1.5, 0.25); a = w x max_force x S = (-3, 0.5); v' = (1,0) + 0.1 a = (0.7, 0.05);
        // p' = (50.07, 50.005). (1/|d| instead of r/|d| - 1 would give (-0.5, 0.25) x 2 ...)
        HandCase c{"separation grows as distance shrinks", gradedQuiet(), {}, {}};
        c.params.species[0].separation = {5.0f, 1.0f};
        c.params.species[0].max_force = 2.0f;
        c.start = {boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {52, 50, 0}, {0, 0, 0}), boid(2, {50, 46, 0}, {0, 0, 0}),
                   boid(3, {50, 55, 0}, {0, 0, 0})};
        c.expected = {{0, {0.7f, 0.05f, 0}, {50.07f, 50.005f, 0}}};
        cases.push_back(c);
    }
    {
        // Cohesion spring: r_coh 10, w 1, max_force 5, dt 0.1. A (10,10) v (1,0); B (14,10) and
        // C (10,12): mean offset ((4,0) + (0,2)) / 2 = (2,1); a = 1 x 5 x (1/10) x (2,1) = (1, 0.5);
        // v' = (1.1, 0.05); p' = (10.11, 10.005). A neighbour exactly at 10 (D at (10,0)) is out.
        HandCase c{"cohesion is a spring to the local centre", gradedQuiet(), {}, {}};
        c.params.species[0].cohesion = {10.0f, 1.0f};
        c.params.species[0].max_force = 5.0f;
        c.start = {boid(0, {10, 10, 0}, {1, 0, 0}), boid(1, {14, 10, 0}, {1, 0, 0}), boid(2, {10, 12, 0}, {1, 0, 0}),
                   boid(3, {10, 0, 0}, {1, 0, 0})};
        c.expected = {{0, {1.1f, 0.05f, 0}, {10.11f, 10.005f, 0}}};
        cases.push_back(c);
        // Scattering turns the spring round: a = (-1, -0.5); v' = (0.9, -0.05); p' = (10.09, 9.995).
        c.name = "scatter reverses the spring";
        c.params.scatter = true;
        c.expected = {{0, {0.9f, -0.05f, 0}, {10.09f, 9.995f, 0}}};
        cases.push_back(c);
    }
    {
        // Alignment steers as Reynolds': r_ali 5, w 0.5, max_force 100. A (50,50) v (1,0); B (52,50)
        // v (0,3); C (50,53) v (4,3): mean (2,3), setMag 10 = (5.547002, 8.320503), minus v_A =
        // (4.547002, 8.320503); a = 0.5 x that; v' = (1,0) + 0.1 a = (1.2273501, 0.4160251);
        // p' = (50.12273501, 50.04160251).
        HandCase c{"alignment steers to the mean velocity", gradedQuiet(), {}, {}};
        c.params.species[0].alignment = {5.0f, 0.5f};
        c.start = {boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {52, 50, 0}, {0, 3, 0}), boid(2, {50, 53, 0}, {4, 3, 0})};
        c.expected = {{0, {1.2273501f, 0.4160251f, 0}, {50.122735f, 50.0416025f, 0}}};
        cases.push_back(c);
    }
    {
        // All three in 3D with the speed clamped after the step: r 6 for all, weights 1, max_force
        // 10, max_speed 2, dt 0.1. A (20,20,20) v (2,0,0) [at max speed]; B (22,20,20) v (2,0,0):
        // d (2,0,0). Separation -dir (6/2 - 1) = (-2,0,0) -> a_sep = 10 x (-2,0,0) = (-20,0,0).
        // Alignment: mean v (2,0,0), setMag 2 = (2,0,0), minus v = 0. Cohesion: 1 x 10 x (1/6) x
        // (2,0,0) = (3.3333333,0,0). a = (-16.666667,0,0); v = (2,0,0) + 0.1 a = (0.3333333,0,0)
        // (within [min 0, max 2]); p' = (20.033333, 20, 20). B mirrors: v' (3.6666667,0,0) is
        // clamped to (2,0,0) after the step, p' = (22.2, 20, 20).
        HandCase c{"all three in 3D, speed clamped after the step", gradedQuiet(), {}, {}};
        c.params.dims = 3;
        c.params.species[0].separation = {6.0f, 1.0f};
        c.params.species[0].alignment = {6.0f, 1.0f};
        c.params.species[0].cohesion = {6.0f, 1.0f};
        c.params.species[0].max_force = 10.0f;
        c.params.species[0].max_speed = 2.0f;
        c.start = {boid(0, {20, 20, 20}, {2, 0, 0}), boid(1, {22, 20, 20}, {2, 0, 0})};
        c.expected = {{0, {0.3333333f, 0, 0}, {20.033333f, 20, 20}}, {1, {2, 0, 0}, {22.2f, 20, 20}}};
        cases.push_back(c);
    }
    {
        // Wander: a push of wander x jitter per axis (model/rng.hpp) on the first step (step 0),
        // seed 9, wander 3, dt 0.1, one boid at rest: v' = 0.3 x (jx, jy), p' = p + 0.1 v'.
        HandCase c{"wander pushes by the hash of (seed, id, step)", gradedQuiet(), {}, {}};
        c.params.wander = 3.0f;
        c.params.seed = 9;
        c.start = {boid(4, {30, 30, 0}, {0, 0, 0})};
        c.start[0].id = 0;
        const float jx = wanderJitter(seedLow(9), 0, 0, 0), jy = wanderJitter(seedLow(9), 0, 0, 1);
        const glm::vec3 v(0.3f * jx, 0.3f * jy, 0.0f);
        c.expected = {{0, v, glm::vec3(30, 30, 0) + v * 0.1f}};
        cases.push_back(c);
    }
    {
        // The core: a neighbour a twentieth of the radius away pushes no harder than at a tenth.
        // r_sep 5, w 1, max_force 2, dt 0.1. A (50,50) v (1,0); B (50.25,50): |d| 0.25,
        // min(r - |d|, 9|d|) = min(4.75, 2.25) = 2.25; -d x 2.25 / 0.0625 = (-9, 0); a = 2 x (-9,0)
        // = (-18, 0); v' = (1,0) + 0.1 a = (-0.8, 0); p' = (49.92, 50).
        HandCase c{"graded separation stops growing at a tenth of the radius", gradedQuiet(), {}, {}};
        c.params.species[0].separation = {5.0f, 1.0f};
        c.params.species[0].max_force = 2.0f;
        c.start = {boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {50.25f, 50, 0}, {0, 0, 0})};
        c.expected = {{0, {-0.8f, 0, 0}, {49.92f, 50, 0}}};
        cases.push_back(c);
    }
    {
        // Across the wrap on y: A (50,1) v (1,0); B (50,97): minimum image d = (0,-4). Cohesion
        // r 10, w 1, max_force 5: a = 1 x 5 x (1/10) x (0,-4) = (0,-2); v' = (1,-0.2); p' = (50.1, 0.98).
        HandCase c{"cohesion across the wrap on y", gradedQuiet(), {}, {}};
        c.params.species[0].cohesion = {10.0f, 1.0f};
        c.params.species[0].max_force = 5.0f;
        c.start = {boid(0, {50, 1, 0}, {1, 0, 0}), boid(1, {50, 97, 0}, {1, 0, 0})};
        c.expected = {{0, {1, -0.2f, 0}, {50.1f, 0.98f, 0}}};
        c.neighbours = {{0, 1}, {1, 1}};
        cases.push_back(c);
    }
    {
        // Into the next grid cell: cells of 100 / floor(100 / 10.0001) = 11.1 units; A (54,50) is
        // in cell 4, B (57,50) in cell 5. Cohesion as above: d (3,0), a = (1.5, 0); v' = (1.15, 0);
        // p' = (54.115, 50).
        HandCase c{"a neighbour in the next cell", gradedQuiet(), {}, {}};
        c.params.species[0].cohesion = {10.0f, 1.0f};
        c.params.species[0].max_force = 5.0f;
        c.start = {boid(0, {54, 50, 0}, {1, 0, 0}), boid(1, {57, 50, 0}, {1, 0, 0})};
        c.expected = {{0, {1.15f, 0, 0}, {54.115f, 50, 0}}};
        cases.push_back(c);
    }
    {
        // The view cone's edge: fov 180 degrees, A (50,50) flying +x. B (49.99,53) is just behind
        // the side line, outside; C (50.01,47) just ahead of it, inside. Cohesion r 10, w 1,
        // max_force 5 over C alone: d = (0.01,-3), a = 5 x 0.1 x d = (0.005,-1.5); v' = (1.0005,-0.15);
        // p' = (50.10005, 49.985). (Seeing all round, B's offset would cancel C's: v' = (1,0).)
        HandCase c{"the view cone's edge", gradedQuiet(), {}, {}};
        c.params.species[0].cohesion = {10.0f, 1.0f};
        c.params.species[0].max_force = 5.0f;
        c.params.species[0].fov_deg = 180.0f;
        c.start = {boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {49.99f, 53, 0}, {1, 0, 0}), boid(2, {50.01f, 47, 0}, {1, 0, 0})};
        c.expected = {{0, {1.0005f, -0.15f, 0}, {50.10005f, 49.985f, 0}}};
        c.neighbours = {{0, 1}};
        cases.push_back(c);
    }
    {
        // Reynolds' steering, two separation neighbours at different distances (the 1/|d|^2
        // weighting): A (50,50) at rest; B (52,50): -d/|d|^2 = (-0.5, 0); C (50,46): (0, 0.25).
        // S = (-0.5, 0.25), |S| = 0.5590170; setMag 10 = (-8.944272, 4.472136) (below max_force
        // 100); v' = 0.1 x that = (-0.8944272, 0.4472136); p' = (49.910557, 50.044721).
        HandCase c{"steering separation weights by 1/|d|^2", quietParams(), {}, {}};
        c.params.species[0].separation = {5.0f, 1.0f};
        c.start = {boid(0, {50, 50, 0}), boid(1, {52, 50, 0}), boid(2, {50, 46, 0})};
        c.expected = {{0, {-0.8944272f, 0.4472136f, 0}, {49.910557f, 50.044721f, 0}}};
        cases.push_back(c);
    }
    {
        // Neighbours counted within the rule radii only: A (species 0, prey with a flee radius of
        // 8, weight 0) sees D (species 0) 3 away and P (a predator, species 1) 7 away: P is only
        // within the flee radius, so A counts 1. Rule radius 5, weights 0: nothing moves A but its
        // velocity: v' = (1,0), p' = (50.1, 50).
        HandCase c{"a boid within the flee radius only is not counted", gradedQuiet(), {}, {}};
        c.params.species[0].separation = {5.0f, 0.0f};
        c.params.species_count = 2;
        c.params.roles[0].flee = {8.0f, 0.0f};
        c.params.roles[1].predator = true;
        c.params.species[1] = {{5.0f, 0.0f}, {5.0f, 0.0f}, {5.0f, 0.0f}, 360.0f, 0.0f, 10.0f, 10.0f};
        c.start = {boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {50, 53, 0}, {0, 0, 0}), boid(2, {57, 50, 0}, {0, 0, 0})};
        c.start[2].species = 1;
        c.expected = {{0, {1, 0, 0}, {50.1f, 50, 0}}};
        c.neighbours = {{0, 1}};
        cases.push_back(c);
    }
    {
        // Decarpentier, one neighbour with another velocity, vertical speed and a height to keep.
        // Radii 6, weights 1, preferred distance 2, horizontal 0.25, height 45 with weight 0.1,
        // clamps 1000, smoothing 0, dive 0, dt 0.1. A (50,50) v (2,1); B (54,50) v (2,2): d (4,0),
        // |d| 4, dir (1,0). avoid -dir/4 = (-0.25, 0); preferred dir (1 - 2/4) = (0.5, 0); velocity
        // match ((2,2) - (2,1)) / sqrt(4) = (0, 0.5); level flight -0.25 x 1 on y; height
        // 0.1 x (45 - 50) = -0.5 on y: a = (0.25, -0.25) (within every clamp). v1 = (2,1) + 0.1 a =
        // (2.025, 0.975), its speed kept (smoothing 0, no dive); p' = (50.2025, 50.0975).
        HandCase c{"decarpentier's terms with differing velocities", quietParams(), {}, {}};
        Params& p = c.params;
        p.style = Style::Decarpentier;
        p.species[0].separation = {6.0f, 1.0f};
        p.species[0].alignment = {6.0f, 1.0f};
        p.species[0].cohesion = {6.0f, 1.0f};
        p.species[0].dc.preferred_distance = 2.0f;
        p.dc.horizontal = 0.25f;
        p.dc.height = 45.0f;
        p.dc.height_weight = 0.1f;
        p.species[0].dc.accel_forward = p.species[0].dc.brake = p.species[0].dc.accel_side = p.species[0].dc.accel_up = 1000.0f;
        p.species[0].dc.smoothing = 0.0f;
        p.dc.dive = 0.0f;
        c.start = {boid(0, {50, 50, 0}, {2, 1, 0}), boid(1, {54, 50, 0}, {2, 2, 0})};
        c.expected = {{0, {2.025f, 0.975f, 0}, {50.2025f, 50.0975f, 0}}};
        cases.push_back(c);
    }
    {
        // Decarpentier's vertical weights: B (same species) 4 above A, both heading +x at 2;
        // preferred distance 1, weights 1: avoid (0,-0.25) x vertical_avoid 2 = (0,-0.5);
        // preferred distance (0, 1 - 1/4) = (0,0.75) x vertical_distance 0.5 = (0,0.375); match 0.
        // a = (0,-0.125), within every clamp; no level flight, smoothing or gravity: v = (2,-0.0125),
        // p' = (50.2, 49.99875). (Unweighted it would be (0,0.5).)
        HandCase c{"decarpentier weighs vertical parts apart", quietParams(), {}, {}};
        Params& p = c.params;
        p.style = Style::Decarpentier;
        p.species[0].separation = {10.0f, 1.0f};
        p.species[0].alignment = {10.0f, 1.0f};
        p.species[0].cohesion = {10.0f, 1.0f};
        p.species[0].dc = {1.0f, 1000.0f, 1000.0f, 1000.0f, 1000.0f, 0.0f};
        p.dc.horizontal = 0.0f;
        p.dc.dive = 0.0f;
        p.dc.vertical_avoid = 2.0f;
        p.dc.vertical_distance = 0.5f;
        p.dc.vertical_match = 3.0f;
        c.start = {boid(0, {50, 50, 0}, {2, 0, 0}), boid(1, {50, 54, 0}, {2, 0, 0})};
        c.expected = {{0, {2, -0.0125f, 0}, {50.2f, 49.99875f, 0}}};
        cases.push_back(c);
    }
    {
        // Decarpentier: another species is an object to avoid. A (species 0) at (50,50) v (2,0);
        // B (species 1) at (50,51): no bird of A's species, so no three-neighbour terms; B is within
        // A's separation radius 2: avoid w_sep x -dir/|d| = 1 x (0,-1)/1 = (0,-1), all sideways
        // (within 1000). No level flight, smoothing or gravity: v1 = (2,0) + 0.1 x (0,-1) = (2,-0.1);
        // p' = (50.2, 49.99).
        HandCase c{"decarpentier avoids another species", quietParams(), {}, {}};
        Params& p = c.params;
        p.style = Style::Decarpentier;
        p.species_count = 2;
        p.species[0].separation = {2.0f, 1.0f};
        p.species[0].alignment = {5.0f, 1.0f};
        p.species[0].cohesion = {5.0f, 1.0f};
        p.species[0].dc.accel_forward = p.species[0].dc.brake = p.species[0].dc.accel_side = p.species[0].dc.accel_up = 1000.0f;
        p.species[0].dc.smoothing = 0.0f;
        p.dc.horizontal = 0.0f;
        p.dc.dive = 0.0f;
        c.start = {boid(0, {50, 50, 0}, {2, 0, 0}), boid(1, {50, 51, 0}, {0, 0, 0})};
        c.start[1].species = 1;
        c.expected = {{0, {2, -0.1f, 0}, {50.2f, 49.99f, 0}}};
        cases.push_back(c);
    }
    {
        // Sequential order: offset style, cohesion alone (radius 50, weight 0.5), dt 1. Boid 0
        // (100,100) at rest, boid 1 (110,100) at rest, boid 2 (130,100) at rest, stored 2, 0, 1
        // (the walk is by id, not storage). Boid 0: centre of 1 and 2 is (120,100): dv =
        // 0.5 x (20,0) = (10,0); p0 = (110,100). Boid 1 sees 0 moved: centre of (110,100) and
        // (130,100) = (120,100): dv = 0.5 x (10,0) = (5,0); p1 = (115,100) (all at once it would
        // see (100,100): dv 0). Boid 2 sees both moved: centre (112.5,100): dv = 0.5 x (-17.5,0)
        // = (-8.75,0); p2 = (121.25,100).
        HandCase c{"sequential: each boid sees the ones before it moved", quietParams(), {}, {}};
        Params& p = c.params;
        p.style = Style::Offset;
        p.update = UpdateOrder::Sequential;
        p.world_size = 300.0f;
        p.dt = 1.0f;
        p.species[0].cohesion = {50.0f, 0.5f};
        p.species[0].max_speed = 100.0f;
        c.start = {boid(2, {130, 100, 0}), boid(0, {100, 100, 0}), boid(1, {110, 100, 0})};
        c.expected = {{0, {10, 0, 0}, {110, 100, 0}}, {1, {5, 0, 0}, {115, 100, 0}}, {2, {-8.75f, 0, 0}, {121.25f, 100, 0}}};
        cases.push_back(c);
    }
    {
        // Explicit Euler with the speed limit off: steering style, cohesion alone (radius 20,
        // weight 1, max_speed 2, max_force 0.5), dt 1. A (50,50) v (3,0) (above max_speed, kept: no
        // limit); B (60,50) at rest: desired setMag((10,0), 2) = (2,0); steer (2,0) - (3,0) =
        // (-1,0), limited to (-0.5,0): v' = (2.5,0); p' = (50,50) + the OLD v (3,0) = (53,50).
        HandCase c{"explicit Euler moves with the old velocity, unclamped", quietParams(), {}, {}};
        Params& p = c.params;
        p.style = Style::Steering;
        p.integrator = Integrator::Explicit;
        p.speed_limit = false;
        p.dt = 1.0f;
        p.species[0].cohesion = {20.0f, 1.0f};
        p.species[0].max_speed = 2.0f;
        p.species[0].max_force = 0.5f;
        c.start = {boid(0, {50, 50, 0}, {3, 0, 0}), boid(1, {60, 50, 0})};
        c.expected = {{0, {2.5f, 0, 0}, {53, 50, 0}}};
        cases.push_back(c);
    }
    {
        // Vicsek, no noise: A (50,50) heading (1,0) at speed 1; B (51,50) heading (0,1) at speed
        // 2, within the alignment radius 2; C (60,50) outside it. Mean of the unit headings, self
        // included: (1,1)/sqrt2; at max_speed 3: v' = (2.12132, 2.12132); p' = p + v' dt (0.1).
        // (Velocities instead of headings would give (1,2)/sqrt5; leaving self out, (0,1).)
        HandCase c{"vicsek takes the mean heading, self included, at constant speed", quietParams(), {}, {}};
        Params& p = c.params;
        p.style = Style::Vicsek;
        p.vicsek.noise = 0.0f;
        p.species[0].alignment = {2.0f, 1.0f};
        p.species[0].max_speed = 3.0f;
        c.start = {boid(0, {50, 50, 0}, {1, 0, 0}), boid(1, {51, 50, 0}, {0, 2, 0}), boid(2, {60, 50, 0}, {-1, 0, 0})};
        const float h = 3.0f / std::sqrt(2.0f);
        c.expected = {{0, {h, h, 0}, {50 + 0.1f * h, 50 + 0.1f * h, 0}}, {2, {-3, 0, 0}, {59.7f, 50, 0}}};
        cases.push_back(c);
    }
    {
        // Vicsek noise: a lone boid heading (1,0) at speed 2 turns by eta (u - 1/2), eta = 3, where
        // u is the first of its step's two uniforms (seed 1, id 0, step 0): v' = 2 (cos a, sin a).
        HandCase c{"vicsek noise turns the heading by eta (u - 1/2)", quietParams(), {}, {}};
        Params& p = c.params;
        p.style = Style::Vicsek;
        p.vicsek.noise = 3.0f;
        p.species[0].alignment = {2.0f, 1.0f};
        p.species[0].max_speed = 2.0f;
        c.start = {boid(0, {50, 50, 0}, {1, 0, 0})};
        const float a = 3.0f * (vicsekUniform(seedLow(p.seed), 0, 0, 0) - 0.5f);
        const glm::vec3 v{2.0f * std::cos(a), 2.0f * std::sin(a), 0.0f};
        c.expected = {{0, v, glm::vec3(50, 50, 0) + 0.1f * v}};
        cases.push_back(c);
    }
    {
        // Couzin, repulsion first: zones r_r 1, r_o 3, r_a 10; turn rate 1800 deg/s x dt 0.1 =
        // 180 deg, so any direction is reached; no noise. A (50,50) heading (1,0) at speed 3;
        // B (50.5,50) within r_r; C (52,50) heading (0,1) in the zone of orientation. Repulsion
        // has priority: A heads away from B, (-1,0): v' = (-3,0), p' = (49.7,50). (Orientation
        // and attraction mixed in would give a y component.)
        HandCase c{"couzin: repulsion has absolute priority", couzinQuiet(), {}, {}};
        c.start = {boid(0, {50, 50, 0}, {3, 0, 0}), boid(1, {50.5f, 50, 0}, {3, 0, 0}), boid(2, {52, 50, 0}, {0, 3, 0})};
        c.expected = {{0, {-3, 0, 0}, {49.7f, 50, 0}}};
        cases.push_back(c);
    }
    {
        // Couzin, orientation and attraction: A (50,50) heading (1,0); B (52,50) heading (0,1),
        // 2 away: zone of orientation; C (50,56) 6 away: zone of attraction (r_o 3 <= 6 < r_a 10).
        // d_o = unit((1,0) + (0,1)) (self included) = (0.7071068, 0.7071068); d_a = (0,1);
        // desired = unit((d_o + d_a) / 2) = unit(0.3535534, 0.8535534) = (0.3826834, 0.9238795)
        // (67.5 deg); v' = 3 x that = (1.1480503, 2.7716386); p' = p + 0.1 v'. (Without self in
        // d_o: (0,1) and 90 deg; attraction alone: 90 deg; raw offsets d instead of unit vectors
        // would weigh C six times.)
        HandCase c{"couzin: orientation (self included) and attraction averaged", couzinQuiet(), {}, {}};
        c.start = {boid(0, {50, 50, 0}, {3, 0, 0}), boid(1, {52, 50, 0}, {0, 3, 0}), boid(2, {50, 56, 0}, {3, 0, 0})};
        c.expected = {{0, {1.1480503f, 2.7716386f, 0}, {50.11480503f, 50.27716386f, 0}}};
        cases.push_back(c);
    }
    {
        // Couzin turning rate: theta 40 deg/s, dt 0.1: at most 4 deg per step. A (50,50) heading
        // (1,0) at speed 3 wants (0,1) (C in the zone of attraction straight to its left, 5
        // away): it turns 4 deg, v' = 3 (cos 4, sin 4) = (2.9926921, 0.2092694).
        HandCase c{"couzin: the turn per step is capped at turn_rate x dt", couzinQuiet(), {}, {}};
        c.params.couzin.turn_rate = 40.0f;
        c.start = {boid(0, {50, 50, 0}, {3, 0, 0}), boid(1, {50, 55, 0}, {3, 0, 0})};
        c.expected = {{0, {2.9926921f, 0.2092694f, 0}, {50.29926921f, 50.02092694f, 0}}};
        cases.push_back(c);
    }
    {
        // Couzin noise: a lone boid heading (1,0) at speed 3 turns by sigma g, sigma 0.3, g =
        // sqrt(-2 ln(1 - u0)) cos(2 pi u1) from its step's two uniforms (seed 1, id 0, step 0);
        // the 180 deg turn allows any angle: v' = 3 (cos a, sin a).
        HandCase c{"couzin noise turns the desired direction by sigma g", couzinQuiet(), {}, {}};
        c.params.couzin.noise = 0.3f;
        c.start = {boid(0, {50, 50, 0}, {3, 0, 0})};
        const std::uint32_t seed = seedLow(c.params.seed);
        const double u0 = couzinUniform(seed, 0, 0, 0), u1 = couzinUniform(seed, 0, 0, 1);
        const double a = 0.3 * std::sqrt(-2.0 * std::log(1.0 - u0)) * std::cos(6.283185307179586 * u1);
        const glm::vec3 v{float(3.0 * std::cos(a)), float(3.0 * std::sin(a)), 0.0f};
        c.expected = {{0, v, glm::vec3(50, 50, 0) + 0.1f * v}};
        cases.push_back(c);
    }
    return cases;
}

}  // namespace murmur::test
