// Params -> SimParams: the same derived floats the CPU reference's RuleContext uses.
#include "gpu/layout.hpp"

#include "model/rng.hpp"

#include <algorithm>

namespace murmur::gpu {

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
    for (std::uint32_t sp = 0; sp < kMaxSpecies; ++sp) {  // the same floats as the CPU's SpeciesContext
        const SpeciesRules rules = p.rulesOf(sp);
        const SpeciesRole& role = p.roles[sp];
        const float r_max = p.lookRadius(sp);
        s.species[sp].radii2 = {rules.separation.radius * rules.separation.radius, rules.alignment.radius * rules.alignment.radius,
                                rules.cohesion.radius * rules.cohesion.radius, r_max * r_max};
        s.species[sp].weights = {rules.separation.weight, rules.alignment.weight, rules.cohesion.weight, role.chase};
        s.species[sp].motion = {rules.min_speed, rules.max_speed, rules.max_force, cosHalfFovOf(rules.fov_deg)};
        s.species[sp].role = {role.flee.radius * role.flee.radius, role.flee.weight, role.predator ? 1.0f : 0.0f,
                              rules.fov_deg < 360.0f ? 1.0f : 0.0f};
        const float r_rules = rules.ruleRadius();
        s.species[sp].counted = {r_rules * r_rules, p.vicsek_noise, p.couzinTurnPerStep(), p.couzin_noise};
        s.species[sp].graded = {rules.separation.radius, rules.cohesion.radius > 0.0f ? 1.0f / rules.cohesion.radius : 0.0f,
                                0.0f, 0.0f};
        s.species[sp].dc_motion = {rules.dc.accel_forward, rules.dc.brake, rules.dc.accel_side, rules.dc.accel_up};
        s.species[sp].dc_shape = {rules.dc.preferred_distance, rules.dc.smoothing, 0.0f, 0.0f};
    }
    s.events = {0u, seedLow(p.seed), p.stepsPerSteer(), 0u};
    s.perch = {p.perch_ground, p.perch_min, p.perch_max, 0.0f};
    s.dc0 = {p.dc.far_factor, p.dc.horizontal, p.dc.height, p.dc.height_weight};
    s.dc1 = {p.dc.dive, p.dc.vertical_avoid, p.dc.vertical_distance, p.dc.vertical_match};
    for (std::size_t k = 0; k < p.obstacles.size() && k < kMaxObstacles; ++k) {
        const Obstacle& o = p.obstacles[k];
        s.obstacles[k] = {o.at.x, o.at.y, o.at.z * z, o.radius};
    }
    return s;
}

}  // namespace murmur::gpu
