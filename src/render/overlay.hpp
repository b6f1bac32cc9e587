// Line geometry drawn over the flock, built on the CPU (a few hundred vertices): the world's
// bounds, and the visual-debug view of a selected boid (its three radii and its field of view).
#pragma once

#include "model/params.hpp"
#include "render/camera.hpp"

#include <glm/glm.hpp>

#include <cstdint>
#include <vector>

namespace murmur::render {

struct LineVertex {
    glm::vec3 pos;
    glm::vec4 colour;
};

// One boid found by id for visual debug.
struct Selection {
    std::uint32_t id = 0;
    glm::vec3 p{0.0f}, v{0.0f};
    std::uint32_t neighbours = 0;
};

// GL_LINES pairs: the rectangle (2D) or box (3D) [0, L)^dims.
std::vector<LineVertex> boundsLines(const Params& p);
// GL_LINES pairs: each obstacle as a circle (2D) or three great circles (3D), the perching
// ground when perching is on, and a cross at the attractor (green) and the repeller (red) when
// their weight is above 0.
std::vector<LineVertex> influenceLines(const Params& p);
// GL_LINES pairs: circles of the separation, alignment and cohesion radii around the boid and
// the two edges and arc of its field of view (out to the largest radius). In 3D they lie in the
// plane facing the camera (circles) and in the plane of the heading and the camera (the view).
std::vector<LineVertex> selectionLines(const Params& p, const Selection& s, const Camera& camera);

// The colours of the three radii, as the panel's legend shows them.
glm::vec4 separationColour();
glm::vec4 alignmentColour();
glm::vec4 cohesionColour();

}  // namespace murmur::render
