// The GPU pipeline's front: a flock state (flock_state.hpp) and the passes that step, sample and
// query it, ordered here: binning (a counting sort into the grid: binning_pass.hpp), the steer
// pass (steer_pass.hpp), the sampler (sampler.hpp), steps in work groups for small flocks
// (group_steps_pass.hpp) and the queries outside the step (state_queries.hpp), each owning its
// programs and scratch buffers. Implements the same Simulation interface as the CPU reference;
// needs a current GL 4.5 context; owns no window.
#pragma once

#include "gl/program.hpp"
#include "gl/query.hpp"
#include "gpu/binning_pass.hpp"
#include "gpu/capacity.hpp"
#include "gpu/flock_state.hpp"
#include "gpu/group_steps_pass.hpp"
#include "gpu/layout.hpp"
#include "gpu/pass_clock.hpp"
#include "gpu/sampler.hpp"
#include "gpu/state_queries.hpp"
#include "gpu/correlation_pass.hpp"
#include "gpu/steer_pass.hpp"
#include "gpu/variant.hpp"
#include "model/density.hpp"
#include "model/simulation.hpp"

#include <functional>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace murmur::gpu {

class GpuSimulation final : public Simulation, public Drawable {
public:
    explicit GpuSimulation(gl::ShaderLibrary shaders = gl::ShaderLibrary{});

    void upload(const Flock& flock, const Params& params) override;
    void setParams(const Params& params) override;
    void step(int steps = 1) override;
    std::uint32_t stepCount() const override { return state_.step_count; }
    void setStepCount(std::uint32_t steps) override { state_.step_count = steps; }
    Flock download() override;
    std::vector<std::uint32_t> neighbourCounts() override;
    // One pass (state_by_id.comp) places the state by id on the GPU; each array then comes back
    // in one read of 12 bytes a boid into the caller's memory. An ensemble downloads and sorts.
    void readXyzById(float* positions, float* velocities) override;
    std::vector<std::int32_t> readImagesById() override;
    // On the GPU for one flock (CorrelationPass), only the bins read back; an ensemble: logic_error
    // (flockPairSums measures its flocks one by one).
    PairSums pairSums(const Params& p, std::uint32_t bins, double r_max) override;
    // The same of the flock alone (k 0) or of an ensemble's flock k, on the GPU.
    PairSums flockPairSums(std::uint32_t k, std::uint32_t bins, double r_max);
    OrderParams measure() override;
    // In slices: of one flock (an ensemble's: logic_error; measureFlock), of copies of what its
    // passes read; a sample in slices still in progress is finished first. With the next step:
    // of one flock, or of every flock of an ensemble (takeFlockSamples): the next step's steer
    // pass also walks for the sample (flock_steer.comp with MEASURE_IN_STEER), and the sample's
    // other passes run after it, before anything else. A step that cannot (the sequential order,
    // a steer pass in slices) takes the sample first, by its own walk, as do upload, setParams,
    // the ensemble's calls, reloadShaders and another sample when they come first. The two
    // programs it needs are built at the request, the first for a variant (throws ShaderError,
    // with nothing changed, if they do not build).
    SampleTicket requestSample(SampleWhen when) override;
    bool advanceSamples(std::uint64_t boids) override;
    bool sampleReady(SampleTicket ticket) const override;
    OrderParams takeSample(SampleTicket ticket) override { return takeFlockSamples(ticket).at(0); }
    // Small flocks (an ensemble's flocks all such) step many steps a dispatch in work groups
    // (group_steps_pass.hpp), to the same bits as step by step: on by default; off, every step
    // takes the binning and steer passes (tests and benchmarks compare the two).
    using GroupMemory = gpu::GroupMemory;
    void enableStepsInGroups(bool on, GroupMemory memory = GroupMemory::Auto) { group_steps_.enable(on, memory); }
    std::uint64_t stepsInGroups() const { return group_steps_.taken(); }  // steps taken that way so far
    // Steps whose steer pass walked for a sample (tests: the path was taken).
    std::uint64_t stepsThatMeasured() const { return steps_that_measured_; }
    std::string name() const override { return "gpu"; }
    // The defines the programs were built with ("NAME=VALUE " each; empty before an upload): what
    // ran, whatever the environment says now.
    const std::string& builtVariant() const { return variant_; }
    // On the GPU: copies of the state buffers (StateCopy), and state_finite.comp's flag.
    void checkpoint() override;
    void rollback() override;
    bool allFinite() override;

