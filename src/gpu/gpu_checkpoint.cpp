// The state kept and brought back, and its finiteness, for the library's step (a step that makes
// the flock non-finite leaves it as it was): copies on the GPU, never through the host.
#include "gpu/dispatch.hpp"
#include "gpu/gpu_simulation.hpp"
#include "gpu/layout.hpp"

#include <algorithm>

namespace murmur::gpu {

namespace {
// `copy` sized as `source` (made again when it is not), then source's bytes into it.
void copyInto(gl::Buffer& copy, const gl::Buffer& source) {
    if (copy.size() != source.size()) copy = gl::Buffer(source.size());
    copy.copyFrom(source, source.size());
}

// Back into `state` what fits of it: a buffer made since (a variant that keeps perch times) keeps
// its zeros beyond.
void copyBack(gl::Buffer& state, const gl::Buffer& copy) {
    state.copyFrom(copy, std::min(state.size(), copy.size()));
}
}  // namespace

void GpuSimulation::checkpoint() {
    settleNextStepSample();
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);  // the last pass's writes, before the copies read them
    copyInto(saved_.pos, pos_);
    copyInto(saved_.vel, vel_);
    copyInto(saved_.perch, perch_);
    copyInto(saved_.steer, steer_);
    copyInto(saved_.neighbours, neighbours_);
    saved_.step_count = step_count_;
}

void GpuSimulation::rollback() {
    settleNextStepSample();
    finishSample();
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    copyBack(pos_, saved_.pos);
    copyBack(vel_, saved_.vel);
    copyBack(perch_, saved_.perch);
    copyBack(steer_, saved_.steer);
    copyBack(neighbours_, saved_.neighbours);
    step_count_ = saved_.step_count;
    binned_ = false;  // the grid and the sorted copy describe the state that went
    sorted_fresh_ = false;
    interrupted_ = false;
}

bool GpuSimulation::allFinite() {
    if (n_ == 0) return true;
    settleNextStepSample();
    if (pos_by_id_.size() < 4) pos_by_id_ = gl::Buffer(4);
    pos_by_id_.clearToZero();
    bindState();
    pos_by_id_.bindBase(GL_SHADER_STORAGE_BUFFER, BIND_XYZ_BY_ID);
    programs_->finite.use();
    glUniform1ui(programs_->finite.uniform("u_slots"), n_);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(groupsFor(n_, STEP_GROUP_SIZE));
    return pos_by_id_.read<std::uint32_t>(1).front() == 0u;
}

}  // namespace murmur::gpu
