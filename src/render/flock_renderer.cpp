// Boid drawing (vertex pulling from the state buffers) and overlays; see flock_renderer.hpp.
#include "render/flock_renderer.hpp"

#include "model/styles.hpp"

#include "gpu/layout.hpp"

#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>

namespace murmur::render {

constexpr int kDartVertices = 12;  // boid.vert's kBoidVertices: the 3D dart's four sides
constexpr int kTriangleVertices = 3;  // ... and the 2D triangle
constexpr int kFlatVertices = 3;  // ... and the 3D flat dart

float boidSize(const Params& p) {
    if (p.boid_length > 0.0f) return p.boid_length;
    return std::clamp(0.6f * p.species[0].separation.radius, 0.005f * p.world_size, 0.02f * p.world_size);
}

namespace {

// Bit s set: species s is a predator (boid.vert draws it larger, in red).
GLuint predatorMask(const Params& p) {
    GLuint predators = 0;
    for (std::uint32_t sp = 0; sp < std::min(p.species_count, kMaxSpecies); ++sp)
        if (p.roles[sp].predator) predators |= 1u << sp;
    return predators;
}

// Whether that mode draws a point a boid (points or splats).
bool isPointMode(DrawMode mode) { return mode == DrawMode::Points || mode == DrawMode::Splats; }

// A boid's vertices in that mode: a point, a 2D triangle, a flat dart, a 3D dart.
int verticesABoid(DrawMode mode, int dims) {
    if (isPointMode(mode)) return 1;
    if (dims == 3) return mode == DrawMode::Flat ? kFlatVertices : kDartVertices;
    return kTriangleVertices;
}

}  // namespace

FlockExtent boxExtent(const Params& p, std::uint64_t boids) {
    const float L = p.world_size, z = p.dims == 3 ? 0.5f * L : 0.0f;
    const float radius = p.dims == 3 ? L * std::cbrt(3.0f / (4.0f * 3.14159265f)) : L / std::sqrt(3.14159265f);
    return {glm::vec3(0.5f * L, 0.5f * L, z), radius, boids};
}

FlockExtent extentOf(const Params& p, const std::vector<float>& xyz) {
    const std::size_t n = xyz.size() / 3;
    if (n == 0) return boxExtent(p, 0);
    glm::dvec3 sum(0.0);
    for (std::size_t i = 0; i < n; ++i) sum += glm::dvec3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
    const glm::dvec3 mean = sum / double(n);
    double spread = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const glm::dvec3 d = glm::dvec3(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]) - mean;
        spread += glm::dot(d, d);
    }
    const double radius = std::sqrt((p.dims == 3 ? 5.0 / 3.0 : 2.0) * spread / double(n));
    if (!std::isfinite(radius) || !std::isfinite(mean.x + mean.y + mean.z)) return boxExtent(p, n);
    return {glm::vec3(mean), float(radius), n};
}

OnScreen onScreen(const Params& p, const FlockExtent& e, const glm::mat4& view_proj, float px_per_clip, const DrawSettings& s,
                  std::uint64_t viewport_pixels) {
    OnScreen out;
    out.boids = e.boids;
    const float w = (view_proj * glm::vec4(e.centre, 1.0f)).w;
    // 2D (orthographic): w is 1 and px_per_clip pixels a unit. 3D: inside the ball, its boids lie about 3/4 of its radius off.
    const float depth = p.dims == 3 ? std::max({w, 0.75f * e.radius, 1e-6f}) : 1.0f;
    const bool inside = p.dims == 3 && w <= e.radius;
    const float length = std::max(boidSize(p) * s.size_scale * px_per_clip / depth, s.min_px);
    out.boid_px = predatorMask(p) != 0 ? 2.2f * length : length;  // a predator is drawn 2.2 times as long (boid.vert)
    // At least a boid's own length: one boid, or boids at one point, have no spread.
    const double disc_px = std::max(double(e.radius) * double(px_per_clip) / double(depth), double(out.boid_px));
    const double viewport = double(viewport_pixels);
    const double disc = inside ? viewport : 3.14159265358979 * disc_px * disc_px;
    out.pixels = std::uint64_t(std::clamp(disc, 1.0, std::max(viewport, 1.0)));
    return out;
}

