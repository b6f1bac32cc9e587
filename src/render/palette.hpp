// The colours boids are drawn in, as the boid vertex shader computes them (shaders/boid.vert):
// the legend draws from these, and a render test holds the shader to them.
#pragma once

#include <glm/glm.hpp>

#include <cstdint>

namespace murmur::render {

// Species 0..3 (higher ones as 3); predators are red whatever their species.
glm::vec3 speciesColour(std::uint32_t species, bool predator);
// Heading in 2D: the angle of the velocity from +x, radians (3D: the angle in the x-z plane, the
// brightness then growing with the climb).
glm::vec3 headingColour(float angle);
// Speed over max_speed, or neighbours over the scale, t in [0, 1]: blue, teal, yellow.
glm::vec3 rampColour(float t);

}  // namespace murmur::render
