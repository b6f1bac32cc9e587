// One step taken and counted for the benchmark; see engine.hpp (StepCounts).
#include "engine/engine.hpp"

#include "cpu/cpu_simulation.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/gpu_simulation.hpp"
#include "gpu/variant.hpp"
#include "model/flock_stats.hpp"
#include "model/grid_spec.hpp"

#include <algorithm>
#include <cmath>

namespace murmur::engine {
namespace {

// Compulsory traffic of one step, by our own count (docs/performance.md): scatter reads state,
// cell + rank and start, writes the sorted copy (76 B/boid); steer reads the sorted copy, writes
// state + neighbour count and bins it for the next step, cell + rank + an atomic (80 B); per cell:
// the scan reads the count, writes the start and zeroes the next count (12), the order pass reads
// start and count and writes the start back resolved (12), steer's start reads 4 (a cell ends
// where the next starts). Neighbour reads assumed cached, and the order pass's moves (only where
// a cell is out of id order).
std::uint64_t bytesPerStep(std::uint64_t n, std::uint64_t cells) { return n * (76 + 80) + cells * 28; }

// Mean boids examined per boid: each boid visits every boid in its cell's neighbour block.
double meanCandidates(const std::vector<std::uint32_t>& count, const GridSpec& g, std::uint64_t n) {
    if (n == 0) return 0.0;
    double total = 0;
    for (std::uint32_t z = 0; z < g.cells.z; ++z)
        for (std::uint32_t y = 0; y < g.cells.y; ++y)
            for (std::uint32_t x = 0; x < g.cells.x; ++x) {
                const std::uint32_t self = count[(z * g.cells.y + y) * g.cells.x + x];
                if (!self) continue;
                std::uint32_t xs[kGridSpan], ys[kGridSpan], zs[kGridSpan];
                const int nx = neighbourCells(x, g.cells.x, g.wrap, xs), ny = neighbourCells(y, g.cells.y, g.wrap, ys),
                          nz = neighbourCells(z, g.cells.z, g.wrap, zs);
                std::uint64_t block = 0;
                for (int k = 0; k < nz; ++k)
                    for (int j = 0; j < ny; ++j)
                        for (int i = 0; i < nx; ++i) block += count[(zs[k] * g.cells.y + ys[j]) * g.cells.x + xs[i]];
                total += double(self) * double(block);
            }
    return total / double(n);
}

// A boid's cell on each axis as the binning puts it (common.glsl's cellOf), its offset within it
// and the cell edge, and whether the axis culls.
struct BoidCell {
    int c[3] = {0, 0, 0};
    double f[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    bool cull[3] = {false, false, false};
};
BoidCell boidCell(const Boid& b, const GridSpec& g, float world, int dims, int reach = int(kGridReach)) {
    BoidCell k;
    for (int a = 0; a < dims; ++a) {
        const int n = int(g.cells[a]);
        double x = b.p[a];
        if (g.open) {  // cells of edge 1/inv_cell, folded modulo n (the position is not)
            k.h[a] = 1.0 / double(g.inv_cell[a]);
            k.c[a] = int(clampedCell(foldedCell(b.p[a], g.inv_cell[a], g.cells[a]), g.cells[a]));
            k.f[a] = x - std::floor(x / k.h[a]) * k.h[a];
            k.cull[a] = n > 2 * reach + 1;
            continue;
        }
        if (g.wrap) x -= world * std::floor(x / world);
        k.h[a] = double(world) / n;
        k.c[a] = int(clampedCell(std::floor(x / k.h[a]), g.cells[a]));
        k.f[a] = x - k.c[a] * k.h[a];
        k.cull[a] = !g.wrap || n > 2 * reach + 1;
    }
    return k;
}

int dimsOf(const GridSpec& g) { return g.cells.z > 1 || g.inv_cell.z > 0.0f ? 3 : 2; }

// The cells the steer pass walks for one boid, each handed to on_cell(z, y, x), a row's in a
// run: its 5x5(x5) block (`reach` 2; 3x3x3 for whole-radius cells, `reach` 1) narrowed as its
// gather narrows it (common.glsl's cellCull: rows and x cells beyond the radius skipped),
// recomputed here in double. An estimate to the cell, not to the bit: a boid within the slack of
// a cell boundary may be counted in the cell beside.
template <class OnCell>
void walkedCells(const Boid& b, const GridSpec& g, float world, double r2, OnCell&& on_cell, int reach = int(kGridReach)) {
    const int dims = dimsOf(g), span = 2 * reach + 1;
    const BoidCell k = boidCell(b, g, world, dims, reach);
    auto gap2 = [&](int a, int o) {
        if (!k.cull[a]) return 0.0;
        const double gap = std::max(o > 0 ? o * k.h[a] - k.f[a] : o < 0 ? k.f[a] - (o + 1) * k.h[a] : 0.0, 0.0);
        return gap * gap;
    };
    auto listed = [&](int a, int o) {  // the cell o from c on axis a, or -1 when clipped away
        const int n = int(g.cells[a]), c = k.c[a] + o;
        if (g.wrap) return n <= span ? (o + reach < n ? o + reach : -1) : (c % n + n) % n;
        return c >= 0 && c < n ? c : -1;
    };
    const int z_reach = dims == 3 ? reach : 0;
    for (int oz = -z_reach; oz <= z_reach; ++oz)
        for (int oy = -reach; oy <= reach; ++oy) {
            const int z = dims == 3 ? listed(2, oz) : 0, y = listed(1, oy);
            if (z < 0 || y < 0) continue;
            const double rem2 = r2 - (dims == 3 ? gap2(2, oz) : 0.0) - gap2(1, oy);
            if (!(rem2 > 0.0)) continue;
            const double ext = std::sqrt(rem2);
            const int lo = k.cull[0] ? std::max(int(std::floor((k.f[0] - ext) / k.h[0])), -reach) : -reach;
            const int hi = k.cull[0] ? std::min(int(std::ceil((k.f[0] + ext) / k.h[0])) - 1, reach) : reach;
            for (int ox = lo; ox <= hi; ++ox)
                if (const int x = listed(0, ox); x >= 0) on_cell(z, y, x);
        }
}

std::size_t cellAt(const GridSpec& g, int z, int y, int x) {
    return (std::size_t(z) * g.cells.y + std::size_t(y)) * g.cells.x + std::size_t(x);
}

// Mean boids the steer pass examines per boid, the cells it walks for them (walkedCells), and the
// ranges of the sorted copy those are (a row's consecutive x cells, two where it crosses the wrap;
// one for the whole grid where the walk lists every cell).
struct Examined {
    double candidates = 0.0, cells = 0.0, ranges = 0.0;
};
Examined meanExaminedCandidates(const std::vector<std::uint32_t>& count, const GridSpec& g, const Flock& flock, float world,
                                float radius, int reach = int(kGridReach)) {
    if (flock.empty()) return {};
    double total = 0, cells = 0, ranges = 0;
    for (const Boid& b : flock) {
        std::size_t next = ~std::size_t(0);  // the cell that would continue the range
        walkedCells(b, g, world, double(radius) * radius, [&](int z, int y, int x) {
            const std::size_t cell = cellAt(g, z, y, x);
            total += count[cell];
            ++cells;
            if (cell != next) ++ranges;
            next = cell + 1;
        }, reach);
    }
    const double n = double(flock.size());
    return {total / n, cells / n, listsEveryCell(g, std::uint32_t(reach)) ? 1.0 : ranges / n};
}

// The same counts for a grid of whole-radius cells (edge at least the radius, 3x3x3 cells walked:
// the common choice on GPUs, Green's and HOOMD-blue's cell lists) of the same flock: what the
// half-radius grid's smaller volume saves in candidates against what it costs in rows.
Examined wholeCellCounts(const Params& p, const Flock& flock) {
    const GridSpec g = makeGridSpec(p, 2.0f * p.largestRadius());  // half of twice the radius
    std::vector<std::uint32_t> count(g.total(), 0);
    for (const Boid& b : flock) {
        const BoidCell c = boidCell(b, g, p.world_size, dimsOf(g), 1);
        ++count[cellAt(g, c.c[2], c.c[1], c.c[0])];
    }
    return meanExaminedCandidates(count, g, flock, p.world_size, p.lookRadius(0), 1);
}

// What the tiled walk (MURMUR_GPU_WALK=tiles, shaders/cell_tiles.glsl) stages, by count: each
// work group of TILE_GROUP_SIZE boids in the sorted copy's order (by cell, then id) copies the
// stretches of its middle boid's 5x5(x5) rows, from its first boid's cell (when in that row) to
// its last one's, widened by two cells, each whole row that still fits TILE_CAPACITY; the boids of
// that grid row read the candidates in a staged stretch from the tile. (Boids of another grid row
// are counted as reading none from it; in a grid of five cells or fewer an axis some may.)
struct TileCounts {
    double loads = 0.0, from_tile = 0.0;  // per boid
};

struct Cell3 {
    int x = 0, y = 0, z = 0;
};
Cell3 cellOfIndex(const GridSpec& g, std::uint64_t c) {
    return {int(c % g.cells.x), int(c / g.cells.x % g.cells.y), int(c / g.cells.x / g.cells.y)};
}

struct TileGroup {
    int y = 0, z = 0, lo = 0, hi = 0;               // the staged grid row and x cells
    std::vector<std::size_t> staged;              // y + z * cells.y of the rows that fit
    std::uint64_t loads = 0;
};

TileGroup stageTile(Cell3 a, Cell3 m, Cell3 b, const GridSpec& g, const std::vector<std::uint64_t>& before) {
    TileGroup t;
    t.y = m.y;
    t.z = m.z;
    t.lo = std::max((a.y == m.y && a.z == m.z ? a.x : 0) - int(kGridReach), 0);
    t.hi = std::min((b.y == m.y && b.z == m.z ? b.x : int(g.cells.x) - 1) + int(kGridReach), int(g.cells.x) - 1);
    std::uint32_t zs[kGridSpan], ys[kGridSpan];
    const int nz = neighbourCells(std::uint32_t(t.z), g.cells.z, g.wrap, zs), ny = neighbourCells(std::uint32_t(t.y), g.cells.y, g.wrap, ys);
    for (int iz = 0; iz < nz; ++iz)
        for (int iy = 0; iy < ny; ++iy) {
            const std::size_t row = cellAt(g, int(zs[iz]), int(ys[iy]), 0);
            const std::uint64_t count = before[row + std::size_t(t.hi) + 1] - before[row + std::size_t(t.lo)];
            if (t.loads + count > TILE_CAPACITY) continue;
            t.loads += count;
            t.staged.push_back(ys[iy] + std::size_t(zs[iz]) * g.cells.y);
        }
    return t;
}

TileCounts meanTileCounts(const std::vector<std::uint32_t>& count, const GridSpec& g, const Flock& flock, float world,
                          float radius) {
    if (flock.empty() || listsEveryCell(g)) return {};
    std::vector<std::uint64_t> key(flock.size());  // cell << 32 | id: the sorted copy's order
    std::vector<std::uint32_t> slot(flock.size());
    for (std::size_t i = 0; i < flock.size(); ++i) {
        const BoidCell c = boidCell(flock[i], g, world, dimsOf(g));
        key[i] = std::uint64_t(cellAt(g, c.c[2], c.c[1], c.c[0])) << 32 | flock[i].id;
        slot[i] = std::uint32_t(i);
    }
    std::sort(slot.begin(), slot.end(), [&](std::uint32_t i, std::uint32_t j) { return key[i] < key[j]; });
    std::vector<std::uint64_t> before(count.size() + 1, 0);  // boids in the cells before each
    for (std::size_t c = 0; c < count.size(); ++c) before[c + 1] = before[c] + count[c];
    std::vector<char> staged(std::size_t(g.cells.y) * g.cells.z, 0);  // by y + z * cells.y, this group's
    const auto cellOfSlot = [&](std::size_t s) { return cellOfIndex(g, key[slot[s]] >> 32); };
    TileCounts t;
    for (std::size_t first = 0; first < slot.size(); first += TILE_GROUP_SIZE) {
        const std::size_t last = std::min(first + TILE_GROUP_SIZE, slot.size()) - 1;
        const TileGroup tile = stageTile(cellOfSlot(first), cellOfSlot((first + last) / 2), cellOfSlot(last), g, before);
        t.loads += double(tile.loads);
        for (std::size_t row : tile.staged) staged[row] = 1;
        for (std::size_t s = first; s <= last; ++s) {
            if (const Cell3 c = cellOfSlot(s); c.y != tile.y || c.z != tile.z) continue;
            walkedCells(flock[slot[s]], g, world, double(radius) * radius, [&](int z, int y, int x) {
                if (staged[std::size_t(y) + std::size_t(z) * g.cells.y] && x >= tile.lo && x <= tile.hi) t.from_tile += count[cellAt(g, z, y, x)];
            });
        }
        for (std::size_t row : tile.staged) staged[row] = 0;
    }
    return {t.loads / double(flock.size()), t.from_tile / double(flock.size())};
}

}  // namespace

StepCounts countedStep(Simulation& sim, const Params& p) {
    StepCounts r;
    const GridSpec g = makeGridSpec(p);
    if (auto* gpu = dynamic_cast<gpu::GpuSimulation*>(&sim)) {
        const auto cells = gpu->binOnly().count;
        r.block_candidates = meanCandidates(cells, g, p.boids);
        const Flock flock = gpu->download();
        const Examined examined = meanExaminedCandidates(cells, g, flock, p.world_size, p.lookRadius(0));
        r.candidates = examined.candidates;
        r.cells_walked = examined.cells;
        r.ranges_walked = examined.ranges;
        const Examined whole = wholeCellCounts(p, flock);
        r.whole_cells = {whole.candidates, whole.cells, whole.ranges};
        if (gpu::tiledWalk(p, false)) {  // counted when the tiles run (a sort of the flock)
            const TileCounts tiles = meanTileCounts(cells, g, flock, p.world_size, p.lookRadius(0));
            r.tile_loads = tiles.loads;
            r.tile_candidates = tiles.from_tile;
        }
        const std::uint64_t before = gpu::dispatchCount();
        sim.step(1);
        r.dispatches = gpu::dispatchCount() - before;
        r.bytes = bytesPerStep(p.boids, g.total());
        r.memory_per_boid = double(gpu::bytesPerBoid(p)) + double(g.total()) * 12.0 / double(std::max<std::uint64_t>(p.boids, 1));
    } else {
        sim.step(1);
        r.candidates = static_cast<CpuSimulation&>(sim).meanCandidates();
    }
    r.neighbours = meanOf(sim.neighbourCounts());
    return r;
}

}  // namespace murmur::engine
