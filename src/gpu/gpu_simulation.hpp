// The GPU pipeline: boid state in shader storage buffers, binned into a uniform grid by a
// counting sort (scan, scatter, order; each boid counted into its cell by the steer pass that
// wrote it, or by grid_count.comp after an upload or a change) and stepped by flock_steer.comp. Implements the same
// Simulation interface as the CPU reference; needs a current GL 4.5 context; owns no window.
#pragma once

#include "gl/buffer.hpp"
#include "gl/buffer_texture.hpp"
#include "gl/program.hpp"
#include "gl/query.hpp"
#include "gpu/grid_scan.hpp"
#include "gpu/layout.hpp"
#include "model/density.hpp"
#include "model/grid_spec.hpp"
#include "model/simulation.hpp"

#include <functional>
#include <array>
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace murmur::gpu {

// The flock does not fit the GPU: the message names N and the limit.
class CapacityError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The GL implementation lacks a limit the passes need: the message names the limit, what this
// driver offers and what murmur needs.
class LimitError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Checks the limits the passes use for this variant (storage blocks per compute shader, bindings,
// texture units, work group size and invocations, shared memory); throws LimitError.
void checkGlLimits(const Params& params);

struct Capacity {
    std::uint64_t max_block_bytes = 0;      // GL_MAX_SHADER_STORAGE_BLOCK_SIZE
    std::uint64_t max_texels = 0;           // GL_MAX_TEXTURE_BUFFER_SIZE (sorted_reads.glsl reads through them)
    std::uint64_t available_bytes = 0;      // free video memory where the driver says; 0 = unknown (a warning only)
    std::uint64_t max_boids = 0;            // what the storage block size and buffer textures allow
    std::uint64_t fixed_bytes = 0;          // the grid's buffers, whatever the count
};

// Bytes of GPU storage per boid for these parameters: state and its sorted copy, cell, rank and
// neighbour count (76); perch times and their sorted copy only when perching (8); the stored
// steering and its sorted copy only in the styles that keep it, decarpentier and gloss (32).
std::uint64_t bytesPerBoid(const Params& p);
bool keepsPerchTimes(const Params& p);
bool keepsSteering(const Params& p);
bool keepsSlotOfId(const Params& p);  // the sequential order's table of slots by id

// The shader variant's defines for these parameters (one flock, or an ensemble's flocks), and
// them as one string: flocks of an ensemble must give the same, obstacles aside.
std::vector<gl::ShaderDefine> variantDefines(const Params& p, bool ensemble = false);
std::string variantOf(const Params& p, bool ensemble = false);
// What an ensemble's shaders are built for: flock 0's parameters, with the first obstacles of any
// flock when flock 0 has none, so that OBSTACLES is on if some flock has obstacles (a flock
// without them loops over none). Only the variant is taken from it.
Params ensembleVariantParams(const std::vector<Params>& flocks);

// The sequential order steps its boids in runs of ids, one dispatch each, so that no invocation
// loops more than kLoopBudget times: llvmpipe ends every loop of an invocation silently after
// 65,535 iterations in all (LP_MAX_TGSI_LOOP_ITERATIONS), and short dispatches keep clear of a
// real GPU's watchdog too. The ids per dispatch for this flock (at least 1).
inline constexpr std::uint64_t kLoopBudget = 60000;
std::uint32_t sequentialRun(const Params& p, std::uint32_t boids);
// The sweeps over the candidates a boid's gather makes (flock_gather.glsl): two with a neighbour
// cap or a style's own search (the first finds, the second sums), else one.
std::uint32_t neighbourSweeps(const Params& p);

Capacity queryCapacity(const GridSpec& grid);
// Why these parameters do not fit a GPU of this capacity (naming N, the limit it meets, the grid's
// cells where those are the problem, and the valid range of N), or nothing if they do.
std::optional<std::string> capacityProblem(const Params& params, const Capacity& cap);
// Throws CapacityError with capacityProblem's message if the flock does not fit this GPU.
void checkCapacity(const Params& params);
// Free video memory is a driver's guess, not a limit: a flock larger than it gets a warning (where
// the driver reports it: NVX_gpu_memory_info), not a refusal.
std::optional<std::string> memoryWarning(const Params& params);

class GpuSimulation final : public Simulation, public Drawable {
public:
    explicit GpuSimulation(gl::ShaderLibrary shaders = gl::ShaderLibrary{});

    void upload(const Flock& flock, const Params& params) override;
    void setParams(const Params& params) override;
    void step(int steps = 1) override;
    std::uint32_t stepCount() const override { return step_count_; }
    void setStepCount(std::uint32_t steps) override { step_count_ = steps; }
    Flock download() override;
    std::vector<std::uint32_t> neighbourCounts() override;
    // One pass (state_by_id.comp) places the state by id on the GPU; each array then comes back
    // in one read of 12 bytes a boid into the caller's memory. An ensemble downloads and sorts.
    void readXyzById(float* positions, float* velocities) override;
    OrderParams measure() override;
    void beginSample() override;
    bool advanceSample(std::uint64_t boids) override;
    OrderParams takeSample() override;
    // One flock, or every flock of an ensemble (then takeFlockSamples() after the step): the
    // next step's steer pass also walks for the sample (flock_steer.comp with MEASURE_IN_STEER),
    // and the sample's other passes run after it, before anything else. A step that cannot
    // (the sequential order, a steer pass in slices) takes the sample first, by its own walk, as
    // do upload, setParams, the ensemble's calls and reloadShaders when they come first. The two
    // programs it needs are built here, on the first call for a variant (throws ShaderError, with
    // nothing changed, if they do not build).
    void measureWithNextStep() override;
    // Small flocks (an ensemble's flocks all such) step many steps a dispatch in work groups
    // (gpu_group_steps.cpp), to the same bits as step by step: on by default; off, every step
    // takes the binning and steer passes (tests and benchmarks compare the two). A step's ordered
    // flock is kept in shared memory or in images: Auto takes images on a software renderer
    // (llvmpipe loads shared memory lane by lane), shared memory on a GPU.
    enum class GroupMemory { Auto, Shared, Images };
    void enableStepsInGroups(bool on, GroupMemory memory = GroupMemory::Auto);
    std::uint64_t stepsInGroups() const { return steps_in_groups_taken_; }  // steps taken that way so far
    // Steps whose steer pass walked for a sample (tests: the path was taken).
    std::uint64_t stepsThatMeasured() const { return steps_that_measured_; }
    std::string name() const override { return "gpu"; }
    // On the GPU: copies of the state buffers (gpu_checkpoint.cpp), and state_finite.comp's flag.
    void checkpoint() override;
    void rollback() override;
    bool allFinite() override;

    // Slow steps stay interruptible (the window's Esc and close button): with `check` set, a
    // step whose estimated cost (candidatePairsPerStep) is at least `min_pairs` runs its steer
    // pass in slices of `slice_groups` work groups, waiting for each and calling `check` between
    // them. When it returns true the stepping stops there, the step unfinished: for quitting.
    using Interrupt = std::function<bool()>;
    void setInterruptInSlices(Interrupt check, std::uint32_t slice_groups, double min_pairs);
    void setInterrupt(Interrupt check) override { setInterruptInSlices(std::move(check), 32, kSlowStepPairs); }
    bool interrupted() const override { return interrupted_; }

    // Rebuilds every program from `shaders`; on failure keeps the current programs and throws.
    void reloadShaders(gl::ShaderLibrary shaders);

    // Per-pass GPU timings (count, scan, scatter, steer), when enabled.
    void enableTiming(bool on);
    const gl::PassTimer* timer() const { return timer_.get(); }
    gl::PassTimer* timer() { return timer_.get(); }
    // Times the next step pass by pass on the CPU's clock, with glFinish after each pass: right on
    // any driver (timer queries are not everywhere: llvmpipe stamps them when it flushes its queue,
    // not when the work runs, so in a window one pass can be charged for another's), at the cost
    // of stalling that one step. The window asks for one such step per stats sample.
    void profileNextStep() override { profile_next_ = true; }
    // The last profiled step's milliseconds per pass (count, scan, scatter, steer); empty before.
    const std::vector<double>& profiledMs() const { return profiled_ms_; }
    std::vector<std::pair<std::string, double>> profiledPasses() const override;

    // Binning alone (count if needed, scan, scatter, order) of the current state, for tests of the sort.
    struct Binning {
        std::vector<std::uint32_t> count, start, sorted_ids;  // start: one per cell, then the total
    };
    Binning binOnly();
    // Exclusive scan of `values` with this pipeline's scan passes, then the total (size + 1
    // values), for tests.
    std::vector<std::uint32_t> scan(const std::vector<std::uint32_t>& values);

    // The storage buffers (for drawing straight from them): positions and velocities, vec4 each.
    const gl::Buffer& positions() const { return pos_; }
    const gl::Buffer& velocities() const { return vel_; }
    const gl::Buffer& neighbours() const { return neighbours_; }  // per slot, same order as positions
    const gl::Buffer& perchTimes() const { return perch_; }       // per slot: seconds left on the ground
    const gl::Buffer& steering() const { return steer_; }         // per slot: decarpentier's steering
    std::uint32_t boids() const { return n_; }

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
    std::uint32_t flockCount() const { return ensemble_.empty() ? 1u : std::uint32_t(ensemble_.size()); }
    Flock downloadFlock(std::uint32_t k);
    OrderParams measureFlock(std::uint32_t k);  // flock k's order parameters (measure() for one flock)
    // Every flock's order parameters in one set of passes over the whole ensemble (each flock in
    // its own work groups, so flock k's figures are measureFlock(k)'s to the bit): one binning,
    // nine dispatches and four reads (2 vec4, the histograms, the group totals and the four
    // largest groups a flock) for all K. One flock: {measure()}.
    std::vector<OrderParams> measureFlocks();
    // measureFlocks() of the state at measureWithNextStep(), after the step (see there); once
    // (the results are moved out).
    std::vector<OrderParams> takeFlockSamples();
    // New parameters for every flock of the ensemble (as setParams does for one: the same sizes,
    // the same variant, obstacles aside; a flock's grid may change, and the cells are laid out
    // again). Obstacles coming into or leaving the ensemble rebuild the programs.
    void setEnsembleParams(const std::vector<Params>& params);

private:
    struct Programs {
        gl::Program count, scatter, order, order_large, steer, pick, measure, measure_reduce, neighbour_ids, state_by_id;
        gl::Program group_giant, group_links, group_sums, group_spin, group_totals, group_largest, under, finite;
        GridScan scan;
        // A sampled step's two (measureWithNextStep): built when first asked for.
        gl::Program steer_measured, measure_stored;
        gl::Program steps_in_groups;  // flock_steps.comp: built when first used, for this size and memory
        std::uint32_t steps_group_size = 0;
        bool steps_shared = false;
    };
    Programs buildPrograms(const gl::ShaderLibrary& lib, const Params& p) const;
    void applyParams(const Params& params);
    void buildVariant(const Params& params);
    static void unbindDeletedPrograms();
    void allocateCells(std::uint32_t cells);
    void uploadState(const Flock& flock);
    Flock downloadSlots(std::uint32_t first, std::uint32_t count);
    void uploadStepEvents();  // the step index into each flock's block
    void layOutEnsemble(const std::vector<Params>& params);  // grids, cells, blocks and table of the flocks
    void allocateOptionalState(const Params& params);
    void bin();
    void orderCells();
    void countCells();  // grid_count.comp: bins a state the steer pass did not write
    void binUntimed();  // binning outside the step (measure, binOnly): not in the pass timings
    void bindState() const;
    void viewSortedState();  // the buffer textures over the current buffers
    void stepSequential();
    struct GroupSteps {
        int steps = 0;  // 0: the next step takes the passes
        std::uint32_t group_size = 0;
        bool shared = false;  // the ordered flock in shared memory, else in images
    };
    GroupSteps groupStepsNow(int wanted) const;
    gl::Program buildGroupSteps(const gl::ShaderLibrary& lib, std::uint32_t group_size, bool shared) const;
    void stepInGroups(GroupSteps how);
    bool steps_in_groups_ = true;
    GroupMemory group_memory_ = GroupMemory::Auto;
    bool software_renderer_ = false;  // the context's renderer runs shaders on the CPU (Auto: images)
    std::uint64_t steps_in_groups_taken_ = 0;
    // A sample in progress (gpu_sample.cpp): what it reads, copied from the state when it began
    // (the sorted copy, cell starts, neighbour counts and the parameter block), its passes' outputs,
    // and how far it has gone. Passes (stage): the groups' roots, the walk, the walk's reduction,
    // the groups' largest root so far and the links outside it, the groups' sums, spin and totals;
    // a stage runs in slices of work groups.
    struct Sample {
        bool active = false;
        bool copied = true;        // of copies (a sample in slices), else of the live buffers
        bool in_step = false;      // its walk done by a step's steer pass (measureWithNextStep): nearest read from `nearest`
        bool all = false;          // every flock of an ensemble at once (measureFlocks): results
        std::uint32_t flock = 0;   // an ensemble's flock being measured (all: ALL_FLOCKS)
        std::uint32_t groups = 0;  // work groups of a pass over the boids measured
        std::vector<OrderParams> results;
        OrderParams result;
        float group_radius = 0.0f;  // 0: the groups are not measured on the GPU
        int stage = 0;
        std::uint32_t next_group = 0;  // the stage's first work group not yet run
        std::uint32_t boids = 0, cells = 0;
        gl::Buffer params, pos, vel, cell_start, neighbours;
        gl::BufferTexture pos_tex, vel_tex, cell_start_tex;
        gl::Buffer sums, histogram, parent, group_sums, totals, group_list, largest, roots;
        gl::Buffer nearest;  // a sampled step's squared nearest distance per slot
        Params folded;  // the one flock's world and bounds when it began (its groups' centres fold by them)
    };
    void startSample(const Params& p, std::uint32_t flock, std::uint32_t boids, bool copy, bool in_step = false);
    void startAllFlocksSample(bool in_step = false);
    // A sample asked for with the next step (measureWithNextStep): none, of the one flock, or of
    // every flock of the ensemble.
    enum class NextStepSample { None, OneFlock, AllFlocks };
    NextStepSample next_step_sample_ = NextStepSample::None;
    bool canMeasureInStep() const;
    void settleNextStepSample();  // takes a sample still waiting for a step now, without one
    void buildMeasuredSteer();          // the two programs of a sampled step, if not built yet
    void beginMeasuredSample();         // before the step's binning: the sample's set-up and roots
    gl::Program& measuredSteer();       // after it: the steer program that walks too, bound
    void finishMeasuredSample();        // the sample's passes after that steer pass
    std::uint64_t steps_that_measured_ = 0;
    std::vector<OrderParams> next_step_results_;  // an ensemble's sample taken with a step
    void prepareSample(std::uint32_t flocks);
    OrderParams& sampleResult(std::uint32_t f) { return sample_.all ? sample_.results[f] : sample_.result; }
    void bindSample() const;
    bool runSampleStage(double& budget);
    void runWholeStage();
    void runTotals();
    void readWalkSums();
    void readGroupTotals();
    void readLargestGroups(std::uint32_t flocks);
    std::uint32_t sampleFlocks() const { return sample_.all ? std::uint32_t(ensemble_.size()) : 1u; }
    std::uint32_t sampleBoids(std::uint32_t f) const { return sample_.all ? ensemble_[f].boids : sample_.boids; }
    void finishSample();  // runs what is left of a sample in progress (before the state changes shape)

    gl::ShaderLibrary shaders_;
    Params params_;
    GridSpec grid_;
    std::uint32_t n_ = 0;
    std::string variant_;  // the defines the programs were built with
    Params variant_params_;  // the parameters they were built for (ensembleVariantParams in an ensemble)
    std::optional<Programs> programs_;
    gl::Buffer params_ubo_, pos_, vel_, sorted_pos_, sorted_vel_, boid_bin_, slot_of_id_, neighbours_;
    gl::Buffer neighbours_by_id_;  // neighbour_ids.comp's output, made on first use
    gl::Buffer pos_by_id_, vel_by_id_;  // state_by_id.comp's output, made on first use
    gl::Buffer large_cells_;       // grid_order.comp's list of large cells, an indirect dispatch's arguments first
    gl::Buffer cell_start_, picked_, perch_, sorted_perch_, steer_, sorted_steer_;
    // Cell counts, double-buffered: the step reads counts[current_] (of the state it starts from)
    // while its steer pass counts the state it writes into the other, which the scan zeroed.
    std::array<gl::Buffer, 2> counts_;
    // What the steer and measure passes read, as buffer textures over the buffers above
    // (sorted_reads.glsl): made whenever a buffer is, bound to the TEX_* units with the state.
    gl::BufferTexture sorted_pos_tex_, sorted_vel_tex_, sorted_perch_tex_, cell_start_tex_;
    gl::BufferTexture boid_bin_tex_;  // over boid_bin_, RG32UI: flock_steps.comp's keys (an image)
    int current_ = 0;
    bool binned_ = false;  // counts[current_] and boid_bin_ describe pos_ (else bin() counts first)
    bool sorted_fresh_ = false;  // the sorted copy and cell starts describe pos_ (a sample binned it: the step need not)
    Sample sample_;
    // An ensemble's flocks (empty: one flock, params_ and grid_), their blocks and the table
    // (common.glsl's FlockTable); cell_total_ counts every flock's cells.
    struct EnsembleFlock {
        Params params;
        GridSpec grid;
        std::uint32_t first_slot = 0, first_cell = 0, boids = 0;
        std::uint32_t first_group = 0;  // in a measure pass over all flocks (measureFlocks)
        bool groups_on_gpu = false;     // its group radius within the grid's reach
    };
    std::uint32_t ensemble_groups_ = 0;  // work groups of a measure pass over all flocks
    std::vector<EnsembleFlock> ensemble_;
    const EnsembleFlock* ensembleFlock(std::uint32_t k) const;
    gl::Buffer flock_params_, flock_table_;
    std::uint32_t cell_total_ = 0;
    std::uint32_t step_count_ = 0;  // steps since upload (perch lengths are drawn from it)
    struct Checkpoint {
        gl::Buffer pos, vel, perch, steer, neighbours;  // neighbours: the last step's counts, by slot as pos
        std::uint32_t step_count = 0;
    };
    Checkpoint saved_;  // checkpoint()'s
    Interrupt interrupt_;
    std::uint32_t slice_groups_ = 32;
    double slice_min_pairs_ = 1e8;
    bool interrupted_ = false;
    bool steerInSlices(std::uint32_t groups);  // false: interrupted
    std::unique_ptr<gl::PassTimer> timer_;
    void passDone(int pass);  // after pass `pass` (0 count .. 3 steer): the timer's mark and the profile's
    bool profile_next_ = false, profiling_ = false;
    std::chrono::steady_clock::time_point profile_since_;
    std::vector<double> profiled_ms_, profiling_ms_;
};

}  // namespace murmur::gpu
