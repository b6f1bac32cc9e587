// Clicking a boid: the boid drawn nearest to a window pixel, within a few pixels. CPU-side over a
// downloaded flock (once per click, not per frame).
#pragma once

#include "model/boid.hpp"
#include "render/camera.hpp"

#include <glm/glm.hpp>

#include <cstdint>
#include <optional>

namespace murmur::render {

// Index into flock of the boid whose projection is nearest `pixel` (origin bottom left) and
// within max_px of it; in 3D, of two within a pixel of each other on screen, the one nearer
// the eye. Empty when none is that close.
std::optional<std::size_t> pickBoid(const Flock& flock, const Camera& camera, glm::vec2 viewport, glm::vec2 pixel,
                                    float max_px = 12.0f);

}  // namespace murmur::render
