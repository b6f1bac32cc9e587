// Clicking a boid: the boid drawn nearest to a window pixel, within a few pixels. The rule, the
// same on both backends (shaders/boid_under.comp is the GPU's, without reading the flock back):
//   1. boids in front of the camera whose projection lies within max_px of the pointer;
//   2. of those, in 2D the nearest to the pointer on screen; in 3D, those within a pixel of the
//      nearest on screen, and of them the nearest to the eye (a boid in front hides one behind);
//   3. of any still tied, the lowest id.
#pragma once

#include "model/boid.hpp"
#include "model/drawable.hpp"
#include "render/camera.hpp"

#include <glm/glm.hpp>

#include <cstdint>
#include <optional>

namespace murmur::render {

PickQuery pickQuery(const Camera& camera, glm::vec2 viewport, glm::vec2 pixel, float max_px = 12.0f);

// The distance on screen from the pointer to p's projection, in pixels; empty behind the camera.
std::optional<float> screenDistance(const PickQuery& q, const glm::vec3& p);

// Index into flock of the boid the rule above picks; empty when none is within max_px.
std::optional<std::size_t> pickBoid(const Flock& flock, const PickQuery& query);

inline std::optional<std::size_t> pickBoid(const Flock& flock, const Camera& camera, glm::vec2 viewport, glm::vec2 pixel,
                                           float max_px = 12.0f) {
    return pickBoid(flock, pickQuery(camera, viewport, pixel, max_px));
}

}  // namespace murmur::render
