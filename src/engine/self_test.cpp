// The self-test's checks; see self_test.hpp.
#include "engine/self_test.hpp"

#include "engine/engine.hpp"
#include "cpu/cpu_simulation.hpp"
#include "cpu/grid.hpp"
#include "cpu/neighbour_rules.hpp"
#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gl/framebuffer.hpp"
#include "gl/program_cache.hpp"
#include "gpu/binning_pass.hpp"
#include "gpu/correlation_pass.hpp"
#include "gpu/gpu_simulation.hpp"
#include "gpu/sampler.hpp"
#include "gpu/state_queries.hpp"
#include "gpu/steer_pass.hpp"
#include "gpu/variant.hpp"
#include "model/param_table.hpp"
#include "model/rng.hpp"
#include "model/spawn.hpp"
#include "model/styles.hpp"
#include "render/flock_renderer.hpp"
#include "render/flock_view.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>

namespace murmur::engine {
namespace {

// A small flock with every feature the variant has switched on, in a world ~15 neighbours dense.
Params caseParams(int dims, Bounds bounds, Style style, bool features) {
    Params p;
    p.dims = dims;
    p.bounds = bounds;
    p.style = style;
    p.boids = 600;
    p.world_size = dims == 3 ? 28.0f : 100.0f;
    p.species[0].separation = {2.0f, 1.5f};
    p.species[0].alignment = {5.0f, 1.0f};
    p.species[0].cohesion = {5.0f, 1.0f};
    p.species[0].fov_deg = 240.0f;
    p.margin = 3.0f;
    const bool offsets = styleInfo(style).traits.offsets_per_step;  // weights per step, not per second
    if (offsets) {
        p.species[0].separation.weight = 0.125f;
        p.species[0].alignment.weight = 0.25f;
        p.species[0].cohesion.weight = 0.01f;
        p.dt = 0.5f;
        p.wander = 0.0f;
    }
    if (!features) return p;
    const float L = p.world_size;
    p.wind = {1.0f, -0.5f, 0.25f};
    p.neighbour_cap = 7;
    p.obstacles = {{{0.3f * L, 0.4f * L, 0.5f * L * (dims == 3 ? 1.0f : 0.0f)}, 0.1f * L}};
    p.species_count = 3;
    p.roles[2].predator = true;
    p.roles[2].share = 0.2f;
    p.roles[0].flee = {4.0f, offsets ? 0.2f : 2.0f};
    p.roles[2].chase = offsets ? 0.05f : 3.0f;
    p.perching = true;
    p.perch_ground = 0.4f * L;
    p.perch_min = 0.05f;
    p.perch_max = 0.5f;
    return p;
}

// One step (or `in_groups` steps) on both backends from the same state: the largest position
// difference (minimum image) over the tolerance the parity tests use (1e-4 of max_speed x dt a
// step); empty if within it. With `in_groups`, the GPU's steps must be those of a small flock in
// work groups, one dispatch (flock_steps.comp).
std::optional<std::string> oneStepParity(const Params& p, const gl::ShaderLibrary& shaders, int in_groups = 0) {
    Flock start = spawn(p);
    for (std::size_t i = 0; i < start.size(); i += 7) start[i].perch = p.perching ? 0.3f : 0.0f;
    CpuSimulation cpu;
    gpu::GpuSimulation gpu(shaders);
    cpu.upload(start, p);
    gpu.upload(start, p);
    const int steps = std::max(in_groups, 1);
    cpu.step(steps);
    gpu.step(steps);
    if (in_groups > 0 && gpu.stepsInGroups() != std::uint64_t(in_groups))
        return std::string("the GPU's steps did not take the work groups' path");
    const Flock a = byId(cpu.download()), b = byId(gpu.download());
    const RuleContext ctx(p);
    float worst = 0.0f;
    for (std::size_t i = 0; i < a.size(); ++i) {
        for (int k = 0; k < 3; ++k)
            if (!std::isfinite(b[i].p[k]) || !std::isfinite(b[i].v[k])) return "boid " + std::to_string(i) + " is not finite";
        worst = std::max({worst, glm::length(offsetBetween(ctx, a[i].p, b[i].p)), glm::length(a[i].v - b[i].v) * p.dt});
    }
    // The tolerance is a ten-thousandth of the farthest a boid moves in the step: the fastest
    // species in use, or the fastest boid when speeds are not limited (a species 1 of 10^4 units/s,
    // wander of 10^5 with speed_limit off: species 0's speed understated it a thousandfold).
    float fastest = 0.0f;
    for (std::uint32_t s = 0; s < p.speciesInUse(); ++s) fastest = std::max(fastest, p.species[s].max_speed);
    for (const Flock* f : std::initializer_list<const Flock*>{&start, &a})
        for (const Boid& x : *f) fastest = std::max(fastest, glm::length(x.v));
    const float tol = 1e-4f * fastest * p.dt * float(steps);
    if (worst <= tol) return std::nullopt;
    char text[160];
    std::snprintf(text, sizeof text, "GPU and CPU differ by %.3g units after %d step%s (tolerance %.3g)", double(worst), steps,
                  steps == 1 ? "" : "s", double(tol));
    return std::string(text);
}

std::string variantName(int dims, Bounds b, Style s, bool features) {
    return std::to_string(dims) + "D " + boundsName(b) + " " + styleInfo(s).name +
           (features ? " + cap, obstacles, species, predators, perching, wind" : "");
}

// A scan of n elements against the CPU's.
std::optional<std::string> scanCheck(std::uint32_t n, const gl::ShaderLibrary& shaders) {
    std::vector<std::uint32_t> values(n);
    for (std::uint32_t i = 0; i < n; ++i) values[i] = (i * 2654435761u) >> 29;
    gpu::GpuSimulation gpu(shaders);
    if (gpu.scan(values) != exclusiveScan(values)) return std::string("the GPU's prefix sum differs from the CPU's");
    return std::nullopt;
}

// One boid drawn at the centre of a 64x64 frame: lit there, dark in the corners.
std::optional<std::string> renderCheck(const gl::ShaderLibrary& shaders) {
    Params p;
    p.world_size = 100.0f;
    p.boids = 1;
    Boid b;
    b.p = {50.0f, 50.0f, 0.0f};
    b.v = {5.0f, 0.0f, 0.0f};
    render::HostFlock host;
    host.update({b}, {0u});
    gl::Framebuffer target(64, 64);
    target.bind();
    render::FlockRenderer renderer(shaders);
    render::Camera camera;
    camera.reset(p);
    render::DrawSettings settings;
    settings.min_px = 8.0f;
    settings.show_bounds = false;
    renderer.draw(host.view(), p, camera, {64, 64}, settings, std::nullopt);
    const auto rgba = target.readRgba();
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    auto lit = [&](int x, int y) {
        const std::size_t k = (std::size_t(y) * 64 + std::size_t(x)) * 4;
        return int(rgba[k]) + rgba[k + 1] + rgba[k + 2] > 150;
    };
    if (!lit(32, 32) && !lit(31, 31) && !lit(32, 31) && !lit(31, 32)) return std::string("the boid at the centre was not drawn");
    if (lit(2, 2) || lit(61, 61)) return std::string("the corners of an empty world are lit");
    return std::nullopt;
}

}  // namespace

std::optional<std::string> quickSelfTest(const Params& params, const std::string& shader_dir) {
    Params p = params;
    p.boids = 200;
    p.world_size = p.dims == 3 ? 22.0f : 60.0f;
    p.leader = false;
    try {
        gpu::checkGlLimits(p);
        for (auto& o : p.obstacles) o.at = {p.world_size / 2, p.world_size / 2, p.dims == 3 ? p.world_size / 2 : 0.0f};
        for (auto& o : p.obstacles) o.radius = std::min(o.radius, p.world_size / 4);
        for (std::uint32_t s = 0; s < kMaxSpecies; ++s) {  // radii that fit the small world
            SpeciesRules& r = p.species[s];
            for (Rule* rule : {&r.separation, &r.alignment, &r.cohesion}) rule->radius = std::min(rule->radius, p.world_size / 4);
            p.roles[s].flee.radius = std::min(p.roles[s].flee.radius, p.world_size / 4);
        }
        p.margin = std::min(p.margin, p.world_size / 4);
        if (!validate(p).empty()) return std::nullopt;  // this flock cannot be shrunk to a test case: skip
        return oneStepParity(p, gl::ShaderLibrary(shader_dir));
    } catch (const std::exception& e) {
        return std::string(e.what());
    }
}

bool gpuPassesStartUpCheck(const Params& params, const std::string& shader_dir, std::ostream& err) {
    const auto why = quickSelfTest(params, shader_dir);
    if (!why) return true;
    err << "murmur: error: " << (shader_dir.empty() ? "this GPU" : "this GPU with the shaders of --shader-dir " + shader_dir)
        << " failed murmur's start-up check: " << *why
        << "\n(murmur --self-test gives the full report; --backend cpu runs the CPU reference)\n";
    return false;
}

namespace {

// Runs named checks, timing each and printing "ok" or "FAIL" with the problem, and counts them.
class SelfTestReport {
public:
    explicit SelfTestReport(std::ostream& out) : out_(out) {}
    void check(const std::string& what, const std::function<std::optional<std::string>()>& run) {
        const auto t0 = std::chrono::steady_clock::now();
        std::optional<std::string> problem;
        try {
            problem = run();
        } catch (const std::exception& e) {
            problem = e.what();
        }
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        char line[96];
        std::snprintf(line, sizeof line, " (%.0f ms)", ms);
        out_ << (problem ? "FAIL " : "ok   ") << what << line << (problem ? ": " + *problem : "") << "\n";
        (problem ? failed : passed) += 1;
    }
    int passed = 0, failed = 0;

private:
    std::ostream& out_;
};

// Every style the parameter table names, in its order.
std::vector<Style> everyStyle() {
    std::vector<Style> all;
    for (const StyleInfo& s : styles()) all.push_back(s.style);
    return all;
}

// Every variant is built and stepped once against the CPU reference.
void checkVariants(SelfTestReport& report, const gl::ShaderLibrary& shaders) {
    for (int dims : {2, 3})
        for (Bounds b : {Bounds::Wrap, Bounds::Soft, Bounds::Open})
            for (Style s : everyStyle())
                for (bool features : {false, true})
                    if (b != Bounds::Open || features)  // open sky: the fullest variant of each style
                        report.check("one step, CPU parity: " + variantName(dims, b, s, features),
                                 [&] { return oneStepParity(caseParams(dims, b, s, features), shaders); });
}

// `defines` with each of `values` set (added where absent).
std::vector<gl::ShaderDefine> withDefines(std::vector<gl::ShaderDefine> defines, const std::vector<gl::ShaderDefine>& values) {
    for (const gl::ShaderDefine& v : values) {
        auto at = std::find_if(defines.begin(), defines.end(), [&](const gl::ShaderDefine& d) { return d.name == v.name; });
        if (at != defines.end()) at->value = v.value;
        else defines.push_back(v);
    }
    return defines;
}

// The fullest build of each program family for style `s` (every switch on: an ensemble, species,
// obstacles, perching, a neighbour cap, a measured step; both read paths; the tiled walk; the work
// groups' steps at their largest, in shared memory, perching aside as there), compiled and linked
// on this GPU: a variant over one of the driver's limits (storage blocks, shared memory, texture
// units) fails here, not in a user's sweep. Style-free families (binning, sampling, queries) with
// the first.
std::optional<std::string> fullestVariantsBuild(Style s, bool with_common, const gl::ShaderLibrary& shaders) {
    const Params p = caseParams(3, Bounds::Wrap, s, true);
    const auto ensemble = [&](const char* reads) {
        return withDefines(gpu::variantDefines(p, true), {{"STORAGE_READS", reads}, {"TILED_WALK", "0"}});
    };
    const auto storage = ensemble("1"), textures = ensemble("0");
    const auto tiled = withDefines(gpu::variantDefines(p, false), {{"STORAGE_READS", "1"}, {"TILED_WALK", "1"}});
    std::vector<gl::ProgramSource> sources;
    for (const auto* defines : {&storage, &textures, &tiled})
        sources.push_back(gl::computeSource(shaders, "flock_steer.comp", withDefines(*defines, {{"MEASURE_IN_STEER", "1"}})));
    if (!styleInfo(s).traits.keeps_steer)
        sources.push_back(gl::computeSource(
                shaders, "flock_steps.comp",
                withDefines(storage, {{"PERCHING", "0"},  // perching flocks take the passes
                                      {"FLOCK_GROUP_SIZE", std::to_string(STEP_GROUP_SIZE)},
                                      {"ORDERED_IN_SHARED", "1"}})));
    if (with_common) {
        for (const auto& files : {gpu::BinningPass::shaderFiles(), gpu::Sampler::shaderFiles(), gpu::StateQueries::shaderFiles(), gpu::CorrelationPass::shaderFiles()})
            for (const std::string& file : files) sources.push_back(gl::computeSource(shaders, file, storage));
        sources.push_back(gl::computeSource(shaders, "flock_measure.comp", withDefines(storage, {{"NEAREST_STORED", "1"}})));
    }
    gl::buildPrograms(sources);  // throws the first that does not build
    return std::nullopt;
}

void checkFullestVariants(SelfTestReport& report, const gl::ShaderLibrary& shaders) {
    bool first = true;
    for (Style s : everyStyle()) {
        report.check(std::string("fullest programs build: ") + styleInfo(s).name + (first ? " and the passes every style shares" : ""),
                     [&] { return fullestVariantsBuild(s, first, shaders); });
        first = false;
    }
}

// Small flocks step in work groups (flock_steps.comp: a work group writes its ordered flock to
// shared memory or images, which its invocations then read): two steps in one dispatch of a
// flock of 100 in a world of 2.4 radii, every style that can.
void checkStepsInGroups(SelfTestReport& report, const gl::ShaderLibrary& shaders) {
    for (int dims : {2, 3})
        for (Style s : everyStyle()) {
            if (styleInfo(s).traits.keeps_steer) continue;  // the passes step it
            report.check("two steps in work groups, CPU parity: " + variantName(dims, Bounds::Wrap, s, false) + ", 100 boids", [&] {
                Params p = caseParams(dims, Bounds::Wrap, s, false);
                p.boids = 100;
                p.world_size = 2.4f * p.largestRadius();
                return oneStepParity(p, shaders, 2);
            });
        }
}

// The sources' formulations: boids in turn (one GPU invocation), explicit Euler, no speed limit,
// flock.rb's sums and Parker's lone boid, seed 001's unit separation. (Vicsek's and Couzin's
// models define their own update and are not reformulated.)
void checkFormulations(SelfTestReport& report, const gl::ShaderLibrary& shaders) {
    for (Style s : everyStyle()) {
        if (!styleInfo(s).traits.reformulable) continue;
        report.check("one step, CPU parity: " + variantName(2, Bounds::Wrap, s, false) + ", in turn, explicit, unlimited, sums", [&] {
            Params p = caseParams(2, Bounds::Wrap, s, false);
            p.boids = 300;
            p.update = UpdateOrder::Sequential;
            p.integrator = Integrator::Explicit;
            p.speed_limit = false;
            p.offset.sums = true;
            p.steering.separation = Falloff::Unit;
            if (styleInfo(s).traits.offsets_per_step) p.species[0].cohesion.weight = 0.001f;
            return oneStepParity(p, shaders);
        });
    }
    report.check("one step, CPU parity: 2D wrap offset, in turn, Parker's lone boid", [&] {
        Params p = caseParams(2, Bounds::Wrap, Style::Offset, false);
        p.boids = 300;
        p.update = UpdateOrder::Sequential;
        p.offset.lone = true;
        return oneStepParity(p, shaders);
    });
}

void checkScansAndRender(SelfTestReport& report, const gl::ShaderLibrary& shaders, std::ostream& out) {
    // 65,537 scan blocks: the scan's dispatch splits into two rows.
    const std::uint32_t split_n = 65537u * SCAN_BLOCK;
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    if (std::uint64_t(block) >= gpu::GridScan::outCount(split_n) * 4)
        report.check("prefix sum of " + std::to_string(split_n) + " cells (dispatch split into rows)",
                     [&] { return scanCheck(split_n, shaders); });
    else
        out << "skip prefix sum split into rows: storage blocks hold at most " << (block >> 20) << " MiB\n";
    report.check("prefix sum of 1,000,003 cells", [&] { return scanCheck(1000003u, shaders); });
    report.check("render of a known flock", [&] { return renderCheck(shaders); });
}

}  // namespace

int runSelfTest(const std::string& shader_dir, std::ostream& out, std::ostream& err) {
    auto context = openHeadlessContext(err);
    if (!context) return 1;
    out << "murmur self-test: renderer " << gl::rendererString() << ", OpenGL " << gl::glVersionString() << " ("
        << context->platform() << ")\n";
    const gl::ShaderLibrary shaders(shader_dir);
    SelfTestReport report(out);
    report.check("limits for the largest variant", [] {
        Params heavy;
        heavy.perching = true;
        heavy.style = Style::Decarpentier;
        gpu::checkGlLimits(heavy);
        return std::optional<std::string>();
    });
    checkVariants(report, shaders);
    checkFullestVariants(report, shaders);
    checkFormulations(report, shaders);
    checkStepsInGroups(report, shaders);
    checkScansAndRender(report, shaders, out);
    if (gl::takeErrorCount() > 0) {
        out << "FAIL the GL driver reported errors (above)\n";
        ++report.failed;
    }
    out << "shader programs: " << gl::describeProgramBuilds() << "\n";
    out << "driver performance messages: " << gl::performanceMessageCount() << " (printed with --gl-debug)\n";
    out << "self-test: " << report.passed << " passed, " << report.failed << " failed: ";
    if (!report.failed) out << "this GPU runs murmur as the CPU reference does\n";
    else if (!shader_dir.empty())  // the user's own shaders: theirs to mend, not the GPU's fault
        out << "the shaders of --shader-dir " << shader_dir << " fail (see above); without --shader-dir murmur uses the "
            << "shaders built into it\n";
    else
        out << "this GPU is not fit for murmur's GPU backend; please report the lines above at the project's tracker, with "
            << "the renderer line, and use --backend cpu meanwhile\n";
    return report.failed ? 1 : 0;
}

}  // namespace murmur::engine
