#include "gpu/sampler.hpp"

#include "cpu/order_params.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/layout.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace murmur::gpu {
namespace {


constexpr GLenum kSsbo = GL_SHADER_STORAGE_BUFFER;
constexpr std::uint32_t kAllFlocks = 0xFFFFFFFFu;  // slices.glsl's ALL_FLOCKS

// The stages of a sample, in order; a stage over the boids runs in slices of work groups.
enum Stage { kRoots, kWalk, kReduce, kGiant, kLinks, kSums, kSpin, kTotals, kDone };

// Boids of each stage's pass that cost about as much as one boid's neighbour walk (on llvmpipe
// at 2x10^5 boids the walk takes 27 ms, the sums and the spin 2-3 ms each since their work groups
// sum in registers (group_sums.comp); the second walk as much as the first where no group is
// large): advanceSamples' budget is in walks. 0: a stage run whole (runWholeStage; the totals go
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

}  // namespace

std::vector<std::string> Sampler::shaderFiles() {
    return {"flock_measure.comp", "measure_reduce.comp", "group_giant.comp", "group_links.comp",
            "group_sums.comp",    "group_spin.comp",     "group_totals.comp", "group_largest.comp"};
}

void Sampler::setPrograms(std::span<gl::Program> built) {
    measure_ = std::move(built[0]);
    measure_reduce_ = std::move(built[1]);
    group_giant_ = std::move(built[2]);
    group_links_ = std::move(built[3]);
    group_sums_ = std::move(built[4]);
    group_spin_ = std::move(built[5]);
    group_totals_ = std::move(built[6]);
    group_largest_ = std::move(built[7]);
    measure_stored_ = gl::Program{};
}

// The state is binned (the caller's), so the sample reads its sorted copy and cells (the next
// step's binning too).
void Sampler::start(FlockState& st, const Params& p, std::uint32_t flock, std::uint32_t boids, bool copy, std::uint64_t ticket,
                    bool in_step) {
    sample_.active = false;
    sample_.ticket = ticket;
    sample_.all = false;
    sample_.in_step = in_step;
    sample_.result = OrderParams{};
    sample_.result.boids = boids;
    sample_.flock = flock;
    sample_.copied = copy;
    sample_.folded = p;
    sample_.groups = groupsFor(boids, STEP_GROUP_SIZE);
    sample_.group_radius = 0.0f;
    sample_.boids = boids;
    if (boids == 0) {
        sample_.stage = kDone;
        land(st);  // nothing to copy: lands at once
        return;
    }
    const MeasureRadii radii = measureRadiiOf(p);
    sample_.result.nn_radius = radii.nn;  // at most the cell edge, so the cells around hold it
    const bool groups_on_gpu = radii.group > 0.0f && radii.group <= p.largestRadius();
    sample_.group_radius = groups_on_gpu ? radii.group : 0.0f;
    if (radii.group > 0.0f && !groups_on_gpu)  // beyond the grid's reach: the CPU's walk over a download
        measureGroups(st.downloadFlock(flock), p, sample_.result);
    prepare(st, 1);
    sample_.stage = groups_on_gpu ? kRoots : kWalk;
    sample_.next_group = 0;
    sample_.active = true;
}

// A sample of every flock of the ensemble, of the live buffers: each flock's radii are in the
// flock table (layOutEnsemble); a flock whose group radius is beyond the grid's reach has its
// groups walked on the CPU over its download, as alone.
void Sampler::startAllFlocks(FlockState& st, std::uint64_t ticket, bool in_step) {
    Sample& s = sample_;
    s.active = false;
    s.ticket = ticket;
    s.all = true;
    s.in_step = in_step;
    s.flock = kAllFlocks;
    s.copied = false;
    s.groups = st.ensemble_groups;
    s.boids = st.n;
    s.results.assign(st.ensemble.size(), OrderParams{});
    bool any_on_gpu = false;
    for (std::size_t k = 0; k < st.ensemble.size(); ++k) {
        const EnsembleFlock& f = st.ensemble[k];
        const MeasureRadii radii = measureRadiiOf(f.params);
        s.results[k].boids = f.boids;
        s.results[k].nn_radius = radii.nn;
        any_on_gpu = any_on_gpu || f.groups_on_gpu;
        if (radii.group > 0.0f && !f.groups_on_gpu) measureGroups(st.downloadFlock(std::uint32_t(k)), f.params, s.results[k]);
    }
    s.group_radius = any_on_gpu ? 1.0f : 0.0f;  // the group stages run; each flock's radius is its own
    prepare(st, std::uint32_t(st.ensemble.size()));
    s.stage = any_on_gpu ? kRoots : kWalk;
    s.next_group = 0;
    s.active = true;
}

