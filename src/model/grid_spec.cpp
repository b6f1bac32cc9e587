// Grid sizing: cells per axis = floor(L * kGridReach / largest radius), at least 1, shrunk to the
// budget (a larger cell stays correct: the search then covers more than the radius).
#include "model/grid_spec.hpp"

#include <algorithm>
#include <cmath>

namespace murmur {

std::uint32_t cellBudget(std::uint32_t boids) {
    return std::max<std::uint32_t>(64u, std::min<std::uint32_t>(std::min<std::uint32_t>(boids, 1u << 28) * 2u, kMaxGridCells));
}

GridSpec makeGridSpec(const Params& params) { return makeGridSpec(params, params.largestRadius()); }

namespace {

// Open sky: the budget's cells, as many on each used axis, of edge r / kGridReach (slightly more,
// kOpenCellSlack), or the spawn box over that count where that is larger: the cells wrap mode
// would give a flock filling the box, so a table too small for the box at half-radius cells does
// not fill each cell's list with boids a repeat away (1.19x wrap's steer at 10^5 in 3D before).
GridSpec openGridSpec(const Params& params, float r, std::uint64_t budget) {
    GridSpec g;
    g.wrap = g.open = true;
    std::uint64_t n = std::max<std::uint64_t>(1, std::uint64_t(std::floor(std::pow(double(budget), 1.0 / params.dims))));
    auto total = [&](std::uint64_t k) { return params.dims == 3 ? k * k * k : k * k; };
    while (n > 1 && total(n) > budget) --n;
    while (total(n + 1) <= budget) ++n;
    const double box = double(params.world_size) / double(n);
    const double edge = r > 0.0f ? std::max(double(r) / kGridReach * (1.0 + kOpenCellSlack), box) : box;
    for (int a = 0; a < 3; ++a) {
        const bool used = a < params.dims;
        g.cells[a] = used ? std::uint32_t(n) : 1u;
        g.inv_cell[a] = used ? float(1.0 / edge) : 0.0f;
    }
    return g;
}

}  // namespace

GridSpec makeGridSpec(const Params& params, float r) {
    const std::uint64_t budget = cellBudget(params.boids);
    if (params.bounds == Bounds::Open) return openGridSpec(params, r, budget);
    GridSpec g;
    g.wrap = params.bounds == Bounds::Wrap;
    // Radius 0 finds no neighbours; any cell size is correct, so take the budget's. The 1e-5
    // slack keeps the cell edge strictly above r, so float rounding of cell coordinates at a
    // border can never put two boids closer than r two cells apart.
    double per_axis = r > 0.0f ? std::floor(double(params.world_size) * kGridReach / (double(r) * (1.0 + 1e-5)))
                               : double(budget);
    auto fits = [&](std::uint64_t n) {
        std::uint64_t total = 1;
        for (int a = 0; a < params.dims; ++a) total *= n;
        return total <= budget;
    };
    std::uint64_t n = std::uint64_t(std::clamp(per_axis, 1.0, 1e6));
    if (!fits(n)) {
        n = std::uint64_t(std::floor(std::pow(double(budget), 1.0 / params.dims)));
        while (n > 1 && !fits(n)) --n;
        while (fits(n + 1) && n + 1 <= std::uint64_t(std::max(per_axis, 1.0))) ++n;
    }
    for (int a = 0; a < 3; ++a) {
        const bool used = a < params.dims;
        g.cells[a] = used ? std::uint32_t(n) : 1u;
        g.inv_cell[a] = used ? float(n) / params.world_size : 0.0f;
    }
    return g;
}

bool listsEveryCell(const GridSpec& grid, std::uint32_t reach) {
    const std::uint32_t most = grid.wrap ? 2 * reach + 1 : reach + 1;
    return grid.cells.x <= most && grid.cells.y <= most && grid.cells.z <= most;
}

float foldedCell(float x, float inv_cell, std::uint32_t n) {
    const float f = std::floor(x * inv_cell), cells = float(n);
    float m = f - cells * std::floor(f / cells);
    if (m < 0.0f) m += cells;
    if (m >= cells) m -= cells;
    return m;
}

std::uint32_t clampedCell(double f, std::uint32_t n) { return f > 0.0 ? std::uint32_t(std::min(f, double(n - 1))) : 0u; }

int neighbourCells(std::uint32_t c, std::uint32_t n, bool wrap, std::uint32_t out[kGridSpan]) {
    if (n <= kGridSpan && wrap) {  // every cell on this axis is a neighbour; list each once
        for (std::uint32_t i = 0; i < n; ++i) out[i] = i;
        return int(n);
    }
    int k = 0;
    for (int o = -int(kGridReach); o <= int(kGridReach); ++o) {
        const std::int64_t cc = std::int64_t(c) + o;
        if (wrap) out[k++] = std::uint32_t((cc + n) % n);
        else if (cc >= 0 && cc < std::int64_t(n)) out[k++] = std::uint32_t(cc);
    }
    return k;
}

}  // namespace murmur
