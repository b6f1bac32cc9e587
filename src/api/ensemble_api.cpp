// murmur::api::Ensemble (include/murmur/murmur.hpp) over the engine's Ensemble (engine::makeEnsemble),
// each flock's parameters kept here for get() and set().
#include "murmur/murmur.hpp"

#include "api/api_common.hpp"
#include "engine/run.hpp"
#include "engine/engine.hpp"
#include "model/param_table.hpp"
#include "model/spawn.hpp"

namespace murmur::api {
using namespace detail;

struct Ensemble::Impl {
    std::vector<Params> params;
    std::string backend;
    std::shared_ptr<gl::HeadlessContext> context;  // murmur's own, when the first flock gave no loader
    std::unique_ptr<murmur::Ensemble> ensemble;
    std::thread::id thread = std::this_thread::get_id();  // the thread that made it
    std::atomic<std::uint64_t> steps{0};
    mutable SteppingThread stepping{};  // the thread in step(), if any

    ~Impl() {
        if (backend == "gpu" && (thread != std::this_thread::get_id() || gl::forkedAfterContext())) endGlObjects(ensemble, context, thread);
    }
    std::uint32_t index(std::uint32_t k) const {
        if (k >= params.size())
            throw Error("flock " + std::to_string(k) + ": valid: 0 .. " + std::to_string(params.size() - 1));
        return k;
    }
    // The engine, from the thread that made a GPU ensemble only (its GL context is current there).
    murmur::Ensemble& engine() const {
        requireOwnThread(backend, thread);
        requireNotStepping(stepping);
        return *ensemble;
    }
    murmur::Flock byId(std::uint32_t k) const { return murmur::byId(engine().download(index(k))); }
};

Ensemble::Ensemble(const std::vector<FlockOptions>& flocks) : impl_(std::make_unique<Impl>()) {
    translated([&] {
        if (flocks.empty()) throw Error("an ensemble needs at least one flock");
        const FlockOptions& first = flocks.front();
        checkBackendName(first.backend);
        std::vector<murmur::Flock> spawned;
        for (std::size_t k = 0; k < flocks.size(); ++k) {
            if (!flocks[k].resume.empty())
                throw Error("flock " + std::to_string(k) + ": resume continues one Flock (Flock.load); an ensemble spawns its flocks");
            try {
                impl_->params.push_back(paramsOf(flocks[k]));
            } catch (const std::exception& e) {
                throw Error("flock " + std::to_string(k) + ": " + e.what());
            }
        }
        impl_->backend = first.backend;
        impl_->context = prepareBackend(first);
        if (first.backend == "gpu")
            for (const Params& p : impl_->params) requireGpuCapacity(p);
        impl_->ensemble = engine::makeEnsemble(backendOf(first.backend));
        for (const Params& p : impl_->params) spawned.push_back(spawn(p));
        impl_->ensemble->upload(spawned, impl_->params);
        return 0;
    });
}

Ensemble::~Ensemble() = default;
Ensemble::Ensemble(Ensemble&&) noexcept = default;
Ensemble& Ensemble::operator=(Ensemble&&) noexcept = default;

// Every flock checked finite after each chunk and at the end; else all are back where the call
// began.
void Ensemble::step(int steps, const StopCheck& stop) {
    if (steps < 0) throw Error("step(" + std::to_string(steps) + "): valid: 0 or more steps");
    murmur::Ensemble& e = impl_->engine();
    const SteppingHold held(impl_->stepping);
    requireCounterRoom(impl_->steps, std::uint64_t(steps));
    const std::uint64_t from = impl_->steps;
    translated([&] {
        e.checkpoint();
        // Through the engine's run loop (engine::Run), in chunks with a stop check; every flock
        // checked finite after each (else all back to where the call began).
        engine::Run run({[&](int steps_now) {
                             e.step(steps_now);
                             impl_->steps += std::uint64_t(steps_now);
                         },
                         {}, {}, {}, false});
        StepChunks chunks{bool(stop)};
        run.setStretchLimit([&](std::uint64_t left) { return std::uint64_t(chunks.next(int(left))); });
        run.setAfterStretch([&] {
            if (!e.allFinite()) {
                const std::uint64_t reached = impl_->steps.exchange(from);
                e.rollback();
                throw Error(nonFiniteMessage(std::uint32_t(from), std::uint32_t(reached)));
            }
            chunks.ended();
            return stop && stop();
        });
        run.advance(std::uint64_t(steps), false);
        return 0;
    });
}

std::uint64_t Ensemble::stepCount() const { return impl_->steps; }
std::uint32_t Ensemble::flocks() const { return std::uint32_t(impl_->params.size()); }
std::uint32_t Ensemble::size(std::uint32_t k) const { return impl_->params[impl_->index(k)].boids; }
std::string Ensemble::backend() const { return impl_->backend; }

void Ensemble::set(std::uint32_t k, const std::string& key, const std::string& value) {
    translated([&] {
        if (key == "boids" || key == "dims") throw Error(key + " cannot change on a live flock: make a new Ensemble");
        std::vector<Params> all = impl_->params;
        setKey(all[impl_->index(k)], key, value);
        requireValid(all[k]);
        impl_->engine().setParams(all);
        impl_->params = all;
        return 0;
    });
}

std::string Ensemble::get(std::uint32_t k, const std::string& key) const {
    const ParamInfo* info = findParam(key);
    if (!info) throw Error("unknown key '" + echo(key) + "' (see murmur.params())");
    return formatValue(*info, impl_->params[impl_->index(k)]);
}

std::vector<float> Ensemble::positions(std::uint32_t k) const {
    std::vector<float> out;
    for (const Boid& b : impl_->byId(k)) out.insert(out.end(), {b.p.x, b.p.y, b.p.z});
    return out;
}

std::vector<float> Ensemble::velocities(std::uint32_t k) const {
    std::vector<float> out;
    for (const Boid& b : impl_->byId(k)) out.insert(out.end(), {b.v.x, b.v.y, b.v.z});
    return out;
}

std::vector<std::uint32_t> Ensemble::species(std::uint32_t k) const {
    std::vector<std::uint32_t> out;
    for (const Boid& b : impl_->byId(k)) out.push_back(b.species);
    return out;
}

void Ensemble::setState(std::uint32_t k, const float* positions, const float* velocities, std::size_t boids,
                        const std::uint32_t* species) {
    translated([&] {
        const std::uint32_t at = impl_->index(k);
        std::vector<Params> all = impl_->params;
        murmur::Flock flock = callerState(positions, velocities, boids, species, all[at], [&] { return this->species(at); });
        if (impl_->backend == "gpu") requireGpuCapacity(all[at]);
        std::vector<murmur::Flock> flocks;
        for (std::uint32_t j = 0; j < all.size(); ++j) flocks.push_back(j == at ? flock : impl_->byId(j));
        impl_->engine().upload(flocks, all);
        impl_->engine().setStepCount(std::uint32_t(impl_->steps));
        impl_->params = all;
        return 0;
    });
}

std::map<std::string, double> Ensemble::orderParameters(std::uint32_t k) {
    return translated([&] { return orderMap(impl_->engine().measure(impl_->index(k))); });
}

std::vector<std::map<std::string, double>> Ensemble::orderParameters() {
    return translated([&] {
        std::vector<std::map<std::string, double>> out;
        for (const OrderParams& o : impl_->engine().measureAll()) out.push_back(orderMap(o));
        return out;
    });
}

}  // namespace murmur::api
