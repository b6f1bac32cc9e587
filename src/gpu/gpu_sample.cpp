// The order parameters on the GPU (GpuSimulation::measure and the sample taken in slices): the
// per-boid measures by reduction (flock_measure.comp per work group, measure_reduce.comp over
// the groups: two vec4 and a 33-bin histogram come back at any N, never the flock) and the group
// measures by union-find (groups.glsl: 32 bytes back, and 384 for the four largest groups). A
// sample first bins the state (the next step reuses that binning) and copies what its passes
// read, so that steps taken between its slices do not move what it measures.
#include "gpu/gpu_simulation.hpp"

#include "cpu/order_params.hpp"
#include "gpu/dispatch.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <utility>
#include <stdexcept>
#include <string>

namespace murmur::gpu {
namespace {

constexpr GLenum kSsbo = GL_SHADER_STORAGE_BUFFER;
constexpr std::uint32_t kAllFlocks = 0xFFFFFFFFu;  // slices.glsl's ALL_FLOCKS

// The stages of a sample, in order; a stage over the boids runs in slices of work groups.
enum Stage { kRoots, kWalk, kReduce, kGiant, kLinks, kSums, kSpin, kTotals, kDone };

// Boids of each stage's pass that cost about as much as one boid's neighbour walk (on llvmpipe
// at 2x10^5 boids the walk takes 27 ms, the sums and the spin 2-3 ms each since their work groups
// sum in registers (group_sums.comp); the second walk as much as the first where no group is
// large): advanceSample's budget is in walks. 0: a stage run whole (runWholeStage; the totals go
// over the roots alone, a few work groups where the groups are large).
constexpr double kBoidsPerWalk[kDone] = {0.0, 1.0, 0.0, 0.0, 1.0, 8.0, 8.0, 0.0};

// Work groups of the next slice of a stage with `left` to go, `affordable` paid for (at least
// one). A slice that is not the stage's last is whole dispatch rows: the padding groups of a last
// row not full would run the next slice's work groups too, counting their boids twice.
std::uint32_t sliceGroups(double affordable, std::uint32_t left) {
    std::uint32_t count = std::uint32_t(std::min(std::max(1.0, std::floor(affordable)), double(left)));
    const std::uint32_t row = dispatchRowLimit();
    if (count < left && count > row) count -= count % row;
    return count;
}

// A fixed-point sum as groups.glsl keeps it (words[0] low, words[1] high: 64-bit two's
// complement, FIXED_SCALE = 2^20 steps a unit), in double; and three of them side by side.
double fixedSum(const std::uint32_t* words) {
    return double(std::int64_t(std::uint64_t(words[1]) << 32 | words[0])) / 1048576.0;
}
glm::dvec3 fixedVec3(const std::uint32_t* words) { return {fixedSum(words), fixedSum(words + 2), fixedSum(words + 4)}; }

}  // namespace

// A sample in slices in progress ends first; its answer is still what takeSample() returns.
// Measured at once, of the live buffers (no copies: nothing steps before it ends).
OrderParams GpuSimulation::measure() {
    settleNextStepSample();
    finishSample();
    const OrderParams sliced = sample_.result;
    if (!ensemble_.empty()) throw std::logic_error("an ensemble is measured flock by flock (measureFlock)");
    startSample(params_, 0, n_, false);
    finishSample();
    const OrderParams now = sample_.result;
    sample_.result = sliced;
    return now;
}

void GpuSimulation::beginSample() {
    settleNextStepSample();
    if (!ensemble_.empty()) throw std::logic_error("an ensemble is measured flock by flock (measureFlock)");
    startSample(params_, 0, n_, true);
}

// An ensemble's flock k, now: its passes over its own slots, cells and parameter block, with the
// same work groups as alone, so the figures are its own alone's to the bit.
OrderParams GpuSimulation::measureFlock(std::uint32_t k) {
    const EnsembleFlock* f = ensembleFlock(k);
    if (!f) return measure();
    settleNextStepSample();
    startSample(f->params, k, f->boids, false);
    finishSample();
    return sample_.result;
}

// A sample of `boids` boids (flock `flock` of an ensemble, or the one flock) with these
// parameters; `copy`: of a copy of what its passes read, so that steps may come between its
// slices (else of the live buffers, finished before anything else runs).
// `in_step`: of the state a step has just binned, its walk done by that step's steer pass
// (measureWithNextStep), so it bins nothing itself.
void GpuSimulation::startSample(const Params& p, std::uint32_t flock, std::uint32_t boids, bool copy, bool in_step) {
    sample_.active = false;
    sample_.all = false;
    sample_.in_step = in_step;
    sample_.result = OrderParams{};
    sample_.result.boids = boids;
    sample_.flock = flock;
    sample_.copied = copy;
    sample_.folded = p;
    sample_.groups = groupsFor(boids, STEP_GROUP_SIZE);
    if (boids == 0) {
        sample_.stage = kDone;
        return;
    }
    if (!in_step) binUntimed();  // the sorted copy and cells of the current state (the next step's binning too)
    const MeasureRadii radii = measureRadiiOf(p);
    sample_.result.nn_radius = radii.nn;  // at most the cell edge, so the cells around hold it
    const bool groups_on_gpu = radii.group > 0.0f && radii.group <= p.largestRadius();
    sample_.group_radius = groups_on_gpu ? radii.group : 0.0f;
    if (radii.group > 0.0f && !groups_on_gpu)  // beyond the grid's reach: the CPU's walk over a download
        measureGroups(ensemble_.empty() ? download() : downloadFlock(flock), p, sample_.result);
    sample_.boids = boids;
    prepareSample(1);
    sample_.stage = groups_on_gpu ? kRoots : kWalk;
    sample_.next_group = 0;
    sample_.active = true;
}

std::vector<OrderParams> GpuSimulation::measureFlocks() {
    if (ensemble_.empty()) return {measure()};
    settleNextStepSample();
    finishSample();
    startAllFlocksSample();
    finishSample();
    sample_.all = false;
    return std::move(sample_.results);
}

// A sample of every flock of the ensemble, of the live buffers: each flock's radii are in the
// flock table (layOutEnsemble); a flock whose group radius is beyond the grid's reach has its
// groups walked on the CPU over its download, as alone.
void GpuSimulation::startAllFlocksSample(bool in_step) {
    Sample& s = sample_;
    s.active = false;
    s.all = true;
    s.in_step = in_step;
    s.flock = kAllFlocks;
    s.copied = false;
    s.groups = ensemble_groups_;
    s.boids = n_;
    s.results.assign(ensemble_.size(), OrderParams{});
    if (!in_step) binUntimed();
    bool any_on_gpu = false;
    for (std::size_t k = 0; k < ensemble_.size(); ++k) {
        const EnsembleFlock& f = ensemble_[k];
        const MeasureRadii radii = measureRadiiOf(f.params);
        s.results[k].boids = f.boids;
        s.results[k].nn_radius = radii.nn;
        any_on_gpu = any_on_gpu || f.groups_on_gpu;
        if (radii.group > 0.0f && !f.groups_on_gpu) measureGroups(downloadFlock(std::uint32_t(k)), f.params, s.results[k]);
    }
    s.group_radius = any_on_gpu ? 1.0f : 0.0f;  // the group stages run; each flock's radius is its own
    prepareSample(std::uint32_t(ensemble_.size()));
    s.stage = any_on_gpu ? kRoots : kWalk;
    s.next_group = 0;
    s.active = true;
}

// The passes' outputs zeroed (a histogram and eight totals a flock) and, for a sample in slices,
// what they read copied on the GPU (36 bytes a boid, the cell starts and the parameter block).
void GpuSimulation::prepareSample(std::uint32_t flocks) {
    Sample& s = sample_;
    const std::size_t vec_bytes = std::size_t(n_) * 16, cell_bytes = (std::size_t(cell_total_) + 1) * 4;
    const std::size_t sums_bytes = std::size_t(s.groups + flocks) * 32, histogram_bytes = std::size_t(flocks) * (NN_BINS + 1) * 4;
    if (s.sums.size() < sums_bytes) s.sums = gl::Buffer(sums_bytes);
    if (s.histogram.size() < histogram_bytes) s.histogram = gl::Buffer(histogram_bytes);
    if (s.totals.size() < std::size_t(flocks) * 32) s.totals = gl::Buffer(std::size_t(flocks) * 32);
    if (s.group_radius > 0.0f && s.parent.size() < std::size_t(n_) * 4) {  // by slot of the whole state
        s.parent = gl::Buffer(std::size_t(n_) * 4);
        s.group_sums = gl::Buffer(std::size_t(n_) * 80);  // SUM_STRIDE words a slot (groups.glsl)
        s.group_list = gl::Buffer(std::size_t(n_) * 4);
        s.roots = gl::Buffer((std::size_t(n_) + 4) * 4);  // the dispatch's counts, the count, then a root a slot
    }
    const std::size_t largest_bytes = std::size_t(flocks) * kLargestGroups * GROUP_FIGURE_WORDS * 4;
    if (s.group_radius > 0.0f && s.largest.size() < largest_bytes) s.largest = gl::Buffer(largest_bytes);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // after the last sample's passes wrote them
    s.histogram.clearToZero();
    s.totals.clearToZero();
    if (s.group_radius > 0.0f) {
        s.group_sums.clearToZero();
        const std::uint32_t no_roots[4] = {0, 1, 1, 0};  // group_totals.comp's dispatch (x, y, z), the roots listed
        s.roots.upload(no_roots, sizeof no_roots);
    }
    s.cells = cell_total_;
    if (s.in_step) {  // the steer pass writes the nearest distances, and new counts over the ones measured
        if (s.nearest.size() < std::size_t(n_) * 4) s.nearest = gl::Buffer(std::size_t(n_) * 4);
        if (s.neighbours.size() < std::size_t(n_) * 4) s.neighbours = gl::Buffer(std::size_t(n_) * 4);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        s.neighbours.copyFrom(neighbours_, std::size_t(n_) * 4);
    }
    if (!s.copied) return;
    if (s.pos.size() < vec_bytes) {
        s.pos = gl::Buffer(vec_bytes);
        s.vel = gl::Buffer(vec_bytes);
        s.neighbours = gl::Buffer(std::size_t(n_) * 4);
        s.pos_tex = gl::BufferTexture(s.pos, GL_RGBA32UI);
        s.vel_tex = gl::BufferTexture(s.vel, GL_RGBA32UI);
    }
    if (s.cell_start.size() < cell_bytes) {
        s.cell_start = gl::Buffer(cell_bytes);
        s.cell_start_tex = gl::BufferTexture(s.cell_start, GL_R32UI);
    }
    if (!s.params) s.params = gl::Buffer(sizeof(SimParams));
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the copies read what the passes wrote
    s.pos.copyFrom(sorted_pos_, vec_bytes);
    s.vel.copyFrom(sorted_vel_, vec_bytes);
    s.neighbours.copyFrom(neighbours_, std::size_t(n_) * 4);
    s.cell_start.copyFrom(cell_start_, cell_bytes);
    s.params.copyFrom(params_ubo_, sizeof(SimParams));
}

// The sample's buffers at the slots its passes read and write (a step between two slices binds
// the state's own).
void GpuSimulation::bindSample() const {
    const Sample& s = sample_;
    if (s.copied) {
        s.params.bindBase(GL_UNIFORM_BUFFER, BIND_PARAMS);
        s.pos_tex.bindUnit(TEX_SORTED_POS);
        s.vel_tex.bindUnit(TEX_SORTED_VEL);
        s.cell_start_tex.bindUnit(TEX_CELL_START);
        s.neighbours.bindBase(kSsbo, BIND_NEIGHBOURS);
    } else {
        bindState();
        if (s.in_step) {
            s.neighbours.bindBase(kSsbo, BIND_NEIGHBOURS);
            s.nearest.bindBase(kSsbo, BIND_MEASURE_NEAREST);
        }
    }
    s.sums.bindBase(kSsbo, BIND_MEASURE_SUMS);
    s.histogram.bindBase(kSsbo, BIND_MEASURE_HIST);
    if (s.group_radius > 0.0f) {
        s.parent.bindBase(kSsbo, BIND_GROUP_PARENT);
        s.group_sums.bindBase(kSsbo, BIND_GROUP_SUMS);
        s.group_list.bindBase(kSsbo, BIND_GROUP_LIST);
        s.largest.bindBase(kSsbo, BIND_GROUP_LARGEST);
        s.roots.bindBase(kSsbo, BIND_GROUP_ROOTS);
    }
    s.totals.bindBase(kSsbo, BIND_GROUP_TOTALS);
}

bool GpuSimulation::advanceSample(std::uint64_t boids) {
    if (!sample_.active) return true;
    bindSample();
    double budget = double(std::max<std::uint64_t>(boids, 1));
    while (budget > 0.0 && sample_.stage != kDone)
        if (!runSampleStage(budget)) break;
    bindState();  // what the next step expects at the shared slots
    if (sample_.stage == kDone) sample_.active = false;
    return !sample_.active;
}

// The stages that are not slices over the boids, whole: the roots (a clear); one work group a
// flock (in rows past MAX_DISPATCH_X), the walk's reduction and the choice of a large tree; the
// totals over the roots listed (runTotals).
void GpuSimulation::runWholeStage() {
    Sample& s = sample_;
    switch (s.stage) {
        case kRoots:  // every slot a root (groups.glsl), by a clear: no pass
            glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // after the last sample's passes wrote the forest
            s.parent.clearTo(GROUP_ROOT);
            s.stage = kWalk;
            return;
        case kReduce:
            programs_->measure_reduce.use();
            glUniform1ui(programs_->measure_reduce.uniform("u_partials"), s.groups);
            glUniform1ui(programs_->measure_reduce.uniform("u_flock"), s.flock);  // no such uniform outside an ensemble
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            dispatchGroups(sampleFlocks());
            readWalkSums();
            s.stage = s.group_radius > 0.0f ? kGiant : kDone;
            s.next_group = 0;
            return;
        case kGiant:
            programs_->group_giant.use();
            glUniform1ui(programs_->group_giant.uniform("u_flock"), s.flock);  // no such uniform outside an ensemble
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            dispatchGroups(sampleFlocks());
            s.stage = kLinks;
            return;
        case kTotals: runTotals(); return;
        default: return;
    }
}

// The totals over the roots group_sums.comp listed (dispatched indirectly: as many work groups
// as they need), then each flock's largest groups (a work group a flock), read back.
void GpuSimulation::runTotals() {
    Sample& s = sample_;
    gl::Program& totals = programs_->group_totals;
    totals.use();
    glUniform1ui(totals.uniform("u_flock"), s.flock);  // no such uniform outside an ensemble
    glUniform1ui(totals.uniform("u_min_group"), kMinGroupSize);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    dispatchIndirect(s.roots.id(), 0);
    programs_->group_largest.use();
    glUniform1ui(programs_->group_largest.uniform("u_flock"), s.flock);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(sampleFlocks());  // one work group a flock, in rows past MAX_DISPATCH_X
    readGroupTotals();
    s.stage = kDone;
}

// Runs the current stage for as many work groups as `budget` (in boids' walks) pays for, at
// least one (a whole stage costs nothing); false when the stage is not finished.
bool GpuSimulation::runSampleStage(double& budget) {
    Sample& s = sample_;
    const std::uint32_t groups = s.groups;
    gl::Program* program = nullptr;
    switch (s.stage) {
        case kWalk: program = s.in_step ? &programs_->measure_stored : &programs_->measure; break;
        case kLinks: program = &programs_->group_links; break;
        case kSums: program = &programs_->group_sums; break;
        case kSpin: program = &programs_->group_spin; break;
        default: runWholeStage(); return true;
    }
    program->use();
    glUniform1ui(program->uniform("u_flock"), s.flock);  // no such uniform outside an ensemble: ignored
    if (s.stage == kWalk || s.stage == kLinks) {
        glUniform1f(program->uniform("u_nn_radius"), s.result.nn_radius);
        glUniform1f(program->uniform("u_group_radius"), s.group_radius);
    }
    if (s.stage == kSums) glUniform1ui(program->uniform("u_root_group_limit"), dispatchRowLimit());
    const double per_group = double(STEP_GROUP_SIZE) / kBoidsPerWalk[s.stage];
    const std::uint32_t count = sliceGroups(budget / per_group, groups - s.next_group);
    glUniform1ui(program->uniform("u_first_group"), s.next_group);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(count);
    budget -= double(count) * per_group;
    s.next_group += count;
    if (s.next_group < groups) return false;
    s.next_group = 0;
    s.stage = s.stage == kWalk ? kReduce : s.stage + 1;
    return true;
}

void GpuSimulation::readWalkSums() {
    const std::uint32_t flocks = sampleFlocks();
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const auto sums = sample_.sums.read<glm::vec4>(2 * std::size_t(flocks), std::size_t(sample_.groups) * 2);  // the totals only
    const auto histograms = sample_.histogram.read<std::uint32_t>(std::size_t(flocks) * (NN_BINS + 1));
    for (std::uint32_t f = 0; f < flocks; ++f) {
        OrderParams& o = sampleResult(f);
        const glm::dvec4 heading(sums[2 * f]), other(sums[2 * f + 1]);
        const double n = double(sampleBoids(f));
        // At most 1, as the CPU's is: float sums of unit vectors may come out a few ulps long.
        o.polarization = heading.w > 0.0 ? std::min(1.0, glm::length(glm::dvec3(heading)) / heading.w) : 0.0;
        o.mean_speed = other.x / n;
        o.mean_neighbours = other.z / n;
        if (o.nn_radius > 0.0f) {
            o.nn_mean = other.y / n;
            const auto first = histograms.begin() + std::ptrdiff_t(f) * (NN_BINS + 1);
            std::copy(first, first + (NN_BINS + 1), o.nn_histogram.begin());
            o.nn_median = histogramMedian(o.nn_histogram, o.nn_radius);
        }
    }
}

void GpuSimulation::readGroupTotals() {
    const std::uint32_t flocks = sampleFlocks();
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    const auto all_totals = sample_.totals.read<std::uint32_t>(std::size_t(flocks) * 8);
    for (std::uint32_t f = 0; f < flocks; ++f) {
        if (sample_.all && !ensemble_[f].groups_on_gpu) continue;  // walked on the CPU, or not measured
        OrderParams& o = sampleResult(f);
        const std::uint32_t* totals = all_totals.data() + std::size_t(f) * 8;
        const double n = double(sampleBoids(f));
        o.groups = totals[0];
        o.grouped_share = double(totals[1]) / n;
        o.largest_group_share = double(totals[2]) / n;
        if (totals[1] > 0) {
            o.group_polarization = std::min(1.0, fixedSum(totals + 4) / double(totals[1]));
            o.milling = std::min(1.0, fixedSum(totals + 6) / double(totals[1]));
        }
    }
    readLargestGroups(flocks);
}

// group_largest.comp's entries: a group's figures from its root's position and fixed-point sums.
void GpuSimulation::readLargestGroups(std::uint32_t flocks) {
    const std::size_t words = std::size_t(kLargestGroups) * GROUP_FIGURE_WORDS;
    const auto all = sample_.largest.read<std::uint32_t>(std::size_t(flocks) * words);
    for (std::uint32_t f = 0; f < flocks; ++f) {
        if (sample_.all && !ensemble_[f].groups_on_gpu) continue;
        const Params& p = sample_.all ? ensemble_[f].params : sample_.folded;
        for (std::uint32_t k = 0; k < kLargestGroups; ++k) {
            const std::uint32_t* w = all.data() + f * words + k * GROUP_FIGURE_WORDS;
            GroupFigures& g = sampleResult(f).largest_groups[k];
            g = GroupFigures{};
            if (w[0] == 0) continue;
            const double n = double(w[0]);
            glm::vec3 root;
            std::memcpy(&root, w + 2, sizeof root);
            g.boids = w[0];
            g.first_id = w[1];
            g.centre = foldCentre(glm::dvec3(root) + fixedVec3(w + 6) / n, p);
            g.polarization = std::min(1.0, glm::length(fixedVec3(w + 12)) / n);  // float terms: at most 1, as on the CPU
            g.milling = std::min(1.0, glm::length(fixedVec3(w + 18)) / n);
        }
    }
}

OrderParams GpuSimulation::takeSample() {
    settleNextStepSample();
    finishSample();
    return sample_.result;
}

void GpuSimulation::measureWithNextStep() {
    settleNextStepSample();
    finishSample();
    if (params_.update != UpdateOrder::Sequential) buildMeasuredSteer();  // throws before anything changes
    next_step_sample_ = ensemble_.empty() ? NextStepSample::OneFlock : NextStepSample::AllFlocks;
}

void GpuSimulation::buildMeasuredSteer() {
    if (programs_->steer_measured && programs_->measure_stored) return;
    const auto with = [&](const char* define) {
        auto defines = variantDefines(variant_params_, !ensemble_.empty());
        defines.push_back({define, "1"});
        return defines;
    };
    std::vector<gl::Program> built = gl::buildPrograms({gl::computeSource(shaders_, "flock_steer.comp", with("MEASURE_IN_STEER")),
                                                         gl::computeSource(shaders_, "flock_measure.comp", with("NEAREST_STORED"))});
    programs_->steer_measured = std::move(built[0]);
    programs_->measure_stored = std::move(built[1]);
}

std::vector<OrderParams> GpuSimulation::takeFlockSamples() {
    if (ensemble_.empty()) return {takeSample()};
    settleNextStepSample();
    return std::move(next_step_results_);
}

// Whether the next step can walk for a sample: not in the sequential order (no grid) nor when
// its steer pass runs in slices (setInterruptInSlices).
bool GpuSimulation::canMeasureInStep() const {
    return n_ > 0 && params_.update != UpdateOrder::Sequential && !(interrupt_ && candidatePairsPerStep(params_) >= slice_min_pairs_);
}

// A sample asked for with the next step, taken now of the current state (no step came, or the
// step cannot walk for it): the same figures, by the sample's own walk.
void GpuSimulation::settleNextStepSample() {
    const NextStepSample which = std::exchange(next_step_sample_, NextStepSample::None);
    if (which == NextStepSample::None) return;
    finishSample();
    if (which == NextStepSample::OneFlock) startSample(params_, 0, n_, false);
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
    else startSample(params_, 0, n_, false, true);
    if (sample_.stage == kRoots) {
        bindSample();
        double budget = std::numeric_limits<double>::infinity();
        runSampleStage(budget);
        bindState();
    }
}

// After the step's binning (which binds its own slots): the steer program that also walks for the
// sample, bound with the radii, the forest and the nearest distances' buffer. The caller
// dispatches it over every boid.
gl::Program& GpuSimulation::measuredSteer() {
    ++steps_that_measured_;
    bindState();
    const Sample& s = sample_;
    if (s.group_radius > 0.0f) s.parent.bindBase(kSsbo, BIND_GROUP_PARENT);
    s.nearest.bindBase(kSsbo, BIND_MEASURE_NEAREST);
    gl::Program& steer = programs_->steer_measured;
    steer.use();
    glUniform1f(steer.uniform("u_nn_radius"), s.result.nn_radius);  // one flock's (an ensemble's are in the table)
    glUniform1f(steer.uniform("u_group_radius"), s.group_radius);
    glUniform1ui(steer.uniform("u_flock"), kAllFlocks);  // no such uniform outside an ensemble
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the sample's set-up written before the walk
    return steer;
}

// The sampled step's steer pass has walked (or a sample asked for with the next step was started
// without one): the sample's other passes, over the sorted copy of the state measured (the next
// binning overwrites it), now; an ensemble's results kept for takeFlockSamples().
void GpuSimulation::finishMeasuredSample() {
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    finishSample();
    if (!sample_.all) return;
    sample_.all = false;
    next_step_results_ = std::move(sample_.results);
}

void GpuSimulation::finishSample() {
    while (sample_.active && !advanceSample(~std::uint64_t(0))) {
    }
}

}  // namespace murmur::gpu
