// The benchmark harness: timings from GPU timer queries (median per pass over the measured
// steps), candidate and neighbour counts from the grid, bytes per step from our own count.
#include "app/bench.hpp"

#include "app/run_headless.hpp"

#include "cpu/cpu_simulation.hpp"
#include "gl/buffer.hpp"
#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gl/framebuffer.hpp"
#include "gl/program_cache.hpp"
#include "gl/query.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/gpu_simulation.hpp"
#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "model/flock_stats.hpp"
#include "model/param_table.hpp"
#include "model/spawn.hpp"
#include "render/flock_renderer.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#ifndef MURMUR_REVISION
#define MURMUR_REVISION "unknown"
#endif
#ifndef MURMUR_BUILD_TYPE
#define MURMUR_BUILD_TYPE "unknown"
#endif

namespace murmur {
namespace {

using nlohmann::json;

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

// An H100's memory bandwidth (3.35 TB/s, the SXM card's sheet): the step's compulsory traffic at
// that rate is the on-paper floor the bench prints beside each measured step.
constexpr double kH100BytesPerS = 3.35e12;
double h100FloorMs(std::uint64_t bytes) { return double(bytes) / kH100BytesPerS * 1e3; }

struct Row {
    std::uint64_t boids;
    std::string phase;
    double step_ms = 0;
    std::vector<std::pair<std::string, double>> passes;
    std::string path = "passes";            // how the steps ran: "passes" (binning, steer) or "steps in work groups"
    double neighbours = 0, candidates = 0;  // of the phase's first step (spawn: the spawned flock)
    double cells_walked = 0;                // GPU: cells the steer pass walks per boid (after culling)
    double block_candidates = 0;            // GPU: boids in the whole 5x5x5 block (candidates: after culling)
    std::uint64_t bytes = 0;                // compulsory traffic per step, by count
    std::uint64_t dispatches = 0;           // compute dispatches per step
    double memory_per_boid = 0;             // bytes allocated per boid, the grid's share included
    double read_back = 0;                   // bytes read back from the GPU per measured step after the first
};

json toJson(const Row& r) {
    json passes = json::object();
    for (const auto& [name, ms] : r.passes) passes[name] = ms;
    const double sps = r.step_ms > 0 ? 1000.0 / r.step_ms : 0.0;
    return {{"boids", r.boids},
            {"phase", r.phase},
            {"path", r.path},
            {"step_ms", r.step_ms},
            {"steps_per_s", sps},
            {"boid_steps_per_s", sps * double(r.boids)},
            {"passes", passes},
            {"mean_neighbours", r.neighbours},
            {"mean_candidates", r.candidates},
            {"candidates_per_neighbour", r.neighbours > 0 ? r.candidates / r.neighbours : 0.0},
            {"block_candidates", r.block_candidates},
            {"cells_walked_per_boid", r.cells_walked},
            {"dispatches_per_step", r.dispatches},
            {"bytes_per_step", r.bytes},
            {"bytes_per_boid_step", r.boids ? double(r.bytes) / double(r.boids) : 0.0},
            {"memory_per_boid", r.memory_per_boid},
            {"read_back_bytes_per_step", r.read_back},
            {"effective_gb_per_s", r.step_ms > 0 ? double(r.bytes) / (r.step_ms * 1e-3) / 1e9 : 0.0},
            {"h100_floor_ms", h100FloorMs(r.bytes)}};
}

void printRow(std::ostream& out, const Row& r) {
    char line[512];
    std::string passes;
    for (const auto& [name, ms] : r.passes) {
        char p[64];
        std::snprintf(p, sizeof p, " %s=%.3f", name.c_str(), ms);
        passes += p;
    }
    const double sps = r.step_ms > 0 ? 1000.0 / r.step_ms : 0.0;
    std::snprintf(line, sizeof line, "%10llu %-8s %10.3f %11.1f %11.3g %7.1f %7.1f %5.2f %5.1f %4llu %6.1f %6.1f %8.2f %8.4f %s%s\n",
                  static_cast<unsigned long long>(r.boids), r.phase.c_str(), r.step_ms, sps, sps * double(r.boids),
                  r.neighbours, r.candidates, r.neighbours > 0 ? r.candidates / r.neighbours : 0.0, r.cells_walked,
                  static_cast<unsigned long long>(r.dispatches), r.boids ? double(r.bytes) / double(r.boids) : 0.0,
                  r.memory_per_boid, r.step_ms > 0 ? double(r.bytes) / (r.step_ms * 1e-3) / 1e9 : 0.0,
                  h100FloorMs(r.bytes), passes.c_str(), r.path == "passes" ? "" : ("  [" + r.path + "]").c_str());
    out << line << std::flush;
}

// The phase's counts from its first step: candidates of the state it starts from, neighbours of
// that step, dispatches it issued.
void countFirstStep(Simulation& sim, gpu::GpuSimulation* gpu, const Params& p, Row& r) {
    const GridSpec g = makeGridSpec(p);
    if (gpu) {
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
}

// Measures `steps` steps from the phase's start (spawn: step 0), on whichever backend; the first
// is counted (countFirstStep) and timed with the rest.
Row measure(Simulation& sim, gpu::GpuSimulation* gpu, const Params& p, const BenchOptions& b, const std::string& phase) {
    Row r;
    r.boids = p.boids;
    r.phase = phase;
    if (gpu) {
        gpu->timer()->finish();
        gpu->timer()->reset();
        const std::uint64_t grouped = gpu->stepsInGroups();
        countFirstStep(sim, gpu, p, r);  // reads the neighbour counts back: not a step's cost
        const std::uint64_t before = gl::bytesReadBack();
        if (b.steps > 1) sim.step(int(b.steps - 1));
        gpu->timer()->finish();
        if (b.steps > 1) r.read_back = double(gl::bytesReadBack() - before) / double(b.steps - 1);
        if (gpu->stepsInGroups() > grouped) r.path = "steps in work groups";
        const auto& s = gpu->timer()->samples();
        std::vector<double> total(s.empty() ? 0 : s[0].size(), 0.0);
        for (std::size_t i = 0; i < s.size(); ++i) {
            r.passes.emplace_back(gpu->timer()->names()[i], median(s[i]));
            for (std::size_t f = 0; f < s[i].size(); ++f) total[f] += s[i][f];
        }
        r.step_ms = median(total);
    } else {
        // CPU reference: wall-clock per step (median of the measured steps).
        r.path = "cpu reference";
        std::vector<double> ms;
        for (std::uint32_t i = 0; i < b.steps; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            if (i == 0) countFirstStep(sim, gpu, p, r);
            else sim.step(1);
            ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
        }
        r.step_ms = median(ms);
    }
    return r;
}

// The render row: the flock drawn offscreen at 1920x1080 from the pipeline's buffers (3D darts,
// lit, depth-tested, bounds), median milliseconds per frame over `frames` frames, each timed on
// the CPU's clock between two glFinish calls: timer queries miss llvmpipe's deferred
// rasterisation, the wall clock does not (on a real GPU it adds the submission's latency).
struct RenderRow {
    double ms = 0.0;
    render::DrawCounts counts;
};

RenderRow measureRender(gpu::GpuSimulation& gpu, const Params& p, std::uint32_t frames) {
    constexpr int kW = 1920, kH = 1080;
    gl::Framebuffer target(kW, kH);
    target.bind();
    render::FlockRenderer renderer{gl::ShaderLibrary{}};
    render::Camera camera;
    camera.setAspect(float(kW) / float(kH));
    camera.reset(p);
    const render::FlockView view = gpu.buffers();
    std::vector<double> ms;
    for (std::uint32_t f = 0; f < frames + 3; ++f) {  // 3 warm-up frames
        glFinish();
        const auto t0 = std::chrono::steady_clock::now();
        renderer.draw(view, p, camera, {kW, kH}, render::DrawSettings{}, std::nullopt);
        glFinish();
        if (f >= 3) ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return {median(ms), renderer.lastCounts()};
}

}  // namespace

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

Params benchParams(std::uint64_t n, Style style) {
    Params p;
    p.dims = 3;
    p.bounds = Bounds::Wrap;
    p.style = style;
    p.boids = std::uint32_t(n);
    p.world_size = float(std::cbrt(double(n)));  // 1 boid per unit^3
    p.species[0].separation = {1.0f, 1.5f};
    p.species[0].alignment = {2.0f, 1.0f};
    p.species[0].cohesion = {2.0f, 1.0f};
    p.species[0].fov_deg = 360.0f;
    p.species[0].min_speed = 0.5f;
    p.species[0].max_speed = 2.0f;
    p.species[0].max_force = 2.0f;
    p.wander = 0.0f;  // the scenario predates wander: kept comparable with earlier runs
    p.dt = 0.1f;
    p.seed = 1;
    return p;
}

// Each row of `now` beside the same size and phase of an earlier run: its time, ours, and old/new
// (above 1: faster now).
void printComparison(const json& before, const json& now, const std::string& path, std::ostream& out) {
    out << "compared with " << path << " (" << before.value("revision", std::string("?")) << ", "
        << before.value("renderer", std::string("?")) << "); old/new above 1 is faster now\n"
        << (before.value("scenario", std::string()) != now.value("scenario", std::string())
                ? "  (not like for like: its scenario was " + before.value("scenario", std::string("?")) + ")\n"
                : std::string())
        << "     boids phase        old_ms      new_ms  old/new\n";
    const auto time = [](const json& row) {
        return row.contains("step_ms") ? row["step_ms"].get<double>() : row.value("frame_ms", 0.0);
    };
    for (const json& row : now["runs"])
        for (const json& old : before.value("runs", json::array()))
            if (old.value("boids", 0ull) == row["boids"].get<unsigned long long>() && old.value("phase", std::string()) == row["phase"]) {
                char line[160];
                const double a = time(old), b = time(row);
                std::snprintf(line, sizeof line, "%10llu %-8s %11.3f %11.3f %8.2f\n", row["boids"].get<unsigned long long>(),
                              row["phase"].get<std::string>().c_str(), a, b, b > 0 ? a / b : 0.0);
                out << line;
            }
}

namespace {

// An earlier --bench-out file, checked for the fields and types the comparison reads, so that a
// wrong file is refused before the benchmark runs rather than after it.
json readCompareFile(const std::string& path) {
    json before;
    try {
        before = json::parse(readFile(path));
    } catch (const json::exception& e) {
        throw InputError("--bench-compare " + echo(path) + ": not a --bench-out JSON file (" + e.what() + ")");
    } catch (const std::runtime_error& e) {  // cannot read it
        throw InputError(std::string("--bench-compare: ") + e.what());
    }
    if (!before.is_object() || !before.contains("runs") || !before["runs"].is_array())
        throw InputError("--bench-compare " + echo(path) + ": not a --bench-out JSON file (no \"runs\" list)");
    for (const json& row : before["runs"]) {
        const auto time = [&](const char* key) {
            return row.contains(key) && row[key].is_number() && row[key].get<double>() > 0 && row[key].get<double>() < 1e9;
        };
        const bool ok = row.is_object() && row.contains("boids") && row["boids"].is_number_unsigned() && row.contains("phase") &&
                        row["phase"].is_string() && (time("step_ms") || time("frame_ms"));
        if (!ok)
            throw InputError("--bench-compare " + echo(path) + ": a row of \"runs\" is not {\"boids\": N, \"phase\": TEXT, "
                             "\"step_ms\" or \"frame_ms\": a time in (0, 1e9) ms}: " + echo(row.dump()));
    }
    for (const char* field : {"scenario", "revision", "renderer"})
        if (before.contains(field) && !before[field].is_string())
            throw InputError("--bench-compare " + echo(path) + ": \"" + field + "\" is not text");
    return before;
}

json benchDocument(const Options& opt, const BenchOptions& b) {
    return {{"renderer", "cpu reference"}, {"gl_version", ""}, {"build_type", MURMUR_BUILD_TYPE},
            {"revision", MURMUR_REVISION}, {"backend", opt.backend == Backend::Gpu ? "gpu" : "cpu"},
            {"scenario", std::string("3D, wrap, ") + findParam("style")->choices[std::size_t(b.style)] +
                             ", 1 boid/unit^3, radii sep 1 / ali 2 / coh 2, fov 360, dt 0.1"},
            {"runs", json::array()}, {"skipped", json::array()}};
}

void printBenchHeader(const json& doc, const BenchOptions& b, std::ostream& out) {
    out << "murmur bench: " << doc["renderer"].get<std::string>() << ", " << MURMUR_BUILD_TYPE << " build, revision "
        << MURMUR_REVISION << "\n"
        << "scenario: " << doc["scenario"].get<std::string>() << "; median of " << b.steps << " steps from the spawn "
        << "(step 0) and from 'clumped' (step " << std::max(b.clump_steps, b.steps) << "); neighbours, candidates and dispatches "
        << "of each phase's first step; cells: cells walked per boid; B/boid: traffic per boid per step by count; mem/b: "
        << "bytes allocated per boid; H100_ms: that traffic at an H100's 3.35 TB/s (an on-paper floor, not a measurement)\n"
        << "     boids phase       step_ms     steps/s boid-steps/s   neigh   cand. c/n cells disp  B/boid  mem/b eff_GB/s  H100_ms passes(ms)\n";
}

void benchRender(gpu::GpuSimulation& gpu, const Params& p, const BenchOptions& b, json& doc, std::ostream& out) {
    const std::uint32_t frames = std::min<std::uint32_t>(b.steps, 30);
    const RenderRow r = measureRender(gpu, p, frames);
    const double ms = r.ms;
    const char* mode = r.counts.points ? "points" : "meshes";
    char line[256];
    std::snprintf(line, sizeof line,
                  "%10llu %-8s %10.3f %11.1f   %s: %.3g vertices, about %.3g fragments (1920x1080 offscreen, wall clock "
                  "between glFinish, median of %u frames)\n",
                  static_cast<unsigned long long>(p.boids), "render", ms, ms > 0 ? 1000.0 / ms : 0.0, mode,
                  double(r.counts.vertices), r.counts.fragments_estimate, frames);
    out << line << std::flush;
    doc["runs"].push_back({{"boids", p.boids}, {"phase", "render"}, {"frame_ms", ms}, {"frames_per_s", ms > 0 ? 1000.0 / ms : 0.0},
                           {"resolution", "1920x1080"}, {"frames", frames}, {"mode", mode}, {"vertices", r.counts.vertices},
                           {"fragments_estimate", r.counts.fragments_estimate}});
}

// One size: the spawn and clumped phases, and the render on the GPU. False when the driver
// reported errors (on err).
bool benchSize(std::uint64_t n, const Options& opt, const BenchOptions& b, json& doc, std::ostream& out, std::ostream& err) {
    const Params p = benchParams(n, b.style);
    if (opt.backend == Backend::Gpu) {
        try {
            gpu::checkCapacity(p);
        } catch (const gpu::CapacityError& e) {
            out << "  skipped " << n << " boids: " << e.what() << "\n";
            doc["skipped"].push_back({{"boids", n}, {"reason", e.what()}});
            return true;
        }
    }
    gpu::GpuSimulation* gpu = nullptr;
    const std::unique_ptr<Simulation> sim = makeSimulation(opt, &gpu);
    sim->upload(spawn(p), p);
    for (const char* phase : {"spawn", "clumped"}) {
        if (std::string(phase) == "clumped")  // the clumped phase starts clump_steps after the spawn
            sim->step(int(std::max<std::int64_t>(0, std::int64_t(b.clump_steps) - std::int64_t(b.steps))));
        const Row r = measure(*sim, gpu, p, b, phase);
        printRow(out, r);
        doc["runs"].push_back(toJson(r));
    }
    if (gpu) benchRender(*gpu, p, b, doc, out);
    if (gpu && gl::takeErrorCount() > 0) {
        err << "murmur: error: the GL driver reported errors (above)\n";
        return false;
    }
    return true;
}

}  // namespace

int runBench(const Options& opt, const BenchOptions& b, std::ostream& out, std::ostream& err) {
    const json before = b.compare_path.empty() ? json() : readCompareFile(b.compare_path);
    std::unique_ptr<gl::HeadlessContext> context;
    json doc = benchDocument(opt, b);
    if (opt.backend == Backend::Gpu) {
        context = openHeadlessContext(err);
        if (!context) return 1;
        doc["renderer"] = gl::rendererString();
        doc["gl_version"] = gl::glVersionString();
    }
    if (!b.flocks.empty()) {
        if (!benchEnsembles(opt, b, doc, out)) return 1;
    } else {
        printBenchHeader(doc, b, out);
        for (std::uint64_t n : b.sizes)
            if (!benchSize(n, opt, b, doc, out, err)) return 1;
    }
    if (opt.backend == Backend::Gpu) {
        const gl::ProgramBuildStats built = gl::programBuildStats();
        out << "shader programs: " << gl::describeProgramBuilds() << "\n";
        doc["programs"] = {{"built", built.built}, {"from_cache", built.cached}, {"seconds", built.seconds}};
    }
    if (!b.out_path.empty()) {
        writeFileAtomic(b.out_path, doc.dump(2) + "\n");
        out << "wrote " << b.out_path << "\n";
    }
    if (!b.compare_path.empty()) printComparison(before, doc, b.compare_path, out);
    if (doc["runs"].empty()) {  // nothing was measured: not a success
        err << "murmur: error: every --bench-sizes size was skipped; nothing was measured\n";
        return 1;
    }
    return 0;
}

}  // namespace murmur
