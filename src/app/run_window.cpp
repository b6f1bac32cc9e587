// The window's main loop: input -> session (steps) -> draw flock -> panel -> swap. A minimised
// window (0x0 framebuffer) waits for events instead of spinning.
#include "app/run_window.hpp"

#include "app/flock_display.hpp"
#include "app/renderer_defaults.hpp"
#include "app/run_headless.hpp"
#include "app/stats_log.hpp"
#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gl/framebuffer.hpp"
#include "gl/gl.hpp"
#include "gpu/gpu_simulation.hpp"
#include "io/input_error.hpp"
#include "model/density.hpp"
#include "model/flock_stats.hpp"
#include "render/flock_renderer.hpp"
#include "render/screenshot.hpp"
#include "ui/keys.hpp"
#include "ui/panel.hpp"
#include "ui/session.hpp"

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>

namespace murmur {
namespace {

std::string g_glfw_error;

struct Input {
    double scroll = 0;
    std::vector<ui::Action> actions;
};

struct GlfwSession {
    GlfwSession() : ok(glfwInit() == GLFW_TRUE) {}
    ~GlfwSession() {
        if (ok) glfwTerminate();
    }
    bool ok;
};

GLFWwindow* createWindow(const Options& opt) {
    for (int minor : {5, 3}) {
        glfwDefaultWindowHints();
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, minor);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        glfwWindowHint(GLFW_SCALE_TO_MONITOR, GLFW_TRUE);
        if (GLFWwindow* w = glfwCreateWindow(opt.width, opt.height, "murmur", nullptr, nullptr)) return w;
    }
    return nullptr;
}

std::optional<std::string> capacityProblem(const Params& p) {
    try {
        gpu::checkCapacity(p);
        return std::nullopt;
    } catch (const gpu::CapacityError& e) {
        return std::string(e.what());
    }
}

// The headless fallback when there is no display: run, screenshot, summary.
int fallBackToHeadless(Options opt, const Flock* imported, const std::string& why, std::ostream& out,
                       std::ostream& err) {
    if (opt.screenshot.empty()) opt.screenshot = render::screenshotName(".");
    err << "murmur: no display (" << why << "): running headless instead and writing the last frame to "
        << opt.screenshot << "\n";
    opt.headless = true;
    return runHeadless(opt, imported, out, err);
}

void writeScreenshot(const std::string& path, int w, int h, std::ostream& out, std::ostream& err) {
    try {
        render::writePng(path, w, h, gl::readPixelsRgba(0, w, h));
        out << "murmur: wrote screenshot " << path << " (" << w << "x" << h << ")\n";
    } catch (const std::exception& e) {
        err << "murmur: screenshot not written: " << e.what() << "\n";
    }
}

}  // namespace

