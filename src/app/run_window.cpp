// The window's main loop: input -> session (steps) -> stats -> draw flock -> panel -> swap. A
// minimised window (0x0 framebuffer) waits for events instead of spinning. AppWindow owns the
// window, context and ImGui; WindowRun holds what the loop works on, one method per stage.
#include "app/run_window.hpp"

#include "io/atomic_file.hpp"

#include "app/app_window.hpp"
#include "app/flock_display.hpp"
#include "app/renderer_defaults.hpp"
#include "app/run_headless.hpp"
#include "engine/engine.hpp"
#include "engine/run.hpp"
#include "engine/self_test.hpp"
#include "app/stats_log.hpp"
#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gl/framebuffer.hpp"
#include "gl/gl.hpp"
#include "io/input_error.hpp"
#include "model/density.hpp"
#include "model/param_table.hpp"
#include "render/flock_renderer.hpp"
#include "render/recorder.hpp"
#include "io/state_csv.hpp"
#include "render/screenshot.hpp"
#include "ui/keys.hpp"
#include "ui/panel.hpp"
#include "ui/session.hpp"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <cstdlib>
#include <iomanip>
#include <memory>
#include <string>

namespace murmur {
namespace {

using Clock = std::chrono::steady_clock;

// Whether a flock fits before it is spawned: the CPU backend's memory, the GPU's limits.
std::optional<std::string> cpuCapacityProblem(const Params& p) { return engine::capacityProblem(Backend::Cpu, p); }
std::optional<std::string> capacityProblem(const Params& p) { return engine::capacityProblem(Backend::Gpu, p); }

// The headless fallback when there is no display: run, screenshot, summary.
int fallBackToHeadless(Options opt, const Flock* imported, const std::string& why, std::ostream& out,
                       std::ostream& err) {
    if (opt.screenshot.empty()) opt.screenshot = render::screenshotName(".");
    checkWritableTarget(opt.screenshot, "the screenshot of the no-display fallback");
    if (opt.frames > 0) opt.steps = opt.frames;  // one step per frame, as the window would have run
    err << "murmur: no display (" << why << "): running headless instead for " << opt.steps << " steps ("
        << (opt.frames > 0 ? "--frames" : "--steps") << ") and writing the last frame to " << opt.screenshot << "\n";
    opt.headless = true;
    return runHeadless(opt, imported, out, err);
}

// Where each field of the panel was drawn ("name x y w h", window units), for scripts that drive
// the panel with synthetic input (tests/window_smoke.sh). Replaced atomically each frame.
void writePanelRects(const ui::PanelState& panel, const std::string& path) {
    std::string text;
    char line[64];
    for (const auto& [name, r] : panel.rects) {
        std::snprintf(line, sizeof line, " %.0f %.0f %.0f %.0f\n", double(r.x), double(r.y), double(r.z), double(r.w));
        text += name + line;
    }
    try {
        writeFileAtomic(path, text);
    } catch (const std::exception&) {  // a script's aid: never a reason to stop the window
    }
}

bool writeScreenshot(const std::string& path, int w, int h, std::ostream& out, std::ostream& err) {
    try {
        render::writePng(path, w, h, gl::readPixelsRgba(0, w, h));
        out << "murmur: wrote screenshot " << path << " (" << w << "x" << h << ")\n";
        return true;
    } catch (const std::exception& e) {
        err << "murmur: screenshot not written: " << e.what() << "\n";
        return false;
    }
}

// The framebuffer this frame: its size, and pixels per window unit (HiDPI).
struct Viewport {
    int width = 0, height = 0;
    double px_scale = 1.0;
    render::ScreenRect world;  // where the world is drawn: beside the panel
    glm::vec2 size() const { return {float(width), float(height)}; }
    // A window point (window units, origin top left) as a framebuffer pixel (origin bottom left).
    glm::vec2 pixel(glm::dvec2 at) const { return {float(at.x * px_scale), float(height - at.y * px_scale)}; }
};

// A sample's largest group's size, which the sample does not carry: the edge of a cube of its
// boids packed at the nearest-neighbour distance, nn x count^(1/dims).
double packedSpan(const OrderParams& o, int dims) {
    return o.nn_mean * std::pow(double(o.largest_groups[0].boids), 1.0 / double(dims));
}

// Where the flock is for the draw key's auto, from a sample: the largest group where it holds at
// least half the boids, as the ball a gas of its count and nearest-neighbour distance would fill
// (radius 1.12 x packedSpan); else none (the world box).
std::optional<render::FlockExtent> sampledExtent(const OrderParams& o, const Params& p) {
    const GroupFigures& g = o.largest_groups[0];
    if (g.boids == 0 || !(o.nn_mean > 0.0) || 2 * std::uint64_t(g.boids) < std::uint64_t(p.boids)) return std::nullopt;
    const double radius = 1.12 * packedSpan(o, p.dims);
    return render::FlockExtent{glm::vec3(g.centre), float(radius), std::uint64_t(g.boids)};
}

class WindowRun {
public:
    WindowRun(AppWindow& window, const Options& opt, Simulation& sim, ui::Session& session, const std::string& renderer)
        : window_(window), opt_(opt), sim_(sim), session_(session), display_(sim),
          renderer_(gl::ShaderLibrary(opt.shader_dir)), log_(opt.stats_out, opt.stats_every) {
        frameFlock();
        panel_.vsync = vsync_ = opt.vsync;
        panel_.loaded_preset = opt.preset_name;
        started_with_ = session.live();
        if (const char* path = std::getenv("MURMUR_PANEL_RECTS")) rects_path_ = path;
        if (const char* path = std::getenv("MURMUR_FRAME_LOG")) frame_log_.open(path);
        record_at_start_ = !opt.record.empty();
        session.setStepper([this](int steps) { stepThroughRun(steps); });
        stats_.renderer = renderer;
        stats_.backend = sim.name();
        // A slow step still answers Esc and the close button (events only queue: ui::ImGuiInput),
        // looking at the events at most every 50 ms.
        const auto quitAsked = [this] {
            const auto now = Clock::now();
            if (now - last_poll_ < std::chrono::milliseconds(50)) return false;
            last_poll_ = now;
            glfwPollEvents();
            for (ui::Action a : window_.input().actions)
                if (a == ui::Action::Quit) window_.close();
            return window_.shouldClose();
        };
        sim.setInterrupt(quitAsked);
    }

