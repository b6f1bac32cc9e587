// The per-pair rules every style's walk runs for each candidate neighbour, inline for the walk's
// inner loop: the minimum image, a boid's own adaptive radius, the neighbour test (radius, own
// radius, view cone), predators and prey, and Reynolds' alignment and cohesion terms.
// shaders/flock_rules.glsl implements the same functions. Apart from flock_rules.hpp so that only
// the code that walks neighbours is rebuilt when they change.
#pragma once

#include "cpu/flock_rules.hpp"

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace murmur {

// Minimum-image offset in wrap mode, plain difference in soft mode.
inline glm::vec3 offsetBetween(const RuleContext& ctx, glm::vec3 from, glm::vec3 to) {
    glm::vec3 d = to - from;
    if (ctx.wrap)
        for (int k = 0; k < ctx.dims; ++k) d[k] -= ctx.L[k] * std::floor(d[k] * ctx.inv_L[k] + 0.5f);
    return d;
}

// A boid's own search radius (adaptive topological neighbours): Boid::steer.w within
// (0, max_radius], or max_radius for a boid that has none yet (0: spawned, or set by set_state).
inline float reachOf(const RuleContext& ctx, const Boid& b) {
    const float m = ctx.p.topological.max_radius;
    return b.steer.w > 0.0f ? std::min(b.steer.w, m) : m;
}

// True if `other` is a neighbour of self: not on the ground, within self's look radius (and its
// own search radius, adaptive) and, when
// velocity_cone, within the cone of view about self's velocity (a style without it sees for
// itself). Sets d (minimum image, self to other) and d2. j != i is the caller's job.
inline bool isNeighbourOf(const RuleContext& ctx, const Boid& self, const Boid& other, glm::vec3& d, float& d2,
                          bool velocity_cone = true) {
    if (ctx.perching && other.perch > 0.0f) return false;  // boids on the ground are out of the flock
    const SpeciesContext& k = ctx.of(self);
    d = offsetBetween(ctx, self.p, other.p);
    d2 = glm::dot(d, d);
    if (!(d2 < k.r2_max)) return false;
    if (ctx.adaptive) {
        const float r = reachOf(ctx, self);
        if (!(d2 < r * r)) return false;
    }
    if (velocity_cone && k.use_fov && d2 > 0.0f) {
        // dot(v/|v|, d/|d|) >= cos(fov/2), written without division; a boid at rest sees all
        // around, and a coincident boid (d = 0) is at the eye, so inside the view.
        const float v2 = glm::dot(self.v, self.v);
        if (v2 > 0.0f && glm::dot(self.v, d) < k.cos_half_fov * std::sqrt(v2 * d2)) return false;
    }
    return true;
}

// Predators and prey, for every style: prey within its flee radius of a predator adds -d/|d|^2 to
// flee (d when flee_along_d: the offset style's velocity offsets); a predator marks the nearest
// prey it sees within its cohesion radius, by (d2, id).
inline void addPredatorOrPrey(const SpeciesContext& k, const SpeciesContext& o, const Boid& other, glm::vec3 d, float d2,
                              NeighbourSums& sums, bool flee_along_d = false) {
    if (!k.predator && o.predator && d2 < k.r2_flee) {
        ++sums.n_flee;
        if (flee_along_d) sums.flee += d;
        else if (d2 > 0.0f) sums.flee -= d / d2;
    }
    if (k.predator && !o.predator && d2 < k.r2_coh &&
        (!sums.chasing || d2 < sums.chase_d2 || (d2 == sums.chase_d2 && other.id < sums.chase_id))) {
        sums.chasing = true;
        sums.chase_d = d;
        sums.chase_d2 = d2;
        sums.chase_id = other.id;
    }
}

// Reynolds' alignment and cohesion terms of a neighbour of self's species (same): v_j within the
// alignment radius, d within the cohesion radius.
inline void addAlignmentAndCohesion(const SpeciesContext& k, bool same, const Boid& other, glm::vec3 d, float d2,
                                    NeighbourSums& sums) {
    if (same && d2 < k.r2_ali) {
        ++sums.n_ali;
        sums.ali += other.v;
    }
    if (same && d2 < k.r2_coh) {
        ++sums.n_coh;
        sums.coh += d;
    }
}

}  // namespace murmur
