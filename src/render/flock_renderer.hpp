// Draws a flock with instanced draws straight from storage buffers (FlockView), plus the world
// bounds and the visual-debug overlay. Owns its programs and vertex arrays, no window: it draws
// into whatever framebuffer is bound (a window's, or an offscreen one for screenshots).
#pragma once

#include "gl/program.hpp"
#include "gl/vertex_array.hpp"
#include "model/params.hpp"
#include "render/camera.hpp"
#include "render/flock_view.hpp"
#include "render/overlay.hpp"
#include "render/screen_layout.hpp"

#include <glm/glm.hpp>

#include <array>
#include <cstdint>
#include <optional>

namespace murmur::render {

// In the order of the colour key's names in the parameter table (model/param_table.cpp).
enum class ColourBy : int { Species = 0, Heading = 1, Speed = 2, Neighbours = 3 };

struct DrawSettings {
    ColourBy colour_by = ColourBy::Heading;
    float size_scale = 1.0f;         // times the automatic boid size (boidSize())
    float min_px = 2.5f;             // boids are never drawn smaller than this, pixels
    float neighbour_scale = 20.0f;   // neighbour count drawn at the top of the ramp
    bool show_bounds = true;
    float time = 0.0f;               // seconds, for the wing beats (3D, decarpentier style)
    glm::vec3 background{0.06f, 0.07f, 0.09f};
};

// Automatic boid length in world units: 0.6 separation radii, kept within [0.5%, 2%] of the world.
float boidSize(const Params& p);

class FlockRenderer {
public:
    explicit FlockRenderer(const gl::ShaderLibrary& shaders);

    // Clears the bound framebuffer (viewport_px in pixels) and draws the flock, the bounds and,
    // if given, the selected boid's overlay.
    void draw(const FlockView& flock, const Params& p, const Camera& camera, glm::ivec2 viewport_px,
              const DrawSettings& settings, const std::optional<Selection>& selection) {
        drawInto(flock, p, camera, ScreenRect{0, 0, viewport_px.x, viewport_px.y}, settings, selection);
    }
    // The same into the part `area` of the framebuffer (the rest is cleared to the background).
    void drawInto(const FlockView& flock, const Params& p, const Camera& camera, const ScreenRect& area,
              const DrawSettings& settings, const std::optional<Selection>& selection);

private:
    void drawLines(const std::vector<LineVertex>& lines, const glm::mat4& view_proj);

    gl::Program boid2_, boid3_, lines_;
    gl::VertexArray empty_vao_, lines_vao_;
    gl::Buffer lines_buf_;
};

}  // namespace murmur::render
