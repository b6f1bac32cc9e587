// The benchmark harness: timings from GPU timer queries (median per pass over the measured
// steps), candidate and neighbour counts from the grid, bytes per step from our own count.
#include "app/bench.hpp"

#include "app/cli.hpp"
#include "app/run_headless.hpp"

#include "gl/buffer.hpp"
#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gl/framebuffer.hpp"
#include "gl/program_cache.hpp"
#include "gl/query.hpp"
#include "engine/engine.hpp"
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

// An H100's memory bandwidth (3.35 TB/s, the SXM card's sheet): the step's compulsory traffic at
// that rate is the on-paper floor the bench prints beside each measured step.
constexpr double kH100BytesPerS = 3.35e12;
double h100FloorMs(std::uint64_t bytes) { return double(bytes) / kH100BytesPerS * 1e3; }

// A phase's row: its times, and the counts of its first step (spawn: the spawned flock's).
struct Row : engine::StepCounts {
    std::uint64_t boids = 0;
    std::string phase;
    double step_ms = 0;
    std::vector<std::pair<std::string, double>> passes;
    std::string path = "passes";  // how the steps ran: "passes" (binning, steer) or "steps in work groups"
    std::string reads;            // GPU: how the passes read the sorted flock, "textures" or "storage" (MURMUR_GPU_READS)
    std::string walk;             // GPU: how the steer pass walks the cells, "rows" or "tiles" (MURMUR_GPU_WALK)
    double read_back = 0;         // bytes read back from the GPU per measured step after the first
};

json toJson(const Row& r) {
    json passes = json::object();
    for (const auto& [name, ms] : r.passes) passes[name] = ms;
    const double sps = r.step_ms > 0 ? 1000.0 / r.step_ms : 0.0;
    return {{"boids", r.boids},
            {"phase", r.phase},
            {"path", r.path},
            {"reads", r.reads},
            {"walk", r.walk},
            {"step_ms", r.step_ms},
            {"steps_per_s", sps},
            {"boid_steps_per_s", sps * double(r.boids)},
            {"passes", passes},
            {"mean_neighbours", r.neighbours},
            {"mean_candidates", r.candidates},
            {"candidates_per_neighbour", r.neighbours > 0 ? r.candidates / r.neighbours : 0.0},
            {"block_candidates", r.block_candidates},
            {"cells_walked_per_boid", r.cells_walked},
            {"ranges_walked_per_boid", r.ranges_walked},
            {"whole_radius_cells", {{"candidates_per_boid", r.whole_cells.candidates},
                                    {"cells_walked_per_boid", r.whole_cells.cells},
                                    {"ranges_walked_per_boid", r.whole_cells.ranges}}},
            {"tile_loads_per_boid", r.tile_loads},
            {"tile_candidates_per_boid", r.tile_candidates},
            {"dispatches_per_step", r.dispatches},
            {"bytes_per_step", r.bytes},
            {"bytes_per_boid_step", r.boids ? double(r.bytes) / double(r.boids) : 0.0},
            {"memory_per_boid", r.memory_per_boid},
            {"read_back_bytes_per_step", r.read_back},
            {"effective_gb_per_s", r.step_ms > 0 ? double(r.bytes) / (r.step_ms * 1e-3) / 1e9 : 0.0},
            {"h100_floor_ms", h100FloorMs(r.bytes)}};
}

// Beside a row: how its steps ran where not the passes' default walk, with the tiled walk's counts.
std::string pathNote(const Row& r) {
    if (r.path != "passes") return "  [" + r.path + "]";
    if (r.walk != "tiles") return "";
    char note[96];
    std::snprintf(note, sizeof note, "  [tiles: %.1f loads, %.1f candidates from the tile a boid]", r.tile_loads, r.tile_candidates);
    return note;
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
                  h100FloorMs(r.bytes), passes.c_str(), pathNote(r).c_str());
    out << line << std::flush;
}

// The phase's counts from its first step (engine::countedStep): candidates of the state it
// starts from, neighbours of that step, dispatches it issued.
void countFirstStep(Simulation& sim, const Params& p, Row& r) { static_cast<engine::StepCounts&>(r) = engine::countedStep(sim, p); }