const char* drawModeName(DrawMode mode) {
    switch (mode) {
    case DrawMode::Splats: return "splats";
    case DrawMode::Points: return "points";
    case DrawMode::Flat: return "flat";
    case DrawMode::Meshes: break;
    }
    return "meshes";
}

DrawMode drawMode(const Params& p, float boid_px, std::uint64_t boids, std::uint64_t pixels) {
    if (p.draw == 1) return DrawMode::Meshes;
    if (p.draw == 2) return DrawMode::Points;
    if (p.draw == 3) return DrawMode::Splats;
    const bool three = p.dims == 3;
    if (p.draw == 4) return three ? DrawMode::Flat : DrawMode::Meshes;
    const double covered = double(boids) * kMeshArea * double(boid_px) * double(boid_px);
    if (covered > kPointsOverCover * double(pixels)) return DrawMode::Splats;
    if (boid_px < kPointsBelowPx) return DrawMode::Points;
    return three && boid_px < kFlatBelowPx ? DrawMode::Flat : DrawMode::Meshes;
}

bool drawsPoints(const Params& p, float boid_px, std::uint64_t boids, std::uint64_t pixels) {
    return isPointMode(drawMode(p, boid_px, boids, pixels));
}

DrawCounts drawCounts(const Params& p, const OnScreen& seen, std::uint64_t drawn) {
    DrawCounts c;
    c.mode = drawMode(p, seen.boid_px, seen.boids, seen.pixels);
    c.points = isPointMode(c.mode);
    c.vertices = drawn * std::uint64_t(verticesABoid(c.mode, p.dims));
    const double px = double(seen.boid_px), side = std::max(1.0, 0.57 * px);  // boid.vert's gl_PointSize for that length
    c.fragments_estimate = double(drawn) * (c.points ? side * side : kMeshArea * px * px);
    return c;
}

namespace {

// The boid programs' uniforms: the camera, sizes, colouring, selection, predators, wing beats.
void setBoidUniforms(const gl::Program& prog, const Params& p, const DrawSettings& s, const Camera& camera, const glm::mat4& view_proj,
                     float px_per_clip, const std::optional<Selection>& selection, bool has_steer, const FlockExtent& extent) {
    glUniformMatrix4fv(prog.uniform("u_view_proj"), 1, GL_FALSE, glm::value_ptr(view_proj));
    glUniform3fv(prog.uniform("u_eye"), 1, glm::value_ptr(camera.eye()));  // flat darts only
    glUniform1f(prog.uniform("u_size"), boidSize(p) * s.size_scale);
    glUniform1f(prog.uniform("u_min_px"), s.min_px);
    glUniform1f(prog.uniform("u_px_per_clip"), px_per_clip);
    glUniform1i(prog.uniform("u_colour_by"), int(s.colour_by));
    glUniform1f(prog.uniform("u_max_speed"), p.species[0].max_speed);
    glUniform1f(prog.uniform("u_neighbour_scale"), s.neighbour_scale);
    glUniform1ui(prog.uniform("u_selected_id"), selection ? selection->id : 0xffffffffu);
    glUniform1ui(prog.uniform("u_predators"), predatorMask(p));
    glUniform1i(prog.uniform("u_flap"), styleInfo(p.style).traits.wings_flap && has_steer ? 1 : 0);
    glUniform1f(prog.uniform("u_time"), s.time);
    glUniform1i(prog.uniform("u_banks"), styleInfo(p.style).traits.banks && has_steer ? 1 : 0);
    // Dusk: fog from the flock's centre, falling by e over twice its radius.
    glUniform1i(prog.uniform("u_dusk"), s.colour_by == ColourBy::Dusk ? 1 : 0);
    glUniform1f(prog.uniform("u_fog_start"), glm::length(camera.eye() - extent.centre));
    glUniform1f(prog.uniform("u_fog"), p.dims == 3 ? 2.0f * extent.radius : 0.0f);
}

}  // namespace