int runWindow(const Options& options, const Flock* imported, std::ostream& out, std::ostream& err) {
    Options opt = options;
    const char* display = std::getenv("DISPLAY");
    const char* wayland = std::getenv("WAYLAND_DISPLAY");
    if ((!display || !*display) && (!wayland || !*wayland))
        return fallBackToHeadless(opt, imported, "neither DISPLAY nor WAYLAND_DISPLAY is set", out, err);
    glfwSetErrorCallback([](int, const char* text) { g_glfw_error = text; });
    GlfwSession glfw;
    if (!glfw.ok) return fallBackToHeadless(opt, imported, "GLFW: " + g_glfw_error, out, err);
    GLFWwindow* window = createWindow(opt);
    if (!window) return fallBackToHeadless(opt, imported, "no OpenGL 4.3+ window: " + g_glfw_error, out, err);
    glfwMakeContextCurrent(window);
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress)) || !GLAD_GL_VERSION_4_3) {
        glfwDestroyWindow(window);
        return fallBackToHeadless(opt, imported, "the window's context has no OpenGL 4.3", out, err);
    }
    gl::enableDebugOutput();
    glfwSwapInterval(opt.vsync ? 1 : 0);
    const std::string renderer = gl::rendererString();
    out << "murmur: renderer " << renderer << ", OpenGL " << gl::glVersionString() << " (GLFW window)\n";

    int code = 0;
    {
        Params& p = opt.params;
        if (opt.auto_boids && !imported) p = defaultsForThisRun(p, opt.backend, out, opt.world_size_set);
        if (opt.backend == Backend::Gpu) {
            if (auto why = capacityProblem(p)) throw InputError("--boids: " + *why);
        }
        gpu::GpuSimulation* gpu_sim = nullptr;
        std::unique_ptr<Simulation> sim = makeSimulation(opt, &gpu_sim);
        ui::Session session(*sim, p, opt.backend == Backend::Gpu ? ui::CapacityCheck(capacityProblem) : ui::CapacityCheck{},
                            imported);
        session.world_set = opt.world_size_set;
        FlockDisplay display_source(*sim, gpu_sim);
        render::FlockRenderer renderer_gl(gl::ShaderLibrary(opt.shader_dir));
        render::Camera camera;
        camera.reset(session.live());

        Input input;
        glfwSetWindowUserPointer(window, &input);
        if (gpu_sim)  // a step slow enough to be sliced still answers Esc and the close button
            gpu_sim->setInterrupt([&] {
                glfwPollEvents();
                for (ui::Action a : input.actions)
                    if (a == ui::Action::Quit) glfwSetWindowShouldClose(window, GLFW_TRUE);
                return glfwWindowShouldClose(window) != 0;
            });
        glfwSetScrollCallback(window, [](GLFWwindow* w, double, double dy) {
            if (!ImGui::GetIO().WantCaptureMouse) static_cast<Input*>(glfwGetWindowUserPointer(w))->scroll += dy;
        });
        glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
            const ImGuiIO& io = ImGui::GetIO();
            const auto a = ui::actionForKey(key, io.WantTextInput, action != GLFW_RELEASE);
            if (a != ui::Action::None) static_cast<Input*>(glfwGetWindowUserPointer(w))->actions.push_back(a);
        });

        IMGUI_CHECKVERSION();
        ImGui::CreateContext();
        ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini dropped in the working directory
        float xscale = 1, yscale = 1;
        glfwGetWindowContentScale(window, &xscale, &yscale);
        ImGui::StyleColorsDark();
        if (xscale > 1.0f) {
            ImGui::GetStyle().ScaleAllSizes(xscale);
            ImGui::GetIO().FontGlobalScale = xscale;
        }
        ImGui_ImplGlfw_InitForOpenGL(window, true);  // chains to the callbacks above
        ImGui_ImplOpenGL3_Init("#version 430");

        ui::PanelState panel;
        panel.vsync = opt.vsync;
        panel.draw.colour_by = render::ColourBy(opt.colour_by);
        ui::FrameStats stats;
        stats.renderer = renderer;
        stats.backend = sim->name();
        bool vsync = opt.vsync;
        std::uint64_t frames = 0;
        auto clock = std::chrono::steady_clock::now();
        auto last_sample = clock;
        int frames_since = 0;
        std::uint64_t steps_since = 0;
        glm::dvec2 last_cursor(0), press_cursor(0);
        bool dragging = false;

        double seconds_per_step = 0.0;
        double sample_every = 0.5;  // s between stats samples
        StatsLog log(opt.stats_out, opt.stats_every);
        std::uint64_t next_row = 0;  // --stats-out: the step of the next row
        while (!glfwWindowShouldClose(window)) {
            const auto frame_start = std::chrono::steady_clock::now();
            glfwPollEvents();
            int fb_w = 0, fb_h = 0;
            glfwGetFramebufferSize(window, &fb_w, &fb_h);
            if (fb_w <= 0 || fb_h <= 0) {  // minimised: sleep until something happens
                glfwWaitEventsTimeout(0.25);
                continue;
            }
            const glm::vec2 viewport{float(fb_w), float(fb_h)};
            int win_w = 1, win_h = 1;
            glfwGetWindowSize(window, &win_w, &win_h);
            const double px_scale = win_w > 0 ? double(fb_w) / win_w : 1.0;

            ImGui_ImplOpenGL3_NewFrame();
            ImGui_ImplGlfw_NewFrame();
            ImGui::NewFrame();

            // Keys.
            for (ui::Action a : input.actions) switch (a) {
                    case ui::Action::TogglePause: session.running = !session.running; break;
                    case ui::Action::Step:
                        session.running = false;
                        session.requestStep();
                        break;
                    case ui::Action::Reset: session.reset(); break;
                    case ui::Action::ToggleDebug: panel.debug = !panel.debug; break;
                    case ui::Action::Screenshot: panel.screenshot_requested = true; break;
                    case ui::Action::TogglePanel: panel.visible = !panel.visible; break;
                    case ui::Action::ResetView: panel.reset_view_requested = true; break;
                    case ui::Action::Quit: glfwSetWindowShouldClose(window, GLFW_TRUE); break;
                    case ui::Action::ScatterOn: session.edit().scatter = true; break;
                    case ui::Action::ScatterOff: session.edit().scatter = false; break;
                    case ui::Action::RadiusUp:
                    case ui::Action::RadiusDown: {
                        const float step = a == ui::Action::RadiusUp ? 5.0f : -5.0f;
                        Params& e = session.edit();
                        e.alignment.radius = std::max(0.0f, e.alignment.radius + step);
                        e.cohesion.radius = std::max(0.0f, e.cohesion.radius + step);
                        break;
                    }
                    case ui::Action::None: break;
                }
            input.actions.clear();

            // Mouse: left drag pans (2D) or orbits (3D); right/middle drag pans; wheel zooms;
            // a left click without a drag selects a boid in visual debug mode.
            glm::dvec2 cursor;
            glfwGetCursorPos(window, &cursor.x, &cursor.y);
            const ImGuiIO& io = ImGui::GetIO();
            const bool left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
            const bool other = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
                               glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
            if (!io.WantCaptureMouse) {
                const glm::dvec2 d = (cursor - last_cursor) * px_scale;
                if ((left && camera.dims() == 2) || other) camera.pan(float(d.x), float(d.y), viewport.y);
                else if (left) camera.orbit(float(d.x), float(d.y));
                if (left && !dragging) {
                    dragging = true;
                    press_cursor = cursor;
                }
            }
            if (!left && dragging) {
                dragging = false;
                if (panel.debug && glm::length(cursor - press_cursor) < 3.0) {
                    const glm::vec2 pixel(float(cursor.x * px_scale), float(viewport.y - cursor.y * px_scale));
                    const auto id = display_source.pick(camera, viewport, pixel);
                    panel.selection = id ? display_source.find(*id) : std::nullopt;
                }
            }
            last_cursor = cursor;
            if (panel.attractor_at_pointer || panel.repeller_at_pointer || session.edit().leader) {
                const glm::vec2 pixel(float(cursor.x * px_scale), float(viewport.y - cursor.y * px_scale));
                const glm::vec3 w = camera.pointerToWorld(pixel, viewport);
                const Vec3f at{w.x, w.y, session.edit().dims == 3 ? w.z : 0.0f};
                if (panel.attractor_at_pointer) session.edit().attractor.at = at;
                if (panel.repeller_at_pointer) session.edit().repeller.at = at;
                if (session.edit().leader) session.edit().leader_at = at;  // Processing's mouse-led boid
            }
            if (input.scroll != 0) camera.zoom(float(input.scroll));
            input.scroll = 0;

            // Step (no more than fit the frame budget at the recent cost of a step), then stats
            // twice a second (the only reads back, outside the step loop).
            const int stepped = session.advance(seconds_per_step);
            steps_since += std::uint64_t(stepped);
            const bool respawned = session.takeRespawned();
            if (respawned) {
                stats.clearHistory();
                next_row = 0;
            }
            const bool interrupted = gpu_sim && gpu_sim->interrupted();  // quitting mid-step: the state is half written
            if (log.enabled() && session.steps() >= next_row && !interrupted && stats.paused_why.empty()) {
                log.add(session.steps(), double(session.steps()) * session.live().dt, sim->measure());
                next_row = (session.steps() / log.every() + 1) * log.every();
            }
            if (respawned || panel.reset_view_requested) {
                camera.reset(session.live());
                panel.reset_view_requested = false;
                panel.selection.reset();
            }
            ++frames_since;
            const auto now = std::chrono::steady_clock::now();
            const double since = std::chrono::duration<double>(now - last_sample).count();
            if (since >= sample_every) {
                stats.fps = frames_since / since;
                stats.steps_per_s = double(steps_since) / since;
                frames_since = 0;
                steps_since = 0;
                last_sample = now;
                // Measuring is a neighbour search of its own: not while a step is that slow, and
                // at most a tenth of the time.
                const double pairs = candidatePairsPerStep(session.live());
                stats.paused_why = pairs < kSlowStepPairs ? "" : describeCost(pairs);
                if (stats.paused_why.empty()) {
                    stats.push(sim->measure());
                    stats.order_step = session.steps();
                    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - now).count();
                    sample_every = std::max(0.5, 10.0 * took);
                }
                stats.pass_ms.clear();
                if (gpu_sim && gpu_sim->timer()) {
                    const auto ms = gpu_sim->timer()->meanMs();
                    for (std::size_t i = 0; i < ms.size(); ++i) stats.pass_ms.emplace_back(gpu_sim->timer()->names()[i], ms[i]);
                }
            }
            if (panel.debug && panel.selection) panel.selection = display_source.find(panel.selection->id);
            if (!panel.debug) panel.selection.reset();

            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            panel.draw.time = float(glfwGetTime());
            renderer_gl.draw(display_source.view(), session.live(), camera, {fb_w, fb_h}, panel.draw, panel.selection);
            if (panel.visible) drawPanel(session, panel, stats);
            else session.commitEdits();
            ImGui::Render();
            ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
            if (panel.vsync != vsync) {
                vsync = panel.vsync;
                glfwSwapInterval(vsync ? 1 : 0);
            }

            ++frames;
            const bool last = opt.frames > 0 && frames >= opt.frames;
            if (panel.screenshot_requested) {
                writeScreenshot(render::screenshotName("."), fb_w, fb_h, out, err);
                panel.screenshot_requested = false;
            }
            if (last && !opt.screenshot.empty()) writeScreenshot(opt.screenshot, fb_w, fb_h, out, err);
            glfwSwapBuffers(window);
            if (last) glfwSetWindowShouldClose(window, GLFW_TRUE);
            // The frame's time over its steps bounds a step's cost from above (the GPU finishes
            // the frame's work by the next swap or readback); smoothed over frames.
            const auto frame_end = std::chrono::steady_clock::now();
            if (stepped > 0) {
                const double per_step = std::chrono::duration<double>(frame_end - frame_start).count() / stepped;
                seconds_per_step = seconds_per_step > 0.0 ? 0.7 * seconds_per_step + 0.3 * per_step : per_step;
            }
        }
        out << "murmur: " << frames << " frames, " << session.steps() << " steps, " << session.live().boids << " boids\n";
        if (stats.order.boids > 0) out << describeOrder(stats.order_step, stats.order) << " (last sample)\n";
        if (log.enabled()) {
            log.write();
            out << "wrote " << log.path() << " (" << log.rows() << " rows)\n";
        }
        if (gl::takeErrorCount() > 0) {
            err << "murmur: error: the GL driver reported errors (above)\n";
            code = 1;
        }
        ImGui_ImplOpenGL3_Shutdown();
        ImGui_ImplGlfw_Shutdown();
        ImGui::DestroyContext();
    }
    glfwDestroyWindow(window);
    return code;
}

}  // namespace murmur
