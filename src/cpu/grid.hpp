// CPU uniform grid built with the counting sort the GPU uses: count per cell (with each boid's
// rank in its cell), exclusive prefix sum, scatter. Then visits the candidates around a point.
#pragma once

#include "model/boid.hpp"
#include "model/grid_spec.hpp"

#include <glm/vec3.hpp>

#include <cstdint>
#include <vector>

namespace murmur {

class UniformGrid {
public:
    void build(const GridSpec& spec, const Flock& flock, const glm::vec3& L);

    // Calls fn(index into flock) for every boid in the cells around p (each boid once).
    template <class Fn>
    void forEachCandidate(glm::vec3 p, Fn&& fn) const {
        const glm::uvec3 c = cellOf(p);
        std::uint32_t xs[kGridSpan], ys[kGridSpan], zs[kGridSpan];
        const int nx = neighbourCells(c.x, spec_.cells.x, spec_.wrap, xs);
        const int ny = neighbourCells(c.y, spec_.cells.y, spec_.wrap, ys);
        const int nz = neighbourCells(c.z, spec_.cells.z, spec_.wrap, zs);
        for (int iz = 0; iz < nz; ++iz)
            for (int iy = 0; iy < ny; ++iy)
                for (int ix = 0; ix < nx; ++ix) {
                    const std::uint32_t cell = (zs[iz] * spec_.cells.y + ys[iy]) * spec_.cells.x + xs[ix];
                    for (std::uint32_t k = start_[cell]; k < start_[cell] + count_[cell]; ++k) fn(sorted_[k]);
                }
    }

    glm::uvec3 cellOf(glm::vec3 p) const;
    std::uint32_t cellIndex(glm::vec3 p) const;
    const std::vector<std::uint32_t>& counts() const { return count_; }
    const std::vector<std::uint32_t>& starts() const { return start_; }
    const std::vector<std::uint32_t>& sorted() const { return sorted_; }

private:
    GridSpec spec_;
    glm::vec3 L_{0.0f}, inv_L_{0.0f};
    std::vector<std::uint32_t> count_, start_, sorted_, rank_;
};

// Exclusive prefix sum, then the total: in.size() + 1 values, so element i + 1 is where element
// i's range ends (the scan the GPU's grid_scan.comp must match, total included).
std::vector<std::uint32_t> exclusiveScan(const std::vector<std::uint32_t>& in);

}  // namespace murmur