FlockRenderer::FlockRenderer(const gl::ShaderLibrary& shaders)
    : boid2_(gl::buildGraphics(shaders, "boid.vert", "boid.frag", {{"DIMS", "2"}})),
      boid3_(gl::buildGraphics(shaders, "boid.vert", "boid.frag", {{"DIMS", "3"}})),
      flat3_(gl::buildGraphics(shaders, "boid.vert", "boid.frag", {{"DIMS", "3"}, {"FLAT", "1"}})),
      points2_(gl::buildGraphics(shaders, "boid.vert", "boid.frag", {{"DIMS", "2"}, {"POINTS", "1"}})),
      points3_(gl::buildGraphics(shaders, "boid.vert", "boid.frag", {{"DIMS", "3"}, {"POINTS", "1"}})),
      splats2_(gl::buildGraphics(shaders, "boid.vert", "boid.frag", {{"DIMS", "2"}, {"POINTS", "1"}, {"SPLATS", "1"}})),
      splats3_(gl::buildGraphics(shaders, "boid.vert", "boid.frag", {{"DIMS", "3"}, {"POINTS", "1"}, {"SPLATS", "1"}})),
      tone_(gl::buildGraphics(shaders, "fullscreen.vert", "splat_tone.frag", {})),
      sky_(gl::buildGraphics(shaders, "fullscreen.vert", "sky.frag", {})),
      lines_(gl::buildGraphics(shaders, "lines.vert", "lines.frag", {})) {
    lines_vao_.floatAttribute(0, 3, offsetof(LineVertex, pos));
    lines_vao_.floatAttribute(1, 4, offsetof(LineVertex, colour));
}

void FlockRenderer::drawInto(const FlockView& flock, const Params& p, const Camera& camera, const ScreenRect& area,
                             const DrawSettings& s, const std::optional<Selection>& selection) {
    glClearColor(s.background.r, s.background.g, s.background.b, 1.0f);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);  // the whole framebuffer: no viewport limits a clear
    glViewport(area.x, area.y, area.w, area.h);
    const glm::ivec2 viewport_px(area.w, area.h);
    if (viewport_px.x <= 0 || viewport_px.y <= 0) return;
    const float aspect = float(viewport_px.x) / float(viewport_px.y);
    const glm::mat4 proj = camera.projection(aspect);
    const glm::mat4 view_proj = proj * camera.view();

    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    if (p.dims == 3) glEnable(GL_DEPTH_TEST);
    else glDisable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);

    const float px_per_clip = float(viewport_px.y) * proj[1][1] / 2.0f;
    const FlockExtent extent = s.flock ? *s.flock : boxExtent(p, flock.count);
    const bool dusk = s.colour_by == ColourBy::Dusk;
    if (dusk) drawSky(area, view_proj, p.dims);
    last_counts_ = drawCounts(p, onScreen(p, extent, view_proj, px_per_clip, s, std::uint64_t(viewport_px.x) * std::uint64_t(viewport_px.y)),
                              flock.count);
    const DrawMode mode = last_counts_.mode;
    if (flock.count > 0) {
        const bool three = p.dims == 3;
        const gl::Program& prog = mode == DrawMode::Splats   ? (three ? splats3_ : splats2_)
                                  : mode == DrawMode::Points ? (three ? points3_ : points2_)
                                  : mode == DrawMode::Flat   ? flat3_
                                                             : (three ? boid3_ : boid2_);
        prog.use();
        setBoidUniforms(prog, p, s, camera, view_proj, px_per_clip, selection, flock.steer != 0, extent);
        if (mode == DrawMode::Splats) {
            drawSplats(flock, area);
            if (three) glEnable(GL_DEPTH_TEST);  // the lines after them, as in the other modes
        } else if (dusk) {  // dark over light, in any order: no depth test, each bird over what is drawn
            glDisable(GL_DEPTH_TEST);
            glEnable(GL_BLEND);
            glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);  // the sky's alpha stays
            drawBoids(flock, mode == DrawMode::Points, verticesABoid(mode, p.dims));
            glDisable(GL_BLEND);
            glBlendFunc(GL_ONE, GL_ZERO);
            if (three) glEnable(GL_DEPTH_TEST);
        } else drawBoids(flock, mode == DrawMode::Points, verticesABoid(mode, p.dims));
    }
    std::vector<LineVertex> lines;
    if (s.show_bounds && !(dusk && p.bounds == Bounds::Open)) lines = boundsLines(p);  // open sky at dusk: no box
    const auto influences = influenceLines(p);
    lines.insert(lines.end(), influences.begin(), influences.end());
    if (selection) {
        const auto sel = selectionLines(p, *selection, camera);
        lines.insert(lines.end(), sel.begin(), sel.end());
    }
    drawLines(lines, view_proj);
    glBindVertexArray(0);
}

