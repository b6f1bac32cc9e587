// Headless run and its end-of-run summary (steps/s, mean neighbours, polarization, and per-pass
// GPU milliseconds on the GPU backend).
#include "app/run_headless.hpp"

#include "app/flock_display.hpp"
#include "app/renderer_defaults.hpp"
#include "engine/engine.hpp"
#include "engine/run.hpp"
#include "engine/self_test.hpp"
#include "app/stats_log.hpp"
#include "app/stop_signal.hpp"

#include "gl/buffer.hpp"
#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gl/framebuffer.hpp"
#include "gl/program_cache.hpp"
#include "io/input_error.hpp"
#include "io/state_csv.hpp"
#include "io/trajectory.hpp"
#include "model/body_shape.hpp"
#include "model/flock_stats.hpp"
#include "model/param_table.hpp"
#include "model/spawn.hpp"
#include "render/flock_renderer.hpp"
#include "render/recorder.hpp"
#include "render/screenshot.hpp"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

namespace murmur {

const Boid* firstNonFinite(const Flock& flock) {
    for (const Boid& b : flock)
        if (!(std::isfinite(b.p.x) && std::isfinite(b.p.y) && std::isfinite(b.p.z) && std::isfinite(b.v.x) &&
              std::isfinite(b.v.y) && std::isfinite(b.v.z)))  // not their sum: finite values can sum past a float's range
            return &b;
    return nullptr;
}

render::FlockExtent frameFlock(render::Camera& camera, Simulation& sim, const Params& p) {
    std::vector<float> xyz(std::size_t(p.boids) * 3);
    sim.readXyzById(xyz.data(), nullptr);
    camera.frameFlock(p, xyz, render::cameraModeOf(p));
    return render::extentOf(p, xyz);
}

// The flock drawn offscreen at --width x --height: what the recording shows (the whole world
// framed, or with camera follow or ground the flock, framed again each frame) and the headless
// screenshot (the flock framed, frameFlock).
class OffscreenView {
public:
    OffscreenView(Simulation& sim, const Params& p, const Options& opt)
        : frame_(opt.width, opt.height, opt.shader_dir), display_(sim), sim_(sim) {
        camera_.setAspect(float(opt.width) / float(opt.height));  // a tall picture frames the world by its width
        camera_.reset(p);
        settings_.colour_by = render::ColourBy(p.colour);
    }
    std::vector<std::uint8_t> render(const Params& p) {
        if (render::cameraModeOf(p) != render::CameraMode::World) frameFlock(sim_, p);
        return frame_.render(display_, p, camera_, settings_);
    }
    // The screenshot's view (and each recorded frame's with camera follow or ground): on the flock
    // (camera world: where it covers a small part of the world; a recording then keeps the world
    // framed, the flock moves).
    void frameFlock(Simulation& sim, const Params& p) { settings_.flock = murmur::frameFlock(camera_, sim, p); }

private:
    OffscreenFlock frame_;
    FlockDisplay display_;
    Simulation& sim_;
    render::Camera camera_;
    render::DrawSettings settings_;
};

constexpr std::uint32_t kSummaryMeasureMax = 10000000;

namespace {

// Opens the GL context the run needs (the GPU backend, or a picture to draw) and checks the
// flock fits before it is spawned. Returns 1 on a failure already reported, else 0.
int prepareRun(const Options& opt, const Flock* imported, Params& p, std::unique_ptr<gl::HeadlessContext>& context,
               std::ostream& out, std::ostream& err) {
    if (opt.backend == Backend::Gpu || !opt.screenshot.empty() || !opt.record.empty()) {
        context = engine::openHeadlessContext(err);
        if (!context) return 1;
        out << "murmur: renderer " << gl::rendererString() << ", OpenGL " << gl::glVersionString() << " ("
            << context->platform() << ")\n";
        if (opt.auto_boids && !imported)
            p = defaultsForThisRun(p, opt.backend, out, opt.world_size_set, opt.plain_launch, opt.kept_over_preset);
    }
    // Before spawning: a flock that cannot fit is never built (on the CPU: fail in a second, not after minutes).
    if (auto problem = engine::capacityProblem(opt.backend, p)) throw InputError("--boids: " + *problem);
    if (opt.backend == Backend::Gpu) {
        if (auto warning = engine::memoryWarning(p)) err << "murmur: warning: " << *warning << "\n";
        if (!engine::gpuPassesStartUpCheck(p, opt.shader_dir, err)) return 1;
    }
    return 0;
}

void printRunLine(const Simulation& sim, const Params& p, bool imported, std::ostream& out) {
    char line[256];
    std::snprintf(line, sizeof line, "murmur: backend %s, %u boids, %dD, %s bounds, %s style, seed %llu%s\n",
                  sim.name().c_str(), p.boids, p.dims, boundsName(p.bounds),
                  formatValue(*findParam("style"), p).c_str(), static_cast<unsigned long long>(p.seed),
                  imported ? ", imported state" : "");
    out << line;
}

// What a headless run writes as it goes: stats rows, video frames, trajectory frames.
struct RunOutputs {
    StatsLog& log;
    std::optional<OffscreenView>& view;
    std::optional<render::Recorder>& recorder;
    std::optional<TrajectoryWriter>& trajectory;
    const StopSignal* stop;  // with a trajectory: Ctrl-C and SIGTERM end the run between steps
};

constexpr std::uint64_t kStepsBetweenStopChecks = 8;

// The current state as a trajectory frame (engine::trajectoryFrame).
void addTrajectoryFrame(Simulation& sim, const Params& p, TrajectoryWriter& trajectory) {
    engine::TrajectoryFrame f = engine::trajectoryFrame(sim, p);
    trajectory.add(sim.stepCount(), std::move(f.pos), std::move(f.vel), std::move(f.kept), std::move(f.images));
}

// Steps to --steps through the engine's run loop (engine::Run): a stats row of each state due
// (of the last at once, of any other with the next step, the row written a stretch later: on a
// GPU its figures come back while that stretch runs), a video frame and a trajectory frame of
// each state due; measuring and drawing are inside the timing (each waits for the GPU). Returns
// the steps done: fewer than --steps when stopped.
std::uint64_t stepRecorded(Simulation& sim, const Options& opt, const Params& p, RunOutputs& o) {
    engine::Run run(engine::runTarget(sim));
    const auto stopped = [&] { return o.stop && o.stop->requested(); };
    if (o.log.enabled())
        run.addSampler({o.log.every()}, [&](const engine::Run::Sample& s) {
            o.log.add(s.state, double(s.state) * p.dt, s.flocks.front());
            o.log.countReadBack(s.bytes_read);
        });
    // A video frame; when a stop was asked, ffmpeg (in the terminal's process group) may have
    // had the same Ctrl-C and be gone: then the run stops, the trajectory kept.
    if (o.recorder)
        run.addWriter({opt.record_every}, [&](std::uint64_t) {
            try {
                o.recorder->add(o.view->render(p));
            } catch (const std::exception&) {
                if (!stopped()) throw;
            }
        });
    if (o.trajectory) {
        run.addWriter({opt.trajectory_every}, [&](std::uint64_t) { addTrajectoryFrame(sim, p, *o.trajectory); });
        run.setStretchLimit([](std::uint64_t) { return kStepsBetweenStopChecks; });
    }
    run.setStop(stopped);
    return run.advance(opt.steps);
}

void openTrajectory(const Options& opt, const Params& p, const Flock& start, std::optional<TrajectoryWriter>& trajectory) {
    if (opt.trajectory.empty()) return;
    std::vector<std::uint32_t> species(start.size(), 0);
    for (const Boid& b : start) species.at(b.id) = b.species;
    TrajectoryLayout layout = trajectoryLayout(p, std::move(species), opt.trajectory_deflate, MURMUR_VERSION, opt.trajectory_author);
    layout.unwrapped = opt.trajectory_unwrapped;
    layout.as_3d = opt.trajectory_3d;
    trajectory.emplace(opt.trajectory, layout);
}

// A run stopped by a signal: the trajectory closed with its frames, nothing else written; the
// exit code a shell gives a process the signal ended (128 + the signal).
int reportStopped(const StopSignal& stop, std::uint64_t done, TrajectoryWriter& trajectory, std::optional<render::Recorder>& recorder,
                  std::ostream& out, std::ostream& err) {
    if (recorder) recorder->abandon();
    const std::uint64_t frames = trajectory.frames();
    const std::string path = trajectory.finish();
    err << "murmur: stopped by " << (stop.signal() == SIGINT ? "SIGINT" : "SIGTERM") << " after " << done << " steps\n";
    out << "wrote " << path << " (" << frames << " frames; the run's other outputs were not written)\n";
    return 128 + stop.signal();
}

// The order parameters of the last state (mean neighbours and polarization among them). The
// group measures read the flock back: above kSummaryMeasureMax boids, unless --stats-out asks,
// only the two from the flock already downloaded.
void printOrder(Simulation& sim, const Flock& end, const Params& p, std::uint64_t steps, bool measured, std::ostream& out,
                std::ostream& err) {
    if (measured || p.boids <= kSummaryMeasureMax) {
        const OrderParams o = sim.measure();
        out << describeOrder(steps, o) << "\n";
        if (auto warning = stepResolutionWarning(o.boids, o.mean_speed, o.nn_mean, double(p.dt))) err << "murmur: warning: " << *warning << "\n";
        return;
    }
    char line[256];
    std::snprintf(line, sizeof line, "mean neighbours %.2f, polarization %.3f (other order parameters not measured above %u boids)\n",
                  meanOf(sim.neighbourCounts()), polarization(end), kSummaryMeasureMax);
    out << line;
}

// --body: the shape of the flock at the end, as one line.
std::string describeBody(const BodyShape& b) {
    const double thin = b.spread.x > 0.0 ? b.spread.x : 1.0;
    char line[400];
    std::snprintf(line, sizeof line,
                  "body: proportions 1 : %.2f : %.2f, thin axis vs up |cos| %.2f, heading vs thin/middle/long |cos| %.2f/%.2f/%.2f, "
                  "r1 %.3g (border %.3g, interior %.3g), border share %.2f",
                  b.spread.y / thin, b.spread.z / thin, b.thin_vs_up, b.heading_vs_axes.x, b.heading_vs_axes.y, b.heading_vs_axes.z,
                  b.r1, b.r1_border, b.r1_interior, b.border_share);
    return line;
}

void printPassTimes(Simulation& sim, std::ostream& out) {
    const engine::PassTimes t = engine::passTimes(sim);
    if (t.steps_in_groups > 0)
        out << "gpu: " << t.steps_in_groups << " steps in work groups, many a dispatch (small flocks: flock_steps.comp), not timed by pass\n";
    if (t.steps() == 0) return;
    const auto& ms = t.mean_ms;
    std::string s = "gpu ms per step (mean of " + std::to_string(t.steps()) + "):";
    double total = 0;
    char line[256];
    for (std::size_t i = 0; i < ms.size(); ++i) {
        std::snprintf(line, sizeof line, " %s %.3f", t.names[i].c_str(), ms[i]);
        s += line;
        total += ms[i];
    }
    std::snprintf(line, sizeof line, ", total %.3f\n", total);
    out << s << line;
}

void printSpeed(std::uint64_t steps, double seconds, std::uint32_t boids, std::ostream& out) {
    const double sps = seconds > 0 ? double(steps) / seconds : 0.0;
    char line[256];
    std::snprintf(line, sizeof line, "ran %llu %s in %.3f s: %.1f steps/s, %.3g boid-steps/s\n",
                  static_cast<unsigned long long>(steps), steps == 1 ? "step" : "steps", seconds, sps, sps * boids);
    out << line;
}

// The files written whole at the end: the stats log and the exported state (a restart file: the
// parameters `p` the run flew with, which the no-display fallback may have grown from opt's).
void writeEndFiles(const Options& opt, StatsLog& log, const Flock& end, std::uint32_t step, const Params& p, std::ostream& out) {
    if (log.enabled()) {
        log.write();
        out << "wrote " << log.path() << " (" << log.rows() << " rows, every " << log.every() << " steps";
        if (log.readBack() > 0 && log.rows() > 0) out << "; " << log.readBack() / log.rows() << " bytes read back from the GPU per row";
        out << ")\n";
    }
    if (!opt.export_path.empty()) {
        writeStateCsv(opt.export_path, end, step, p.world_size, &p);
        out << "wrote " << opt.export_path << " (" << end.size() << " boids)\n";
    }
}

}  // namespace

int runHeadless(const Options& opt, const Flock* imported, std::ostream& out, std::ostream& err) {
    Params p = opt.params;
    std::unique_ptr<gl::HeadlessContext> context;
    if (prepareRun(opt, imported, p, context, out, err) != 0) return 1;
    const std::unique_ptr<Simulation> sim = engine::makeSimulation(opt.backend, opt.shader_dir, true);
    printRunLine(*sim, p, imported != nullptr, out);
    std::optional<StopSignal> stop;  // from before the file exists: a signal never leaves its temporary file behind
    if (!opt.trajectory.empty()) stop.emplace();
    std::optional<TrajectoryWriter> trajectory;
    {
        const Flock spawned = imported ? Flock{} : spawn(p);  // capacity was checked above, before spawning
        const Flock& start = imported ? *imported : spawned;
        openTrajectory(opt, p, start, trajectory);
        sim->upload(start, p);
    }
    if (imported) sim->setStepCount(opt.import_step);  // a resumed run continues its phases exactly

    StatsLog log(opt.stats_out, opt.stats_every);
    std::optional<OffscreenView> view;
    std::optional<render::Recorder> recorder;
    if (!opt.record.empty()) {
        view.emplace(*sim, p, opt);
        recorder.emplace(opt.record, opt.width, opt.height, opt.record_fps);
    }
    const auto t0 = std::chrono::steady_clock::now();
    RunOutputs outputs{log, view, recorder, trajectory, stop ? &*stop : nullptr};
    const std::uint64_t done = stepRecorded(*sim, opt, p, outputs);
    if (stop && stop->requested()) return reportStopped(*stop, done, *trajectory, recorder, out, err);
    const Flock end = sim->download();  // waits for the GPU, so the timing below is honest
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (const Boid* b = firstNonFinite(end)) {
        if (recorder) recorder->abandon();
        err << "murmur: error: boid " << b->id << " is not finite after " << opt.steps << " steps; nothing written "
            << "(a speed limit, a smaller dt or smaller weights keep the flock finite)\n";
        return 1;
    }
    printSpeed(opt.steps, seconds, p.boids, out);
    printOrder(*sim, end, p, opt.steps, log.enabled(), out, err);
    if (opt.body) out << describeBody(measureBody(end)) << "\n";
    printPassTimes(*sim, out);
    if (opt.backend == Backend::Gpu) out << "shader programs: " << gl::describeProgramBuilds() << "\n";
    if (recorder) out << "wrote " << recorder->finish() << "\n";
    if (trajectory) {
        const std::uint64_t frames = trajectory->frames();
        out << "wrote " << trajectory->finish() << " (" << frames << " frames, H5MD)\n";
    }
    if (!opt.screenshot.empty()) {
        if (!view) view.emplace(*sim, p, opt);
        view->frameFlock(*sim, p);
        render::writePng(opt.screenshot, opt.width, opt.height, view->render(p));
        out << "wrote screenshot " << opt.screenshot << " (" << opt.width << "x" << opt.height << ")\n";
    }
    if (context && gl::takeErrorCount() > 0) {
        err << "murmur: error: the GL driver reported errors (above)\n";
        return 1;
    }
    writeEndFiles(opt, log, end, sim->stepCount(), p, out);
    return 0;
}

}  // namespace murmur
