// The uniform grid both backends bin boids into: cell counts per axis, and the cell of a point.
// Cell edge >= the largest radius, so the 3x3(x3) block around a boid's cell holds every candidate.
#pragma once

#include "model/params.hpp"

#include <glm/vec3.hpp>

#include <cstdint>

namespace murmur {

struct GridSpec {
    glm::uvec3 cells{1u};      // cells per axis (z = 1 in 2D)
    glm::vec3 inv_cell{0.0f};  // cells per unit on each axis, = cells / L (0 on unused axes)
    bool wrap = true;

    std::uint32_t total() const { return cells.x * cells.y * cells.z; }
};

// Most cells we allocate: at least 4096, else twice the boid count, so memory stays O(N)
// even with tiny radii (the cell edge then grows past the radius, which stays correct).
std::uint32_t cellBudget(std::uint32_t boids);

GridSpec makeGridSpec(const Params& params);
// The same sizing for another search radius (the order parameters' nearest-neighbour and group
// searches).
GridSpec makeGridSpec(const Params& params, float radius);

// The distinct cells among c-1, c, c+1 on an axis of n cells: wrapped modulo n (with n <= 3,
// each cell once) or clipped to [0, n-1]. Returns how many were written to out.
int neighbourCells(std::uint32_t c, std::uint32_t n, bool wrap, std::uint32_t out[3]);

}  // namespace murmur
