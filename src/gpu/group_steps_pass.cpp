#include "gpu/group_steps_pass.hpp"

#include "gpu/capacity.hpp"
#include "gpu/dispatch.hpp"
#include "gpu/layout.hpp"

#include <algorithm>

namespace murmur::gpu {
namespace {

bool fitsAWorkGroup(const GridSpec& grid, std::uint32_t boids) {
    return boids > 0 && boids <= STEP_GROUP_SIZE && listsEveryCell(grid);
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

// Not for the sequential order, perching or a style that keeps its steering (state the pass does
// not carry), nor for a step profiled pass by pass or run in slices. The pass timer times the
// steps that take the passes alone. Nor for one step alone: the pass orders the flock and meets
// two barriers a step, where the passes bin a whole ensemble at once, and a work group of a flock
// leaves its lanes past the flock idle; on llvmpipe 256 flocks of 100 took 12.9 ms a step in work
// groups against 9.7 by the passes, one step at a time. Over many steps the passes' dispatches are
// what it saves (docs/performance.md).
GroupStepsPass::Plan GroupStepsPass::plan(const FlockState& s, const Params& variant, int wanted, bool blocked) const {
    const Params& p = s.params;
    if (!on_ || blocked || p.update == UpdateOrder::Sequential || p.perching || keepsSteering(p)) return {};
    std::uint64_t loops = 0;
    std::uint32_t most = 0;
    // An ensemble's obstacle loops run to kMaxObstacles where any flock has obstacles.
    const std::size_t obstacle_loop_end = !s.isEnsemble() ? p.obstacles.size() : variant.obstacles.empty() ? 0 : kMaxObstacles;
    const auto take = [&](const Params& fp, const GridSpec& grid, std::uint32_t boids) {
        loops = std::max(loops, loopsPerStep(fp, boids, obstacle_loop_end));
        most = std::max(most, boids);
        return fitsAWorkGroup(grid, boids);
    };
    if (!s.isEnsemble() && !take(p, s.grid, s.n)) return {};
    for (const EnsembleFlock& f : s.ensemble)
        if (!take(f.params, f.grid, f.boids)) return {};
    const std::uint64_t steps = std::min<std::uint64_t>(kLoopBudget / loops, std::uint64_t(std::max(wanted, 0)));
    if (steps < 2) return {};  // what it saves is the passes of the steps after the first (see above)
    const bool shared = memory_ == GroupMemory::Shared || (memory_ == GroupMemory::Auto && !software_);
    return {int(steps), std::min((most + 31) / 32 * 32, std::uint32_t(STEP_GROUP_SIZE)), shared};
}

gl::Program GroupStepsPass::build(const gl::ShaderLibrary& lib, std::vector<gl::ShaderDefine> defines, std::uint32_t size,
                                  bool shared) const {
    defines.push_back({"FLOCK_GROUP_SIZE", std::to_string(size)});
    defines.push_back({"ORDERED_IN_SHARED", shared ? "1" : "0"});
    return gl::buildCompute(lib, "flock_steps.comp", defines);
}

void GroupStepsPass::rebuild(const gl::ShaderLibrary& lib, const std::vector<gl::ShaderDefine>& defines) {
    if (program_) program_ = build(lib, defines, group_size_, shared_);
}

void GroupStepsPass::run(FlockState& s, const Plan& how, const gl::ShaderLibrary& lib, const std::vector<gl::ShaderDefine>& defines) {
    if (!program_ || group_size_ != how.group_size || shared_ != how.shared) {
        program_ = build(lib, defines, how.group_size, how.shared);  // throws before anything changes
        group_size_ = how.group_size;
        shared_ = how.shared;
    }
    s.uploadStepEvents();  // the first step's index; the pass counts on from it
    s.bind();
    if (!how.shared) {
        s.sorted_pos_tex.bindImage(IMAGE_ORDERED_POS);
        s.sorted_vel_tex.bindImage(IMAGE_ORDERED_VEL);
        s.boid_bin_tex.bindImage(IMAGE_KEYS);
        // The images' stores wait for every earlier read of the sorted copy (a steer pass's fetches).
        glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    }
    program_.use();
    glUniform1ui(program_.uniform("u_steps"), std::uint32_t(how.steps));
    dispatchGroups(s.flockCount());
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT |
                    GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
    s.step_count += std::uint32_t(how.steps);
    taken_ += std::uint64_t(how.steps);
    s.changed();
}

}  // namespace murmur::gpu