    // An interrupt (Simulation::setInterrupt) is checked between slices of the steer pass: a step
    // whose estimated cost (candidatePairsPerStep) is at least `min_pairs` (kSlowStepPairs unless
    // set here) runs it in slices of `slice_groups` work groups (32), waiting for each.
    using Interrupt = SteerPass::Interrupt;
    void setInterruptInSlices(Interrupt check, std::uint32_t slice_groups, double min_pairs) {
        setInterrupt(std::move(check));
        steer_.setSlices(slice_groups, min_pairs);
    }

    // Rebuilds every program from `shaders`; on failure keeps the current programs and throws.
    void reloadShaders(gl::ShaderLibrary shaders);

    // Per-pass GPU timings (count, scan, scatter, steer), when enabled.
    void enableTiming(bool on) { clock_.enableTiming(on); }
    const gl::PassTimer* timer() const { return clock_.timer(); }
    gl::PassTimer* timer() { return clock_.timer(); }
    // Times the next step pass by pass. On a hardware GPU by timer queries of its own, read once
    // they have landed (a step or more later), never waited for; on a software renderer on the
    // CPU's clock, with glFinish after each pass (llvmpipe stamps timer queries when it flushes its
    // queue, not when the work runs, so in a window one pass could be charged for another's), at
    // the cost of stalling that one step. The window asks for one such step per stats sample.
    void profileNextStep() override { clock_.profileNext(); }
    void profileByQueries(bool on) { clock_.profileByQueries(on); }  // the choice made at construction, changed (tests)
    bool profilesByQueries() const { return clock_.profilesByQueries(); }
    // The last profiled step's milliseconds per pass (count, scan, scatter, steer); empty before.
    const std::vector<double>& profiledMs() const { return clock_.profiledMs(); }
    std::vector<std::pair<std::string, double>> profiledPasses() const override { return clock_.profiledPasses(); }

    // Binning alone (count if needed, scan, scatter, order) of the current state, for tests of the sort.
    struct Binning {
        std::vector<std::uint32_t> count, start, sorted_ids;  // start: one per cell, then the total
    };
    Binning binOnly();
    // Exclusive scan of `values` with this pipeline's scan passes, then the total (size + 1
    // values), for tests.
    std::vector<std::uint32_t> scan(const std::vector<std::uint32_t>& values);

    // The storage buffers (for drawing straight from them): positions and velocities, vec4 each.
    const gl::Buffer& positions() const { return state_.pos; }
    const gl::Buffer& velocities() const { return state_.vel; }
    const gl::Buffer& neighbours() const { return state_.neighbours; }  // per slot, same order as positions
    const gl::Buffer& perchTimes() const { return state_.perch; }       // per slot: seconds left on the ground
    const gl::Buffer& steering() const { return state_.steer; }         // per slot: decarpentier's steering
    std::uint32_t boids() const { return state_.n; }

    // Drawable: the state's buffers; the boid with this id (position, velocity, last neighbour
    // count), found on the GPU by boid_pick.comp, reading back 48 bytes (waits for the GPU), empty
    // if no such id; the boid under the pointer, by boid_under.comp's three dispatches, reading
    // back 16 bytes.
    Drawable* drawable() override { return this; }
    FlockBuffers buffers() override;
    std::optional<FoundBoid> find(std::uint32_t id) override;
    std::optional<std::uint32_t> pick(const PickQuery& query) override;