// The passes' outputs zeroed (a histogram and eight totals a flock) and, for a sample in slices,
// what they read copied.
void Sampler::prepare(FlockState& st, std::uint32_t flock_count) {
    Sample& s = sample_;
    const std::size_t sums_bytes = std::size_t(s.groups + flock_count) * 32, histogram_bytes = std::size_t(flock_count) * (NN_BINS + 1) * 4;
    if (s.sums.size() < sums_bytes) s.sums = gl::Buffer(sums_bytes);
    if (s.histogram.size() < histogram_bytes) s.histogram = gl::Buffer(histogram_bytes);
    if (s.totals.size() < std::size_t(flock_count) * 32) s.totals = gl::Buffer(std::size_t(flock_count) * 32);
    if (s.group_radius > 0.0f && s.parent.size() < std::size_t(st.n) * 4) {  // by slot of the whole state
        s.parent = gl::Buffer(std::size_t(st.n) * 4);
        s.group_sums = gl::Buffer(std::size_t(st.n) * 80);  // SUM_STRIDE words a slot (groups.glsl)
        s.group_list = gl::Buffer(std::size_t(st.n) * 4);
        s.roots = gl::Buffer((std::size_t(st.n) + 4) * 4);  // the dispatch's counts, the count, then a root a slot
    }
    const std::size_t largest_bytes = std::size_t(flock_count) * kLargestGroups * GROUP_FIGURE_WORDS * 4;
    if (s.group_radius > 0.0f && s.largest.size() < largest_bytes) s.largest = gl::Buffer(largest_bytes);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // after the last sample's passes wrote them
    s.histogram.clearToZero();
    s.totals.clearToZero();
    if (s.group_radius > 0.0f) {
        s.group_sums.clearToZero();
        const std::uint32_t no_roots[4] = {0, 1, 1, 0};  // group_totals.comp's dispatch (x, y, z), the roots listed
        s.roots.upload(no_roots, sizeof no_roots);
    }
    s.cells = st.cell_total;
    if (s.in_step) {  // the steer pass writes the nearest distances, and new counts over the ones measured
        if (s.nearest.size() < std::size_t(st.n) * 4) s.nearest = gl::Buffer(std::size_t(st.n) * 4);
        if (s.neighbours.size() < std::size_t(st.n) * 4) s.neighbours = gl::Buffer(std::size_t(st.n) * 4);
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        s.neighbours.copyFrom(st.neighbours, std::size_t(st.n) * 4);
    }
    if (s.copied) copyInputs(st);
}

// What a sample in slices reads, copied on the GPU (36 bytes a boid, the cell starts and the
// parameter block).
void Sampler::copyInputs(FlockState& st) {
    Sample& s = sample_;
    const std::size_t vec_bytes = std::size_t(st.n) * 16, cell_bytes = (std::size_t(st.cell_total) + 1) * 4;
    if (s.pos.size() < vec_bytes) {
        s.pos = gl::Buffer(vec_bytes);
        s.vel = gl::Buffer(vec_bytes);
        s.neighbours = gl::Buffer(std::size_t(st.n) * 4);
        s.pos_tex = gl::BufferTexture(s.pos, GL_RGBA32UI);
        s.vel_tex = gl::BufferTexture(s.vel, GL_RGBA32UI);
    }
    if (s.cell_start.size() < cell_bytes) {
        s.cell_start = gl::Buffer(cell_bytes);
        s.cell_start_tex = gl::BufferTexture(s.cell_start, GL_R32UI);
    }
    if (!s.params) s.params = gl::Buffer(sizeof(SimParams));
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the copies read what the passes wrote
    s.pos.copyFrom(st.sorted_pos, vec_bytes);
    s.vel.copyFrom(st.sorted_vel, vec_bytes);
    s.neighbours.copyFrom(st.neighbours, std::size_t(st.n) * 4);
    s.cell_start.copyFrom(st.cell_start, cell_bytes);
    s.params.copyFrom(st.params_ubo, sizeof(SimParams));
}

