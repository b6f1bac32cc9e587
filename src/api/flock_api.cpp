// The public API (include/murmur/murmur.hpp) over the engine: the parameter table, presets, the
// two backends behind Simulation, state files. Every engine error becomes api::Error with the
// command line's message.
#include "murmur/murmur.hpp"

#include "cpu/cpu_simulation.hpp"
#include "gl/egl_context.hpp"
#include "gl/gl.hpp"
#include "gpu/gpu_simulation.hpp"
#include "io/input_error.hpp"
#include "io/preset_json.hpp"
#include "io/state_csv.hpp"
#include "model/density.hpp"
#include "model/param_table.hpp"
#include "model/spawn.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>

namespace murmur::api {
namespace {

// Runs f, turning the engine's errors into api::Error (same text).
template <class F>
auto translated(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const Error&) {
        throw;
    } catch (const InputError& e) {
        throw Error(e.what());
    } catch (const gpu::CapacityError& e) {
        throw Error(e.what());
    } catch (const gpu::LimitError& e) {
        throw Error(e.what());
    } catch (const gl::ContextError& e) {
        throw Error(std::string(e.what()) + " (backend \"cpu\" runs the CPU reference)");
    } catch (const std::invalid_argument& e) {
        throw Error(e.what());
    }
}

void setKey(Params& p, const std::string& key, const std::string& value) {
    const ParamInfo* info = findParam(key);
    if (!info) {
        const ParamInfo* near = nearestParam(key);
        throw Error("unknown key '" + echo(key) + "'" +
                    (near ? std::string("; did you mean ") + near->key + "?" : std::string(" (see murmur.params())")));
    }
    if (auto err = setFromText(*info, value, p)) throw Error(key + ": " + *err);
}

void requireValid(const Params& p) {
    if (auto problems = validate(p); !problems.empty()) throw Error("invalid parameters:\n" + describe(problems));
}

// The presets beside this library wherever it is: installed (PREFIX/lib[/ARCH]/libmurmur.so,
// PREFIX/share/murmur/presets) or in the build tree (lib/, bin/presets).
void findPresets() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&findPresets), &info) || !info.dli_fname) return;
    const std::filesystem::path lib = std::filesystem::path(info.dli_fname).parent_path();
    for (const char* rel : {"../share/murmur/presets", "../../share/murmur/presets", "../bin/presets"})
        if (std::filesystem::is_directory(lib / rel)) addPresetDir((lib / rel).lexically_normal().string());
}

// Defaults, the preset, each setting, then boids (the world resized to keep the density unless
// world_size was set) and the seed; validated.
Params paramsOf(const FlockOptions& o) {
    findPresets();
    Params p;
    if (!o.preset.empty()) p = loadPresetFile(resolvePreset(o.preset), p);
    bool world_set = false;
    for (const auto& [key, value] : o.settings) {
        setKey(p, key, value);
        world_set = world_set || key == "world_size";
    }
    if (o.boids) {
        const Params before = p;
        setKey(p, "boids", std::to_string(*o.boids));
        if (!world_set && p.boids != before.boids) p = keepDensity(before, p.boids, p.dims).params;
    }
    if (o.seed) setKey(p, "seed", std::to_string(*o.seed));
    requireValid(p);
    return p;
}

void copyXyz(const murmur::Flock& flock, bool velocity, float* out) {
    for (std::size_t i = 0; i < flock.size(); ++i) {
        const glm::vec3& v = velocity ? flock[i].v : flock[i].p;
        out[3 * i] = v.x;
        out[3 * i + 1] = v.y;
        out[3 * i + 2] = v.z;
    }
}

// murmur's own headless context, one for every flock made without a loader (EGL displays are
// shared: a context per flock would end the others' when one is destroyed); it lives while a
// flock uses it.
std::shared_ptr<gl::HeadlessContext> sharedContext() {
    static std::weak_ptr<gl::HeadlessContext> shared;
    auto context = shared.lock();
    if (!context) {
        context = std::make_shared<gl::HeadlessContext>();
        shared = context;
    }
    return context;
}

}  // namespace

struct Flock::Impl {
    Params params;
    std::string backend;
    std::shared_ptr<gl::HeadlessContext> context;  // murmur's own, when the caller gave no loader
    std::unique_ptr<Simulation> sim;

    murmur::Flock byId() const { return murmur::byId(sim->download()); }
};