// Measures `steps` steps from the phase's start (spawn: step 0), on whichever backend; the first
// is counted (countFirstStep) and timed with the rest.
Row measure(Simulation& sim, const Params& p, const BenchOptions& b, const std::string& phase) {
    Row r;
    r.boids = p.boids;
    r.phase = phase;
    if (sim.drawable()) {  // the GPU: its passes timed on its clock
        engine::restartPassTimes(sim);
        const std::uint64_t grouped = engine::passTimes(sim).steps_in_groups;
        countFirstStep(sim, p, r);  // reads the neighbour counts back: not a step's cost
        const std::uint64_t before = gl::bytesReadBack();
        if (b.steps > 1) sim.step(int(b.steps - 1));
        const engine::PassTimes t = engine::passTimes(sim);
        if (b.steps > 1) r.read_back = double(gl::bytesReadBack() - before) / double(b.steps - 1);
        if (t.steps_in_groups > grouped) r.path = "steps in work groups";
        const engine::GpuPaths built = engine::builtPaths(sim);  // as the programs were built
        r.reads = built.reads;
        r.walk = r.path == "passes" ? built.walk : "";  // steps in work groups walk no cells of the grid
        std::vector<double> total(t.steps(), 0.0);
        for (std::size_t i = 0; i < t.samples.size(); ++i) {
            r.passes.emplace_back(t.names[i], median(t.samples[i]));
            for (std::size_t f = 0; f < t.samples[i].size(); ++f) total[f] += t.samples[i][f];
        }
        r.step_ms = median(total);
    } else {
        // CPU reference: wall-clock per step (median of the measured steps).
        r.path = "cpu reference";
        std::vector<double> ms;
        for (std::uint32_t i = 0; i < b.steps; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            if (i == 0) countFirstStep(sim, p, r);
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

RenderRow measureRender(Drawable& gpu, const Params& p, std::uint32_t frames) {
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

Params benchParams(std::uint64_t n, Style style, const std::vector<std::string>& sets) {
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
    for (const std::string& s : sets) applySet(s, p, "--set");
    p.boids = std::uint32_t(n);
    if (auto problems = validate(p); !problems.empty())
        throw InputError("the benchmark's scenario with --set at " + std::to_string(n) + " boids:\n" + describe(problems));
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

// ", then --set a=1 b=2" (or nothing).
std::string setsText(const std::vector<std::string>& sets) {
    std::string text;
    for (const std::string& s : sets) text += (text.empty() ? ", then --set " : " ") + s;
    return text;
}

json benchDocument(const Options& opt, const BenchOptions& b) {
    return {{"renderer", "cpu reference"}, {"gl_version", ""}, {"build_type", MURMUR_BUILD_TYPE},
            {"revision", MURMUR_REVISION}, {"backend", opt.backend == Backend::Gpu ? "gpu" : "cpu"},
            {"scenario", std::string("3D, wrap, ") + findParam("style")->choices[std::size_t(b.style)] +
                             ", 1 boid/unit^3, radii sep 1 / ali 2 / coh 2, fov 360, dt 0.1" + setsText(b.sets)},
            {"runs", json::array()}, {"skipped", json::array()}};
}

void printBenchHeader(const json& doc, const BenchOptions& b, std::ostream& out) {
    out << "murmur bench: " << doc["renderer"].get<std::string>()
        << (doc.contains("device") ? " (" + doc["device"].get<std::string>() + ")" : std::string()) << ", " << MURMUR_BUILD_TYPE
        << " build, revision "
        << MURMUR_REVISION
        << (!doc.contains("gl_version") ? ""
            : b.ab                     ? ", " + b.ab->var + ": " + b.ab->a + "|" + b.ab->b + " (the A/B)"
                                       : ", GPU reads: " + engine::gpuReads() + " (MURMUR_GPU_READS), walk: " + engine::gpuWalk() + " (MURMUR_GPU_WALK)")
        << "\n"
        << "scenario: " << doc["scenario"].get<std::string>() << "; median of " << b.steps << " steps from the spawn "
        << "(step 0) and from 'clumped' (step " << std::max(b.clump_steps, b.steps) << "); neighbours, candidates and dispatches "
        << "of each phase's first step; cells: cells walked per boid; B/boid: traffic per boid per step by count; mem/b: "
        << "bytes allocated per boid; H100_ms: that traffic at an H100's 3.35 TB/s (an on-paper floor, not a measurement)\n"
        << "     boids phase       step_ms     steps/s boid-steps/s   neigh   cand. c/n cells disp  B/boid  mem/b eff_GB/s  H100_ms passes(ms)\n";
}

void benchRender(Drawable& gpu, const Params& p, const BenchOptions& b, json& doc, std::ostream& out) {
    const std::uint32_t frames = std::min<std::uint32_t>(b.steps, 30);
    const RenderRow r = measureRender(gpu, p, frames);
    const double ms = r.ms;
    const char* mode = render::drawModeName(r.counts.mode);
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

}  // namespace

// One size: the spawn and clumped phases, and the render on the GPU. False when the driver
// reported errors (on err).
bool benchSize(std::uint64_t n, const Options& opt, const BenchOptions& b, json& doc, std::ostream& out, std::ostream& err) {
    const Params p = benchParams(n, b.style, b.sets);
    if (opt.backend == Backend::Gpu)
        if (auto problem = engine::capacityProblem(Backend::Gpu, p)) {
            out << "  skipped " << n << " boids: " << *problem << "\n";
            doc["skipped"].push_back({{"boids", n}, {"reason", *problem}});
            return true;
        }
    const std::unique_ptr<Simulation> sim = engine::makeSimulation(opt.backend, opt.shader_dir, true);
    Drawable* gpu = sim->drawable();
    sim->upload(spawn(p), p);
    for (const char* phase : {"spawn", "clumped"}) {
        if (std::string(phase) == "clumped")  // the clumped phase starts clump_steps after the spawn
            sim->step(int(std::max<std::int64_t>(0, std::int64_t(b.clump_steps) - std::int64_t(b.steps))));
        const Row r = measure(*sim, p, b, phase);
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

int runBench(const Options& opt, const BenchOptions& b, std::ostream& out, std::ostream& err) {
    const json before = b.compare_path.empty() ? json() : readCompareFile(b.compare_path);
    std::unique_ptr<gl::HeadlessContext> context;
    json doc = benchDocument(opt, b);
    if (opt.backend == Backend::Gpu) {
        context = engine::openHeadlessContext(err);
        if (!context) return 1;
        doc["renderer"] = gl::rendererString();
        doc["gl_version"] = gl::glVersionString();
        doc["device"] = context->platform();  // which EGL device (or platform) ran it
    }
    if (!b.flocks.empty()) {
        if (!benchEnsembles(opt, b, doc, out)) return 1;
    } else if (b.ab) {
        printBenchHeader(doc, b, out);
        if (!benchAb(opt, b, doc, out, err)) return 1;
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
