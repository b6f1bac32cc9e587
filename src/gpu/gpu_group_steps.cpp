// Steps in work groups: small flocks stepped many steps a dispatch (flock_steps.comp). A flock of
// at most STEP_GROUP_SIZE boids whose grid lists every cell around each boid (at most GRID_SPAN
// cells an axis when wrapped, GRID_REACH + 1 walled) looks at all of its boids in the grid's
// order, so one work group can order it and step it, step after step, to the bits of the step's
// four or five passes. An ensemble takes this path when every flock can.
#include "gpu/gpu_simulation.hpp"

#include "gpu/dispatch.hpp"

#include <algorithm>

namespace murmur::gpu {

namespace {

// The grid's cells around any boid are every cell of the grid, each once, in order.
bool listsEveryCell(const GridSpec& grid, int dims) {
    const std::uint32_t most = grid.wrap ? std::uint32_t(kGridSpan) : std::uint32_t(kGridReach + 1);
    for (int a = 0; a < dims; ++a)
        if (grid.cells[a] > most) return false;
    return true;
}

bool fitsAWorkGroup(const Params& p, const GridSpec& grid, std::uint32_t boids) {
    return boids > 0 && boids <= STEP_GROUP_SIZE && listsEveryCell(grid, p.dims);
}

// Loop iterations an invocation of flock_steps.comp runs a step, at most: the ordering's loop
// over the flock, each sweep's walk over it (a neighbour cap's insertion loop inside), the
// obstacles' loops (each to `obstacle_loop_end`: common.glsl's OBSTACLE_LOOP_END) and a margin.
// llvmpipe ends an invocation's loops after 65,535 iterations in all (kLoopBudget), so a dispatch
// takes no more steps than fit.
std::uint64_t loopsPerStep(const Params& p, std::uint32_t boids, std::size_t obstacle_loop_end) {
    return boids + neighbourSweeps(p) * (boids + 8) * (1 + p.neighbour_cap) + 4 * obstacle_loop_end + 32;
}

}  // namespace

void GpuSimulation::enableStepsInGroups(bool on, GroupMemory memory) {
    steps_in_groups_ = on;
    group_memory_ = memory;
}

// How the next dispatch of flock_steps.comp steps (at most `wanted` steps), or no steps: this
// step then takes the passes. Not for the sequential order, perching or a style that keeps its
// steering (state the pass does not carry), nor for a step profiled pass by pass or run in
// slices. The pass timer (enableTiming) times the steps that take the passes alone. Nor for one
// step alone: the pass orders the flock and meets two barriers a step, where the passes bin a
// whole ensemble at once, and a work group of a flock leaves its lanes past the flock idle; on
// llvmpipe 256 flocks of 100 took 12.9 ms a step in work groups against 9.7 by the passes, one
// step at a time. Over many steps the passes' dispatches are what it saves (docs/performance.md).
GpuSimulation::GroupSteps GpuSimulation::groupStepsNow(int wanted) const {
    if (!steps_in_groups_ || profile_next_ || params_.update == UpdateOrder::Sequential || params_.perching ||
        keepsSteering(params_) || (interrupt_ && candidatePairsPerStep(params_) >= slice_min_pairs_))
        return {};
    std::uint64_t loops = 0;
    std::uint32_t most = 0;
    // An ensemble's obstacle loops run to kMaxObstacles where any flock has obstacles.
    const std::size_t obstacle_loop_end =
        ensemble_.empty() ? params_.obstacles.size() : variant_params_.obstacles.empty() ? 0 : kMaxObstacles;
    const auto take = [&](const Params& p, const GridSpec& grid, std::uint32_t boids) {
        loops = std::max(loops, loopsPerStep(p, boids, obstacle_loop_end));
        most = std::max(most, boids);
        return fitsAWorkGroup(p, grid, boids);
    };
    if (ensemble_.empty() && !take(params_, grid_, n_)) return {};
    for (const EnsembleFlock& f : ensemble_)
        if (!take(f.params, f.grid, f.boids)) return {};
    const std::uint64_t steps = std::min<std::uint64_t>(kLoopBudget / loops, std::uint64_t(std::max(wanted, 0)));
    if (steps < 2) return {};  // what it saves is the passes of the steps after the first (see below)
    const bool shared = group_memory_ == GroupMemory::Shared || (group_memory_ == GroupMemory::Auto && !software_renderer_);
    return {int(steps), std::min((most + 31) / 32 * 32, std::uint32_t(STEP_GROUP_SIZE)), shared};
}

gl::Program GpuSimulation::buildGroupSteps(const gl::ShaderLibrary& lib, std::uint32_t group_size, bool shared) const {
    auto defines = variantDefines(variant_params_, !ensemble_.empty());
    defines.push_back({"FLOCK_GROUP_SIZE", std::to_string(group_size)});
    defines.push_back({"ORDERED_IN_SHARED", shared ? "1" : "0"});
    return gl::buildCompute(lib, "flock_steps.comp", defines);
}

// Every flock's next `how.steps` steps in one dispatch, one work group a flock; the next step's
// passes count the cells afresh (flock_steps.comp keeps no grid).
void GpuSimulation::stepInGroups(GroupSteps how) {
    Programs& programs = *programs_;
    if (!programs.steps_in_groups || programs.steps_group_size != how.group_size || programs.steps_shared != how.shared) {
        programs.steps_in_groups = buildGroupSteps(shaders_, how.group_size, how.shared);  // throws before anything changes
        programs.steps_group_size = how.group_size;
        programs.steps_shared = how.shared;
    }
    uploadStepEvents();  // the first step's index; the pass counts on from it
    bindState();
    if (!how.shared) {
        sorted_pos_tex_.bindImage(IMAGE_ORDERED_POS);
        sorted_vel_tex_.bindImage(IMAGE_ORDERED_VEL);
        boid_bin_tex_.bindImage(IMAGE_KEYS);
        // The images' stores wait for every earlier read of the sorted copy (a steer pass's fetches).
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    }
    programs.steps_in_groups.use();
    glUniform1ui(programs.steps_in_groups.uniform("u_steps"), std::uint32_t(how.steps));
    dispatchGroups(flockCount());
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                    GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
    step_count_ += std::uint32_t(how.steps);
    steps_in_groups_taken_ += std::uint64_t(how.steps);
    binned_ = false;
    sorted_fresh_ = false;
}

}  // namespace murmur::gpu
