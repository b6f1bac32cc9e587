// One boid's state as the CPU sees it, and the flock as a plain vector of them.
#pragma once

#include <glm/vec3.hpp>
#include <glm/ext/vector_int3.hpp>
#include <glm/vec4.hpp>

#include <cstdint>
#include <vector>

namespace murmur {

struct Boid {
    std::uint32_t id = 0;       // stable, 0..N-1, assigned at spawn
    std::uint32_t species = 0;  // species index
    glm::vec3 p{0.0f};          // position, units
    glm::vec3 v{0.0f};          // velocity, units/s
    float perch = 0.0f;         // seconds left on the ground (perching; 0: flying)
    // Styles that keep their steering between steps (decarpentier's steering rate, gloss's view
    // along the acceleration): the last steering acceleration (xyz, units/s^2) and the neighbour
    // count it saw (w).
    glm::vec4 steer{0.0f};
    // Periodic images crossed since the state was set (wrap bounds; 0 elsewhere and in an
    // ensemble): the unwrapped position is p + image * world_size, axis by axis.
    glm::ivec3 image{0};
};

using Flock = std::vector<Boid>;

// The flock in id order: element i is the boid with id i (ids 0..N-1, as spawned; std::out_of_range
// on an id outside them). Backends store boids in their own order: compare them by id.
inline Flock byId(const Flock& flock) {
    Flock out(flock.size());
    for (const Boid& b : flock) out.at(b.id) = b;
    return out;
}

// The kept per-boid state (Boid::steer) of a flock, 4 floats a boid in its order.
inline std::vector<float> keptValues(const Flock& flock) {
    std::vector<float> out;
    out.reserve(flock.size() * 4);
    for (const Boid& b : flock) out.insert(out.end(), {b.steer.x, b.steer.y, b.steer.z, b.steer.w});
    return out;
}

// A trajectory frame's vectors from a flock in id order: positions and velocities, 3 floats a boid.
inline void xyzValues(const Flock& flock, std::vector<float>& pos, std::vector<float>& vel) {
    pos.clear(), vel.clear();
    for (const Boid& b : flock) {
        pos.insert(pos.end(), {b.p.x, b.p.y, b.p.z});
        vel.insert(vel.end(), {b.v.x, b.v.y, b.v.z});
    }
}

}  // namespace murmur