    // An ensemble (gpu_ensemble.cpp): K independent flocks in one set of buffers, stepped by the
    // same four dispatches. Each has its own parameters, world, grid (its cells after the flocks'
    // before it) and size; they must share the shader variant (style, dims, bounds, the switches:
    // variantOf), obstacles aside (compiled in for all when any flock has some:
    // ensembleVariantParams), and not use the sequential order. Flock k steps exactly as it would alone, to
    // the bit. step(), stepCount() and the rest act on all; upload() or setParams() ends it.
    // Throws std::invalid_argument naming the flock and the problem.
    void uploadEnsemble(const std::vector<Flock>& flocks, const std::vector<Params>& params);
    std::uint32_t flockCount() const { return state_.flockCount(); }
    Flock downloadFlock(std::uint32_t k) { return state_.downloadFlock(k); }
    OrderParams measureFlock(std::uint32_t k);  // flock k's order parameters (measure() for one flock)
    // Every flock's order parameters in one set of passes over the whole ensemble (each flock in
    // its own work groups, so flock k's figures are measureFlock(k)'s to the bit): one binning,
    // nine dispatches and four reads (2 vec4, the histograms, the group totals and the four
    // largest groups a flock) for all K. One flock: {measure()}.
    std::vector<OrderParams> measureFlocks();
    // Every flock's figures of a sample asked for (requestSample: of every flock of an ensemble
    // with the next step, else of the one flock).
    std::vector<OrderParams> takeFlockSamples(SampleTicket ticket);
    // New parameters for every flock of the ensemble (as setParams does for one: the same sizes,
    // the same variant, obstacles aside; a flock's grid may change, and the cells are laid out
    // again). Obstacles coming into or leaving the ensemble rebuild the programs.
    void setEnsembleParams(const std::vector<Params>& params);

private:
    std::vector<gl::Program> buildPasses(const gl::ShaderLibrary& lib, const Params& p) const;  // every pass's, in one batch
    void givePrograms(std::vector<gl::Program> built);  // to each pass, its own
    void buildVariant(const Params& params);  // the programs for this variant, if not built yet
    void applyParams(const Params& params);
    std::vector<gl::ShaderDefine> defines() const { return variantDefines(variant_params_, state_.isEnsemble()); }
    static void unbindDeletedPrograms();
    void binUntimed();  // binning outside the step (measure, binOnly): not in the pass timings
    bool stepWithPasses(bool sampled);  // false: interrupted
    void stepSequential();
    // Samples (gpu_simulation_sample.cpp): the state binned, then the sampler started.
    void startSample(const Params& p, std::uint32_t flock, std::uint32_t boids, bool copy, std::uint64_t ticket = 0, bool in_step = false);
    void startAllFlocksSample(std::uint64_t ticket = 0, bool in_step = false);
    void finishSample() { sampler_.finish(state_); }  // before the state changes shape
    // A sample asked for with the next step (requestSample), waiting for it: its ticket (none: 0).
    // Of the one flock, or of every flock of an ensemble: whatever would change which is settles
    // it first (upload, setParams, the ensemble's calls).
    SampleTicket requestWithNextStep();
    bool nextStepSampleWaits() const { return next_step_ticket_.id != 0; }
    std::uint64_t takeNextStepTicket() { return std::exchange(next_step_ticket_, SampleTicket{}).id; }
    bool canMeasureInStep() const;
    void settleNextStepSample();  // takes a sample still waiting for a step now, without one
    void buildMeasuredSteer();    // the two programs of a sampled step, if not built yet
    void beginMeasuredSample();   // before the step's binning: the sample's set-up and roots
    gl::Program& measuredSteer(); // after it: the steer program that walks too, bound
    void finishMeasuredSample();  // the sample's passes after that steer pass
    void layOutEnsemble(const std::vector<Params>& params);  // grids, cells, blocks and table of the flocks

    gl::ShaderLibrary shaders_;
    FlockState state_;
    std::string variant_;    // the defines the programs were built with
    Params variant_params_;  // the parameters they were built for (ensembleVariantParams in an ensemble)
    bool built_ = false;
    BinningPass binning_;
    SteerPass steer_;
    Sampler sampler_;
    GroupStepsPass group_steps_;
    StateQueries queries_;
    CorrelationPass correlations_;  // built when first asked for
    PassClock clock_;
    SampleTicket next_step_ticket_;
    std::uint64_t steps_that_measured_ = 0;
    StateCopy saved_;  // checkpoint()'s
};

}  // namespace murmur::gpu
