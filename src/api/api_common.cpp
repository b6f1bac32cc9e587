// See api_common.hpp.
#include "api/api_common.hpp"

#include "gl/gl.hpp"
#include "io/atomic_file.hpp"
#include "io/env_switch.hpp"
#include "io/preset_json.hpp"
#include "io/state_csv.hpp"
#include "model/density.hpp"
#include "model/param_table.hpp"

#include <dlfcn.h>

#include <atomic>
#include <filesystem>
#include <iterator>
#include <map>
#include <mutex>
#include <vector>

namespace murmur::api::detail {

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

namespace {

// A restart file's parameters (FlockOptions::resume), or Error naming why there are none.
Params resumedParams(const FlockOptions& o) {
    if (!o.preset.empty()) throw Error("resume: the run's parameters are " + o.resume + "'s; a preset cannot go with it");
    if (std::optional<Params> saved = readStateParams(o.resume)) return *saved;  // an InputError becomes Error (translated)
    throw Error("resume: " + o.resume + " holds no parameters (a state file of an earlier murmur, or not murmur's): "
                "make the flock with its preset and settings and import_state it");
}

// A resume that changes a parameter that moves the flock: refused, naming each, unless asked for.
void requireResumedAsSaved(const FlockOptions& o, const Params& saved, const Params& p) {
    const std::vector<std::string> changes = motionChanges(saved, p);
    if (changes.empty() || o.resume_override) return;
    std::string list;
    for (const std::string& c : changes) list += (list.empty() ? "" : "; ") + c;
    throw Error("resume: the settings change the run's parameters (" + list +
                "); pass override=True to continue with these changes (the run is then not the file's run continued)");
}

}  // namespace

// Defaults (or a restart file's parameters), the preset, each setting, then boids (the world
// resized to keep the density unless world_size was set or the flock resumes) and the seed;
// validated.
Params paramsOf(const FlockOptions& o) {
    findPresets();
    const bool resuming = !o.resume.empty();
    Params p = resuming ? resumedParams(o) : Params{};
    const Params saved = p;
    if (!o.preset.empty()) {
        try {
            p = loadPresetFile(resolvePreset(o.preset), p);
        } catch (const InputError& e) {  // in the library's words: its option is `preset`, not --preset
            const std::string said = e.what();
            throw Error(said.starts_with("--preset") ? said.substr(2) : said);
        }
    }
    bool world_set = false;
    for (const auto& [key, value] : o.settings) {
        setKey(p, key, value);
        world_set = world_set || key == "world_size";
    }
    if (o.boids) {
        const Params before = p;
        setKey(p, "boids", std::to_string(*o.boids));
        if (!world_set && !resuming && p.boids != before.boids) p = keepDensity(before, p.boids, p.dims).params;
    }
    if (o.seed) setKey(p, "seed", std::to_string(*o.seed));
    if (resuming) requireResumedAsSaved(o, saved, p);
    requireValid(p);
    return p;
}

namespace {

// Engines ended on other threads, waiting for the thread whose context they belong to.
struct WaitingEnd {
    std::shared_ptr<gl::HeadlessContext> context;
    std::function<void()> end;
};
std::mutex g_waiting_mutex;
std::map<std::thread::id, std::vector<WaitingEnd>> g_waiting;
std::atomic<std::size_t> g_waiting_count{0};

// A thread that made murmur's context: at its end, the engines waiting for it are ended and its
// context is let go, so that a flock of its freed later on another thread can borrow it.
struct ThreadEnd {
    std::weak_ptr<gl::HeadlessContext>* shared;
    ~ThreadEnd() {
        endWaitingGlObjects();
        if (auto context = shared->lock()) context->letGo();
    }
};

}  // namespace

void endOnOwnThread(std::thread::id owner, std::shared_ptr<gl::HeadlessContext> context, std::function<void()> end) {
    if (context->borrow()) {
        end();
        context->giveBack();
        return;
    }
    const std::lock_guard<std::mutex> lock(g_waiting_mutex);
    g_waiting[owner].push_back({std::move(context), std::move(end)});
    ++g_waiting_count;
}

void endWaitingGlObjects() {
    if (g_waiting_count.load() == 0) return;
    std::vector<WaitingEnd> mine;
    {
        const std::lock_guard<std::mutex> lock(g_waiting_mutex);
        const auto found = g_waiting.find(std::this_thread::get_id());
        if (found == g_waiting.end()) return;
        mine = std::move(found->second);
        g_waiting.erase(found);
        g_waiting_count -= mine.size();
    }
    for (WaitingEnd& w : mine) {
        if (w.context->isCurrent()) w.end();
        else if (w.context->borrow()) w.end(), w.context->giveBack();
    }
}

// murmur's own headless context, one for every flock made without a loader on a thread (a
// context is current on one thread: a flock made on another thread gets that thread's); it lives
// while a flock uses it.
std::shared_ptr<gl::HeadlessContext> sharedContext() {
    thread_local std::weak_ptr<gl::HeadlessContext> shared;
    thread_local ThreadEnd end{&shared};  // made after `shared`, so ended before it
    auto context = shared.lock();
    if (!context) {
        context = std::make_shared<gl::HeadlessContext>();
        shared = context;
    }
    return context;
}

void requireCounterRoom(std::uint64_t at, std::uint64_t steps) {
    constexpr std::uint64_t kLast = 0xFFFFFFFFull;
    if (at + steps <= kLast) return;
    throw Error("step(" + std::to_string(steps) + "): the flock is at step " + std::to_string(at) +
                ", and the step counter ends at 4294967295 (the shaders' phases and noise hash it); valid: [0, " +
                std::to_string(kLast - at) + "]");
}

int StepChunks::next(int left) {
    began_ = std::chrono::steady_clock::now();
    return chunked_ ? std::min(size_, left) : left;
}

void StepChunks::ended() {
    if (std::chrono::steady_clock::now() - began_ < std::chrono::milliseconds(50)) size_ = std::min(size_ * 2, 1 << 20);
}

void requirePlainPath(const std::string& path, const std::string& what) {
    if (path.find('\0') == std::string::npos) return;
    throw Error(what + ": the path holds a NUL character at byte " + std::to_string(path.find('\0')) + ": valid: a path without one");
}

std::string nonFiniteMessage(std::uint32_t from, std::uint32_t reached) {
    return "the flock became non-finite (a position or velocity infinite or NaN) between steps " + std::to_string(from) + " and " +
           std::to_string(reached) + "; it is back at step " + std::to_string(from) +
           ", its last finite state (a speed limit, a smaller dt or smaller weights keep a flock finite)";
}

murmur::Flock callerState(const float* positions, const float* velocities, std::size_t boids, const std::uint32_t* species,
                          Params& p, const std::function<std::vector<std::uint32_t>()>& own_species) {
    // No boids is an empty flock, as boids=0 and a state file of no rows make (an empty array's
    // pointer may be null).
    if (boids > 0 && (!positions || !velocities)) throw Error("setState: positions and velocities are both needed (3 floats a boid)");
    std::vector<std::uint32_t> kept;
    if (!species && boids == p.boids) {
        kept = own_species();
        species = kept.data();
    }
    murmur::Flock flock = stateFromArrays(positions, velocities, species, boids, p);
    p.boids = std::uint32_t(boids);
    requireValid(p);
    return flock;
}

void requireNotStepping(const SteppingThread& stepping) {
    const std::thread::id busy = stepping.load();
    if (busy != std::thread::id() && busy != std::this_thread::get_id())
        throw Error("this flock is being stepped on another thread: use it once that step() returns");
}

SteppingHold::SteppingHold(SteppingThread& stepping) : stepping_(stepping) {
    std::thread::id idle{};
    if (!stepping_.compare_exchange_strong(idle, std::this_thread::get_id()))
        throw Error("this flock is being stepped on another thread: use it once that step() returns");
}

void requireUnforked(const std::string& backend) {
    if (backend != "gpu") return;
    if (const auto forked = gl::forkedAfterContext()) throw Error(*forked);
}

void requireOwnThread(const std::string& backend, std::thread::id owner) {
    requireUnforked(backend);
    if (backend != "gpu") return;
    endWaitingGlObjects();
    if (owner == std::this_thread::get_id()) return;
    throw Error("this GPU flock belongs to the thread that made it (its OpenGL context is current on that thread "
                "only): call it from that thread, make the flock on this one, or use backend \"cpu\"");
}

void checkBackendName(const std::string& backend) {
    if (backend != "gpu" && backend != "cpu") throw Error("backend '" + echo(backend) + "': valid: gpu|cpu");
    try {
        checkEnvSwitches();  // MURMUR_PROGRAM_CACHE, MURMUR_GL_DEBUG: checked on every surface, as the command line does
    } catch (const InputError& e) {
        throw Error(e.what());
    }
}

std::shared_ptr<gl::HeadlessContext> prepareBackend(const FlockOptions& o) {
    checkBackendName(o.backend);
    if (o.backend == "cpu") return nullptr;
    requireUnforked(o.backend);
    if (auto problem = engine::gpuPathProblem()) throw Error(escapeControls(*problem));  // MURMUR_GPU_READS, MURMUR_GPU_WALK
    if (!o.gl_loader) return sharedContext();
    loadCallerGl(o.gl_loader);
    return nullptr;
}

void loadCallerGl(GlLoader loader) {
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(loader)) || !GLAD_GL_VERSION_4_5)
        throw Error("the current GL context is not OpenGL 4.5 or later (murmur's compute passes need it)");
}

void requireGpuCapacity(const Params& p) {
    if (auto problem = engine::capacityProblem(Backend::Gpu, p)) throw Error(*problem);
}

std::map<std::string, double> orderMap(const OrderParams& o) {
    std::map<std::string, double> m;
    for (const OrderFigure& figure : kOrderFigures) m[figure.name] = figure.get(o);
    for (std::size_t k = 0; k < o.largest_groups.size(); ++k)
        for (std::size_t f = 0; f < std::size(kGroupFigureFields); ++f)
            m["group" + std::to_string(k + 1) + "_" + kGroupFigureFields[f]] = groupFigure(o.largest_groups[k], f);
    return m;
}

}  // namespace murmur::api::detail

namespace murmur::api {

void writeFile(const std::string& path, const std::string& contents, const std::string& what) {
    detail::requirePlainPath(path, what);
    detail::translated([&] {
        checkWritableTarget(path, what);
        writeFileAtomic(path, contents);
        return 0;
    });
}

}  // namespace murmur::api
