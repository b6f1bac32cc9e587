// What a renderer needs from a backend whose flock lives in GL buffers (the GPU pipeline): the
// buffers' names in the layout of shaders/layout.glsl, one boid found by id, and the boid under a
// pointer, all without reading the flock back. A backend that keeps its flock in host memory has
// no Drawable (Simulation::drawable() is null) and a renderer copies download() instead.
#pragma once

#include "model/boid.hpp"

#include <glm/glm.hpp>

#include <cstdint>
#include <optional>

namespace murmur {

// GL buffer names (0: none) of the current state; valid until the next upload or step (or, for a
// host flock's copy, the next call).
struct FlockBuffers {
    std::uint32_t pos = 0;         // vec4 per slot: position, id in w (as bits)
    std::uint32_t vel = 0;         // vec4 per slot: velocity, species in w (as bits)
    std::uint32_t neighbours = 0;  // uint per slot: the last step's neighbour count
    std::uint32_t count = 0;       // slots
    std::uint32_t steer = 0;       // vec4 per slot: the kept steering (styles that keep it), else 0
};

// A boid found by id, with its last neighbour count.
struct FoundBoid {
    Boid boid;
    std::uint32_t neighbours = 0;
};

// The pointer and the camera for picking (pickedBoid in render/picking.hpp is the rule).
struct PickQuery {
    glm::mat4 view_projection{1.0f};
    glm::vec2 viewport{1.0f};  // pixels
    glm::vec2 pixel{0.0f};     // the pointer, origin bottom left
    glm::vec3 eye{0.0f};       // 3D: the camera's position (the nearer of two close boids wins)
    bool three_d = false;
    float max_px = 12.0f;      // no boid further than this from the pointer on screen is picked
};

class Drawable {
public:
    virtual ~Drawable() = default;
    virtual FlockBuffers buffers() = 0;
    virtual std::optional<FoundBoid> find(std::uint32_t id) = 0;
    // The id of the boid drawn nearest the pointer, by the rule of render/picking.hpp.
    virtual std::optional<std::uint32_t> pick(const PickQuery& query) = 0;
};

}  // namespace murmur
