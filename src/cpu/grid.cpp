// Counting-sort binning; see grid.hpp.
#include "cpu/grid.hpp"

#include <algorithm>
#include <cmath>

namespace murmur {

std::vector<std::uint32_t> exclusiveScan(const std::vector<std::uint32_t>& in) {
    std::vector<std::uint32_t> out(in.size() + 1);
    std::uint32_t sum = 0;
    for (std::size_t i = 0; i < in.size(); ++i) {
        out[i] = sum;
        sum += in[i];
    }
    out[in.size()] = sum;
    return out;
}

glm::uvec3 UniformGrid::cellOf(glm::vec3 p) const {
    glm::uvec3 c{0u};
    for (int k = 0; k < 3; ++k) {
        if (spec_.open) {
            c[k] = clampedCell(foldedCell(p[k], spec_.inv_cell[k], spec_.cells[k]), spec_.cells[k]);
            continue;
        }
        float x = p[k];
        // Wrap mode bins the folded position, so unfolded input (an import) still finds its
        // minimum-image neighbours; soft mode clamps boids outside the box into the edge cells.
        if (spec_.wrap && inv_L_[k] > 0.0f) x -= L_[k] * std::floor(x * inv_L_[k]);
        c[k] = clampedCell(std::floor(x * spec_.inv_cell[k]), spec_.cells[k]);  // soft mode: outside -> edge cell
    }
    return c;
}

std::uint32_t UniformGrid::cellIndex(glm::vec3 p) const {
    const glm::uvec3 c = cellOf(p);
    return (c.z * spec_.cells.y + c.y) * spec_.cells.x + c.x;
}

void UniformGrid::build(const GridSpec& spec, const Flock& flock, const glm::vec3& L) {
    spec_ = spec;
    L_ = L;
    for (int k = 0; k < 3; ++k) inv_L_[k] = L[k] > 0.0f ? 1.0f / L[k] : 0.0f;
    const std::uint32_t n = std::uint32_t(flock.size());
    // 1. count per cell, remembering each boid's rank within its cell
    count_.assign(spec.total(), 0u);
    rank_.resize(n);
    std::vector<std::uint32_t> cell(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        cell[i] = cellIndex(flock[i].p);
        rank_[i] = count_[cell[i]]++;
    }
    // 2. exclusive prefix sum: where each cell's run starts
    start_ = exclusiveScan(count_);
    // 3. scatter boid indices into cell order
    sorted_.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) sorted_[start_[cell[i]] + rank_[i]] = i;
}

}  // namespace murmur
