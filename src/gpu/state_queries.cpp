#include "gpu/state_queries.hpp"

#include "gpu/dispatch.hpp"
#include "gpu/layout.hpp"

#include <array>

namespace murmur::gpu {
namespace {
constexpr GLenum kSsbo = GL_SHADER_STORAGE_BUFFER;
}

std::vector<std::string> StateQueries::shaderFiles() {
    return {"boid_pick.comp", "boid_under.comp", "neighbour_ids.comp", "state_by_id.comp", "state_finite.comp"};
}

void StateQueries::setPrograms(std::span<gl::Program> built) {
    pick_ = std::move(built[0]);
    under_ = std::move(built[1]);
    neighbour_ids_ = std::move(built[2]);
    state_by_id_ = std::move(built[3]);
    finite_ = std::move(built[4]);
}

std::vector<std::uint32_t> StateQueries::neighbourCounts(FlockState& s) {
    if (s.n == 0) return {};
    if (neighbours_by_id_.size() < std::size_t(s.n) * 4) neighbours_by_id_ = gl::Buffer(std::size_t(s.n) * 4);
    neighbours_by_id_.clearToZero();
    s.bind();
    neighbours_by_id_.bindBase(kSsbo, BIND_NEIGHBOURS_BY_ID);
    neighbour_ids_.use();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(groupsFor(s.n, STEP_GROUP_SIZE));
    return neighbours_by_id_.read<std::uint32_t>(s.n);
}

void StateQueries::readXyzById(FlockState& s, float* positions, float* velocities) {
    const std::size_t array_bytes = std::size_t(s.n) * 3 * sizeof(float);
    if (pos_by_id_.size() < array_bytes) {
        pos_by_id_ = gl::Buffer(array_bytes);
        vel_by_id_ = gl::Buffer(array_bytes);
    }
    s.bind();
    pos_by_id_.bindBase(kSsbo, BIND_XYZ_BY_ID);
    vel_by_id_.bindBase(kSsbo, BIND_VEL_XYZ_BY_ID);
    state_by_id_.use();
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(groupsFor(s.n, STEP_GROUP_SIZE));
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    s.bind();  // the perch slot back to what the step expects
    if (positions) pos_by_id_.download(positions, array_bytes);
    if (velocities) vel_by_id_.download(velocities, array_bytes);
}

std::optional<FoundBoid> StateQueries::find(FlockState& s, std::uint32_t id) {
    if (s.n == 0) return std::nullopt;
    if (!picked_) picked_ = gl::Buffer(sizeof(PickedBoid));
    picked_.clearToZero();
    s.bind();
    picked_.bindBase(kSsbo, BIND_PICKED);
    pick_.use();
    glUniform1ui(pick_.uniform("u_id"), id);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(groupsFor(s.n, STEP_GROUP_SIZE));
    const PickedBoid picked = picked_.read<PickedBoid>(1).front();
    if (picked.p.w != 1.0f) return std::nullopt;
    FoundBoid f;
    f.boid.id = id;
    f.boid.p = glm::vec3(picked.p);
    f.boid.v = glm::vec3(picked.v);
    f.neighbours = picked.info.x;
    return f;
}

std::optional<std::uint32_t> StateQueries::under(FlockState& s, const PickQuery& q) {
    if (s.n == 0) return std::nullopt;
    if (!picked_) picked_ = gl::Buffer(sizeof(PickedBoid));
    const std::array<std::uint32_t, 4> none{~0u, ~0u, ~0u, 0u};
    picked_.upload(none.data(), sizeof none);
    s.bind();
    picked_.bindBase(kSsbo, BIND_PICKED);
    under_.use();
    glUniformMatrix4fv(under_.uniform("u_view_projection"), 1, GL_FALSE, &q.view_projection[0][0]);
    glUniform2f(under_.uniform("u_viewport"), q.viewport.x, q.viewport.y);
    glUniform2f(under_.uniform("u_pixel"), q.pixel.x, q.pixel.y);
    glUniform3f(under_.uniform("u_eye"), q.eye.x, q.eye.y, q.eye.z);
    glUniform1ui(under_.uniform("u_three_d"), q.three_d ? 1u : 0u);
    glUniform1f(under_.uniform("u_max_px"), q.max_px);
    for (std::uint32_t stage = 0; stage < 3; ++stage) {
        glUniform1ui(under_.uniform("u_stage"), stage);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        dispatchGroups(groupsFor(s.n, STEP_GROUP_SIZE));
    }
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    const auto best = picked_.read<std::uint32_t>(4);
    if (best[2] == ~0u) return std::nullopt;
    return best[2];
}

// state_finite.comp's flag (the first word of the positions-by-id buffer): 0 while every boid is finite.
bool StateQueries::allFinite(FlockState& s) {
    if (s.n == 0) return true;
    if (pos_by_id_.size() < 4) pos_by_id_ = gl::Buffer(4);
    pos_by_id_.clearToZero();
    s.bind();
    pos_by_id_.bindBase(kSsbo, BIND_XYZ_BY_ID);
    finite_.use();
    glUniform1ui(finite_.uniform("u_slots"), s.n);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    dispatchGroups(groupsFor(s.n, STEP_GROUP_SIZE));
    return pos_by_id_.read<std::uint32_t>(1).front() == 0u;
}

}  // namespace murmur::gpu
