// One step taken and counted for the benchmark; see engine.hpp (StepCounts).
#include "engine/engine.hpp"

#include "cpu/cpu_simulation.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/gpu_simulation.hpp"
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

// Mean boids the steer pass examines per boid, and the cells it walks for them: meanCandidates'
// block narrowed as its gather narrows it (common.glsl's cellCull: rows and x cells beyond the
// largest radius are skipped), recomputed here in double from the state the step starts from. An
// estimate to the cell, not to the bit: a boid within the slack of a cell boundary may be counted
// in the cell beside.
struct Examined {
    double candidates = 0.0, cells = 0.0;
};
Examined meanExaminedCandidates(const std::vector<std::uint32_t>& count, const GridSpec& g, const Flock& flock, float world,
                                float radius) {
    if (flock.empty()) return {};
    const int dims = g.cells.z > 1 || g.inv_cell.z > 0.0f ? 3 : 2;
    const double r2 = double(radius) * radius;
    double total = 0, cells = 0;
    for (const Boid& b : flock) {
        int c[3] = {0, 0, 0};
        double f[3] = {0, 0, 0}, h[3] = {1, 1, 1};
        bool cull[3] = {false, false, false};
        for (int a = 0; a < dims; ++a) {
            const int n = int(g.cells[a]);
            double x = b.p[a];
            if (g.wrap) x -= world * std::floor(x / world);
            h[a] = double(world) / n;
            c[a] = std::clamp(int(std::floor(x / h[a])), 0, n - 1);
            f[a] = x - c[a] * h[a];
            cull[a] = !g.wrap || n > int(kGridSpan);
        }
        auto gap2 = [&](int a, int o) {
            if (!cull[a]) return 0.0;
            const double gap = std::max(o > 0 ? o * h[a] - f[a] : o < 0 ? f[a] - (o + 1) * h[a] : 0.0, 0.0);
            return gap * gap;
        };
        auto listed = [&](int a, int o) {  // the cell o from c on axis a, or -1 when clipped away
            const int n = int(g.cells[a]), k = c[a] + o;
            if (g.wrap) return n <= int(kGridSpan) ? (o + int(kGridReach) < n ? o + int(kGridReach) : -1) : (k % n + n) % n;
            return k >= 0 && k < n ? k : -1;
        };
        const int reach = int(kGridReach), z_reach = dims == 3 ? reach : 0;
        for (int oz = -z_reach; oz <= z_reach; ++oz)
            for (int oy = -reach; oy <= reach; ++oy) {
                const int z = dims == 3 ? listed(2, oz) : 0, y = listed(1, oy);
                if (z < 0 || y < 0) continue;
                const double rem2 = r2 - (dims == 3 ? gap2(2, oz) : 0.0) - gap2(1, oy);
                if (!(rem2 > 0.0)) continue;
                const double ext = std::sqrt(rem2);
                const int lo = cull[0] ? std::max(int(std::floor((f[0] - ext) / h[0])), -reach) : -reach;
                const int hi = cull[0] ? std::min(int(std::ceil((f[0] + ext) / h[0])) - 1, reach) : reach;
                for (int ox = lo; ox <= hi; ++ox) {
                    const int x = listed(0, ox);
                    if (x < 0) continue;
                    total += count[(std::size_t(z) * g.cells.y + std::size_t(y)) * g.cells.x + std::size_t(x)];
                    ++cells;
                }
            }
    }
    return {total / double(flock.size()), cells / double(flock.size())};
}
}  // namespace

StepCounts countedStep(Simulation& sim, const Params& p) {
    StepCounts r;
    const GridSpec g = makeGridSpec(p);
    if (auto* gpu = dynamic_cast<gpu::GpuSimulation*>(&sim)) {
        const auto cells = gpu->binOnly().count;
        r.block_candidates = meanCandidates(cells, g, p.boids);
        const Examined examined = meanExaminedCandidates(cells, g, gpu->download(), p.world_size, p.lookRadius(0));
        r.candidates = examined.candidates;
        r.cells_walked = examined.cells;
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
