// Headless run and its end-of-run summary (steps/s, mean neighbours, polarization, and per-pass
// GPU milliseconds on the GPU backend).
#include "app/run_headless.hpp"

#include "app/flock_display.hpp"
#include "app/renderer_defaults.hpp"
#include "app/self_test.hpp"
#include "app/stats_log.hpp"

#include "cpu/cpu_simulation.hpp"
#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gl/framebuffer.hpp"
#include "gpu/gpu_simulation.hpp"
#include "io/input_error.hpp"
#include "io/state_csv.hpp"
#include "model/flock_stats.hpp"
#include "model/param_table.hpp"
#include "model/spawn.hpp"
#include "render/flock_renderer.hpp"
#include "render/screenshot.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

namespace murmur {

std::unique_ptr<gl::HeadlessContext> openHeadlessContext(std::ostream& err) {
    try {
        auto context = std::make_unique<gl::HeadlessContext>();
        gl::enableDebugOutput();
        return context;
    } catch (const gl::ContextError& e) {
        err << "murmur: error: " << e.what() << "\n(use --backend cpu to run the CPU reference)\n";
        return nullptr;
    }
}

std::unique_ptr<Simulation> makeSimulation(const Options& opt, gpu::GpuSimulation** gpu) {
    *gpu = nullptr;
    if (opt.backend == Backend::Cpu) return std::make_unique<CpuSimulation>();
    auto g = std::make_unique<gpu::GpuSimulation>(gl::ShaderLibrary(opt.shader_dir));
    g->enableTiming(true);
    *gpu = g.get();
    return g;
}

void writeOffscreenFrame(Simulation& sim, gpu::GpuSimulation* gpu, const Params& p, const Options& opt,
                         std::ostream& out) {
    gl::Framebuffer target(opt.width, opt.height);
    target.bind();
    render::FlockRenderer renderer(gl::ShaderLibrary(opt.shader_dir));
    render::Camera camera;
    camera.setAspect(float(opt.width) / float(opt.height));  // a tall picture frames the world by its width
    camera.reset(p);
    FlockDisplay display(sim, gpu);
    render::DrawSettings settings;
    settings.colour_by = render::ColourBy(opt.colour_by);
    renderer.draw(display.view(), p, camera, {opt.width, opt.height}, settings, std::nullopt);
    render::writePng(opt.screenshot, opt.width, opt.height, target.readRgba());
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    out << "wrote screenshot " << opt.screenshot << " (" << opt.width << "x" << opt.height << ")\n";
}

constexpr std::uint32_t kSummaryMeasureMax = 10000000;

int runHeadless(const Options& opt, const Flock* imported, std::ostream& out, std::ostream& err) {
    Params p = opt.params;
    std::unique_ptr<gl::HeadlessContext> context;
    std::unique_ptr<Simulation> sim;
    gpu::GpuSimulation* gpu_sim = nullptr;
    if (opt.backend == Backend::Gpu || !opt.screenshot.empty()) {
        context = openHeadlessContext(err);
        if (!context) return 1;
        out << "murmur: renderer " << gl::rendererString() << ", OpenGL " << gl::glVersionString() << " ("
            << context->platform() << ")\n";
        if (opt.auto_boids && !imported) p = defaultsForThisRun(p, opt.backend, out, opt.world_size_set);
    }
    if (opt.backend == Backend::Gpu) {
        try {
            gpu::checkCapacity(p);  // before spawning: a flock that cannot fit is never built
            if (auto warning = gpu::memoryWarning(p)) err << "murmur: warning: " << *warning << "\n";
        } catch (const gpu::CapacityError& e) {
            throw InputError(std::string("--boids: ") + e.what());
        }
        if (!gpuPassesStartUpCheck(p, opt.shader_dir, err)) return 1;
    }
    if (opt.backend == Backend::Cpu)  // before spawning, as for the GPU: fail in a second, not after minutes
        if (auto problem = cpuMemoryProblem(p, availableMemoryBytes())) throw InputError("--boids: " + *problem);
    sim = makeSimulation(opt, &gpu_sim);
    const Flock start = imported ? *imported : spawn(p);
    char line[256];
    std::snprintf(line, sizeof line, "murmur: backend %s, %u boids, %dD, %s bounds, %s style, seed %llu%s\n",
                  sim->name().c_str(), p.boids, p.dims, p.bounds == Bounds::Wrap ? "wrap" : "soft",
                  formatValue(*findParam("style"), p).c_str(), static_cast<unsigned long long>(p.seed),
                  imported ? ", imported state" : "");
    out << line;
    sim->upload(start, p);  // capacity was checked above, before spawning
    if (imported) sim->setStepCount(opt.import_step);  // a resumed run continues its phases exactly

    StatsLog log(opt.stats_out, opt.stats_every);
    const auto t0 = std::chrono::steady_clock::now();
    if (log.enabled()) {
        // Step in runs of stats_every; the measuring is inside the timing (it waits for the GPU).
        log.add(0, 0.0, sim->measure());
        for (std::uint64_t done = 0; done < opt.steps;) {
            const std::uint64_t run = std::min(opt.steps - done, log.every() - done % log.every());
            sim->step(int(run));
            done += run;
            if (log.due(done)) log.add(done, double(done) * p.dt, sim->measure());
        }
    } else {
        sim->step(int(opt.steps));
    }
    const Flock end = sim->download();  // waits for the GPU, so the timing below is honest
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    for (const Boid& b : end)
        if (!std::isfinite(b.p.x + b.p.y + b.p.z + b.v.x + b.v.y + b.v.z)) {
            err << "murmur: error: boid " << b.id << " is not finite after " << opt.steps << " steps\n";
            return 1;
        }
    const double sps = seconds > 0 ? double(opt.steps) / seconds : 0.0;
    std::snprintf(line, sizeof line, "ran %llu %s in %.3f s: %.1f steps/s, %.3g boid-steps/s\n",
                  static_cast<unsigned long long>(opt.steps), opt.steps == 1 ? "step" : "steps", seconds, sps, sps * p.boids);
    out << line;
    // The order parameters of the last state (mean neighbours and polarization among them). The
    // group measures read the flock back: above kSummaryMeasureMax boids, unless --stats-out asks,
    // only the two from the flock already downloaded.
    if (log.enabled() || p.boids <= kSummaryMeasureMax) {
        out << describeOrder(opt.steps, sim->measure()) << "\n";
    } else {
        std::snprintf(line, sizeof line, "mean neighbours %.2f, polarization %.3f (other order parameters not measured above %u boids)\n",
                      meanOf(sim->neighbourCounts()), polarization(end), kSummaryMeasureMax);
        out << line;
    }
    if (gpu_sim && gpu_sim->timer()) {
        gl::PassTimer& t = *gpu_sim->timer();
        t.finish();
        const auto ms = t.meanMs();
        std::string s = "gpu ms per step (mean of " + std::to_string(t.framesCollected()) + "):";
        double total = 0;
        for (std::size_t i = 0; i < ms.size(); ++i) {
            std::snprintf(line, sizeof line, " %s %.3f", t.names()[i].c_str(), ms[i]);
            s += line;
            total += ms[i];
        }
        std::snprintf(line, sizeof line, ", total %.3f\n", total);
        out << s << line;
    }
    if (!opt.screenshot.empty()) writeOffscreenFrame(*sim, gpu_sim, p, opt, out);
    if (context && gl::takeErrorCount() > 0) {
        err << "murmur: error: the GL driver reported errors (above)\n";
        return 1;
    }
    if (log.enabled()) {
        log.write();
        out << "wrote " << log.path() << " (" << log.rows() << " rows, every " << log.every() << " steps)\n";
    }
    if (!opt.export_path.empty()) {
        writeStateCsv(opt.export_path, end, sim->stepCount());
        out << "wrote " << opt.export_path << " (" << end.size() << " boids)\n";
    }
    return 0;
}

}  // namespace murmur
