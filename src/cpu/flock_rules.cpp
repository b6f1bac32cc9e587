// Formulas of the flock model; each choice the spec leaves open is documented in docs/model.md.
#include "cpu/flock_rules.hpp"

#include <glm/geometric.hpp>

#include <cmath>

namespace murmur {
namespace {

// x scaled to length m; 0 stays 0.
glm::vec3 setMag(glm::vec3 x, float m) {
    const float len = glm::length(x);
    return len > 0.0f ? x * (m / len) : glm::vec3(0.0f);
}

// x clamped to length at most m.
glm::vec3 limit(glm::vec3 x, float m) {
    const float len = glm::length(x);
    return len > m ? x * (m / len) : x;
}

// Reynolds' steer towards a desired direction at full speed, clamped to max_force.
glm::vec3 steerTowards(const RuleContext& ctx, glm::vec3 desired, glm::vec3 v) {
    return limit(setMag(desired, ctx.p.max_speed) - v, ctx.p.max_force);
}

// Soft walls: per axis, a push of turn * depth / margin once inside the margin band
// (margin 0: a push of `turn` once past the wall). Zero in wrap mode.
glm::vec3 boundsAcceleration(const RuleContext& ctx, glm::vec3 p) {
    glm::vec3 a{0.0f};
    if (ctx.wrap) return a;
    const float m = ctx.p.margin;
    for (int k = 0; k < ctx.dims; ++k) {
        const float low = m - p[k];
        const float high = p[k] - (ctx.L[k] - m);
        if (low > 0.0f) a[k] += ctx.p.turn * (m > 0.0f ? low / m : 1.0f);
        if (high > 0.0f) a[k] -= ctx.p.turn * (m > 0.0f ? high / m : 1.0f);
    }
    return a;
}

// Speed into [min_speed, max_speed]; a boid at exact rest stays at rest.
glm::vec3 clampSpeed(const RuleContext& ctx, glm::vec3 v) {
    const float s = glm::length(v);
    if (s > ctx.p.max_speed) return v * (ctx.p.max_speed / s);
    if (s > 0.0f && s < ctx.p.min_speed) return v * (ctx.p.min_speed / s);
    return v;
}

}  // namespace

RuleContext::RuleContext(const Params& params)
    : dims(params.dims), wrap(params.bounds == Bounds::Wrap), style(params.style), p(params) {
    for (int k = 0; k < dims; ++k) {
        L[k] = params.world_size;
        inv_L[k] = 1.0f / params.world_size;
    }
    r2_sep = params.separation.radius * params.separation.radius;
    r2_ali = params.alignment.radius * params.alignment.radius;
    r2_coh = params.cohesion.radius * params.cohesion.radius;
    const float r_max = params.largestRadius();
    r2_max = r_max * r_max;
    use_fov = params.fov_deg < 360.0f;
    cos_half_fov = params.cosHalfFov();
}

glm::vec3 offsetBetween(const RuleContext& ctx, glm::vec3 from, glm::vec3 to) {
    glm::vec3 d = to - from;
    if (ctx.wrap)
        for (int k = 0; k < ctx.dims; ++k) d[k] -= ctx.L[k] * std::floor(d[k] * ctx.inv_L[k] + 0.5f);
    return d;
}

glm::vec3 wrapPosition(const RuleContext& ctx, glm::vec3 p) {
    if (!ctx.wrap) return p;
    for (int k = 0; k < ctx.dims; ++k) {
        float w = p[k] - ctx.L[k] * std::floor(p[k] * ctx.inv_L[k]);
        if (w < 0.0f) w += ctx.L[k];  // rounding can leave a tiny negative ...
        if (w >= ctx.L[k]) w = 0.0f;  // ... or land exactly on L
        p[k] = w;
    }
    return p;
}

void accumulate(const RuleContext& ctx, const Boid& self, const Boid& other, NeighbourSums& sums) {
    const glm::vec3 d = offsetBetween(ctx, self.p, other.p);
    const float d2 = glm::dot(d, d);
    if (!(d2 < ctx.r2_max)) return;
    if (ctx.use_fov && d2 > 0.0f) {
        // dot(v/|v|, d/|d|) >= cos(fov/2), written without division; a boid at rest sees all
        // around, and a coincident boid (d = 0) is at the eye, so inside the view.
        const float v2 = glm::dot(self.v, self.v);
        if (v2 > 0.0f && glm::dot(self.v, d) < ctx.cos_half_fov * std::sqrt(v2 * d2)) return;
    }
    ++sums.neighbours;
    if (d2 < ctx.r2_sep) {
        ++sums.n_sep;
        // Coincident boids give no direction to flee along, so they add nothing here.
        if (ctx.style == Style::Offset) sums.sep += d;
        else if (d2 > 0.0f) sums.sep -= d / d2;
    }
    if (d2 < ctx.r2_ali) {
        ++sums.n_ali;
        sums.ali += other.v;
    }
    if (d2 < ctx.r2_coh) {
        ++sums.n_coh;
        sums.coh += d;
    }
}

Boid integrate(const RuleContext& ctx, const Boid& self, const NeighbourSums& sums) {
    const Params& p = ctx.p;
    glm::vec3 dv{0.0f};  // velocity change this step
    if (ctx.style == Style::Steering) {
        glm::vec3 a{0.0f};
        if (sums.n_sep > 0) a += p.separation.weight * steerTowards(ctx, sums.sep, self.v);
        if (sums.n_ali > 0) a += p.alignment.weight * steerTowards(ctx, sums.ali / float(sums.n_ali), self.v);
        if (sums.n_coh > 0) a += p.cohesion.weight * steerTowards(ctx, sums.coh / float(sums.n_coh), self.v);
        dv = (a + boundsAcceleration(ctx, self.p)) * p.dt;
    } else {
        // Parker: each rule is a velocity offset per step, summed; walls still push per second.
        if (sums.n_sep > 0) dv -= (sums.sep / float(sums.n_sep)) * p.separation.weight;
        if (sums.n_ali > 0) dv += (sums.ali / float(sums.n_ali) - self.v) * p.alignment.weight;
        if (sums.n_coh > 0) dv += (sums.coh / float(sums.n_coh)) * p.cohesion.weight;
        dv += boundsAcceleration(ctx, self.p) * p.dt;
    }
    Boid next = self;
    next.v = clampSpeed(ctx, self.v + dv);
    next.p = wrapPosition(ctx, self.p + next.v * p.dt);
    if (ctx.dims == 2) next.p.z = next.v.z = 0.0f;
    return next;
}

}  // namespace murmur