    // Runs until the window is closed (or --frames); returns the exit code.
    int run(std::ostream& out, std::ostream& err);
    int finish(std::ostream& out, std::ostream& err);
    bool flockIsFinite(const Flock& now, std::ostream& err);

private:
    // The camera on the flock where it covers a small part of the world, else on the world
    // (Camera::reset): at the start, a respawn and the reset key.
    void frameFlock() { panel_.draw.flock = murmur::frameFlock(camera_, sim_, session_.live()); }

    void applyKeys();
    void handleMouse(const Viewport& vp);
    std::optional<render::ScreenRect> panelPixels(const Viewport& vp) const;
    int stepAndMeasure();
    void stepThroughRun(int steps);
    bool sampleStats(Clock::time_point now);  // true: did some of a sample's work this frame
    bool advanceOrderSample(Clock::time_point now);
    void followFlock(double seconds);
    void drawFrame(const Viewport& vp);
    void finishFrame(const Viewport& vp, std::ostream& out, std::ostream& err);
    void startRecording(const std::string& target, const Viewport& vp, std::ostream& err);
    void stopRecording(std::ostream& out, std::ostream& err);
    void endRecording();
    void recordFrame();
    void notify(std::string text);
    void drawStatusOverlay(const Viewport& vp);

    AppWindow& window_;
    const Options& opt_;
    Simulation& sim_;
    ui::Session& session_;
    FlockDisplay display_;
    render::FlockRenderer renderer_;
    render::Camera camera_;
    ui::PanelState panel_;
    Params started_with_;           // the parameters at start: the summary names what the panel changed
    std::string rects_path_;        // MURMUR_PANEL_RECTS: where each field is drawn, for scripts
    std::ofstream frame_log_;       // MURMUR_FRAME_LOG: per frame its milliseconds, steps and whether it sampled
    bool non_finite_ = false;       // the flock went to NaN or infinity: nothing is written from it
    Clock::time_point last_poll_{};
    bool interruptedMidStep() const { return sim_.interrupted(); }
    ui::FrameStats stats_;
    StatsLog log_;
    bool vsync_ = true;
    std::uint64_t frames_ = 0, steps_since_ = 0;
    int frames_since_ = 0;
    Clock::time_point last_sample_ = Clock::now();  // FPS and steps/s were last worked out
    static constexpr std::uint64_t kSampleFrames = 8;  // a sample is spread over at least this many frames
    bool sampling_ = false;                             // an order-parameter sample is in progress
    SampleTicket sample_ticket_;                        // ... asked for with this ticket
    bool sample_passes_done_ = false;                   // ... its passes have run: its figures on their way
    int landing_frames_ = 0;                            // frames since, waiting for them
    // Frames a sample's figures are waited for without a stall before takeSample may wait: a
    // driver whose fences signal lazily (zink's) still shows the sample.
    static constexpr int kLandingFrames = 4;
    bool neighbours_counted_ = false;                   // the flock shown has been stepped since it was made
    Clock::time_point sample_began_{}, next_sample_at_{};
    std::uint64_t sample_step_ = 0;                     // the step it measures
    double seconds_per_step_ = 0.0;  // smoothed cost of a step, bounding the steps per frame
    ui::PointerTracker pointer_;
    std::optional<render::Recorder> recorder_;
    std::optional<OffscreenFlock> record_frame_;  // the size the recording started at, whatever the window does
    std::uint64_t record_from_ = 0;  // the step the recording began at: a frame every --record-every steps from it
    bool record_at_start_ = false;
    std::string notice_;  // shown on the status overlay until notice_until_
    Clock::time_point notice_until_;
    bool panel_was_visible_ = true;
};

void WindowRun::notify(std::string text) {
    notice_ = std::move(text);
    notice_until_ = Clock::now() + std::chrono::seconds(4);
}

// A recording is of the world alone (no panel), at the size of the world's rectangle when it
// starts: the video's size is fixed, so later frames are drawn offscreen at that size.
void WindowRun::startRecording(const std::string& target, const Viewport& vp, std::ostream& err) {
    try {
        const int w = std::max(16, vp.world.w), h = std::max(16, vp.world.h);
        record_frame_.emplace(w, h, opt_.shader_dir);
        recorder_.emplace(target, w, h, opt_.record_fps);
        panel_.recording = target;
        record_from_ = session_.steps();
        notify("recording " + target);
        recordFrame();  // the state it begins at
    } catch (const std::exception& e) {
        endRecording();
        err << "murmur: not recording: " << e.what() << "\n";
        notify(std::string("not recording: ") + e.what());
    }
}

void WindowRun::stopRecording(std::ostream& out, std::ostream& err) {
    if (!recorder_) return;
    try {
        const std::string summary = recorder_->finish();
        out << "murmur: wrote " << summary << "\n";
        notify("wrote " + summary);
    } catch (const std::exception& e) {
        err << "murmur: " << e.what() << "\n";
        notify(e.what());
    }
    endRecording();
}

// Drops the recording (an unfinished video is removed by the recorder) and its frame.
void WindowRun::endRecording() {
    recorder_.reset();
    record_frame_.reset();
    panel_.recording.clear();
}

// A frame of the state as it is (the run loop's writer: at the recording's start and every
// --record-every steps after it; a paused flock adds none).
void WindowRun::recordFrame() {
    if (!recorder_) return;
    try {
        recorder_->add(record_frame_->render(display_, session_.live(), camera_, panel_.draw));
    } catch (const std::exception& e) {
        notify(e.what());
        endRecording();
    }
}

void WindowRun::drawStatusOverlay(const Viewport& vp) {
    if (panel_was_visible_ && !panel_.visible) notify("panel hidden: H shows it");
    panel_was_visible_ = panel_.visible;
    if (!notice_.empty() && Clock::now() > notice_until_) notice_.clear();
    ui::StatusLine status;
    status.paused = !session_.running;
    status.recording = panel_.recording;
    status.recorded_frames = recorder_ ? recorder_->frames() : 0;
    status.notice = notice_;
    // In the band above the world (render::belowBand), never over a boid.
    const float left = float(vp.world.x) / float(vp.px_scale), right = float(vp.world.x + vp.world.w) / float(vp.px_scale);
    ui::drawStatus(status, {left, 0.0f});
    // The legend where it fits beside the status line above the world: else it is left out (it
    // ran into the "wrote ...png" line, and over the panel in a window of 400x300 or less).
    if (!panel_.show_legend) return;
    const ui::Legend legend = ui::legendFor(session_.live(), panel_.draw.neighbour_scale, neighbours_counted_);
    if (ui::statusWidth(status) + ui::legendWidth(legend) <= right - left) ui::drawLegend(legend, {right, 0.0f});
}

// The panel's rectangle last frame in framebuffer pixels, if it is shown.
std::optional<render::ScreenRect> WindowRun::panelPixels(const Viewport& vp) const {
    if (!panel_.visible || panel_.box.z <= 0.0f) return std::nullopt;
    const glm::vec4 b = panel_.box * float(vp.px_scale);
    return render::ScreenRect{int(b.x), int(float(vp.height) - b.y - b.w), int(std::ceil(b.z)), int(std::ceil(b.w))};
}

// Keys in the order they came: run controls to the session, the rest to the panel and view.
void WindowRun::applyKeys() {
    for (ui::Action a : window_.input().actions)
        if (!session_.apply(a)) ui::applyToPanel(panel_, a);
    window_.input().actions.clear();
    if (panel_.quit_requested) window_.close();
}

// Left drag pans (2D) or orbits (3D); right/middle drag pans; wheel zooms; a left click without
// a drag selects a boid in visual debug mode; goals and the led boid may follow the pointer. Only
// gestures that begin on the world count: the panel's own never reach it.
void WindowRun::handleMouse(const Viewport& vp) {
    glm::dvec2 cursor;
    glfwGetCursorPos(window_.handle(), &cursor.x, &cursor.y);
    const glm::vec4 box = panel_.box;
    const auto in_world = [&](glm::dvec2 at) {
        const bool on_panel = panel_.visible && at.x >= box.x && at.y >= box.y && at.x < box.x + box.z && at.y < box.y + box.w;
        return !on_panel && vp.world.contains(vp.pixel(at));
    };
    const ui::Gestures g = pointer_.update(window_.input().pointer, cursor, in_world);
    window_.input().pointer.clear();
    const glm::dvec2 d = g.drag * vp.px_scale;
    if (g.drag_button == 0 && camera_.dims() == 3) camera_.orbit(float(d.x), float(d.y));
    else if (g.drag_button >= 0) camera_.pan(float(d.x), float(d.y), float(vp.world.h));
    if (g.zoom != 0) camera_.zoom(float(g.zoom));
    const auto onWorld = [&](glm::dvec2 at) { return vp.pixel(at) - vp.world.origin(); };  // pixel in the world's rectangle
    if (g.click && panel_.debug) {
        const auto id = display_.pick(camera_, vp.world.size(), onWorld(*g.click));
        panel_.selection = id ? display_.find(*id) : std::nullopt;
    }
    const bool follows = panel_.attractor_at_pointer || panel_.repeller_at_pointer || session_.edit().leader;
    if (follows && in_world(cursor) && !ImGui::GetIO().WantCaptureMouse) {
        const glm::vec3 at3 = camera_.pointerToWorld(onWorld(cursor), vp.world.size());
        const Vec3f at{at3.x, at3.y, session_.edit().dims == 3 ? at3.z : 0.0f};
        if (panel_.attractor_at_pointer) session_.edit().attractor.at = at;
        if (panel_.repeller_at_pointer) session_.edit().repeller.at = at;
        if (session_.edit().leader) session_.edit().leader_at = at;  // Processing's mouse-led boid
    }
}

// The frame's steps (no more than fit the frame budget; through the run loop, stepThroughRun) and
// a new flock's view. Returns the steps taken.
int WindowRun::stepAndMeasure() {
    const int stepped = session_.advance(seconds_per_step_);
    steps_since_ += std::uint64_t(stepped);
    const bool respawned = session_.takeRespawned();
    if (stepped > 0 && !respawned) neighbours_counted_ = true;
    if (respawned) {
        neighbours_counted_ = false;  // the new flock's counts come with its first step
        stats_.clearHistory();
    }
    if (respawned || panel_.reset_view_requested) {
        frameFlock();
        panel_.reset_view_requested = false;
        panel_.selection.reset();
    }
    return stepped;
}

// The frame's steps through the engine's run loop (engine::Run), counted as the session counts
// them (from 0 at each new flock): a --stats-out row of each state due, from step 0 and every
// --stats-every steps (none while steps are too slow to measure), and a recorded frame of each
// state due; a quit that leaves a step half done stops the run there, before that state's
// operations. Rows are measured when asked: a sample with the next step would first finish the
// panel's sample in slices, a stall of a whole neighbour walk in one frame.
void WindowRun::stepThroughRun(int steps) {
    engine::RunTarget target = engine::runTarget(sim_);
    std::vector<OrderParams> measured;
    target.measure_with_next_step = [&] {
        measured = {sim_.measure()};
        return SampleTicket{};
    };
    target.take_sample = [&](SampleTicket) { return measured; };
    target.samples_may_wait = false;
    engine::Run run(std::move(target), session_.steps());
    if (log_.enabled() && stats_.paused_why.empty()) {
        run.addSampler({log_.every()}, [this](const engine::Run::Sample& s) {  // measured when asked: a whole state
            log_.add(s.state, double(s.state) * session_.live().dt, s.flocks.front());
        });
        if (session_.steps() == 0) run.advance(0);  // the row of the state a flock starts from
    }
    if (recorder_) run.addWriter({opt_.record_every, record_from_}, [this](std::uint64_t) { recordFrame(); });
    run.setStop([this] { return interruptedMidStep(); });
    run.advance(std::uint64_t(steps), false);
}

// FPS, steps/s and pass timings twice a second. The order parameters are a sample taken in
// slices, one a frame over kSampleFrames frames or more (Simulation::requestSample), so no frame
// carries a whole neighbour search of its own; after a sample, as long again without one (and
// none while a step is that slow). Returns whether this frame did some of a sample's work.
bool WindowRun::sampleStats(Clock::time_point now) {
    ++frames_since_;
    bool sampled = advanceOrderSample(now);
    const double since = std::chrono::duration<double>(now - last_sample_).count();
    if (since < 0.5) return sampled;
    stats_.fps = frames_since_ / since;
    stats_.steps_per_s = double(steps_since_) / since;
    frames_since_ = 0;
    steps_since_ = 0;
    last_sample_ = now;
    const double pairs = candidatePairsPerStep(session_.live());
    stats_.paused_why = pairs < kSlowStepPairs ? "" : describeCost(pairs);
    if (stats_.paused_why.empty() && !sampling_ && now >= next_sample_at_) {
        sample_ticket_ = sim_.requestSample(SampleWhen::InSlices);
        sampling_ = true;
        sample_began_ = now;
        sample_step_ = session_.steps();
        sampled = true;
    }
    stats_.pass_ms = sim_.profiledPasses();  // the last profiled step's passes; ask for the next
    sim_.profileNextStep();
    return sampled;
}

bool WindowRun::advanceOrderSample(Clock::time_point now) {
    if (!sampling_) return false;
    const std::uint64_t slice = std::max<std::uint64_t>(session_.live().boids / kSampleFrames, 256);
    if (!sample_passes_done_) sample_passes_done_ = sim_.advanceSamples(slice);
    if (sample_passes_done_ && (sim_.sampleReady(sample_ticket_) || ++landing_frames_ >= kLandingFrames)) {
        sample_passes_done_ = false;
        landing_frames_ = 0;
        stats_.push(sim_.takeSample(sample_ticket_));
        stats_.order_step = sample_step_;
        panel_.draw.flock = sampledExtent(stats_.order, session_.live());
        sampling_ = false;
        next_sample_at_ = now + (now - sample_began_);
    }
    return true;
}

// Camera follow or ground: toward the largest group of the last sample (none since a respawn
// until the next), its extent estimated as 1.5 x packedSpan.
void WindowRun::followFlock(double seconds) {
    const Params& p = session_.live();
    const render::CameraMode mode = render::cameraModeOf(p);
    const GroupFigures& g = stats_.order.largest_groups[0];
    if (mode == render::CameraMode::World || g.boids == 0 || stats_.order.nn_mean <= 0.0) return;
    const double extent = 1.5 * packedSpan(stats_.order, p.dims);
    camera_.track(glm::vec3(g.centre), float(extent), mode, float(seconds));
}

void WindowRun::drawFrame(const Viewport& vp) {
    if (panel_.debug && panel_.selection) panel_.selection = display_.find(panel_.selection->id);
    if (!panel_.debug) panel_.selection.reset();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    panel_.draw.time = float(glfwGetTime());
    panel_.draw.colour_by = render::ColourBy(session_.live().colour);  // a preset's, --colour, or the panel's
    renderer_.drawInto(display_.view(), session_.live(), camera_, vp.world, panel_.draw, panel_.selection);
    if (panel_.visible) drawPanel(session_, panel_, stats_);
    session_.commitEdits();  // the panel's edits (or none) become live on the next step
    if (!rects_path_.empty()) writePanelRects(panel_, rects_path_);
    drawStatusOverlay(vp);
    window_.renderImGui();
    if (panel_.vsync != vsync_) {
        vsync_ = panel_.vsync;
        glfwSwapInterval(vsync_ ? 1 : 0);
    }
}

// Screenshots, the swap, --frames, and (debug builds) the frame's GL errors.
void WindowRun::finishFrame(const Viewport& vp, std::ostream& out, std::ostream& err) {
    ++frames_;
    const bool last = opt_.frames > 0 && frames_ >= opt_.frames;
    if (panel_.screenshot_requested) {
        const std::string name = render::screenshotName(".");
        notify(writeScreenshot(name, vp.width, vp.height, out, err) ? "wrote " + name : "screenshot not written (see the terminal)");
        panel_.screenshot_requested = false;
    }
    if (record_at_start_ && frames_ >= 2) {  // the panel has been laid out: the world's size is known
        startRecording(opt_.record, vp, err);
        record_at_start_ = false;
    }
    if (panel_.record_toggle_requested) {
        panel_.record_toggle_requested = false;
        if (recorder_) stopRecording(out, err);
        else startRecording(render::recordingName("."), vp, err);
    }
    if (last && !opt_.screenshot.empty() && flockIsFinite(sim_.download(), err)) writeScreenshot(opt_.screenshot, vp.width, vp.height, out, err);
    glfwSwapBuffers(window_.handle());
    if (last) window_.close();
#ifndef NDEBUG
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) err << "murmur: GL error 0x" << std::hex << e << std::dec << " in frame " << frames_ << "\n";
#endif
}

// The flock the window closes on (or takes its last screenshot of) is finite; if not, says so
// once, naming the boid: nothing is then written from it.
bool WindowRun::flockIsFinite(const Flock& now, std::ostream& err) {
    const Boid* b = firstNonFinite(now);
    if (b && !non_finite_)
        err << "murmur: error: boid " << b->id << " is not finite at step " << sim_.stepCount()
            << "; nothing written (a speed limit, a smaller dt or smaller weights keep the flock finite)\n";
    non_finite_ = non_finite_ || b;
    return !b;
}

// After the last frame: the recording, the summary (and what the panel changed), the files. The
// flock is read back once, and only when a file is to be written from it.
int WindowRun::finish(std::ostream& out, std::ostream& err) {
    const bool writes = recorder_ || log_.enabled() || !opt_.export_path.empty();
    const Flock end = writes ? sim_.download() : Flock{};
    const bool finite = !writes || flockIsFinite(end, err);
    if (recorder_ && !finite) {
        recorder_->abandon();
        endRecording();
    }
    stopRecording(out, err);
    out << "murmur: " << frames_ << " frames, " << session_.steps() << " steps, " << session_.live().boids << " boids\n";
    // Places the pointer drove (the led boid; goals at the pointer) are not settings the panel
    // changed: they would not start the run so again.
    Params ended = session_.live();
    if (ended.leader) ended.leader_at = started_with_.leader_at;
    if (panel_.attractor_at_pointer) ended.attractor.at = started_with_.attractor.at;
    if (panel_.repeller_at_pointer) ended.repeller.at = started_with_.repeller.at;
    if (const auto edits = changedSettings(started_with_, ended); !edits.empty()) {
        out << "murmur: the panel changed (to start so again):" << startAgainFlags(edits) << "\n";
    }
    if (stats_.order.boids > 0) out << describeOrder(stats_.order_step, stats_.order) << " (last sample)\n";
    if (!stats_.pass_ms.empty()) {
        out << "gpu ms per step (the last profiled step, pass by pass):";
        double total = 0;
        for (const auto& [name, ms] : stats_.pass_ms) {
            out << " " << name << " " << std::fixed << std::setprecision(3) << ms;
            total += ms;
        }
        out << ", total " << total << std::defaultfloat << "\n";
    }
    if (!finite) return 1;
    if (log_.enabled()) {
        log_.write();
        out << "wrote " << log_.path() << " (" << log_.rows() << " rows)\n";
    }
    if (!opt_.export_path.empty() && interruptedMidStep()) {
        err << "murmur: error: the window closed in the middle of a step; " << opt_.export_path
            << " not written (the state was half stepped: close between steps, or export headless)\n";
        return 1;
    }
    if (!opt_.export_path.empty()) {  // the state the window closed on
        writeStateCsv(opt_.export_path, end, sim_.stepCount(), session_.live().world_size, &session_.live());
        out << "wrote " << opt_.export_path << " (" << end.size() << " boids)\n";
    }
    if (gl::takeErrorCount() > 0) {
        err << "murmur: error: the GL driver reported errors (above)\n";
        return 1;
    }
    return 0;
}

int WindowRun::run(std::ostream& out, std::ostream& err) {
    while (!window_.shouldClose()) {
        const auto frame_start = Clock::now();
        glfwPollEvents();
        Viewport vp;
        glfwGetFramebufferSize(window_.handle(), &vp.width, &vp.height);
        if (vp.width <= 0 || vp.height <= 0) {  // minimised: sleep until something happens
            glfwWaitEventsTimeout(0.25);
            continue;
        }
        int win_w = 1, win_h = 1;
        glfwGetWindowSize(window_.handle(), &win_w, &win_h);
        vp.px_scale = win_w > 0 ? double(vp.width) / win_w : 1.0;
        vp.world = render::belowBand(render::worldRect({vp.width, vp.height}, panelPixels(vp)),
                                     int(std::ceil(ui::overlayBandHeight() * float(vp.px_scale))));
        camera_.setAspect(vp.world.aspect());
        window_.beginImGuiFrame();
        applyKeys();
        handleMouse(vp);
        const int stepped = stepAndMeasure();
        const bool sampled = sampleStats(Clock::now());
        followFlock(std::chrono::duration<double>(Clock::now() - frame_start).count());
        drawFrame(vp);
        finishFrame(vp, out, err);
        if (frame_log_.is_open())
            frame_log_ << std::chrono::duration<double, std::milli>(Clock::now() - frame_start).count() << ' ' << stepped << ' '
                       << (sampled ? 1 : 0) << '\n';
        // The frame's time over its steps bounds a step's cost from above; smoothed over frames.
        if (stepped > 0) {
            const double per_step = std::chrono::duration<double>(Clock::now() - frame_start).count() / stepped;
            seconds_per_step_ = seconds_per_step_ > 0.0 ? 0.7 * seconds_per_step_ + 0.3 * per_step : per_step;
        }
    }
    return finish(out, err);
}

}  // namespace

