// The query pass: what the library and the window ask of the state outside the step, each a
// dispatch over the slots and a small read: a boid by id (boid_pick.comp), the boid under the
// pointer (boid_under.comp), neighbour counts and positions by id (neighbour_ids.comp,
// state_by_id.comp), and whether every boid is finite (state_finite.comp).
#pragma once

#include "gl/program.hpp"
#include "gpu/flock_state.hpp"
#include "model/drawable.hpp"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace murmur::gpu {

class StateQueries {
public:
    static std::vector<std::string> shaderFiles();
    void setPrograms(std::span<gl::Program> built);  // in shaderFiles()'s order
    // The boid with this id (position, velocity, last neighbour count): 48 bytes read back.
    std::optional<FoundBoid> find(FlockState& s, std::uint32_t id);
    // pickBoid's rule (render/picking.cpp) in three dispatches, each an atomic minimum over the
    // flock: screen distance, then depth, then id; 16 bytes come back.
    std::optional<std::uint32_t> under(FlockState& s, const PickQuery& q);
    std::vector<std::uint32_t> neighbourCounts(FlockState& s);  // by id
    // Positions and velocities by id, 12 bytes a boid each, into the caller's memory (either may be null).
    void readXyzById(FlockState& s, float* positions, float* velocities);
    bool allFinite(FlockState& s);

private:
    gl::Program pick_, under_, neighbour_ids_, state_by_id_, finite_;
    gl::Buffer picked_, neighbours_by_id_, pos_by_id_, vel_by_id_;
};

}  // namespace murmur::gpu
