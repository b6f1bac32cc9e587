// Samples of the order parameters through the sampler pass: at once (measure), in slices between
// steps (beginSample, advanceSample, takeSample), of every flock of an ensemble (measureFlocks),
// and with the next step, whose steer pass does the sample's walk (measureWithNextStep). Each
// sample's figures land (Sampler::takeLanded): taken in the order the samples were asked for, a
// sample measured at once taken at once.
#include "gpu/gpu_simulation.hpp"

#include <stdexcept>
#include <utility>

namespace murmur::gpu {

// The state binned (unless a step's steer pass walks for it: that step bins), then the sampler's set-up.
void GpuSimulation::startSample(const Params& p, std::uint32_t flock, std::uint32_t boids, bool copy, bool in_step) {
    if (!in_step && boids > 0) binUntimed();  // the sorted copy and cells of the current state (the next step's binning too)
    sampler_.start(state_, p, flock, boids, copy, in_step);
}

void GpuSimulation::startAllFlocksSample(bool in_step) {
    if (!in_step) binUntimed();
    sampler_.startAllFlocks(state_, in_step);
}

// A sample in slices in progress ends first; its answer is still what takeSample() returns.
// Measured at once, of the live buffers (no copies: nothing steps before it ends).
OrderParams GpuSimulation::measure() {
    settleNextStepSample();
    finishSample();
    if (state_.isEnsemble()) throw std::logic_error("an ensemble is measured flock by flock (measureFlock)");
    startSample(state_.params, 0, state_.n, false);
    finishSample();
    return sampler_.takeNewest().at(0);
}

// A new sample in slices supersedes any not taken.
void GpuSimulation::beginSample() {
    settleNextStepSample();
    if (state_.isEnsemble()) throw std::logic_error("an ensemble is measured flock by flock (measureFlock)");
    sampler_.dropLanded();
    startSample(state_.params, 0, state_.n, true);
}

bool GpuSimulation::advanceSample(std::uint64_t boids) { return sampler_.advance(state_, boids); }

// The oldest sample's figures have arrived (its fence polled, no wait).
bool GpuSimulation::sampleArrived() const { return sampler_.landed(); }

// The oldest sample asked for and not yet taken (the last one taken again if none).
OrderParams GpuSimulation::takeSample() {
    settleNextStepSample();
    finishSample();
    if (sampler_.hasLanding()) last_sampled_ = sampler_.takeLanded().at(0);
    return last_sampled_;
}

// An ensemble's flock k, now: its passes over its own slots, cells and parameter block, with the
// same work groups as alone, so the figures are its own alone's to the bit.
OrderParams GpuSimulation::measureFlock(std::uint32_t k) {
    const EnsembleFlock* f = state_.ensembleFlock(k);
    if (!f) return measure();
    settleNextStepSample();
    finishSample();
    startSample(f->params, k, f->boids, false);
    finishSample();
    return sampler_.takeNewest().at(0);
}

std::vector<OrderParams> GpuSimulation::measureFlocks() {
    if (!state_.isEnsemble()) return {measure()};
    settleNextStepSample();
    finishSample();
    startAllFlocksSample();
    finishSample();
    return sampler_.takeNewest();
}

// A sample asked for with an earlier step and not yet taken stays: takeSample() returns it first
// (a run that reads each row a step late).
void GpuSimulation::measureWithNextStep() {
    settleNextStepSample();
    finishSample();
    if (state_.params.update != UpdateOrder::Sequential) buildMeasuredSteer();  // throws before anything changes
    next_step_sample_ = state_.isEnsemble() ? NextStepSample::AllFlocks : NextStepSample::OneFlock;
}

void GpuSimulation::buildMeasuredSteer() {
    if (steer_.hasMeasured() && sampler_.hasStoredWalk()) return;
    const bool ensemble = state_.isEnsemble();
    std::vector<gl::Program> built =
        gl::buildPrograms({gl::computeSource(shaders_, "flock_steer.comp", variantDefinesWith(variant_params_, ensemble, "MEASURE_IN_STEER")),
                           gl::computeSource(shaders_, "flock_measure.comp", variantDefinesWith(variant_params_, ensemble, "NEAREST_STORED"))});
    steer_.setMeasured(std::move(built[0]));
    sampler_.setStoredWalk(std::move(built[1]));
}

std::vector<OrderParams> GpuSimulation::takeFlockSamples() {
    if (!state_.isEnsemble()) return {takeSample()};
    settleNextStepSample();
    finishSample();
    return sampler_.takeLanded();
}

// Whether the next step can walk for a sample: not in the sequential order (no grid) nor when
// its steer pass runs in slices (setInterruptInSlices).
bool GpuSimulation::canMeasureInStep() const {
    return state_.n > 0 && state_.params.update != UpdateOrder::Sequential && !steer_.inSlices(state_.params);
}

// A sample asked for with the next step, taken now of the current state (no step came, or the
// step cannot walk for it): the same figures, by the sample's own walk.
void GpuSimulation::settleNextStepSample() {
    const NextStepSample which = std::exchange(next_step_sample_, NextStepSample::None);
    if (which == NextStepSample::None) return;
    finishSample();
    if (which == NextStepSample::OneFlock) startSample(state_.params, 0, state_.n, false);
    else startAllFlocksSample();
    finishMeasuredSample();
}

// A sampled step, before its binning and its timing (none of this needs the binning): the sample
// set up over the state the step starts from (the one measured; a group radius beyond the grid's
// reach walked on the CPU over its download now), the neighbour counts it measures kept, and
// every slot a root (the parents cleared to GROUP_ROOT).
void GpuSimulation::beginMeasuredSample() {
    const bool all = next_step_sample_ == NextStepSample::AllFlocks;
    next_step_sample_ = NextStepSample::None;
    if (all) startAllFlocksSample(true);
    else startSample(state_.params, 0, state_.n, false, true);
    sampler_.plantRoots(state_);
}

// After the step's binning (which binds its own slots): the steer program that also walks for the
// sample, bound with the radii, the forest and the nearest distances' buffer.
gl::Program& GpuSimulation::measuredSteer() {
    ++steps_that_measured_;
    gl::Program& steer = steer_.program(true);
    sampler_.bindForSteer(state_, steer);
    return steer;
}

// The sampled step's steer pass has walked (or a sample asked for with the next step was started
// without one): the sample's other passes, over the sorted copy of the state measured (the next
// binning overwrites it), now; its figures land for takeSample() or takeFlockSamples().
void GpuSimulation::finishMeasuredSample() {
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    finishSample();
}

}  // namespace murmur::gpu
