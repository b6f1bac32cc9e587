// Params -> SimParams: the same derived floats the CPU reference's RuleContext uses.
#include "gpu/layout.hpp"

namespace murmur::gpu {

SimParams packParams(const Params& p, const GridSpec& grid, std::uint32_t boids) {
    SimParams s{};
    for (int k = 0; k < p.dims; ++k) {
        s.world[k] = p.world_size;
        s.inv_world[k] = 1.0f / p.world_size;
    }
    const float r = p.largestRadius();
    s.radii2 = {p.separation.radius * p.separation.radius, p.alignment.radius * p.alignment.radius,
                p.cohesion.radius * p.cohesion.radius, r * r};
    s.weights = {p.separation.weight, p.alignment.weight, p.cohesion.weight, 0.0f};
    s.motion = {p.min_speed, p.max_speed, p.max_force, p.dt};
    s.walls = {p.margin, p.turn, p.cosHalfFov(), p.fov_deg < 360.0f ? 1.0f : 0.0f};
    s.inv_cell = {grid.inv_cell, 0.0f};
    s.cells = {grid.cells, grid.total()};
    s.counts = {boids, 0u, 0u, 0u};
    return s;
}

}  // namespace murmur::gpu
