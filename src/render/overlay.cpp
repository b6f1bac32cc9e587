// Overlay line geometry; see overlay.hpp.
#include "render/overlay.hpp"

#include <glm/gtc/constants.hpp>

#include <cmath>
#include <utility>

namespace murmur::render {
namespace {

constexpr int kCircleSegments = 64;

void segment(std::vector<LineVertex>& out, glm::vec3 a, glm::vec3 b, glm::vec4 c) {
    out.push_back({a, c});
    out.push_back({b, c});
}

// Arc of `radius` around `centre` in the plane (u, w), from angle a0 to a1 (radians).
void arc(std::vector<LineVertex>& out, glm::vec3 centre, glm::vec3 u, glm::vec3 w, float radius, float a0, float a1,
         glm::vec4 c) {
    const int n = std::max(2, int(std::ceil(kCircleSegments * (a1 - a0) / glm::two_pi<float>())));
    auto at = [&](int k) {
        const float a = a0 + (a1 - a0) * float(k) / float(n);
        return centre + radius * (std::cos(a) * u + std::sin(a) * w);
    };
    for (int k = 0; k < n; ++k) segment(out, at(k), at(k + 1), c);
}

}  // namespace

glm::vec4 separationColour() { return {1.0f, 0.35f, 0.3f, 1.0f}; }
glm::vec4 alignmentColour() { return {0.35f, 1.0f, 0.4f, 1.0f}; }
glm::vec4 cohesionColour() { return {0.4f, 0.6f, 1.0f, 1.0f}; }

std::vector<LineVertex> boundsLines(const Params& p) {
    const glm::vec4 c(0.45f, 0.5f, 0.6f, 1.0f);
    const float L = p.world_size;
    std::vector<LineVertex> out;
    if (p.dims == 2) {
        const glm::vec3 q[4] = {{0, 0, 0}, {L, 0, 0}, {L, L, 0}, {0, L, 0}};
        for (int k = 0; k < 4; ++k) segment(out, q[k], q[(k + 1) % 4], c);
        return out;
    }
    for (int a = 0; a < 3; ++a) {  // 4 edges along each axis
        const int b = (a + 1) % 3, d = (a + 2) % 3;
        for (int k = 0; k < 4; ++k) {
            glm::vec3 from(0.0f);
            from[b] = (k & 1) ? L : 0.0f;
            from[d] = (k & 2) ? L : 0.0f;
            glm::vec3 to = from;
            to[a] = L;
            segment(out, from, to, c);
        }
    }
    return out;
}

std::vector<LineVertex> influenceLines(const Params& p) {
    std::vector<LineVertex> out;
    const glm::vec4 obstacle_colour(0.9f, 0.75f, 0.4f, 1.0f);
    const float full = glm::two_pi<float>();
    for (const Obstacle& o : p.obstacles) {
        const glm::vec3 c(o.at.x, o.at.y, p.dims == 3 ? o.at.z : 0.0f);
        arc(out, c, {1, 0, 0}, {0, 1, 0}, o.radius, 0.0f, full, obstacle_colour);
        if (p.dims == 3) {
            arc(out, c, {1, 0, 0}, {0, 0, 1}, o.radius, 0.0f, full, obstacle_colour);
            arc(out, c, {0, 1, 0}, {0, 0, 1}, o.radius, 0.0f, full, obstacle_colour);
        }
    }
    const float arm = p.world_size * 0.015f;
    auto cross = [&](const Goal& g, glm::vec4 colour) {
        if (!(g.weight > 0.0f)) return;
        const glm::vec3 c(g.at.x, g.at.y, p.dims == 3 ? g.at.z : 0.0f);
        for (int k = 0; k < p.dims; ++k) {
            glm::vec3 e(0.0f);
            e[k] = arm;
            segment(out, c - e, c + e, colour);
        }
    };
    if (p.perching) {  // the ground: a line across the world (2D) or its outline (3D)
        const glm::vec4 ground(0.55f, 0.45f, 0.3f, 1.0f);
        const float L = p.world_size, y = p.perch_ground;
        if (p.dims == 2) segment(out, {0, y, 0}, {L, y, 0}, ground);
        else {
            const glm::vec3 q[4] = {{0, y, 0}, {L, y, 0}, {L, y, L}, {0, y, L}};
            for (int k = 0; k < 4; ++k) segment(out, q[k], q[(k + 1) % 4], ground);
        }
    }
    cross(p.attractor, alignmentColour());
    cross(p.repeller, separationColour());
    if (p.repeller.weight > 0.0f && p.repeller.radius > 0.0f)
        arc(out, glm::vec3(p.repeller.at.x, p.repeller.at.y, p.dims == 3 ? p.repeller.at.z : 0.0f), {1, 0, 0}, {0, 1, 0},
            p.repeller.radius, 0.0f, full, separationColour() * glm::vec4(1, 1, 1, 0.6f));
    return out;
}

std::vector<LineVertex> selectionLines(const Params& p, const Selection& s, const Camera& camera) {
    std::vector<LineVertex> out;
    // The drawing plane: (u, w) with u along the heading where there is one.
    glm::vec3 u(1, 0, 0), w(0, 1, 0);
    glm::vec3 heading = glm::length(s.v) > 0.0f ? glm::normalize(s.v) : glm::vec3(1, 0, 0);
    if (p.dims == 2) {
        heading.z = 0.0f;
        heading = glm::length(heading) > 0.0f ? glm::normalize(heading) : glm::vec3(1, 0, 0);
        u = heading;
        w = {-heading.y, heading.x, 0.0f};
    } else {
        const glm::vec3 to_eye = glm::normalize(camera.eye() - s.p);
        glm::vec3 side = glm::cross(to_eye, heading);
        if (glm::length(side) < 1e-4f) side = glm::cross(heading, std::abs(heading.y) < 0.9f ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0));
        u = heading;
        w = glm::normalize(side);
    }
    const float full = glm::two_pi<float>();
    // The radii the style reads (Params::rulesOf: Couzin's zones from their widths; a style with a
    // reach of its own, its cut-off, drawn in the alignment colour, and none of the three).
    const SpeciesRules rules = p.rulesOf(0);
    for (const auto& [radius, colour] : {std::pair{rules.separation.radius, separationColour()},
                                         std::pair{rules.alignment.radius, alignmentColour()},
                                         std::pair{rules.cohesion.radius, cohesionColour()}, std::pair{rules.reach, alignmentColour()}})
        if (radius > 0.0f) arc(out, s.p, u, w, radius, 0.0f, full, colour);
    // Field of view: two edges at +-fov/2 from the heading and the arc between them.
    const glm::vec4 fov_colour(1.0f, 1.0f, 1.0f, 1.0f);
    const float half = glm::radians(std::min(p.species[0].fov_deg, 360.0f)) / 2, r = p.largestRadius();
    if (p.species[0].fov_deg < 360.0f) {
        for (float a : {-half, half}) segment(out, s.p, s.p + r * (std::cos(a) * u + std::sin(a) * w), fov_colour);
    }
    arc(out, s.p, u, w, r * 1.08f, -half, half, fov_colour);
    segment(out, s.p, s.p + u * r * 1.2f, fov_colour);  // the heading
    return out;
}

}  // namespace murmur::render