void FlockRenderer::drawBoids(const FlockView& flock, bool points, GLsizei vertices_a_boid) const {
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BIND_STEER, flock.steer);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BIND_POS, flock.pos);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BIND_VEL, flock.vel);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, BIND_NEIGHBOURS, flock.neighbours);
    empty_vao_.bind();
    if (points) {  // a vertex a boid, its size set by the shader
        glEnable(GL_PROGRAM_POINT_SIZE);
        glDrawArrays(GL_POINTS, 0, GLsizei(flock.count));
        glDisable(GL_PROGRAM_POINT_SIZE);
    } else {  // vertex pulling: one draw, boid i's vertices i*V .. i*V+V-1 (10^8 darts: 1.2e9 < 2^31)
        glDrawArrays(GL_TRIANGLES, 0, GLsizei(std::size_t(flock.count) * std::size_t(vertices_a_boid)));
    }
}

namespace {

// The sums' pixels are 16 bytes (four floats): a 12000x12000 area would need 2.3 GB, past what
// drivers give one texture. Past 2^26 pixels (1 GiB) or the largest texture side, one sums
// pixel covers scale x scale screen pixels (its boids' mean colour over them all).
int splatScale(const ScreenRect& area) {
    constexpr std::int64_t kMaxSumPixels = std::int64_t(1) << 26;
    GLint max_side = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_side);
    int scale = 1;
    const auto side = [&](int n) { return std::int64_t((n + scale - 1) / scale); };
    while (side(area.w) * side(area.h) > kMaxSumPixels || side(area.w) > max_side || side(area.h) > max_side) scale *= 2;
    return scale;
}

}  // namespace

void FlockRenderer::drawSplats(const FlockView& flock, const ScreenRect& area) {
    GLint target = 0;
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
    const int scale = splatScale(area), w = (area.w + scale - 1) / scale, h = (area.h + scale - 1) / scale;
    if (sums_.width() != w || sums_.height() != h) sums_ = gl::SumTarget(w, h);
    sums_.bindCleared();
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);  // sums: colour and count
    drawBoids(flock, true, 1);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, GLuint(target));
    glViewport(area.x, area.y, area.w, area.h);
    glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);  // over the background; its alpha stays
    tone_.use();
    glUniform2i(tone_.uniform("u_origin"), area.x, area.y);
    glUniform1f(tone_.uniform("u_gain"), kSplatGain);
    glUniform1i(tone_.uniform("u_scale"), scale);
    sums_.bindTexture(0);
    empty_vao_.bind();
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ZERO);
}

void FlockRenderer::drawSky(const ScreenRect& area, const glm::mat4& view_proj, int dims) const {
    glDisable(GL_DEPTH_TEST);
    sky_.use();
    const glm::mat4 inverse = glm::inverse(view_proj);
    glUniformMatrix4fv(sky_.uniform("u_inv_view_proj"), 1, GL_FALSE, glm::value_ptr(inverse));
    glUniform4f(sky_.uniform("u_area"), float(area.x), float(area.y), float(area.w), float(area.h));
    glUniform1i(sky_.uniform("u_dims"), dims);
    empty_vao_.bind();
    glDrawArrays(GL_TRIANGLES, 0, 3);
    if (dims == 3) glEnable(GL_DEPTH_TEST);
}

void FlockRenderer::drawLines(const std::vector<LineVertex>& lines, const glm::mat4& view_proj) {
    if (lines.empty()) return;
    const std::size_t bytes = lines.size() * sizeof(LineVertex);
    if (lines_buf_.size() < bytes) {
        lines_buf_ = gl::Buffer(bytes * 2);
        lines_vao_.vertexBuffer(lines_buf_, sizeof(LineVertex));
    }
    lines_buf_.upload(lines.data(), bytes);
    lines_.use();
    glUniformMatrix4fv(lines_.uniform("u_view_proj"), 1, GL_FALSE, glm::value_ptr(view_proj));
    lines_vao_.bind();
    glDrawArrays(GL_LINES, 0, GLsizei(lines.size()));
}

}  // namespace murmur::render
