// The engine's front door; see engine.hpp. The one place outside the backends that names their types.
#include "engine/engine.hpp"

#include "gl/egl_devices.hpp"
#include "gl/fence.hpp"

#include "cpu/cpu_ensemble.hpp"
#include "cpu/cpu_simulation.hpp"
#include "cpu/order_params.hpp"
#include "gl/debug.hpp"
#include "gl/egl_context.hpp"
#include "gpu/gpu_ensemble.hpp"
#include "gpu/gpu_simulation.hpp"
#include "gpu/variant.hpp"
#include "model/grid_spec.hpp"
#include "model/styles.hpp"

#include <ostream>
#include <stdexcept>

namespace murmur::engine {

std::unique_ptr<Simulation> makeSimulation(Backend backend, const std::string& shader_dir, bool timed) {
    if (backend == Backend::Cpu) return std::make_unique<CpuSimulation>();
    auto gpu = std::make_unique<gpu::GpuSimulation>(gl::ShaderLibrary(shader_dir));
    gpu->enableTiming(timed);
    return gpu;
}

std::unique_ptr<Ensemble> makeEnsemble(Backend backend, const std::string& shader_dir) {
    if (backend == Backend::Cpu) return std::make_unique<CpuEnsemble>();
    return std::make_unique<gpu::GpuEnsemble>(gl::ShaderLibrary(shader_dir));
}

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

std::optional<std::string> capacityProblem(Backend backend, const Params& p) {
    if (backend == Backend::Cpu) return cpuMemoryProblem(p, availableMemoryBytes());
    try {
        gpu::checkCapacity(p);
        return std::nullopt;
    } catch (const gpu::CapacityError& e) {
        return std::string(e.what());
    }
}

std::optional<std::string> memoryWarning(const Params& p) { return gpu::memoryWarning(p); }

std::uint64_t gpuMaxBoids(const Params& p) { return gpu::queryCapacity(makeGridSpec(p)).max_boids; }

BoidLabels boidLabels(const Flock& flock, const Params& p) {
    BoidFigures f = boidFigures(flock, p);
    return {std::move(f.nearest), std::move(f.group)};
}

void overrideGpuPath(const std::string& var, const std::string& value) { gpu::overridePath(var, value); }

std::vector<GpuPathChoice> gpuPathChoices() {
    std::vector<GpuPathChoice> out;
    for (const gpu::PathChoice& c : gpu::pathChoices()) out.push_back({c.var, c.values[0], c.values[1]});
    return out;
}

std::string gpuReads() { return gpu::sortedReadsName(gpu::sortedReads()); }
std::string gpuWalk() { return gpu::cellWalkName(gpu::cellWalk()); }

std::optional<std::string> gpuPathProblem() {
    if (auto problem = gl::eglDeviceVariableProblem()) return problem;  // MURMUR_EGL_DEVICE
    if (auto problem = gl::gpuTimeoutProblem()) return problem;         // MURMUR_GPU_TIMEOUT
    try {
        (void)gpu::sortedReads();
        (void)gpu::cellWalk();
        return std::nullopt;
    } catch (const std::invalid_argument& e) {
        return std::string(e.what());
    }
}

namespace {
gl::PassTimer* timerOf(Simulation& sim) {
    auto* gpu = dynamic_cast<gpu::GpuSimulation*>(&sim);
    return gpu ? gpu->timer() : nullptr;
}
}  // namespace

GpuPaths builtPaths(Simulation& sim) {
    auto* gpu = dynamic_cast<gpu::GpuSimulation*>(&sim);
    if (!gpu) return {};
    const std::string& v = gpu->builtVariant();
    const bool storage = v.find("STORAGE_READS=1 ") != std::string::npos, tiles = v.find("TILED_WALK=1 ") != std::string::npos;
    return {gpu::sortedReadsName(storage ? gpu::SortedReads::Storage : gpu::SortedReads::Textures),
            gpu::cellWalkName(tiles ? gpu::CellWalk::Tiles : gpu::CellWalk::Rows)};
}

PassTimes passTimes(Simulation& sim) {
    PassTimes times;
    auto* gpu = dynamic_cast<gpu::GpuSimulation*>(&sim);
    if (!gpu) return times;
    times.steps_in_groups = gpu->stepsInGroups();
    gl::PassTimer* timer = gpu->timer();
    if (!timer) return times;
    timer->finish();
    times.names = timer->names();
    times.samples = timer->samples();
    times.mean_ms = timer->meanMs();
    return times;
}

void restartPassTimes(Simulation& sim) {
    if (gl::PassTimer* timer = timerOf(sim)) {
        timer->finish();
        timer->reset();
    }
}

TrajectoryFrame trajectoryFrame(Simulation& sim, const Params& p) {
    TrajectoryFrame f;
    if (!keepsState(p)) {
        f.pos.resize(std::size_t(p.boids) * 3);
        f.vel.resize(f.pos.size());
        sim.readXyzById(f.pos.data(), f.vel.data());
        if (p.bounds == Bounds::Wrap) f.images = sim.readImagesById();
        return f;
    }
    const Flock now = byId(sim.download());
    xyzValues(now, f.pos, f.vel);
    f.kept = keptValues(now);
    if (p.bounds == Bounds::Wrap)
        for (const Boid& b : now) f.images.insert(f.images.end(), {b.image.x, b.image.y, b.image.z});
    return f;
}

}  // namespace murmur::engine
