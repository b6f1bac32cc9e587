// The step, ordered: binning (scan -> scatter -> order; a count pass only after an upload or a
// change) -> steer (which also counts what it writes for the next step's binning), with memory
// barriers between passes and nothing read back to the CPU. Small flocks take steps in work
// groups instead; the sequential order steers without a grid. Programs for a variant are built in
// one batch and handed to their passes.
#include "gpu/gpu_simulation.hpp"

#include "gl/egl_context.hpp"
#include "gpu/dispatch.hpp"

#include <algorithm>
#include <bit>
#include <span>
#include <stdexcept>
#include <utility>

namespace murmur::gpu {

GpuSimulation::GpuSimulation(gl::ShaderLibrary shaders) : shaders_(std::move(shaders)) {
    const bool software = gl::isSoftwareRenderer(gl::rendererString());
    group_steps_.setSoftwareRenderer(software);
    clock_.profileByQueries(!software);  // a hardware GPU's profiled step never stalls
}

std::vector<gl::Program> GpuSimulation::buildPasses(const gl::ShaderLibrary& lib, const Params& p) const {
    std::vector<std::string> files;
    for (const auto& pass : {BinningPass::shaderFiles(), SteerPass::shaderFiles(), Sampler::shaderFiles(), StateQueries::shaderFiles()})
        files.insert(files.end(), pass.begin(), pass.end());
    return gl::buildComputes(lib, files, variantDefines(p, state_.isEnsemble()));
}

void GpuSimulation::givePrograms(std::vector<gl::Program> built) {
    std::span<gl::Program> rest(built);
    const auto take = [&rest](std::size_t count) {
        const std::span<gl::Program> part = rest.first(count);
        rest = rest.subspan(count);
        return part;
    };
    binning_.setPrograms(take(BinningPass::shaderFiles().size()));
    steer_.setPrograms(take(SteerPass::shaderFiles().size()));
    sampler_.setPrograms(take(Sampler::shaderFiles().size()));
    queries_.setPrograms(take(StateQueries::shaderFiles().size()));
    built_ = true;
}

void GpuSimulation::reloadShaders(gl::ShaderLibrary shaders) {
    settleNextStepSample();  // a sample asked for is of the state before any change
    std::vector<gl::Program> fresh = buildPasses(shaders, variant_params_);  // throws before anything changes
    group_steps_.rebuild(shaders, defines());  // in use: the new flock_steps.comp must build too
    givePrograms(std::move(fresh));
    correlations_.forget();
    unbindDeletedPrograms();
    shaders_ = std::move(shaders);
}

// The last program used stays current after the set it belonged to is deleted, and its name
// is freed only when another is used: a client that saves GL_CURRENT_PROGRAM and restores it
// (Dear ImGui's OpenGL backend does, around its draw) would then restore a name that no longer
// exists (GL_INVALID_VALUE in glUseProgram). So no program of the old set stays current.
void GpuSimulation::unbindDeletedPrograms() { glUseProgram(0); }

// The programs for this variant (the state says whether it is an ensemble's), if not built yet.
void GpuSimulation::buildVariant(const Params& params) {
    const std::string variant = variantOf(params, state_.isEnsemble());
    if (variant != variant_ || !built_) {
        checkGlLimits(params);
        finishSample();  // a sample in progress ends on the programs it began with
        givePrograms(buildPasses(shaders_, params));
        group_steps_.forget();
        correlations_.forget();
        unbindDeletedPrograms();
        variant_ = variant;
    }
    variant_params_ = params;
}

void GpuSimulation::applyParams(const Params& params) {
    const GridSpec grid = makeGridSpec(params);
    checkGridFits(params, grid);  // before anything changes
    state_.ensemble.clear();
    buildVariant(params);
    state_.setParams(params, grid);
}

void GpuSimulation::setParams(const Params& params) {
    settleNextStepSample();
    Params p = params;
    p.boids = state_.n;
    const bool same_box = state_.params.sameBox(p);
    applyParams(p);
    if (!same_box) {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // after the last step's counts
        state_.images.clearToZero();
    }
}

void GpuSimulation::upload(const Flock& flock, const Params& params) {
    settleNextStepSample();
    Params p = params;
    p.boids = std::uint32_t(flock.size());
    checkCapacity(p);
    state_.upload(flock);
    setInterrupted(false);
    applyParams(p);
}

void GpuSimulation::step(int steps) {
    if (interrupted()) return;
    if (nextStepSampleWaits() && !(canMeasureInStep() && steer_.hasMeasured()))
        settleNextStepSample();  // before the state moves
    if (state_.n == 0) {  // nothing to move, but the steps pass, as on the CPU reference
        state_.step_count += std::uint32_t(std::max(steps, 0));
        return;
    }
    for (int s = 0; s < steps; ++s) {
        const bool sampled = nextStepSampleWaits();  // the walk of a sample asked for too
        if (!sampled) {
            const bool blocked = clock_.profileAsked() || steer_.inSlices(state_.params, interruptCheck());
            if (const auto plan = group_steps_.plan(state_, variant_params_, steps - s, blocked); plan.steps > 0) {
                group_steps_.run(state_, plan, shaders_, defines());
                s += plan.steps - 1;
                continue;
            }
        }
        if (!stepWithPasses(sampled)) return;
    }
}

// One step by the passes (and the walk of a sample asked for with it); false when interrupted.
bool GpuSimulation::stepWithPasses(bool sampled) {
    if (sampled) beginMeasuredSample();  // outside the step's timings
    state_.uploadStepEvents();
    ++state_.step_count;
    if (clock_.beginStep()) state_.forgetSorted();  // a profiled step bins, though a sample just did: its passes are what it times
    if (state_.params.update == UpdateOrder::Sequential) {
        stepSequential();
        return true;
    }
    binning_.bin(state_, &clock_);
    gl::Program& steer = sampled ? measuredSteer() : steer_.program();
    steer.use();
    if (!steer_.run(state_, steer, interruptCheck())) {
        setInterrupted(true);
        clock_.abandon();
        return false;
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    clock_.done(3);
    clock_.endStep();
    if (sampled) finishMeasuredSample();
    return true;
}

void GpuSimulation::stepSequential() {
    for (int pass = 0; pass < 3; ++pass) clock_.done(pass);  // no binning in this order
    steer_.runSequential(state_);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    clock_.done(3);
    clock_.endStep();
}

Flock GpuSimulation::download() { return state_.downloadSlots(0, state_.n); }

std::vector<std::uint32_t> GpuSimulation::neighbourCounts() { return queries_.neighbourCounts(state_); }

void GpuSimulation::readXyzById(float* positions, float* velocities) {
    if (state_.n == 0 || (!positions && !velocities)) return;
    if (state_.isEnsemble()) return Simulation::readXyzById(positions, velocities);
    queries_.readXyzById(state_, positions, velocities);
}

std::vector<std::int32_t> GpuSimulation::readImagesById() {
    if (state_.isEnsemble()) return Simulation::readImagesById();
    std::vector<std::int32_t> out(std::size_t(state_.n) * 3, 0);
    if (state_.images.size() < std::size_t(state_.n) * 16) return out;  // none kept: none crossed
    const auto images = state_.images.read<glm::ivec4>(state_.n);
    for (std::size_t i = 0; i < images.size(); ++i)
        for (int k = 0; k < 3; ++k) out[3 * i + k] = images[i][k];
    return out;
}

FlockBuffers GpuSimulation::buffers() {
    FlockBuffers b;
    b.pos = state_.pos.id();
    b.vel = state_.vel.id();
    b.neighbours = state_.neighbours.id();
    b.steer = state_.steer.id();  // a one-element placeholder unless the style keeps its steering
    b.count = state_.n;
    return b;
}

std::optional<FoundBoid> GpuSimulation::find(std::uint32_t id) { return queries_.find(state_, id); }
std::optional<std::uint32_t> GpuSimulation::pick(const PickQuery& q) { return queries_.under(state_, q); }

void GpuSimulation::checkpoint() {
    settleNextStepSample();
    saved_.save(state_);
}

void GpuSimulation::rollback() {
    settleNextStepSample();
    finishSample();
    saved_.restore(state_);
    setInterrupted(false);
}

PairSums GpuSimulation::pairSums(const Params& p, std::uint32_t bins, double r_max) {
    if (state_.isEnsemble()) throw std::logic_error("an ensemble's correlations are measured flock by flock (flockPairSums)");
    if (state_.n == 0) return Simulation::pairSums(p, bins, r_max);
    return flockPairSums(0, bins, r_max);
}

PairSums GpuSimulation::flockPairSums(std::uint32_t k, std::uint32_t bins, double r_max) {
    const EnsembleFlock* f = state_.ensembleFlock(k);
    return correlations_.measure(state_, shaders_, defines(), k, bins, correlationReach(f ? f->params : state_.params, r_max));
}

bool GpuSimulation::allFinite() {
    if (state_.n == 0) return true;
    settleNextStepSample();
    return queries_.allFinite(state_);
}

void GpuSimulation::binUntimed() {
    if (state_.n > 0) binning_.bin(state_, nullptr);
}

GpuSimulation::Binning GpuSimulation::binOnly() {
    binUntimed();
    state_.forgetSorted();  // a diagnostic: the next step bins for itself, as it would have
    Binning b;
    b.count = state_.counts[state_.current].read<std::uint32_t>(state_.cell_total);
    b.start = state_.cell_start.read<std::uint32_t>(state_.cell_total + 1);  // resolved by the order pass, then the total
    for (const glm::vec4& p : state_.sorted_pos.read<glm::vec4>(state_.n)) b.sorted_ids.push_back(std::bit_cast<std::uint32_t>(p.w));
    return b;
}

std::vector<std::uint32_t> GpuSimulation::scan(const std::vector<std::uint32_t>& values) {
    const auto n = std::uint32_t(values.size());
    gl::Buffer in(std::size_t(n) * 4, values.data()), out(GridScan::outCount(n) * 4);  // zeroed
    if (!built_) applyParams(state_.params);
    binning_.scan().run(in, out, n);
    return GridScan::resolve(out.read<std::uint32_t>(GridScan::outCount(n)), n);
}

}  // namespace murmur::gpu
