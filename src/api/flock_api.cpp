// The public API (include/murmur/murmur.hpp) over the engine: the parameter table, presets, the
// two backends behind Simulation, state files. Every engine error becomes api::Error with the
// command line's message.
#include "murmur/murmur.hpp"

#include "api/api_common.hpp"
#include "engine/run.hpp"
#include "engine/engine.hpp"
#include "io/preset_json.hpp"
#include "io/atomic_file.hpp"
#include "io/state_csv.hpp"
#include "io/trajectory.hpp"
#include "model/body_shape.hpp"
#include "model/correlations.hpp"
#include "model/order_params.hpp"
#include "model/styles.hpp"
#include "model/number_text.hpp"
#include "model/param_table.hpp"
#include "model/spawn.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <numeric>

namespace murmur::api {
using namespace detail;

struct Flock::Impl {
    Params params;
    std::string backend;
    std::shared_ptr<gl::HeadlessContext> context;  // murmur's own, when the caller gave no loader
    std::unique_ptr<Simulation> sim;
    std::thread::id thread = std::this_thread::get_id();  // the thread that made it
    std::unique_ptr<TrajectoryWriter> trajectory;  // Flock::record's
    std::uint64_t record_every = 1, record_from = 0;
    std::string record_path;

    // A recording still open when the flock ends (its destructor, or a move over it) is closed
    // and renamed into place; a failure then cannot be reported, and the temporary file goes.
    ~Impl() {
        (void)endRecording();
        if (backend == "gpu" && (thread != std::this_thread::get_id() || gl::forkedAfterContext())) endGlObjects(sim, context, thread);
    }

