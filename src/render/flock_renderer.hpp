// Draws a flock with instanced draws straight from storage buffers (FlockView), plus the world
// bounds and the visual-debug overlay. Owns its programs and vertex arrays, no window: it draws
// into whatever framebuffer is bound (a window's, or an offscreen one for screenshots).
#pragma once

#include "gl/framebuffer.hpp"
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
#include <vector>

namespace murmur::render {

// In the order of the colour key's names in the parameter table (model/param_table.cpp).
// Dusk: a dusk sky behind dark birds whose opacity shows their density and banking (boid.vert).
enum class ColourBy : int { Species = 0, Heading = 1, Speed = 2, Neighbours = 3, Dusk = 4 };

// A ball holding the flock, or the part of it the view is on: what the draw key's auto reads.
struct FlockExtent {
    glm::vec3 centre{0.0f};
    float radius = 0.0f;       // units
    std::uint64_t boids = 0;   // the boids in it
};

struct DrawSettings {
    ColourBy colour_by = ColourBy::Heading;
    float size_scale = 1.0f;         // times the automatic boid size (boidSize())
    float min_px = 2.5f;             // boids are never drawn smaller than this, pixels
    float neighbour_scale = 20.0f;   // neighbour count drawn at the top of the ramp
    bool show_bounds = true;
    float time = 0.0f;               // seconds, for the wing beats (3D, decarpentier style)
    glm::vec3 background{0.06f, 0.07f, 0.09f};
    std::optional<FlockExtent> flock;  // where the flock is, for the draw key's auto (none: the world box)
};

// A boid's length in world units: the boid_length key, or automatic: 0.6 separation radii, kept
// within [0.5%, 2%] of the world.
float boidSize(const Params& p);

// How boids are drawn: meshes (a triangle or dart along the heading), points (a square of about
// the mesh's area, in its colour), density splats (points summed additively into a 32-bit float
// target, then tone-mapped: each pixel the mean colour of its boids, opaque with their count), or
// flat darts (3D: one triangle a boid, the largest of the dart's outline as seen from the eye,
// shaded as its four faces would be on average; in 2D the same as meshes, already a triangle a boid).
enum class DrawMode { Meshes, Points, Splats, Flat };
const char* drawModeName(DrawMode mode);  // "meshes", "points", "splats", "flat"
// The draw key's auto: splats when the meshes would cover the flock's part of the image
// kPointsOverCover times over (a mesh of length L px covers about kMeshArea L^2: shapes that crowded cannot be told apart, their
// density can), else points when a boid at the flock's depth would be drawn under kPointsBelowPx
// pixels long,
// else in 3D flat darts when under kFlatBelowPx (a quarter of the vertices and triangles; side on
// the outline but a sliver, end on 0.6 of it; one shade for the four faces: at that size the faces
// are a few pixels each), else meshes.
inline constexpr float kPointsBelowPx = 3.0f;
inline constexpr float kFlatBelowPx = 12.0f;
inline constexpr double kPointsOverCover = 2.0;
inline constexpr double kMeshArea = 0.3;
// The world box's: its centre, the ball of its volume (area in 2D), every boid.
FlockExtent boxExtent(const Params& p, std::uint64_t boids);
// Of positions (x, y, z a boid): their mean, and the ball whose uniform fill has their mean
// squared distance from it (3D: sqrt(5/3) x the RMS distance; 2D: sqrt 2 x); the box's when
// there are none or one is not finite.
FlockExtent extentOf(const Params& p, const std::vector<float>& xyz);

// The flock as the view sees it: a boid's length at the extent's centre (3D: its depth, or 3/4
// of the ball's radius from the eye when the eye is inside it; the min_px floor, size_scale and
// predators' 2.2 included), and the pixels of the ball's disc within the viewport (the viewport
// when the eye is inside the ball; its radius at least a boid's length).
struct OnScreen {
    float boid_px = 0.0f;
    std::uint64_t pixels = 0;
    std::uint64_t boids = 0;
};
OnScreen onScreen(const Params& p, const FlockExtent& e, const glm::mat4& view_proj, float px_per_clip, const DrawSettings& s,
                  std::uint64_t viewport_pixels);
// The draw key's mode for boids of boid_px pixels, `boids` of them over `pixels` (the flock's
// disc on screen): auto takes splats where their meshes would cover those pixels
// kPointsOverCover times over.
DrawMode drawMode(const Params& p, float boid_px, std::uint64_t boids, std::uint64_t pixels);
// Whether that mode draws a point a boid (points or splats).
bool drawsPoints(const Params& p, float boid_px, std::uint64_t boids, std::uint64_t pixels);
// The splats' opacity for a pixel's count: 1 - exp(-kSplatGain * count) (splat_tone.frag).
inline constexpr float kSplatGain = 0.5f;

// What one draw of the flock issues, by count: points or meshes, the vertices (3 a 2D triangle,
// 12 a 3D dart, 3 a flat dart, 1 a point) for all `drawn` boids, the mode from what is on screen,
// and an estimate of the fragments (every drawn boid as long as the on-screen length and on screen: meshes about kMeshArea L^2, a dart's faces overlapping where
// culling is off; points their square side^2; hidden and off-screen boids make fewer). For the
// benchmark's render rows.
struct DrawCounts {
    DrawMode mode = DrawMode::Meshes;
    bool points = false;  // a point a boid (points or splats)
    std::uint64_t vertices = 0;
    double fragments_estimate = 0.0;
};
DrawCounts drawCounts(const Params& p, const OnScreen& seen, std::uint64_t drawn);

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

    const DrawCounts& lastCounts() const { return last_counts_; }  // the last draw's

private:
    DrawCounts last_counts_;
    void drawLines(const std::vector<LineVertex>& lines, const glm::mat4& view_proj);
    // The flock with the boid program in use (its uniforms set): points or meshes.
    void drawBoids(const FlockView& flock, bool points, GLsizei vertices_a_boid) const;
    // The splats (the splat program in use) into sums_, sized to `area`, then tone-mapped into
    // `area` of the framebuffer bound before.
    void drawSplats(const FlockView& flock, const ScreenRect& area);

    // The dusk sky over `area` (sky.frag), in place of the background.
    void drawSky(const ScreenRect& area, const glm::mat4& view_proj, int dims) const;

    gl::Program boid2_, boid3_, flat3_, points2_, points3_, splats2_, splats3_, tone_, sky_, lines_;
    gl::SumTarget sums_;
    gl::VertexArray empty_vao_, lines_vao_;
    gl::Buffer lines_buf_;
};

}  // namespace murmur::render