int runWindow(const Options& options, const Flock* imported, std::ostream& out, std::ostream& err) {
    Options opt = options;
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland))
        return fallBackToHeadless(opt, imported, "neither DISPLAY nor WAYLAND_DISPLAY is set", out, err);
    std::unique_ptr<AppWindow> window;
    try {
        window = std::make_unique<AppWindow>(opt.width, opt.height, opt.vsync);
    } catch (const WindowUnavailable& e) {
        return fallBackToHeadless(opt, imported, e.what(), out, err);
    }
    const std::string renderer = gl::rendererString();
    out << "murmur: renderer " << renderer << ", OpenGL " << gl::glVersionString() << " (GLFW window)\n";
    Params& p = opt.params;
    if (opt.auto_boids && !imported) {
        p = defaultsForThisRun(p, opt.backend, out, opt.world_size_set, opt.plain_launch, opt.kept_over_preset);
        if (opensTheMurmuration(opt.plain_launch, p.boids)) opt.preset_name = "murmuration";  // the panel's presets combo
    }
    if (opt.backend == Backend::Cpu)
        if (auto why = cpuCapacityProblem(p)) throw InputError("--boids: " + *why);
    if (opt.backend == Backend::Gpu) {
        if (auto why = capacityProblem(p)) throw InputError("--boids: " + *why);
        if (auto warning = engine::memoryWarning(p)) err << "murmur: warning: " << *warning << "\n";
        if (!engine::gpuPassesStartUpCheck(p, opt.shader_dir, err)) return 1;
    }
    std::unique_ptr<Simulation> sim = engine::makeSimulation(opt.backend, opt.shader_dir, true);
    ui::Session session(*sim, p, opt.backend == Backend::Gpu ? ui::CapacityCheck(capacityProblem) : ui::CapacityCheck(cpuCapacityProblem),
                        imported);
    session.world_set = opt.world_size_set;
    session.keep_density = !opt.world_size_set;  // --set world_size: that world stays, and the box shows it
    if (imported) sim->setStepCount(opt.import_step);  // a resumed run continues its phases exactly
    WindowRun loop(*window, opt, *sim, session, renderer);
    return loop.run(out, err);
}

}  // namespace murmur