    // The engine, from the thread that made a GPU flock only (its GL context is current there),
    // and not while another thread steps it (step() runs without Python's lock).
    Simulation& engine() const {
        requireOwnThread(backend, thread);
        requireNotStepping(stepping);
        return *sim;
    }
    mutable SteppingThread stepping{};  // the thread in step(), if any
    // What Flock::run samples as it steps: the states of `when`, handed to `take`; `progress`
    // hears the steps done after each chunk.
    struct Series {
        engine::Trigger when;
        engine::Run::Sampler take;
        std::function<void(int)> progress;
    };
    bool advance(int steps, const StopCheck& stop, const Series& series);  // false: stopped inside a step, back where it began
    // Closes the recording, if one is open, renaming it into place, and says how that went for a
    // message: "; the recording F ended with its N finite frames", or its failure. Never throws.
    std::string endRecording() {
        if (!trajectory) return "";
        const std::uint64_t frames = trajectory->frames();
        std::unique_ptr<TrajectoryWriter> writer = std::move(trajectory);
        try {
            return "; the recording " + writer->finish() + " ended with its " + std::to_string(frames) + " finite frames";
        } catch (const std::exception& e) {
            return std::string("; the recording ended, and ") + e.what();
        }
    }
    // A step stopped part way (a stop asked during one long step): the flock back where the call
    // began, a recording ended with the frames it has.
    void interrupted() {
        (void)endRecording();
        sim->rollback();
    }
    murmur::Flock byId() const { return murmur::byId(engine().download()); }
    // A new state (checked and valid) at `step`: set_state, import_state, set_kept_state. A
    // recording holds one flock's frames, so the new state ends it (owner's stopRecording).
    void replaceState(api::Flock& owner, const murmur::Flock& flock, const Params& p, std::uint32_t step) {
        owner.stopRecording();
        engine().upload(flock, p);
        engine().setStepCount(step);
        params = p;
    }
    // A frame of the recording; a failed write ends the recording (its temporary file removed).
    void addFrame() {
        engine::TrajectoryFrame f = engine::trajectoryFrame(engine(), params);
        try {
            trajectory->add(sim->stepCount(), std::move(f.pos), std::move(f.vel), std::move(f.kept), std::move(f.images));
        } catch (...) {
            trajectory.reset();
            throw;
        }
    }
    // Error unless every position and velocity is finite; then the state is the checkpoint's
    // (step `from`) again, and a recording ends with its last finite frame.
    void requireFinite(std::uint32_t from) {
        if (sim->allFinite()) return;
        const std::uint32_t reached = sim->stepCount();
        const std::string recorded = endRecording();
        sim->rollback();
        throw Error(nonFiniteMessage(from, reached) + recorded);
    }
};

Flock::Flock(const FlockOptions& options) : impl_(std::make_unique<Impl>()) {
    translated([&] {
        checkBackendName(options.backend);
        impl_->params = paramsOf(options);
        impl_->backend = options.backend;
        impl_->context = prepareBackend(options);
        if (options.backend == "gpu") requireGpuCapacity(impl_->params);
        impl_->sim = engine::makeSimulation(backendOf(options.backend));
        if (options.resume.empty()) {
            impl_->sim->upload(spawn(impl_->params), impl_->params);
            return 0;
        }
        std::uint32_t step = 0;
        const murmur::Flock flock = readStateCsv(options.resume, impl_->params, &step);
        if (flock.size() != impl_->params.boids)
            throw Error("resume: " + options.resume + " holds " + std::to_string(flock.size()) + " boids; boids " +
                        std::to_string(impl_->params.boids) + " cannot change on a resume");
        impl_->sim->upload(flock, impl_->params);
        impl_->sim->setStepCount(step);
        return 0;
    });
}

Flock::~Flock() = default;
Flock::Flock(Flock&&) noexcept = default;
Flock& Flock::operator=(Flock&&) noexcept = default;

namespace {
struct StepInterrupted {};  // a stop asked inside one long step: the flock goes back to where the call began
}  // namespace

// Steps through the engine's run loop (engine::Run): stretches up to each frame of a recording
// (and chunks, with a stop check, after which `progress` hears the steps done); the state checked
// finite before each frame, after each chunk and at the end (else brought back to where the call
// began: requireFinite). `series`, when given, gets the samples of its trigger (Flock::run).
bool Flock::Impl::advance(int steps, const StopCheck& stop, const Series& series) {
    Simulation& stepped = engine();
    stepped.checkpoint();
    const std::uint32_t from = stepped.stepCount();
    // Asked during a step too, once its chunk has run past half a second (one long step):
    // stopping there takes the flock back to where the call began. Not on a hardware GPU,
    // whose steps are short and whose steer pass would then run in slices, each waited for.
    auto chunk_began = std::chrono::steady_clock::now();
    const bool inside = stop && (backend == "cpu" || gl::isSoftwareRenderer(gl::rendererString()));
    if (inside) stepped.setInterrupt([&] { return std::chrono::steady_clock::now() - chunk_began > std::chrono::milliseconds(500) && stop(); });
    const std::shared_ptr<void> no_interrupt(nullptr, [&](void*) { stepped.setInterrupt({}); });
    engine::RunTarget target = engine::runTarget(stepped);
    target.step = [&](int run) {
        chunk_began = std::chrono::steady_clock::now();
        stepped.step(run);
        if (stepped.interrupted()) throw StepInterrupted{};
    };
    engine::Run run(std::move(target), from);
    if (series.take) run.addSampler(series.when, series.take);
    std::uint64_t checked = UINT64_MAX;  // the state last checked finite
    if (trajectory)
        run.addWriter({record_every, record_from}, [&](std::uint64_t state) {
            requireFinite(from);
            checked = state;
            addFrame();
        });
    StepChunks chunks{bool(stop)};
    run.setStretchLimit([&](std::uint64_t left) { return std::uint64_t(chunks.next(int(left))); });
    if (stop)
        run.setAfterStretch([&] {
            if (checked != run.state()) requireFinite(from);
            chunks.ended();
            if (series.progress) series.progress(int(run.state() - from));
            return stop();
        });
    try {
        run.advance(std::uint64_t(steps), false);  // the frame of the state it starts from is already written
    } catch (const StepInterrupted&) {
        interrupted();
        return false;
    }
    requireFinite(from);
    return true;
}

void Flock::step(int steps, const StopCheck& stop) {
    if (steps < 0) throw Error("step(" + std::to_string(steps) + "): valid: 0 or more steps");
    const Simulation& sim = impl_->engine();
    const SteppingHold held(impl_->stepping);
    requireCounterRoom(sim.stepCount(), std::uint64_t(steps));
    translated([&] { return impl_->advance(steps, stop, {}), 0; });
}

std::vector<Flock::Row> Flock::run(int steps, int every, const StopCheck& stop, const std::function<void(int)>& progress) {
    if (steps < 0) throw Error("run(steps=" + std::to_string(steps) + "): valid: 0 or more steps");
    if (every < 1) throw Error("run(every=" + std::to_string(every) + "): valid: 1 or more steps");
    Simulation& sim = impl_->engine();
    const SteppingHold held(impl_->stepping);
    requireCounterRoom(sim.stepCount(), std::uint64_t(steps));
    std::vector<Row> rows;
    const double dt = std::strtod(get("dt").c_str(), nullptr);  // as the key reads: 1/30 s is 0.0333333, not the float's 0.033333335
    const auto add = [&](std::uint64_t state, const OrderParams& o) {
        Row row{{"step", double(state)}, {"time", double(state) * dt}};
        row.merge(orderMap(o));
        rows.push_back(std::move(row));
    };
    translated([&] {
        add(sim.stepCount(), sim.measure());
        const std::uint64_t from = sim.stepCount();
        const bool whole = impl_->advance(
                steps, stop, {{std::uint64_t(every), from, true}, [&](const engine::Run::Sample& s) { add(s.state, s.flocks.front()); }, progress});
        if (!whole) rows.resize(1);  // stopped inside a step: the flock is back at the first row's state
        return 0;
    });
    return rows;
}

void Flock::record(const std::string& path, std::uint64_t every, int deflate, const std::string& author, bool unwrapped, bool as_3d) {
    requirePlainPath(path, "record");
    translated([&] {
        if (every < 1) throw Error("record(every=" + std::to_string(every) + "): valid: 1 or more steps");
        if (deflate < 0 || deflate > 9) throw Error("record(deflate=" + std::to_string(deflate) + "): valid: 0 .. 9");
        if (impl_->trajectory)
            throw Error("record(" + echo(path) + "): " + impl_->record_path + " is being recorded; stop that recording first");
        if (const auto problem = trajectoryNameProblem(path)) throw Error("record(" + echo(path) + "): " + *problem);
        checkWritableTarget(path, "record");
        if (const auto problem = author.empty() ? std::nullopt : trajectoryAuthorProblem(author))
            throw Error("record(author=...): " + *problem);
        if (const auto problem = as_3d ? trajectoryAs3dProblem(impl_->params.dims) : std::nullopt)
            throw Error("record(as_3d=True): " + *problem);
        TrajectoryLayout layout = trajectoryLayout(impl_->params, species(), deflate, MURMUR_VERSION_STRING, author);
        layout.unwrapped = unwrapped;
        layout.as_3d = as_3d;
        // On the caller's thread: the caller's process may use HDF5 itself (h5py), and Debian's
        // HDF5 is not thread-safe.
        impl_->trajectory = std::make_unique<TrajectoryWriter>(path, layout, TrajectoryWriter::Threading::CallersThread);
        impl_->record_path = path;
        impl_->record_every = every;
        impl_->record_from = impl_->engine().stepCount();
        impl_->addFrame();
        return 0;
    });
}

std::uint64_t Flock::stopRecording() {
    (void)impl_->engine();  // its thread, and not while it steps
    if (!impl_->trajectory) return 0;
    std::unique_ptr<TrajectoryWriter> writer = std::move(impl_->trajectory);
    const std::uint64_t frames = writer->frames();
    translated([&] { return writer->finish(), 0; });
    return frames;
}

bool Flock::recording() const { return impl_->trajectory != nullptr; }
std::string Flock::recordingPath() const { return impl_->trajectory ? impl_->record_path : std::string(); }

std::uint64_t Flock::stepCount() const { return impl_->engine().stepCount(); }
std::uint32_t Flock::size() const { return impl_->params.boids; }
std::string Flock::backend() const { return impl_->backend; }

void Flock::set(const std::string& key, const std::string& value) {
    translated([&] {
        if (key == "boids" || key == "dims") throw Error(key + " cannot change on a live flock: make a new Flock");
        if (impl_->trajectory && (key == "dt" || key == "world_size" || key == "bounds"))
            throw Error(key + " cannot change while a trajectory is recorded (its times and box are fixed when it begins): "
                              "stop the recording first");
        Params p = impl_->params;
        setKey(p, key, value);
        requireValid(p);
        impl_->engine().setParams(p);
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
    impl_->engine().readXyzById(xyz, nullptr);
}

std::vector<std::int32_t> Flock::images() const { return impl_->engine().readImagesById(); }

std::vector<double> Flock::unwrappedPositions() const {
    const std::vector<float> held = positions();
    const std::vector<std::int32_t> crossed = images();
    const double edge = double(impl_->params.world_size);
    std::vector<double> out(held.size());
    for (std::size_t i = 0; i < held.size(); ++i) out[i] = double(held[i]) + double(crossed[i]) * edge;
    return out;
}

void Flock::readVelocities(float* xyz, std::size_t count) const {
    if (count != size()) throw Error("readVelocities: room for " + std::to_string(count) + " boids, the flock has " + std::to_string(size()));
    impl_->engine().readXyzById(nullptr, xyz);
}

// A flock's ids are 0 .. N-1 (spawned so; an imported state is refused otherwise): nothing to read.
std::vector<std::uint32_t> Flock::ids() const {
    std::vector<std::uint32_t> out(size());
    std::iota(out.begin(), out.end(), 0u);
    return out;
}

std::vector<std::uint32_t> Flock::species() const {
    std::vector<std::uint32_t> out;
    for (const Boid& b : impl_->byId()) out.push_back(b.species);
    return out;
}

std::map<std::string, double> Flock::orderParameters() const { return orderMap(impl_->engine().measure()); }

std::vector<std::string> Flock::keptStateNames() const { return murmur::keptStateNames(impl_->params); }

std::vector<float> Flock::keptState() const {
    if (!keepsState(impl_->params)) return {};
    return translated([&] { return keptValues(impl_->byId()); });
}

void Flock::setKeptState(const float* values, std::size_t count) {
    if (!keepsState(impl_->params))
        throw Error("set_kept_state: this flock keeps no per-boid state (its style keeps none and topological.count is 0)");
    if (count != std::size_t(size()) * 4)
        throw Error("set_kept_state: " + std::to_string(count) + " values; valid: 4 a boid, " + std::to_string(std::size_t(size()) * 4));
    for (std::size_t i = 0; i < count; ++i)
        if (!std::isfinite(values[i]) || std::fabs(values[i]) > 1e9f)
            throw Error("set_kept_state: value " + std::to_string(i) + " (boid " + std::to_string(i / 4) + ") is " + numberText(values[i]) +
                        "; valid: finite, within [-1e9, 1e9]");
    translated([&] {
        murmur::Flock now = impl_->byId();
        const float z = impl_->params.dims == 3 ? 1.0f : 0.0f;  // 2D: z is 0, as the state CSV reads it
        for (std::size_t i = 0; i < now.size(); ++i)
            now[i].steer = glm::vec4(values[4 * i], values[4 * i + 1], z * values[4 * i + 2], values[4 * i + 3]);
        impl_->replaceState(*this, now, impl_->params, impl_->engine().stepCount());
        return 0;
    });
}

std::map<std::string, double> Flock::bodyShape() const {
    return translated([&] { return bodyFigures(measureBody(impl_->engine().download())); });
}

Correlations Flock::correlations(std::uint32_t bins, double r_max) const {
    return translated([&] {
        if (const auto problem = correlationProblem(impl_->params, bins, r_max)) throw Error("correlations: " + *problem);
        static_assert(kMaxCorrelationBins == murmur::kMaxCorrelationBins);
        const murmur::Correlations c = correlationsOf(impl_->engine().pairSums(impl_->params, bins, r_max), impl_->params, impl_->params.boids, r_max);
        return Correlations{c.r, c.velocity, c.g, c.pairs, c.xi};
    });
}

std::vector<std::uint32_t> Flock::neighbourCounts() const { return impl_->engine().neighbourCounts(); }

namespace {

// The acceleration the next step applies: one step taken and taken back (the state, its step
// count and the last step's neighbour counts as they were). Error, as step() gives, when that
// step leaves the flock non-finite or an acceleration is past a float's range.
std::vector<float> lookAheadAccelerations(Simulation& sim, const murmur::Flock& now, double dt) {
    std::vector<float> after(now.size() * 3);
    sim.checkpoint();
    sim.step(1);
    const bool finite = sim.allFinite();
    sim.readXyzById(nullptr, after.data());
    sim.rollback();
    const std::string next = "boid_figures(): the next step (" + std::to_string(sim.stepCount() + 1) + ")";
    if (!finite)
        throw Error(next + " leaves the flock non-finite, so it has no accelerations to give (a speed limit, a smaller "
                           "dt or smaller weights keep it finite)");
    std::vector<float> acceleration(after.size());
    for (std::size_t i = 0; i < now.size(); ++i)
        for (int k = 0; k < 3; ++k) {
            const double a = (double(after[3 * i + std::size_t(k)]) - double(now[i].v[k])) / dt;
            if (!(std::fabs(a) <= double(std::numeric_limits<float>::max())))
                throw Error(next + " gives boid " + std::to_string(i) + " an acceleration of " + numberText(a) +
                            " units/s^2, past a float's range (a speed limit, a smaller dt or smaller weights keep it finite)");
            acceleration[3 * i + std::size_t(k)] = float(a);
        }
    return acceleration;
}

}  // namespace

BoidFigures Flock::boidFigures() const {
    Simulation& sim = impl_->engine();
    const murmur::Flock now = impl_->byId();
    engine::BoidLabels f = engine::boidLabels(now, impl_->params);
    return {std::move(f.nearest), std::move(f.group), lookAheadAccelerations(sim, now, impl_->params.dt)};
}

void Flock::setState(const float* positions, const float* velocities, std::size_t boids, const std::uint32_t* species) {
    translated([&] {
        Params p = impl_->params;
        const murmur::Flock flock = callerState(positions, velocities, boids, species, p, [&] { return this->species(); });
        impl_->replaceState(*this, flock, p, impl_->engine().stepCount());  // checked and valid
        return 0;
    });
}

void Flock::exportState(const std::string& path) const {
    requirePlainPath(path, "export");
    translated([&] {
        checkWritableTarget(path, "export");  // as --export: a name that is only an extension, a missing folder, ...
        writeStateCsv(path, impl_->engine().download(), impl_->engine().stepCount(), impl_->params.world_size, &impl_->params);
        return 0;
    });
}

void Flock::importState(const std::string& path) {
    requirePlainPath(path, "import_state");
    translated([&] {
        std::uint32_t step = 0;
        Params p = impl_->params;
        if (const float world = readStateWorld(path); world > 0.0f) p.world_size = world;  // where it was written
        const murmur::Flock flock = readStateCsv(path, p, &step);
        p.boids = std::uint32_t(flock.size());
        requireValid(p);
        impl_->replaceState(*this, flock, p, step);  // read and valid
        return 0;
    });
}

GlBuffers Flock::glBuffers() const {
    Drawable* d = impl_->engine().drawable();
    if (!d) return {};
    const FlockBuffers b = d->buffers();
    return {b.pos, b.vel, b.count};
}

std::string stepResolutionWarning(const std::map<std::string, double>& order, double dt) {
    const auto at = [&](const char* key) { return order.count(key) ? order.at(key) : 0.0; };
    const double boids = at("boids");
    const auto text = murmur::stepResolutionWarning(boids >= 2.0 ? std::uint32_t(std::min(boids, 4e9)) : 0u, at("mean_speed"),
                                                    at("nn_mean"), dt);
    return text.value_or("");
}

std::vector<std::string> presets() {
    findPresets();
    std::vector<std::string> names;
    for (const auto& [name, description] : listPresets()) names.push_back(name);
    return names;
}

std::map<std::string, std::string> resolvedParams(const FlockOptions& options) {
    return translated([&] {
        const Params p = paramsOf(options);
        std::map<std::string, std::string> out;
        for (const ParamInfo& info : paramTable()) out[info.key] = formatValue(info, p);
        return out;
    });
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
