// What the renderer draws: storage buffers in the layout of shaders/layout.glsl (vec4 pos with
// the id in w, vec4 vel with the species in w, uint neighbour count per slot) and their length.
// The GPU pipeline lends its own buffers; the CPU reference's flock is copied into HostFlock.
#pragma once

#include "gl/buffer.hpp"
#include "model/boid.hpp"
#include "model/drawable.hpp"

#include <cstdint>
#include <vector>

namespace murmur::render {

// The buffers' GL names and length (model/drawable.hpp; steer: the kept steering that wing beats
// follow, 0 for none).
using FlockView = FlockBuffers;

// Buffers filled from a Flock on the CPU (the CPU backend, and tests with crafted states).
class HostFlock {
public:
    // neighbours: per boid of `flock` (same order), or empty for zeros.
    void update(const Flock& flock, const std::vector<std::uint32_t>& neighbours);
    FlockView view() const { return {pos_.id(), vel_.id(), neighbours_.id(), count_, steer_.id()}; }

private:
    gl::Buffer pos_, vel_, neighbours_, steer_;
    std::uint32_t count_ = 0;
};

}  // namespace murmur::render
