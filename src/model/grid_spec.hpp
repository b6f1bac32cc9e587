// The uniform grid both backends bin boids into: cell counts per axis, and the cell of a point.
// Cell edge >= the largest radius / kGridReach, so the cells within kGridReach of a boid's cell on
// each axis (5x5, or 5x5x5) hold every candidate. Half-radius cells cut the volume searched from
// (3r)^3 to (2.5r)^3 in 3D (42 % fewer candidates; 31 % in 2D), and a row of them is one
// contiguous range of the sorted boids.
#pragma once

#include "model/params.hpp"

#include <glm/vec3.hpp>

#include <cstdint>

namespace murmur {

inline constexpr std::uint32_t kGridReach = 2;                // cells searched either side
inline constexpr std::uint32_t kGridSpan = 2 * kGridReach + 1;  // cells searched per axis, at most

struct GridSpec {
    glm::uvec3 cells{1u};      // cells per axis (z = 1 in 2D)
    glm::vec3 inv_cell{0.0f};  // cells per unit on each axis, = cells / L (0 on unused axes)
    bool wrap = true;          // cell coordinates wrap modulo cells (wrap bounds and open sky)
    // Open sky: the grid is a fixed table of cells of edge 1/inv_cell that repeats through space. A
    // boid's cell is floor(p * inv_cell) folded modulo `cells` on each axis, so a flock costs the
    // same wherever it flies; boids of a repeat far away share a cell's list and fail the
    // distance test. (Wrap folds the position into the world instead: the world is the repeat.)
    bool open = false;

    std::uint32_t total() const { return cells.x * cells.y * cells.z; }
};

// Most cells we allocate: twice the boid count (at least 64), so memory and the per-cell passes
// stay O(N) even with tiny radii or a small flock in a large world (the cell edge then grows past
// the radius, which stays correct). A floor of 4096 cells made a 100-boid flock's per-cell
// passes cost more than its neighbour walks. And never more than kMaxGridCells, 2^26: the GPU
// reads the cell starts through one buffer texture, and 2^26 cells (with the scan's block starts)
// fit the 2^27 texels GPUs and Mesa offer, so no flock the storage blocks hold is refused for its
// grid; past 2^25 boids the cells grow instead (a 10^8 flock at density 1 and radius 2: 406 cells
// an axis instead of 464, each 1.14 units).
inline constexpr std::uint32_t kMaxGridCells = 1u << 26;
// Open sky's cell edge is (largest radius / kGridReach) * (1 + kOpenCellSlack): positions far from
// the origin round at |p| * 2^-24, and this slack keeps a neighbour within kGridReach cells while
// |p| stays under about kOpenCellSlack * 2^22 cell edges (4 * 10^3 radii; docs/model.md).
inline constexpr double kOpenCellSlack = 1e-3;
std::uint32_t cellBudget(std::uint32_t boids);

GridSpec makeGridSpec(const Params& params);
// The same sizing for another search radius (the order parameters' nearest-neighbour and group
// searches).
GridSpec makeGridSpec(const Params& params, float radius);

// The distinct cells among c-kGridReach .. c+kGridReach on an axis of n cells, in that order:
// wrapped modulo n (with n <= kGridSpan, each cell once, ascending) or clipped to [0, n-1].
// Returns how many were written to out.
// A cell coordinate folded into [0, n): floor(x * inv_cell) modulo n, exact for the integers a
// float holds (the GPU's division may round: the fix-up after it makes both backends agree).
float foldedCell(float x, float inv_cell, std::uint32_t n);
// A cell coordinate (a floor, or foldedCell's) clamped into [0, n - 1]; a non-finite flock's NaN
// in cell 0 (a cast of NaN to an integer is undefined behaviour).
std::uint32_t clampedCell(double f, std::uint32_t n);

int neighbourCells(std::uint32_t c, std::uint32_t n, bool wrap, std::uint32_t out[kGridSpan]);

// Whether the cells within `reach` of any boid's are every cell of the grid, each once, in order
// (each axis wrapped with at most 2 reach + 1 cells, or walled with at most reach + 1): the GPU's
// walk then reads the whole grid as one range (cell_walk.glsl's listsEveryCell).
bool listsEveryCell(const GridSpec& grid, std::uint32_t reach = kGridReach);

}  // namespace murmur