Flock::Flock(const FlockOptions& options) : impl_(std::make_unique<Impl>()) {
    translated([&] {
        if (options.backend != "gpu" && options.backend != "cpu")
            throw Error("backend '" + echo(options.backend) + "': valid: gpu|cpu");
        impl_->params = paramsOf(options);
        impl_->backend = options.backend;
        if (options.backend == "cpu") {
            impl_->sim = std::make_unique<CpuSimulation>();
        } else {
            if (options.gl_loader) {
                if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(options.gl_loader)) || !GLAD_GL_VERSION_4_5)
                    throw Error("the current GL context is not OpenGL 4.5 or later (murmur's compute passes need it)");
            } else {
                impl_->context = sharedContext();
            }
            gpu::checkCapacity(impl_->params);
            impl_->sim = std::make_unique<gpu::GpuSimulation>();
        }
        impl_->sim->upload(spawn(impl_->params), impl_->params);
        return 0;
    });
}

Flock::~Flock() = default;
Flock::Flock(Flock&&) noexcept = default;
Flock& Flock::operator=(Flock&&) noexcept = default;

void Flock::step(int steps) {
    if (steps < 0) throw Error("step(" + std::to_string(steps) + "): valid: 0 or more steps");
    impl_->sim->step(steps);
}

std::uint64_t Flock::stepCount() const { return impl_->sim->stepCount(); }
std::uint32_t Flock::size() const { return impl_->params.boids; }
std::string Flock::backend() const { return impl_->backend; }

void Flock::set(const std::string& key, const std::string& value) {
    translated([&] {
        if (key == "boids" || key == "dims") throw Error(key + " cannot change on a live flock: make a new Flock");
        Params p = impl_->params;
        setKey(p, key, value);
        requireValid(p);
        impl_->sim->setParams(p);
        impl_->params = p;
        return 0;
    });
}

std::string Flock::get(const std::string& key) const {
    const ParamInfo* info = findParam(key);
    if (!info) throw Error("unknown key '" + echo(key) + "' (see murmur.params())");
    return formatValue(*info, impl_->params);
}

std::vector<float> Flock::positions() const {
    std::vector<float> out(std::size_t(size()) * 3);
    readPositions(out.data(), size());
    return out;
}

std::vector<float> Flock::velocities() const {
    std::vector<float> out(std::size_t(size()) * 3);
    readVelocities(out.data(), size());
    return out;
}

void Flock::readPositions(float* xyz, std::size_t count) const {
    if (count != size()) throw Error("readPositions: room for " + std::to_string(count) + " boids, the flock has " + std::to_string(size()));
    copyXyz(impl_->byId(), false, xyz);
}

void Flock::readVelocities(float* xyz, std::size_t count) const {
    if (count != size()) throw Error("readVelocities: room for " + std::to_string(count) + " boids, the flock has " + std::to_string(size()));
    copyXyz(impl_->byId(), true, xyz);
}

std::vector<std::uint32_t> Flock::ids() const {
    std::vector<std::uint32_t> out;
    for (const Boid& b : impl_->byId()) out.push_back(b.id);
    return out;
}

std::vector<std::uint32_t> Flock::species() const {
    std::vector<std::uint32_t> out;
    for (const Boid& b : impl_->byId()) out.push_back(b.species);
    return out;
}

std::map<std::string, double> Flock::orderParameters() {
    const OrderParams o = impl_->sim->measure();
    return {{"boids", double(o.boids)},
            {"polarization", o.polarization},
            {"group_polarization", o.group_polarization},
            {"milling", o.milling},
            {"groups", double(o.groups)},
            {"largest_group_share", o.largest_group_share},
            {"grouped_share", o.grouped_share},
            {"nn_mean", o.nn_mean},
            {"nn_median", o.nn_median},
            {"mean_neighbours", o.mean_neighbours},
            {"mean_speed", o.mean_speed}};
}

void Flock::exportState(const std::string& path) const {
    translated([&] {
        writeStateCsv(path, impl_->sim->download(), impl_->sim->stepCount());
        return 0;
    });
}

void Flock::importState(const std::string& path) {
    translated([&] {
        std::uint32_t step = 0;
        const murmur::Flock flock = readStateCsv(path, impl_->params, &step);
        Params p = impl_->params;
        p.boids = std::uint32_t(flock.size());
        requireValid(p);
        impl_->sim->upload(flock, p);
        impl_->sim->setStepCount(step);
        impl_->params = p;
        return 0;
    });
}

GlBuffers Flock::glBuffers() const {
    Drawable* d = impl_->sim->drawable();
    if (!d) return {};
    const FlockBuffers b = d->buffers();
    return {b.pos, b.vel, b.count};
}

std::vector<std::string> presets() {
    findPresets();
    std::vector<std::string> names;
    for (const auto& [name, description] : listPresets()) names.push_back(name);
    return names;
}

std::vector<ParamRecord> params() {
    static const char* const kinds[] = {"float", "int", "choice", "seed"};
    const Params defaults;
    std::vector<ParamRecord> out;
    for (const ParamInfo& info : paramTable())
        out.push_back({info.key, kinds[int(info.kind)], info.unit, rangeText(info), formatValue(info, defaults), info.help});
    return out;
}

}  // namespace murmur::api
