// Samples of the order parameters through the sampler pass: at once (measure), of every flock of
// an ensemble (measureFlocks), and asked for by ticket (requestSample): in slices between steps,
// or with the next step, whose steer pass does the sample's walk. A sample asked for lands under
// its ticket (Sampler::take) and is taken by it, in any order; one measured at once is taken at
// once (Sampler::takeNewest).
#include "gpu/gpu_simulation.hpp"

#include <stdexcept>
#include <utility>

namespace murmur::gpu {

// The state binned (unless a step's steer pass walks for it: that step bins), then the sampler's set-up.
void GpuSimulation::startSample(const Params& p, std::uint32_t flock, std::uint32_t boids, bool copy, std::uint64_t ticket,
                                bool in_step) {
    if (!in_step && boids > 0) binUntimed();  // the sorted copy and cells of the current state (the next step's binning too)
    sampler_.start(state_, p, flock, boids, copy, ticket, in_step);
}

void GpuSimulation::startAllFlocksSample(std::uint64_t ticket, bool in_step) {
    if (!in_step) binUntimed();
    sampler_.startAllFlocks(state_, ticket, in_step);
}

// Samples asked for before it end first, under their tickets. Measured at once, of the live
// buffers (no copies: nothing steps before it ends).
OrderParams GpuSimulation::measure() {
    settleNextStepSample();
    finishSample();
    if (state_.isEnsemble()) throw std::logic_error("an ensemble is measured flock by flock (measureFlock)");
    startSample(state_.params, 0, state_.n, false);
    finishSample();
    return sampler_.takeNewest().at(0);
}

SampleTicket GpuSimulation::requestSample(SampleWhen when) {
    if (when == SampleWhen::WithNextStep) return requestWithNextStep();
    if (state_.isEnsemble()) throw std::logic_error("an ensemble is measured flock by flock (measureFlock)");
    settleNextStepSample();
    finishSample();
    const SampleTicket ticket = newTicket();
    startSample(state_.params, 0, state_.n, true, ticket.id);
    return ticket;
}

bool GpuSimulation::advanceSamples(std::uint64_t boids) { return sampler_.advance(state_, boids); }

// Its figures have arrived (its fence polled, no wait).
bool GpuSimulation::sampleReady(SampleTicket ticket) const { return sampler_.landed(ticket.id); }

// A sample still waiting for a step is measured now; one in slices is finished.
std::vector<OrderParams> GpuSimulation::takeFlockSamples(SampleTicket ticket) {
    if (ticket.id == 0) throw std::logic_error(unknownTicket(ticket));
    if (next_step_ticket_ == ticket) settleNextStepSample();
    if (sampler_.activeTicket() == ticket.id) finishSample();
    if (!sampler_.holds(ticket.id)) throw std::logic_error(unknownTicket(ticket));
    ticketTaken(ticket);
    return sampler_.take(ticket.id);
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

// A sample asked for with an earlier step and not yet taken stays (a run that reads each row a
// step late); one asked for with this next step and not yet stepped is measured now.
SampleTicket GpuSimulation::requestWithNextStep() {
    settleNextStepSample();
    finishSample();
    if (state_.params.update != UpdateOrder::Sequential) buildMeasuredSteer();  // throws before anything changes
    next_step_ticket_ = newTicket();
    return next_step_ticket_;
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

// Whether the next step can walk for a sample: not in the sequential order (no grid) nor when
// its steer pass runs in slices (setInterruptInSlices).
bool GpuSimulation::canMeasureInStep() const {
    return state_.n > 0 && state_.params.update != UpdateOrder::Sequential && !steer_.inSlices(state_.params, interruptCheck());
}

// A sample asked for with the next step, taken now of the current state (no step came, or the
// step cannot walk for it): the same figures, by the sample's own walk.
void GpuSimulation::settleNextStepSample() {
    if (!nextStepSampleWaits()) return;
    const std::uint64_t ticket = takeNextStepTicket();
    finishSample();
    if (state_.isEnsemble()) startAllFlocksSample(ticket);
    else startSample(state_.params, 0, state_.n, false, ticket);
    finishMeasuredSample();
}

// A sampled step, before its binning and its timing (none of this needs the binning): the sample
// set up over the state the step starts from (the one measured; a group radius beyond the grid's
// reach walked on the CPU over its download now), the neighbour counts it measures kept, and
// every slot a root (the parents cleared to GROUP_ROOT).
void GpuSimulation::beginMeasuredSample() {
    const std::uint64_t ticket = takeNextStepTicket();
    if (state_.isEnsemble()) startAllFlocksSample(ticket, true);
    else startSample(state_.params, 0, state_.n, false, ticket, true);
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
// binning overwrites it), now; its figures land under its ticket.
void GpuSimulation::finishMeasuredSample() {
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    finishSample();
}

}  // namespace murmur::gpu