// The sample's buffers at the slots its passes read and write (a step between two slices binds
// the state's own).
void Sampler::bind(FlockState& st) const {
    const Sample& s = sample_;
    if (s.copied) {
        s.params.bindBase(GL_UNIFORM_BUFFER, BIND_PARAMS);
        s.pos_tex.bindUnit(TEX_SORTED_POS);
        s.vel_tex.bindUnit(TEX_SORTED_VEL);
        s.cell_start_tex.bindUnit(TEX_CELL_START);
        s.pos.bindBase(kSsbo, BIND_SORTED_POS);  // and as storage, for the STORAGE_READS build (sorted_reads.glsl)
        s.vel.bindBase(kSsbo, BIND_SORTED_VEL);
        s.cell_start.bindBase(kSsbo, BIND_CELL_START);
        s.neighbours.bindBase(kSsbo, BIND_NEIGHBOURS);
    } else {
        st.bind();
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

bool Sampler::advance(FlockState& st, std::uint64_t boids) {
    if (!sample_.active) return true;
    bind(st);
    double budget = double(std::max<std::uint64_t>(boids, 1));
    while (budget > 0.0 && sample_.stage != kDone)
        if (!runStage(st, budget)) break;
    st.bind();  // what the next step expects at the shared slots
    if (sample_.stage == kDone) {
        sample_.active = false;
        land(st);
    }
    return !sample_.active;
}

// The stages that are not slices over the boids, whole: the roots (a clear); one work group a
// flock (in rows past MAX_DISPATCH_X), the walk's reduction and the choice of a large tree; the
// totals over the roots listed (runTotals).
void Sampler::runWholeStage(FlockState& st) {
    Sample& s = sample_;
    switch (s.stage) {
        case kRoots:  // every slot a root (groups.glsl), by a clear: no pass
            glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // after the last sample's passes wrote the forest
            s.parent.clearTo(GROUP_ROOT);
            s.stage = kWalk;
            return;
        case kReduce:
            measure_reduce_.use();
            glUniform1ui(measure_reduce_.uniform("u_partials"), s.groups);
            glUniform1ui(measure_reduce_.uniform("u_flock"), s.flock);  // no such uniform outside an ensemble
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            dispatchGroups(flocks(st));
            s.stage = s.group_radius > 0.0f ? kGiant : kDone;
            s.next_group = 0;
            return;
        case kGiant:
            group_giant_.use();
            glUniform1ui(group_giant_.uniform("u_flock"), s.flock);  // no such uniform outside an ensemble
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
            dispatchGroups(flocks(st));
            s.stage = kLinks;
            return;
        case kTotals: runTotals(st); return;
        default: return;
    }
}

// The totals over the roots group_sums.comp listed (dispatched indirectly: as many work groups
// as they need), then each flock's largest groups (a work group a flock).
void Sampler::runTotals(FlockState& st) {
    Sample& s = sample_;
    gl::Program& totals = group_totals_;
    totals.use();
    glUniform1ui(totals.uniform("u_flock"), s.flock);  // no such uniform outside an ensemble
    glUniform1ui(totals.uniform("u_min_group"), kMinGroupSize);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    dispatchIndirect(s.roots.id(), 0);
    group_largest_.use();
    glUniform1ui(group_largest_.uniform("u_flock"), s.flock);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(flocks(st));  // one work group a flock, in rows past MAX_DISPATCH_X
    s.stage = kDone;
}

// Runs the current stage for as many work groups as `budget` (in boids' walks) pays for, at
// least one (a whole stage costs nothing); false when the stage is not finished.
bool Sampler::runStage(FlockState& st, double& budget) {
    Sample& s = sample_;
    const std::uint32_t groups = s.groups;
    gl::Program* program = nullptr;
    switch (s.stage) {
        case kWalk: program = s.in_step ? &measure_stored_ : &measure_; break;
        case kLinks: program = &group_links_; break;
        case kSums: program = &group_sums_; break;
        case kSpin: program = &group_spin_; break;
        default: runWholeStage(st); return true;
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

void Sampler::finish(FlockState& st) {
    while (sample_.active && !advance(st, ~std::uint64_t(0))) {
    }
}

void Sampler::plantRoots(FlockState& st) {
    if (sample_.stage != kRoots) return;
    bind(st);
    double budget = std::numeric_limits<double>::infinity();
    runStage(st, budget);
    st.bind();
}

// The steer program that also walks for the sample, bound with the radii, the forest and the
// nearest distances' buffer. The caller dispatches it over every boid.
void Sampler::bindForSteer(FlockState& st, gl::Program& steer) {
    st.bind();
    const Sample& s = sample_;
    if (s.group_radius > 0.0f) s.parent.bindBase(kSsbo, BIND_GROUP_PARENT);
    s.nearest.bindBase(kSsbo, BIND_MEASURE_NEAREST);
    steer.use();
    glUniform1f(steer.uniform("u_nn_radius"), s.result.nn_radius);  // one flock's (an ensemble's are in the table)
    glUniform1f(steer.uniform("u_group_radius"), s.group_radius);
    glUniform1ui(steer.uniform("u_flock"), kAllFlocks);  // no such uniform outside an ensemble
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the sample's set-up written before the walk
}

}  // namespace murmur::gpu
