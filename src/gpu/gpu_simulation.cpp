// The step: scan -> scatter -> order -> steer (which also bins what it writes for the next step;
// a separate count pass only after an upload or a change), with memory barriers between passes
// and nothing read back to the CPU.
#include "gpu/gpu_simulation.hpp"

#include "cpu/flock_step.hpp"
#include "cpu/order_params.hpp"
#include "gl/egl_context.hpp"
#include "gpu/dispatch.hpp"
#include "model/density.hpp"
#include "model/rng.hpp"
#include "model/styles.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
#include <utility>
#include <cstddef>
#include <cstdio>

#include <cstring>

namespace murmur::gpu {
namespace {

constexpr GLenum kSsbo = GL_SHADER_STORAGE_BUFFER;
constexpr GLenum kGpuMemoryAvailableNvx = 0x9049;  // GL_NVX_gpu_memory_info, KiB

// Does any species in use see through a view cone (fov below 360 degrees)? The same species as
// the grid's reach (Params::largestRadius) counts, and the same rule as the CPU's use_fov: like
// the reach, it assumes no boid's species is species_count or more (spawn, state files and the
// panel, which respawns on a new species_count, keep to that).
bool anyViewCone(const Params& p) {
    for (std::uint32_t s = 0; s < p.speciesInUse(); ++s)
        if (p.rulesOf(s).fov_deg < 360.0f) return true;
    return false;
}

}  // namespace

std::vector<gl::ShaderDefine> variantDefines(const Params& p, bool ensemble) {
    const StyleInfo& style = styleInfo(p.style);  // the one place the GPU backend picks a style: its shader
    auto flag = [](bool on) { return std::string(on ? "1" : "0"); };
    std::vector<gl::ShaderDefine> defines = {{"DIMS", std::to_string(p.dims)},
            {"BOUNDS_WRAP", flag(p.bounds == Bounds::Wrap)},
            {"STYLE_GLSL", std::string("\"") + style.glsl + "\""},
            {"STORED_STEER", flag(style.traits.keeps_steer)},
            {"OWN_SEARCH", flag(style.traits.own_search)},
            {"AMORTISED_STEERING", flag(style.traits.amortised_steering)},
            {"NEIGHBOUR_CAP", flag(p.neighbour_cap > 0)},
            {"PERCHING", flag(p.perching)},
            {"MULTI_SPECIES", flag(p.species_count > 1)},
            {"UPDATE_SEQUENTIAL", flag(p.update == UpdateOrder::Sequential)},
            {"INTEGRATE_EXPLICIT", flag(p.integrator == Integrator::Explicit)},
            {"SPEED_LIMIT", flag(p.speed_limit)},
            {"VIEW_CONE", flag(style.traits.velocity_cone && anyViewCone(p))},
            {"OBSTACLES", flag(!p.obstacles.empty())},
            {"ENSEMBLE", flag(ensemble)}};
    for (const ShaderSwitch& s : styleFunctions(p.style).switches(p)) defines.push_back({s.name, flag(s.on)});  // the style's own
    return defines;
}

std::string variantOf(const Params& p, bool ensemble) {
    std::string variant;
    for (const auto& d : variantDefines(p, ensemble)) variant += d.name + "=" + d.value + " ";
    return variant;
}

Params ensembleVariantParams(const std::vector<Params>& flocks) {
    Params p = flocks.at(0);
    for (const Params& f : flocks)
        if (p.obstacles.empty()) p.obstacles = f.obstacles;
    return p;
}

namespace {

std::uint32_t asBits(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}
float asFloat(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

}  // namespace

bool keepsPerchTimes(const Params& p) { return p.perching; }
bool keepsSteering(const Params& p) { return styleInfo(p.style).traits.keeps_steer; }

bool keepsSlotOfId(const Params& p) { return p.update == UpdateOrder::Sequential; }

std::uint64_t bytesPerBoid(const Params& p) {
    return 4 * 16 + 3 * 4 + (keepsPerchTimes(p) ? 2 * 4 : 0) + (keepsSteering(p) ? 2 * 16 : 0) + (keepsSlotOfId(p) ? 4 : 0);
}

std::uint32_t neighbourSweeps(const Params& p) { return p.neighbour_cap > 0 || styleInfo(p.style).traits.own_search ? 2u : 1u; }

std::uint32_t sequentialRun(const Params& p, std::uint32_t boids) {
    // Loop iterations per boid stepped: each sweep visits every boid, and a neighbour cap's
    // insertion loop may run up to cap times per visit.
    const std::uint64_t per_boid = std::uint64_t(boids) * neighbourSweeps(p) * (1 + p.neighbour_cap) + 16;
    return std::uint32_t(std::clamp<std::uint64_t>((kLoopBudget - boids) / per_boid, 1, std::max(boids, 1u)));
}

Capacity queryCapacity(const GridSpec& grid) {
    Capacity c;
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    c.max_block_bytes = std::uint64_t(block);
    if (GLAD_GL_NVX_gpu_memory_info) {
        GLint kib = 0;
        glGetIntegerv(kGpuMemoryAvailableNvx, &kib);
        c.available_bytes = std::uint64_t(kib) * 1024;
    }
    c.max_texels = gl::maxBufferTexels();
    c.max_boids = std::min(c.max_block_bytes / 16, c.max_texels);  // the largest array: one vec4 (a texel) per boid
    c.fixed_bytes = std::uint64_t(grid.total()) * 8 + GridScan::outCount(grid.total()) * 4;  // two counts, the scan
    return c;
}

std::optional<std::string> memoryWarning(const Params& params) {
    const Capacity cap = queryCapacity(makeGridSpec(params));
    const std::uint64_t need = std::uint64_t(params.boids) * bytesPerBoid(params) + cap.fixed_bytes;
    if (!cap.available_bytes || need <= cap.available_bytes) return std::nullopt;
    return std::to_string(params.boids) + " boids need " + std::to_string(need >> 20) + " MiB of storage and the driver reports " +
           std::to_string(cap.available_bytes >> 20) +
           " MiB free video memory: continuing (drivers page, and an APU's carve-out is not its limit); expect it to be slow "
           "or to fail if the GPU really is full";
}

void checkGlLimits(const Params& p) {
    auto get = [](GLenum what, GLint index = -1) {
        GLint v = 0;
        if (index < 0) glGetIntegerv(what, &v);
        else glGetIntegeri_v(what, GLuint(index), &v);
        return std::int64_t(v);
    };
    // The most storage blocks in one pass: grid_scatter.comp's 7 (grid_cells.glsl's count block
    // included, though the scatter does not read it: a declared std430 block may count as
    // active), 2 more for perch times and 2 for the stored steering (the steer pass uses 5, 1 and
    // 2, 2 more in a sampled step's variant, and reads TEX_COUNT buffer textures).
    const std::int64_t blocks = 7 + (keepsPerchTimes(p) ? 2 : 0) + (keepsSteering(p) ? 2 : 0);
    // flock_measure.comp: two vec4 and a uint an invocation and the histogram; group_largest.comp:
    // LARGEST_GROUPS candidates of three uints an invocation.
    const std::int64_t shared = std::max<std::int64_t>(std::int64_t(STEP_GROUP_SIZE) * 32 + (NN_BINS + 1) * 4,
                                                       std::int64_t(STEP_GROUP_SIZE) * LARGEST_GROUPS * 12);
    const struct {
        const char* name;
        std::int64_t have, need;
    } limits[] = {
        {"GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS", get(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS), blocks},
        {"GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS", get(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS), BIND_COUNT},
        {"GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS", get(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS), TEX_COUNT},
        {"GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS", get(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS), STEP_GROUP_SIZE},
        {"GL_MAX_COMPUTE_WORK_GROUP_SIZE (x)", get(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0), std::max(STEP_GROUP_SIZE, SCAN_GROUP_SIZE)},
        {"GL_MAX_COMPUTE_SHARED_MEMORY_SIZE", get(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE), shared},
        {"GL_MAX_COMPUTE_IMAGE_UNIFORMS", get(GL_MAX_COMPUTE_IMAGE_UNIFORMS), IMAGE_COUNT},
    };
    for (const auto& l : limits)
        if (l.have < l.need)
            throw LimitError(std::string("this OpenGL implementation offers ") + l.name + " = " + std::to_string(l.have) +
                             "; murmur's compute passes need " + std::to_string(l.need) +
                             " (use --backend cpu to run the CPU reference)");
}

std::optional<std::string> capacityProblem(const Params& params, const Capacity& cap) {
    if (params.boids > cap.max_boids)
        return std::to_string(params.boids) + " boids do not fit this GPU: it holds at most " + std::to_string(cap.max_boids) +
               " (shader storage blocks up to " + std::to_string(cap.max_block_bytes >> 20) + " MiB, " +
               std::to_string(bytesPerBoid(params)) + " bytes per boid; buffer textures up to " + std::to_string(cap.max_texels) +
               " texels, one per boid); valid range [0, " + std::to_string(cap.max_boids) + "]";
    // The cells' starts are read through a buffer texture too (a few more texels than cells); the
    // grid grows with the boids (up to two cells each), so a count can fit where its grid does not.
    auto gridTexels = [&](std::uint64_t boids) {
        Params q = params;
        q.boids = std::uint32_t(boids);
        return GridScan::outCount(makeGridSpec(q).total());
    };
    if (const std::uint64_t texels = gridTexels(params.boids); texels > cap.max_texels) {
        std::uint64_t fits = 0, over = params.boids;  // the largest count whose grid fits, in [fits, over)
        while (over - fits > 1) {
            const std::uint64_t mid = fits + (over - fits) / 2;
            (gridTexels(mid) <= cap.max_texels ? fits : over) = mid;
        }
        char world[32];
        std::snprintf(world, sizeof world, "%g", double(params.world_size));
        return std::to_string(params.boids) + " boids do not fit this GPU in a world of " + world +
               ": their grid of " + std::to_string(makeGridSpec(params).total()) + " cells needs " + std::to_string(texels) +
               " texels of cell starts, and its buffer textures hold " + std::to_string(cap.max_texels) + "; valid range [0, " +
               std::to_string(fits) + "] in this world with these radii (a smaller world or larger radii take fewer cells)";
    }
    return std::nullopt;
}

void checkCapacity(const Params& params) {
    if (auto why = capacityProblem(params, queryCapacity(makeGridSpec(params)))) throw CapacityError(*why);
}

GpuSimulation::GpuSimulation(gl::ShaderLibrary shaders) : shaders_(std::move(shaders)) {
    params_ubo_ = gl::Buffer(sizeof(SimParams));
    software_renderer_ = gl::isSoftwareRenderer(gl::rendererString());
}

GpuSimulation::Programs GpuSimulation::buildPrograms(const gl::ShaderLibrary& lib, const Params& p) const {
    const auto defs = variantDefines(p, !ensemble_.empty());
    std::vector<gl::Program> b = gl::buildComputes(
        lib,
        {"grid_count.comp", "grid_scatter.comp", "grid_order.comp", "grid_order_large.comp", "flock_steer.comp",
         "boid_pick.comp", "flock_measure.comp", "measure_reduce.comp", "neighbour_ids.comp", "state_by_id.comp",
         "group_giant.comp", "group_links.comp", "group_sums.comp", "group_spin.comp", "group_totals.comp",
         "group_largest.comp", "boid_under.comp", "grid_scan.comp", "state_finite.comp"},
        defs);
    return {std::move(b[0]),  std::move(b[1]),  std::move(b[2]),  std::move(b[3]),  std::move(b[4]),  std::move(b[5]),
            std::move(b[6]),  std::move(b[7]),  std::move(b[8]),  std::move(b[9]),  std::move(b[10]), std::move(b[11]),
            std::move(b[12]), std::move(b[13]), std::move(b[14]), std::move(b[15]), std::move(b[16]), std::move(b[18]),
            GridScan(std::move(b[17])), gl::Program{}, gl::Program{}, gl::Program{}, 0u, false};
}

void GpuSimulation::reloadShaders(gl::ShaderLibrary shaders) {
    settleNextStepSample();  // a sample asked for is of the state before any change
    Programs fresh = buildPrograms(shaders, variant_params_);  // throws before anything changes
    if (programs_ && programs_->steps_in_groups) {  // in use: the new flock_steps.comp must build too
        fresh.steps_in_groups = buildGroupSteps(shaders, programs_->steps_group_size, programs_->steps_shared);
        fresh.steps_group_size = programs_->steps_group_size;
        fresh.steps_shared = programs_->steps_shared;
    }
    programs_.emplace(std::move(fresh));
    unbindDeletedPrograms();
    shaders_ = std::move(shaders);
}

void GpuSimulation::applyParams(const Params& params) {
    // A grid read past its buffer texture's end would lose neighbours silently (upload, sweeps and
    // the panel check this first): refused before anything changes.
    const GridSpec grid = makeGridSpec(params);
    if (GridScan::outCount(grid.total()) > gl::maxBufferTexels())
        throw CapacityError(*capacityProblem(params, queryCapacity(grid)));
    ensemble_.clear();
    buildVariant(params);
    allocateCells(grid.total());
    grid_ = grid;
    binned_ = false;  // the grid, or anything else, may have changed: the next step counts
    sorted_fresh_ = false;
    allocateOptionalState(params);
    viewSortedState();
    params_ = params;
    params_.boids = n_;
    const SimParams packed = packParams(params_, grid_, n_);
    params_ubo_.upload(&packed, sizeof packed);
}

// The last program used stays current after the set it belonged to is deleted, and its name
// is freed only when another is used: a client that saves GL_CURRENT_PROGRAM and restores it
// (Dear ImGui's OpenGL backend does, around its draw) would then restore a name that no longer
// exists (GL_INVALID_VALUE in glUseProgram). So no program of the old set stays current.
void GpuSimulation::unbindDeletedPrograms() { glUseProgram(0); }

// The programs for this variant (ensemble_ says whether it is an ensemble's), if not built yet.
void GpuSimulation::buildVariant(const Params& params) {
    const std::string variant = variantOf(params, !ensemble_.empty());
    if (variant != variant_ || !programs_) {
        checkGlLimits(params);
        finishSample();  // a sample in progress ends on the programs it began with
        programs_.emplace(buildPrograms(shaders_, params));
        unbindDeletedPrograms();
        variant_ = variant;
    }
    variant_params_ = params;
}

// The cell counts and starts for `cells` cells (all flocks').
void GpuSimulation::allocateCells(std::uint32_t cells) {
    if (cells != cell_total_ || !cell_start_) {
        for (gl::Buffer& c : counts_) c = gl::Buffer(std::size_t(cells) * 4);
        cell_start_ = gl::Buffer(GridScan::outCount(cells) * 4);  // zeroed, as the scan needs
    }
    cell_total_ = cells;
}

void GpuSimulation::setParams(const Params& params) {
    settleNextStepSample();
    Params p = params;
    p.boids = n_;
    applyParams(p);
}

void GpuSimulation::upload(const Flock& flock, const Params& params) {
    settleNextStepSample();
    Params p = params;
    p.boids = std::uint32_t(flock.size());
    checkCapacity(p);
    uploadState(flock);
    applyParams(p);
}

// The state buffers for `flock` (and their sorted copies), the step count back to 0; the
// parameters follow (applyParams or uploadEnsemble).
void GpuSimulation::uploadState(const Flock& flock) {
    binned_ = false;  // before anything else: what follows may throw
    sorted_fresh_ = false;
    n_ = std::uint32_t(flock.size());
    std::vector<glm::vec4> pos(n_), vel(n_);
    std::vector<float> perch(n_);
    std::vector<glm::vec4> steer(n_);
    bool any_perch = false, any_steer = false;
    for (std::uint32_t i = 0; i < n_; ++i) {
        steer[i] = flock[i].steer;
        pos[i] = {flock[i].p, asFloat(flock[i].id)};
        vel[i] = {flock[i].v, asFloat(flock[i].species)};
        perch[i] = flock[i].perch;
        any_perch = any_perch || perch[i] != 0.0f;
        any_steer = any_steer || steer[i] != glm::vec4(0.0f);
    }
    const std::size_t vec_bytes = std::size_t(n_) * 16, uint_bytes = std::size_t(n_) * 4;
    pos_ = gl::Buffer(vec_bytes, pos.data());
    vel_ = gl::Buffer(vec_bytes, vel.data());
    sorted_pos_ = gl::Buffer(vec_bytes);
    sorted_vel_ = gl::Buffer(vec_bytes);
    boid_bin_ = gl::Buffer(2 * uint_bytes);
    slot_of_id_ = gl::Buffer(4);  // allocateOptionalState sizes it for the sequential order
    neighbours_ = gl::Buffer(uint_bytes);
    // Perch times and steering are stored only where the variant reads them (or the flock carries
    // some): otherwise a one-element placeholder stays bound, and applyParams allocates them
    // (zero) when a variant that reads them comes in.
    perch_ = any_perch ? gl::Buffer(uint_bytes, perch.data()) : gl::Buffer(4);
    sorted_perch_ = gl::Buffer(any_perch ? uint_bytes : 4);
    steer_ = any_steer ? gl::Buffer(vec_bytes, steer.data()) : gl::Buffer(16);
    sorted_steer_ = gl::Buffer(any_steer ? vec_bytes : 16);
    viewSortedState();  // no view of the old buffers outlives them, even if applyParams throws
    step_count_ = 0;
    interrupted_ = false;
}

void GpuSimulation::allocateOptionalState(const Params& params) {
    const std::size_t vec_bytes = std::size_t(n_) * 16, uint_bytes = std::size_t(n_) * 4;
    if (keepsPerchTimes(params) && perch_.size() < uint_bytes) {
        perch_ = gl::Buffer(uint_bytes);
        sorted_perch_ = gl::Buffer(uint_bytes);
    }
    if (keepsSlotOfId(params) && slot_of_id_.size() < uint_bytes) slot_of_id_ = gl::Buffer(uint_bytes);
    if (keepsSteering(params) && steer_.size() < vec_bytes) {
        steer_ = gl::Buffer(vec_bytes);
        sorted_steer_ = gl::Buffer(vec_bytes);
    }
}

void GpuSimulation::viewSortedState() {
    sorted_pos_tex_ = gl::BufferTexture(sorted_pos_, GL_RGBA32UI);
    sorted_vel_tex_ = gl::BufferTexture(sorted_vel_, GL_RGBA32UI);
    sorted_perch_tex_ = gl::BufferTexture(sorted_perch_, GL_R32UI);
    cell_start_tex_ = gl::BufferTexture(cell_start_, GL_R32UI);
    boid_bin_tex_ = gl::BufferTexture(boid_bin_, GL_RG32UI);
}

void GpuSimulation::bindState() const {
    params_ubo_.bindBase(GL_UNIFORM_BUFFER, BIND_PARAMS);
    pos_.bindBase(kSsbo, BIND_POS);
    vel_.bindBase(kSsbo, BIND_VEL);
    sorted_pos_.bindBase(kSsbo, BIND_SORTED_POS);
    sorted_vel_.bindBase(kSsbo, BIND_SORTED_VEL);
    counts_[current_].bindBase(kSsbo, BIND_CELL_COUNT);
    counts_[1 - current_].bindBase(kSsbo, BIND_NEXT_COUNT);
    cell_start_.bindBase(kSsbo, BIND_CELL_START);
    boid_bin_.bindBase(kSsbo, BIND_BOID_BIN);
    slot_of_id_.bindBase(kSsbo, BIND_SLOT_OF_ID);
    neighbours_.bindBase(kSsbo, BIND_NEIGHBOURS);
    perch_.bindBase(kSsbo, BIND_PERCH);
    sorted_perch_.bindBase(kSsbo, BIND_SORTED_PERCH);
    steer_.bindBase(kSsbo, BIND_STEER);
    sorted_steer_.bindBase(kSsbo, BIND_SORTED_STEER);
    sorted_pos_tex_.bindUnit(TEX_SORTED_POS);
    sorted_vel_tex_.bindUnit(TEX_SORTED_VEL);
    cell_start_tex_.bindUnit(TEX_CELL_START);
    sorted_perch_tex_.bindUnit(TEX_SORTED_PERCH);
    if (!ensemble_.empty()) {
        flock_params_.bindBase(kSsbo, BIND_FLOCK_PARAMS);
        flock_table_.bindBase(kSsbo, BIND_FLOCK_TABLE);
    }
}

// Counts the state into the next counts and makes them current (what a steer pass would have done).
void GpuSimulation::countCells() {
    counts_[1 - current_].clearToZero();
    bindState();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    programs_->count.use();
    dispatchGroups(groupsFor(n_, STEP_GROUP_SIZE));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    current_ = 1 - current_;
    binned_ = true;
}

// Binning of the state the step starts from: 3 dispatches (4 when it must count first).
void GpuSimulation::bin() {
    if (sorted_fresh_) {  // a sample binned this very state: the sorted copy and cells stand
        bindState();
        for (int pass = 0; pass < 3; ++pass) passDone(pass);
        return;
    }
    const std::uint32_t groups = groupsFor(n_, STEP_GROUP_SIZE);
    if (!binned_) countCells();
    passDone(0);
    programs_->scan.run(counts_[current_], cell_start_, cell_total_, &counts_[1 - current_]);
    passDone(1);
    bindState();  // the scan rebinds its own slots
    programs_->scatter.use();
    dispatchGroups(groups);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    orderCells();
    // The steer and measure passes read the sorted copy and the cells through buffer textures.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
    sorted_fresh_ = true;
    passDone(2);
}

// Id order within each cell (reproducible sums): grid_order.comp sorts the small cells and lists
// the cells of more than ORDER_SMALL_CELL boids, which an indirect dispatch of
// grid_order_large.comp then sorts, one work group each (no work group when there is none).
void GpuSimulation::orderCells() {
    const std::size_t list_bytes = 16 + 4 * (std::size_t(n_) / ORDER_SMALL_CELL + 1);
    if (large_cells_.size() < list_bytes) large_cells_ = gl::Buffer(list_bytes);
    const std::array<std::uint32_t, 4> none{0u, 1u, 1u, 0u};
    large_cells_.upload(none.data(), sizeof none);
    large_cells_.bindBase(kSsbo, BIND_LARGE_CELLS);
    programs_->order.use();
    dispatchGroups(groupsFor(cell_total_, STEP_GROUP_SIZE));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    programs_->order_large.use();
    dispatchIndirect(large_cells_.id(), 0);
}

void GpuSimulation::passDone(int pass) {
    if (timer_) timer_->mark(pass);
    if (!profiling_) return;
    glFinish();
    const auto now = std::chrono::steady_clock::now();
    profiling_ms_[std::size_t(pass)] = std::chrono::duration<double, std::milli>(now - profile_since_).count();
    profile_since_ = now;
    if (pass == 3) {
        profiled_ms_ = profiling_ms_;
        profiling_ = false;
    }
}

void GpuSimulation::step(int steps) {
    if (interrupted_) return;
    if (next_step_sample_ != NextStepSample::None && !(canMeasureInStep() && programs_->steer_measured))
        settleNextStepSample();  // before the state moves
    if (n_ == 0) {  // nothing to move, but the steps pass, as on the CPU reference
        step_count_ += std::uint32_t(std::max(steps, 0));
        return;
    }
    for (int s = 0; s < steps; ++s) {
        const bool sequential = params_.update == UpdateOrder::Sequential;
        const bool sampled = next_step_sample_ != NextStepSample::None;  // the walk of a sample asked for too
        if (const GroupSteps in_groups = sampled ? GroupSteps{} : groupStepsNow(steps - s); in_groups.steps > 0) {
            stepInGroups(in_groups);
            s += in_groups.steps - 1;
            continue;
        }
        if (sampled) beginMeasuredSample();  // outside the step's timings
        uploadStepEvents();
        ++step_count_;
        if (std::exchange(profile_next_, false)) {
            glFinish();  // the profiled step starts with nothing else in flight
            sorted_fresh_ = false;  // and bins, though a sample just did: its passes are what it times
            profiling_ = true;
            profiling_ms_.assign(4, 0.0);
            profile_since_ = std::chrono::steady_clock::now();
        }
        if (timer_) timer_->begin();
        if (sequential) {
            stepSequential();
            continue;
        }
        bin();
        gl::Program& steer = sampled ? measuredSteer() : programs_->steer;
        steer.use();
        const std::uint32_t groups = groupsFor(n_, STEP_GROUP_SIZE);
        if (!sampled && interrupt_ && candidatePairsPerStep(params_) >= slice_min_pairs_) {
            if (!steerInSlices(groups)) return;
        } else {
            glUniform1ui(steer.uniform("u_first_group"), 0u);
            dispatchGroups(groups);
        }
        current_ = 1 - current_;  // the steer pass counted what it wrote
        sorted_fresh_ = false;
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        passDone(3);
        if (timer_) timer_->end();
        if (sampled) finishMeasuredSample();
    }
}

// The sequential order: no binning; one invocation of flock_steer.comp steps the boids in id
// order in the state buffers (slot_of_id_ holds its slot-of-id table).
void GpuSimulation::stepSequential() {
    binned_ = false;  // this steer does not bin
    sorted_fresh_ = false;
    bindState();
    for (int pass = 0; pass < 3; ++pass) passDone(pass);  // no binning in this order
    programs_->steer.use();
    glUniform1ui(programs_->steer.uniform("u_first_group"), 0u);
    const std::uint32_t run = sequentialRun(params_, n_);
    glUniform1ui(programs_->steer.uniform("u_id_count"), run);
    for (std::uint32_t first = 0; first < n_; first += run) {
        glUniform1ui(programs_->steer.uniform("u_first_id"), first);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        glDispatchCompute(1, 1, 1);
        ++dispatchCount();
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    passDone(3);
    if (timer_) timer_->end();
}

void GpuSimulation::setInterruptInSlices(Interrupt check, std::uint32_t slice_groups, double min_pairs) {
    interrupt_ = std::move(check);
    slice_groups_ = std::max(1u, slice_groups);
    slice_min_pairs_ = min_pairs;
}

bool GpuSimulation::steerInSlices(std::uint32_t groups) {
    const GLint first = programs_->steer.uniform("u_first_group");
    // A slice is one row: the padding groups of a slice split into rows would step (and bin)
    // boids of the next slice a second time.
    const std::uint32_t slice = std::min(slice_groups_, dispatchRowLimit());
    for (std::uint32_t done = 0; done < groups; done += slice) {
        glUniform1ui(first, done);
        dispatchGroups(std::min(slice, groups - done));
        glFinish();
        if (interrupt_()) {
            interrupted_ = true;
            binned_ = false;
            sorted_fresh_ = false;
            profiling_ = false;
            if (timer_) timer_->end();
            return false;
        }
    }
    return true;
}

Flock GpuSimulation::download() { return downloadSlots(0, n_); }

// Slots [first, first + count) of the state (an ensemble's flock is such a range).
Flock GpuSimulation::downloadSlots(std::uint32_t first, std::uint32_t count) {
    const auto pos = pos_.read<glm::vec4>(count, first);
    const auto vel = vel_.read<glm::vec4>(count, first);
    const bool all_perch = perch_.size() >= std::size_t(n_) * 4, all_steer = steer_.size() >= std::size_t(n_) * 16;
    const auto perch = perch_.read<float>(all_perch ? count : 0, first);
    const auto steer = steer_.read<glm::vec4>(all_steer ? count : 0, first);
    Flock out(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        if (all_perch) out[i].perch = perch[i];
        if (all_steer) out[i].steer = steer[i];
        out[i].id = asBits(pos[i].w);
        out[i].species = asBits(vel[i].w);
        out[i].p = glm::vec3(pos[i]);
        out[i].v = glm::vec3(vel[i]);
    }
    return out;
}

std::vector<std::uint32_t> GpuSimulation::neighbourCounts() {
    if (n_ == 0) return {};
    if (neighbours_by_id_.size() < std::size_t(n_) * 4) neighbours_by_id_ = gl::Buffer(std::size_t(n_) * 4);
    neighbours_by_id_.clearToZero();
    bindState();
    neighbours_by_id_.bindBase(kSsbo, BIND_NEIGHBOURS_BY_ID);
    programs_->neighbour_ids.use();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(groupsFor(n_, STEP_GROUP_SIZE));
    return neighbours_by_id_.read<std::uint32_t>(n_);
}

void GpuSimulation::readXyzById(float* positions, float* velocities) {
    if (n_ == 0 || (!positions && !velocities)) return;
    if (!ensemble_.empty()) return Simulation::readXyzById(positions, velocities);
    const std::size_t array_bytes = std::size_t(n_) * 3 * sizeof(float);
    if (pos_by_id_.size() < array_bytes) {
        pos_by_id_ = gl::Buffer(array_bytes);
        vel_by_id_ = gl::Buffer(array_bytes);
    }
    bindState();
    pos_by_id_.bindBase(kSsbo, BIND_XYZ_BY_ID);
    vel_by_id_.bindBase(kSsbo, BIND_VEL_XYZ_BY_ID);
    programs_->state_by_id.use();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(groupsFor(n_, STEP_GROUP_SIZE));
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    bindState();  // the perch slot back to what the step expects
    if (positions) pos_by_id_.download(positions, array_bytes);
    if (velocities) vel_by_id_.download(velocities, array_bytes);
}

FlockBuffers GpuSimulation::buffers() {
    FlockBuffers b;
    b.pos = pos_.id();
    b.vel = vel_.id();
    b.neighbours = neighbours_.id();
    b.steer = steer_.id();  // a one-element placeholder unless the style keeps its steering
    b.count = n_;
    return b;
}

std::optional<FoundBoid> GpuSimulation::find(std::uint32_t id) {
    if (n_ == 0) return std::nullopt;
    if (!picked_) picked_ = gl::Buffer(sizeof(PickedBoid));
    picked_.clearToZero();
    bindState();
    picked_.bindBase(kSsbo, BIND_PICKED);
    programs_->pick.use();
    glUniform1ui(programs_->pick.uniform("u_id"), id);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(groupsFor(n_, STEP_GROUP_SIZE));
    const PickedBoid picked = picked_.read<PickedBoid>(1).front();
    if (picked.p.w != 1.0f) return std::nullopt;
    FoundBoid f;
    f.boid.id = id;
    f.boid.p = glm::vec3(picked.p);
    f.boid.v = glm::vec3(picked.v);
    f.neighbours = picked.info.x;
    return f;
}

// pickBoid's rule (render/picking.cpp) in three dispatches of boid_under.comp, each an atomic
// minimum over the flock: screen distance, then depth, then id; 16 bytes come back.
std::optional<std::uint32_t> GpuSimulation::pick(const PickQuery& q) {
    if (n_ == 0) return std::nullopt;
    if (!picked_) picked_ = gl::Buffer(sizeof(PickedBoid));
    const std::array<std::uint32_t, 4> none{~0u, ~0u, ~0u, 0u};
    picked_.upload(none.data(), sizeof none);
    bindState();
    picked_.bindBase(kSsbo, BIND_PICKED);
    gl::Program& under = programs_->under;
    under.use();
    glUniformMatrix4fv(under.uniform("u_view_projection"), 1, GL_FALSE, &q.view_projection[0][0]);
    glUniform2f(under.uniform("u_viewport"), q.viewport.x, q.viewport.y);
    glUniform2f(under.uniform("u_pixel"), q.pixel.x, q.pixel.y);
    glUniform3f(under.uniform("u_eye"), q.eye.x, q.eye.y, q.eye.z);
    glUniform1ui(under.uniform("u_three_d"), q.three_d ? 1u : 0u);
    glUniform1f(under.uniform("u_max_px"), q.max_px);
    for (std::uint32_t stage = 0; stage < 3; ++stage) {
        glUniform1ui(under.uniform("u_stage"), stage);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        dispatchGroups(groupsFor(n_, STEP_GROUP_SIZE));
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    const auto best = picked_.read<std::uint32_t>(4);
    if (best[2] == ~0u) return std::nullopt;
    return best[2];
}

std::vector<std::pair<std::string, double>> GpuSimulation::profiledPasses() const {
    static const char* const names[4] = {"count", "scan", "scatter", "steer"};
    std::vector<std::pair<std::string, double>> out;
    for (std::size_t i = 0; i < profiled_ms_.size() && i < 4; ++i) out.emplace_back(names[i], profiled_ms_[i]);
    return out;
}

void GpuSimulation::enableTiming(bool on) {
    if (on && !timer_) timer_ = std::make_unique<gl::PassTimer>(std::vector<std::string>{"count", "scan", "scatter", "steer"});
    if (!on) timer_.reset();
}

void GpuSimulation::binUntimed() {
    auto* timer = timer_.release();
    if (n_ > 0) bin();
    timer_.reset(timer);
}

GpuSimulation::Binning GpuSimulation::binOnly() {
    binUntimed();
    sorted_fresh_ = false;  // a diagnostic: the next step bins for itself, as it would have
    Binning b;
    b.count = counts_[current_].read<std::uint32_t>(cell_total_);
    b.start = cell_start_.read<std::uint32_t>(cell_total_ + 1);  // resolved by the order pass, then the total
    const auto sorted = sorted_pos_.read<glm::vec4>(n_);
    for (const glm::vec4& p : sorted) b.sorted_ids.push_back(asBits(p.w));
    return b;
}

std::vector<std::uint32_t> GpuSimulation::scan(const std::vector<std::uint32_t>& values) {
    const auto n = std::uint32_t(values.size());
    gl::Buffer in(std::size_t(n) * 4, values.data()), out(GridScan::outCount(n) * 4);  // zeroed
    if (!programs_) applyParams(params_);
    programs_->scan.run(in, out, n);
    return GridScan::resolve(out.read<std::uint32_t>(GridScan::outCount(n)), n);
}

}  // namespace murmur::gpu
