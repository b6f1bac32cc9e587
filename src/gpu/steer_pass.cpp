#include "gpu/steer_pass.hpp"

#include "gpu/capacity.hpp"
#include "gpu/dispatch.hpp"
#include "model/density.hpp"

#include <algorithm>

namespace murmur::gpu {

void SteerPass::setPrograms(std::span<gl::Program> built) {
    steer_ = std::move(built[0]);
    images_ = std::move(built[1]);
    steer_group_ = groupSize(steer_);
    measured_ = gl::Program{};
    measured_group_ = STEP_GROUP_SIZE;
}

void SteerPass::setSlices(std::uint32_t slice_groups, double min_pairs) {
    slice_groups_ = std::max(1u, slice_groups);
    slice_min_pairs_ = min_pairs;
}

bool SteerPass::inSlices(const Params& p, const Interrupt& check) const {
    return check && candidatePairsPerStep(p) >= slice_min_pairs_;
}

// Boids a work group of the pass, one an invocation: STEP_GROUP_SIZE, or the tiled walk's
// TILE_GROUP_SIZE (MURMUR_GPU_WALK=tiles), as the program was built (asked once, when set).
std::uint32_t SteerPass::groupSize(const gl::Program& program) {
    GLint size[3] = {STEP_GROUP_SIZE, 1, 1};
    glGetProgramiv(program.id(), GL_COMPUTE_WORK_GROUP_SIZE, size);
    return std::uint32_t(std::max(size[0], 1));
}

bool SteerPass::run(FlockState& s, gl::Program& program, const Interrupt& check) {
    const std::uint32_t per_group = &program == &measured_ ? measured_group_ : steer_group_;
    const std::uint32_t groups = groupsFor(s.n, per_group);
    if (&program == &steer_ && inSlices(s.params, check)) {
        if (!runInSlices(s, groups, per_group, check)) return false;
    } else {
        glUniform1ui(program.uniform("u_first_group"), 0u);
        dispatchGroups(groups);
    }
    countImages(s);
    s.current = 1 - s.current;
    s.changedAndCounted();  // the steer pass counted what it wrote
    return true;
}

// Slot i of the state against slot i of the sorted copy the pass read (image_count.comp).
void SteerPass::countImages(const FlockState& s) {
    if (s.params.bounds != Bounds::Wrap) return;
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);  // the positions the pass wrote
    images_.use();
    dispatchGroups(groupsFor(s.n, STEP_GROUP_SIZE));
}

bool SteerPass::runInSlices(FlockState& s, std::uint32_t groups, std::uint32_t per_group, const Interrupt& check) {
    const GLint first = steer_.uniform("u_first_group");
    // A slice is slice_groups_ groups of STEP_GROUP_SIZE boids (as many boids in smaller groups),
    // and one row: the padding groups of a slice split into rows would step (and bin) boids of
    // the next slice a second time.
    const std::uint32_t boids = slice_groups_ * std::uint32_t(STEP_GROUP_SIZE);
    const std::uint32_t slice = std::max(1u, std::min(boids / per_group, dispatchRowLimit()));
    for (std::uint32_t done = 0; done < groups; done += slice) {
        glUniform1ui(first, done);
        dispatchGroups(std::min(slice, groups - done));
        glFinish();
        if (check()) {
            s.changed();
            return false;
        }
    }
    return true;
}

void SteerPass::runSequential(FlockState& s) {
    s.changed();  // this steer does not bin
    s.bind();
    steer_.use();
    glUniform1ui(steer_.uniform("u_first_group"), 0u);
    const std::uint32_t run = sequentialRun(s.params, s.n);
    glUniform1ui(steer_.uniform("u_id_count"), run);
    for (std::uint32_t first = 0; first < s.n; first += run) {
        glUniform1ui(steer_.uniform("u_first_id"), first);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        glDispatchCompute(1, 1, 1);
        ++dispatchCount();
    }
}

}  // namespace murmur::gpu
