// Params -> SimParams: the CPU reference's own derived floats (speciesContextOf) and its style's
// packed values, so the two backends cannot derive them differently.
#include "gpu/layout.hpp"

#include "cpu/flock_step.hpp"
#include "model/rng.hpp"

#include <algorithm>

namespace murmur::gpu {

namespace {

// The CPU reference's derived floats for one species, as the shaders read them: nothing derived here.
SpeciesBlock speciesBlockOf(const SpeciesContext& k) {
    SpeciesBlock b{};
    b.radii2 = {k.r2_sep, k.r2_ali, k.r2_coh, k.r2_max};
    b.weights = {k.w_sep, k.w_ali, k.w_coh, k.chase};
    b.motion = {k.min_speed, k.max_speed, k.max_force, k.cos_half_fov};
    b.role = {k.r2_flee, k.w_flee, k.predator ? 1.0f : 0.0f, k.use_fov ? 1.0f : 0.0f};
    b.counted = {k.r2_counted, k.r2_reach, 0.0f, 0.0f};
    b.graded = {k.r_sep, k.inv_r_coh, 0.0f, 0.0f};
    b.dc_motion = {k.dc.accel_forward, k.dc.brake, k.dc.accel_side, k.dc.accel_up};
    b.dc_shape = {k.dc.preferred_distance, k.dc.smoothing, 0.0f, 0.0f};
    return b;
}

}  // namespace

SimParams packParams(const Params& p, const GridSpec& grid, std::uint32_t boids) {
    SimParams s{};
    for (int k = 0; k < p.dims; ++k) {
        s.world[k] = p.world_size;
        s.inv_world[k] = 1.0f / p.world_size;
    }
    s.inv_cell = {grid.inv_cell, 0.0f};
    s.cells = {grid.cells, grid.total()};
    s.counts = {boids, std::uint32_t(p.obstacles.size()), p.neighbour_cap, 0u};
    s.step = {p.dt, 1.0f / p.dt, p.margin, p.turn};
    const float z = p.dims == 3 ? 1.0f : 0.0f;  // unused axes are 0, as in the CPU's RuleContext
    s.wind = {p.wind.x, p.wind.y, p.wind.z * z, p.scatter ? -1.0f : 1.0f};
    s.attractor = {p.attractor.at.x, p.attractor.at.y, p.attractor.at.z * z, p.attractor.weight};
    s.repeller = {p.repeller.at.x, p.repeller.at.y, p.repeller.at.z * z, p.repeller.weight};
    s.influence = {p.repeller.radius * p.repeller.radius, p.obstacle_margin, p.obstacle_push, p.wander};
    s.leader = {p.leader_at.x, p.leader_at.y, p.leader_at.z * z, p.leader ? 1.0f : 0.0f};
    for (std::uint32_t sp = 0; sp < kMaxSpecies; ++sp) s.species[sp] = speciesBlockOf(speciesContextOf(p, sp));
    s.events = {0u, seedLow(p.seed), p.stepsPerSteer(), 0u};
    s.perch = {p.perch_ground, p.perch_min, p.perch_max, 0.0f};
    s.topology = {p.topological.count, p.topological.max_radius, p.topological.rate, 1.0f / float(p.dims)};
    const Vec3f trap = p.trapCentre();
    s.trap = {trap.x, trap.y, trap.z, p.trap.stiffness};
    const std::vector<StyleSlot>& slots = styleInfo(p.style).slots;  // slot k: component k % 4 of vec4 k / 4
    for (std::size_t k = 0; k < slots.size(); ++k) s.style[k / 4][int(k % 4)] = slots[k].value(p);
    for (std::size_t k = 0; k < p.obstacles.size() && k < kMaxObstacles; ++k) {
        const Obstacle& o = p.obstacles[k];
        s.obstacles[k] = {o.at.x, o.at.y, o.at.z * z, o.radius};
    }
    return s;
}

}  // namespace murmur::gpu
