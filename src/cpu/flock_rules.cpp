// Formulas of the flock model; each choice the spec leaves open is documented in docs/model.md.
#include "cpu/flock_rules.hpp"

#include "model/rng.hpp"

#include <glm/geometric.hpp>

#include <algorithm>
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
glm::vec3 steerTowards(const SpeciesContext& k, glm::vec3 desired, glm::vec3 v) {
    return limit(setMag(desired, k.max_speed) - v, k.max_force);
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

// Obstacles: a push straight out from each obstacle's centre, `obstacle_push` at the surface (and
// inside), fading linearly to 0 at obstacle_margin from it (margin 0: only inside).
glm::vec3 obstacleAcceleration(const RuleContext& ctx, glm::vec3 p) {
    glm::vec3 a{0.0f};
    for (const glm::vec4& o : ctx.obstacles) {
        const glm::vec3 d = offsetBetween(ctx, p, glm::vec3(o));
        const float dist = std::sqrt(glm::dot(d, d));
        if (!(dist > 0.0f)) continue;  // at the very centre there is no way out to push along
        const float clearance = dist - o.w, m = ctx.p.obstacle_margin;
        float factor = 0.0f;
        if (m > 0.0f) factor = std::min(std::max(1.0f - clearance / m, 0.0f), 1.0f);
        else if (clearance < 0.0f) factor = 1.0f;
        a -= d * (ctx.p.obstacle_push * factor / dist);
    }
    return a;
}

// Wander: a random push in [-1, 1]^dims times `wander`, from (seed, id, step).
glm::vec3 wanderAcceleration(const RuleContext& ctx, const Boid& self) {
    glm::vec3 a{0.0f};
    if (!(ctx.p.wander > 0.0f)) return a;
    const std::uint32_t seed_lo = seedLow(ctx.p.seed);
    for (int k = 0; k < ctx.dims; ++k) a[k] = ctx.p.wander * wanderJitter(seed_lo, self.id, ctx.step, k);
    return a;
}

// Steering style: wind, wander, the attractor and the repeller as accelerations.
glm::vec3 influenceAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self) {
    glm::vec3 a = ctx.wind + wanderAcceleration(ctx, self) + obstacleAcceleration(ctx, self.p);
    if (ctx.p.attractor.weight > 0.0f)
        a += ctx.p.attractor.weight * steerTowards(k, offsetBetween(ctx, self.p, ctx.attractor), self.v);
    if (ctx.p.repeller.weight > 0.0f) {
        const glm::vec3 d = offsetBetween(ctx, self.p, ctx.repeller);
        if (glm::dot(d, d) < ctx.r2_repeller) a += ctx.p.repeller.weight * steerTowards(k, -d, self.v);
    }
    return a;
}

// Offset style: the attractor and repeller as velocity offsets per step (Parker's tend to / away
// from a place); wind and obstacles stay accelerations, scaled by dt like the walls.
glm::vec3 influenceOffset(const RuleContext& ctx, const Boid& self) {
    glm::vec3 dv = (ctx.wind + wanderAcceleration(ctx, self) + obstacleAcceleration(ctx, self.p)) * ctx.p.dt;
    if (ctx.p.attractor.weight > 0.0f) dv += offsetBetween(ctx, self.p, ctx.attractor) * ctx.p.attractor.weight;
    if (ctx.p.repeller.weight > 0.0f) {
        const glm::vec3 d = offsetBetween(ctx, self.p, ctx.repeller);
        if (glm::dot(d, d) < ctx.r2_repeller) dv -= d * ctx.p.repeller.weight;
    }
    return dv;
}

// No boid ends a step inside an obstacle: a position inside is moved to the surface (along the
// line from the centre; +x from the very centre) and the inward part of the velocity removed.
// Two sweeps, so a boid pushed from one obstacle into a neighbouring one is moved out again.
void resolveObstacles(const RuleContext& ctx, glm::vec3& p, glm::vec3& v) {
    for (int sweep = 0; sweep < 2; ++sweep)
        for (const glm::vec4& o : ctx.obstacles) {
            const glm::vec3 d = offsetBetween(ctx, glm::vec3(o), p);
            const float d2 = glm::dot(d, d);
            if (!(d2 < o.w * o.w)) continue;
            const glm::vec3 n = d2 > 0.0f ? d / std::sqrt(d2) : glm::vec3(1.0f, 0.0f, 0.0f);
            p = p - d + n * (o.w * 1.0001f);
            const float inward = glm::dot(v, n);
            if (inward < 0.0f) v -= inward * n;
        }
}

float clampf(float x, float lo, float hi) { return std::min(std::max(x, lo), hi); }

// Decarpentier style's new velocity: the three neighbours' avoid, preferred-distance and
// velocity-match terms, level flight, height, flee/chase, walls and influences; the sum split
// into the boid's forward/side/up axes, each clamped; the speed smoothed with the previous one,
// changed by diving or climbing, and clamped (docs/model.md).
glm::vec3 decarpentierAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& s);
glm::vec3 decarpentierMove(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, glm::vec3 a);

// Speed into [min_speed, max_speed]; a boid at exact rest stays at rest.
glm::vec3 clampSpeed(const SpeciesContext& k, glm::vec3 v) {
    const float s = glm::length(v);
    if (s > k.max_speed) return v * (k.max_speed / s);
    if (s > 0.0f && s < k.min_speed) return v * (k.min_speed / s);
    return v;
}

// clampSpeed unless the speed limit is off.
glm::vec3 limitSpeed(const RuleContext& ctx, const SpeciesContext& k, glm::vec3 v) { return ctx.p.speed_limit ? clampSpeed(k, v) : v; }

glm::vec3 unitOr(glm::vec3 v, glm::vec3 fallback) {
    const float len = glm::length(v);
    return len > 0.0f ? v / len : fallback;
}

// Vicsek style: `mean` (a unit heading) turned by the step's noise: in 2D by an angle uniform in
// [-eta/2, eta/2]; in 3D to a direction uniform in the cone of half-angle eta/2 around it.
glm::vec3 vicsekNoise(const RuleContext& ctx, const Boid& self, glm::vec3 mean) {
    const std::uint32_t seed_lo = seedLow(ctx.p.seed);
    const float u0 = vicsekUniform(seed_lo, self.id, ctx.step, 0), u1 = vicsekUniform(seed_lo, self.id, ctx.step, 1);
    const float eta = ctx.p.vicsek_noise;
    if (ctx.dims == 2) {
        const float a = eta * (u0 - 0.5f), c = std::cos(a), s = std::sin(a);
        return {mean.x * c - mean.y * s, mean.x * s + mean.y * c, 0.0f};
    }
    const float cos_t = 1.0f - u0 * (1.0f - std::cos(0.5f * eta));
    const float sin_t = std::sqrt(std::max(0.0f, 1.0f - cos_t * cos_t));
    const float phi = 6.2831853f * u1;
    const glm::vec3 helper = std::abs(mean.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
    const glm::vec3 e1 = glm::normalize(glm::cross(mean, helper)), e2 = glm::cross(mean, e1);
    return mean * cos_t + (e1 * std::cos(phi) + e2 * std::sin(phi)) * sin_t;
}

// Vicsek style's new velocity: the mean heading of self and its neighbours within the alignment
// radius (a cancelled sum keeps self's heading), with noise, at the constant speed max_speed.
glm::vec3 vicsekVelocity(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& s) {
    const glm::vec3 own = unitOr(self.v, glm::vec3(1.0f, 0.0f, 0.0f));
    const glm::vec3 mean = unitOr(s.ali + own, own);
    return vicsekNoise(ctx, self, mean) * k.max_speed;
}

// A unit vector perpendicular to the unit vector u (in the xy plane in 2D).
glm::vec3 perpendicularTo(const RuleContext& ctx, glm::vec3 u) {
    if (ctx.dims == 2) return {-u.y, u.x, 0.0f};
    const glm::vec3 helper = std::abs(u.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
    return glm::normalize(glm::cross(u, helper));
}

// Couzin style: the unit direction `d` turned by the step's Gaussian noise of s.d. sigma: in 2D
// by an angle sigma g (g standard normal, Box-Muller); in 3D by the angle sigma |g2| (g2 a
// standard normal pair: an isotropic Gaussian step in the tangent plane) about a uniform azimuth.
glm::vec3 couzinNoise(const RuleContext& ctx, const Boid& self, glm::vec3 d) {
    const std::uint32_t seed_lo = seedLow(ctx.p.seed);
    const float u0 = couzinUniform(seed_lo, self.id, ctx.step, 0), u1 = couzinUniform(seed_lo, self.id, ctx.step, 1);
    const float radius = ctx.p.couzin_noise * std::sqrt(-2.0f * std::log(1.0f - u0)), phi = 6.2831853f * u1;
    if (ctx.dims == 2) {
        const float a = radius * std::cos(phi), c = std::cos(a), s = std::sin(a);
        return {d.x * c - d.y * s, d.x * s + d.y * c, 0.0f};
    }
    const glm::vec3 e1 = perpendicularTo(ctx, d), e2 = glm::cross(d, e1);
    return d * std::cos(radius) + (e1 * std::cos(phi) + e2 * std::sin(phi)) * std::sin(radius);
}

// Couzin style's desired direction: away from those in the zone of repulsion if any (absolute
// priority); else the unit headings of those in the zone of orientation, self included, and the
// unit directions to those in the zone of attraction, each normalised and averaged when both
// are there; else straight on. A sum that cancels keeps the heading.
glm::vec3 couzinDesired(const NeighbourSums& s, glm::vec3 own) {
    if (s.n_sep > 0) return unitOr(s.sep, own);
    const glm::vec3 d_o = unitOr(s.ali + own, own);
    if (s.n_coh == 0) return d_o;  // orientation alone (or no one: self's own heading)
    const glm::vec3 d_a = unitOr(s.coh, own);
    return s.n_ali > 0 ? unitOr(0.5f * (d_o + d_a), own) : d_a;
}

// Couzin style's new velocity: the noisy desired direction, reached if it is within the step's
// turn (turn_rate x dt) of the heading, else the heading turned by that much towards it; at max_speed.
glm::vec3 couzinVelocity(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& s) {
    const glm::vec3 own = unitOr(self.v, glm::vec3(1.0f, 0.0f, 0.0f));
    const glm::vec3 want = couzinNoise(ctx, self, couzinDesired(s, own));
    const float turn = ctx.p.couzinTurnPerStep(), cos_angle = glm::dot(own, want);
    if (cos_angle >= std::cos(turn)) return want * k.max_speed;
    const glm::vec3 side = unitOr(want - cos_angle * own, perpendicularTo(ctx, own));
    return (own * std::cos(turn) + side * std::sin(turn)) * k.max_speed;
}

glm::vec3 glossAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& s) {
    glm::vec3 a{0.0f};
    // Routes that cancel (intruders on opposite sides) give no direction, as does a mean velocity
    // that cancels: normalising what is left would blow rounding up to full length.
    if (s.n_sep > 0 && glm::length(s.sep) > kGlossCancel * k.r_sep) a += (k.w_sep * k.max_force) * setMag(s.sep, 1.0f);
    // The viewer passes its own view test: its velocity and position join the means.
    const float seen_ali = float(s.n_ali + 1), seen_coh = float(s.n_coh + 1);
    const glm::vec3 mean_v = (s.ali + self.v) / seen_ali;
    if (glm::length(mean_v) > kGlossCancel * k.max_speed) a += (k.w_ali * k.max_force) * setMag(mean_v, 1.0f);
    a += (ctx.cohesion_sign * k.w_coh * k.max_force * k.inv_r_coh) * (s.coh / seen_coh);
    if (s.n_flee > 0) a += k.w_flee * steerTowards(k, s.flee, self.v);
    if (s.chasing) a += k.chase * steerTowards(k, s.chase_d, self.v);
    return a + boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self);
}

glm::vec3 decarpentierAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& s) {
    const Params& p = ctx.p;
    const glm::vec3 v = self.v;
    const glm::vec3 vertical_avoid(1.0f, p.dc.vertical_avoid, 1.0f), vertical_distance(1.0f, p.dc.vertical_distance, 1.0f),
        vertical_match(1.0f, p.dc.vertical_match, 1.0f);
    glm::vec3 a{0.0f};
    for (std::uint32_t n = 0; n < s.dc_n; ++n) {
        const float dist = std::sqrt(s.dc_d2[n]);
        if (!(dist > 0.0f)) continue;  // coincident: no direction to go by
        const glm::vec3 dir = s.dc_d[n] / dist;
        a += k.w_sep * (-dir / dist) * vertical_avoid;                                  // avoid
        a += k.w_coh * (dir * (1.0f - k.dc.preferred_distance / dist)) * vertical_distance;  // preferred distance
        a += k.w_ali * ((s.dc_v[n] - v) / std::sqrt(dist)) * vertical_match;           // velocity match
    }
    a += k.w_sep * s.sep;  // the other species within the separation radius: sum of -dir/|d|
    if (s.n_flee > 0) a += k.w_flee * s.flee;  // sum of -dir/d over predators
    if (s.chasing && s.chase_d2 > 0.0f) a += k.chase * (s.chase_d / std::sqrt(s.chase_d2));
    a.y -= p.dc.horizontal * v.y;                                   // prefer level flight
    if (p.dc.height_weight > 0.0f) a.y += p.dc.height_weight * (p.dc.height - self.p.y);
    a += boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self);
    // Split into the boid's axes and clamp each.
    const float speed = std::sqrt(glm::dot(v, v));
    const glm::vec3 f = speed > 0.0f ? v / speed : glm::vec3(1.0f, 0.0f, 0.0f);
    glm::vec3 side, up{0.0f};
    if (ctx.dims == 2) {
        side = glm::vec3(-f.y, f.x, 0.0f);
    } else {
        side = glm::cross(f, glm::vec3(0.0f, 1.0f, 0.0f));
        const float side_len = std::sqrt(glm::dot(side, side));
        side = side_len > 1e-6f ? side / side_len : glm::vec3(0.0f, 0.0f, 1.0f);
        up = glm::cross(side, f);
    }
    const float af = clampf(glm::dot(a, f), -k.dc.brake, k.dc.accel_forward);
    const float as = clampf(glm::dot(a, side), -k.dc.accel_side, k.dc.accel_side);
    const float au = clampf(glm::dot(a, up), -k.dc.accel_up, k.dc.accel_up);
    return f * af + side * as + up * au;
}

glm::vec3 decarpentierMove(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, glm::vec3 a) {
    const Params& p = ctx.p;
    const glm::vec3 v = self.v;
    const float speed = std::sqrt(glm::dot(v, v));
    const glm::vec3 v1 = v + a * p.dt;
    // Speed: mixed with the previous one (direction kept), plus diving, then clamped.
    const float s1 = std::sqrt(glm::dot(v1, v1));
    if (!(s1 > 0.0f)) return v1;
    const glm::vec3 dir = v1 / s1;
    float new_speed = s1 + (speed - s1) * k.dc.smoothing;
    new_speed *= 1.0f - p.dc.dive * dir.y * p.dt;  // gravity: faster diving, slower climbing
    new_speed = clampf(new_speed, k.min_speed, k.max_speed);
    return dir * new_speed;
}

}  // namespace

RuleContext::RuleContext(const Params& params)
    : dims(params.dims), wrap(params.bounds == Bounds::Wrap), style(params.style), p(params) {
    for (int k = 0; k < dims; ++k) {
        L[k] = params.world_size;
        inv_L[k] = 1.0f / params.world_size;
    }
    for (std::uint32_t s = 0; s < kMaxSpecies; ++s) {
        const SpeciesRules r = params.rulesOf(s);
        const SpeciesRole& role = params.roles[s];
        SpeciesContext& k = species[s];
        k.r2_sep = r.separation.radius * r.separation.radius;
        k.r2_ali = r.alignment.radius * r.alignment.radius;
        k.r2_coh = r.cohesion.radius * r.cohesion.radius;
        const float r_max = params.lookRadius(s), r_rules = r.ruleRadius();
        k.r2_max = r_max * r_max;
        k.r2_counted = r_rules * r_rules;
        k.use_fov = r.fov_deg < 360.0f;
        k.cos_half_fov = cosHalfFovOf(r.fov_deg);
        k.w_sep = r.separation.weight;
        k.w_ali = r.alignment.weight;
        k.w_coh = r.cohesion.weight;
        k.r_sep = r.separation.radius;
        k.inv_r_coh = r.cohesion.radius > 0.0f ? 1.0f / r.cohesion.radius : 0.0f;
        k.min_speed = r.min_speed;
        k.max_speed = r.max_speed;
        k.max_force = r.max_force;
        k.dc = r.dc;
        k.predator = role.predator;
        k.chase = role.chase;
        k.r2_flee = role.flee.radius * role.flee.radius;
        k.w_flee = role.flee.weight;
    }
    const glm::vec3 used(1.0f, 1.0f, dims == 3 ? 1.0f : 0.0f);
    wind = glm::vec3(params.wind.x, params.wind.y, params.wind.z) * used;
    attractor = glm::vec3(params.attractor.at.x, params.attractor.at.y, params.attractor.at.z) * used;
    repeller = glm::vec3(params.repeller.at.x, params.repeller.at.y, params.repeller.at.z) * used;
    leader_at = glm::vec3(params.leader_at.x, params.leader_at.y, params.leader_at.z) * used;
    r2_repeller = params.repeller.radius * params.repeller.radius;
    cohesion_sign = params.scatter ? -1.0f : 1.0f;
    perching = params.perching;
    steps_per_steer = params.stepsPerSteer();
    for (const Obstacle& o : params.obstacles) obstacles.emplace_back(o.at.x, o.at.y, dims == 3 ? o.at.z : 0.0f, o.radius);
}

void NearestK::offer(float d2, std::uint32_t id) {
    // Insertion into the sorted (d2, id) list, dropping what falls past k.
    std::uint32_t i = n_ < k_ ? n_++ : k_;
    while (i > 0 && (d2 < d2_[i - 1] || (d2 == d2_[i - 1] && id < id_[i - 1]))) {
        if (i < k_) {
            d2_[i] = d2_[i - 1];
            id_[i] = id_[i - 1];
        }
        --i;
    }
    if (i < k_) {
        d2_[i] = d2;
        id_[i] = id;
    }
}

void ThreeNeighbours::offerNear(float d2, std::uint32_t id, std::uint32_t slot) {
    if (near_[0].before(d2, id)) {
        near_[1] = near_[0];
        near_[0] = {true, d2, id, slot};
    } else if (near_[1].before(d2, id)) {
        near_[1] = {true, d2, id, slot};
    }
}

void ThreeNeighbours::offerFar(float d2, std::uint32_t id, std::uint32_t slot, float far_factor) {
    if (!near_[0].set || id == near_[0].id || (near_[1].set && id == near_[1].id)) return;
    if (!(d2 > far_factor * far_factor * near_[0].d2)) return;
    if (far_.before(d2, id)) far_ = {true, d2, id, slot};
}

std::uint32_t ThreeNeighbours::count() const { return std::uint32_t(near_[0].set) + near_[1].set + far_.set; }

std::uint32_t ThreeNeighbours::slot(std::uint32_t k) const {
    if (k == 0) return near_[0].slot;
    if (k == 1 && near_[1].set) return near_[1].slot;
    return far_.slot;
}

bool NearestK::admits(float d2, std::uint32_t id) const {
    if (n_ < k_) return true;
    return d2 < d2_[k_ - 1] || (d2 == d2_[k_ - 1] && id <= id_[k_ - 1]);
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

namespace {
// Gloss style's view: within the cone around the boid's last acceleration (stored in steer.xyz);
// with no acceleration, or for a coincident boid, all round.
bool glossSees(const SpeciesContext& k, const Boid& self, glm::vec3 d, float d2) {
    if (!k.use_fov || !(d2 > 0.0f)) return true;
    const glm::vec3 a(self.steer);
    const float a2 = glm::dot(a, a);
    return !(a2 > 0.0f) || glm::dot(a, d) >= k.cos_half_fov * std::sqrt(a2 * d2);
}
}  // namespace

bool isNeighbourOf(const RuleContext& ctx, const Boid& self, const Boid& other, glm::vec3& d, float& d2) {
    if (ctx.perching && other.perch > 0.0f) return false;  // boids on the ground are out of the flock
    const SpeciesContext& k = ctx.species[std::min(self.species, kMaxSpecies - 1)];
    d = offsetBetween(ctx, self.p, other.p);
    d2 = glm::dot(d, d);
    if (!(d2 < k.r2_max)) return false;
    if (k.use_fov && d2 > 0.0f && ctx.style != Style::Gloss) {  // gloss: its own cone, in addNeighbour
        // dot(v/|v|, d/|d|) >= cos(fov/2), written without division; a boid at rest sees all
        // around, and a coincident boid (d = 0) is at the eye, so inside the view.
        const float v2 = glm::dot(self.v, self.v);
        if (v2 > 0.0f && glm::dot(self.v, d) < k.cos_half_fov * std::sqrt(v2 * d2)) return false;
    }
    return true;
}

Boid finishStep(const RuleContext& ctx, const Boid& self, Boid next);

bool steersNow(const RuleContext& ctx, const Boid& self) { return steersAt(self.id, ctx.step, ctx.steps_per_steer); }

bool isDcCandidate(const RuleContext& ctx, const Boid& self, const Boid& other, float d2) {
    return other.species == self.species && d2 < ctx.species[std::min(self.species, kMaxSpecies - 1)].r2_counted;
}

void accumulate(const RuleContext& ctx, const Boid& self, const Boid& other, NeighbourSums& sums, const NearestK* cap) {
    glm::vec3 d;
    float d2;
    if (isNeighbourOf(ctx, self, other, d, d2)) addNeighbour(ctx, self, other, d, d2, sums, cap);
}

void addNeighbour(const RuleContext& ctx, const Boid& self, const Boid& other, glm::vec3 d, float d2, NeighbourSums& sums,
                  const NearestK* cap) {
    if (cap && !cap->admits(d2, other.id)) return;
    const SpeciesContext& k = ctx.species[std::min(self.species, kMaxSpecies - 1)];
    const SpeciesContext& o = ctx.species[std::min(other.species, kMaxSpecies - 1)];
    // Gloss: separation looks all round the safe space; alignment and cohesion only in the view.
    const bool seen = ctx.style != Style::Gloss || glossSees(k, self, d, d2);
    if (d2 < k.r2_counted && (seen || d2 < k.r2_sep)) ++sums.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < k.r2_sep) {  // separation: from every species
        ++sums.n_sep;
        // Coincident boids give no direction to flee along, so they add nothing here.
        if (ctx.style == Style::Offset) sums.sep += d;
        else if (ctx.style == Style::Graded && d2 > 0.0f) sums.sep -= d * (std::min(k.r_sep - std::sqrt(d2), kGradedCore * std::sqrt(d2)) / d2);
        else if (ctx.style == Style::Gloss && d2 > 0.0f) sums.sep -= d * (k.r_sep / std::sqrt(d2));  // escape route of length r_sep
        else if (ctx.style == Style::Steering && ctx.p.steering_separation == Falloff::Unit && d2 > 0.0f) sums.sep -= d / std::sqrt(d2);
        else if (ctx.style == Style::Couzin && d2 > 0.0f) sums.sep -= d / std::sqrt(d2);  // away from each, unit
        else if (ctx.style == Style::Decarpentier) {
            // Another species is an object to avoid, -dir/|d| (predators and prey chase and flee instead).
            if (other.species != self.species && !k.predator && !o.predator && d2 > 0.0f) sums.sep -= d / d2;
        } else if (d2 > 0.0f) sums.sep -= d / d2;
    }
    const bool same = other.species == self.species && seen;  // alignment and cohesion: within the species
    if (same && d2 < k.r2_ali) {
        ++sums.n_ali;
        const bool headings = ctx.style == Style::Vicsek || ctx.style == Style::Couzin;  // headings, not velocities
        sums.ali += headings ? unitOr(other.v, glm::vec3(0.0f)) : other.v;
    }
    if (ctx.style == Style::Couzin) {  // attraction: the zone beyond orientation's, unit directions
        if (same && d2 < k.r2_coh && d2 >= k.r2_ali && d2 > 0.0f) {
            ++sums.n_coh;
            sums.coh += d / std::sqrt(d2);
        }
    } else if (same && d2 < k.r2_coh) {
        ++sums.n_coh;
        sums.coh += d;
    }
    if (!k.predator && o.predator && d2 < k.r2_flee) {  // prey flee predators
        ++sums.n_flee;
        if (ctx.style == Style::Offset) sums.flee += d;
        else if (d2 > 0.0f) sums.flee -= d / d2;
    }
    if (k.predator && !o.predator && d2 < k.r2_coh &&  // a predator marks the nearest prey it sees
        (!sums.chasing || d2 < sums.chase_d2 || (d2 == sums.chase_d2 && other.id < sums.chase_id))) {
        sums.chasing = true;
        sums.chase_d = d;
        sums.chase_d2 = d2;
        sums.chase_id = other.id;
    }
}

Boid integrate(const RuleContext& ctx, const Boid& self, const NeighbourSums& sums) {
    const Params& p = ctx.p;
    const SpeciesContext& k = ctx.species[std::min(self.species, kMaxSpecies - 1)];
    if (ctx.perching && self.perch > 0.0f) {
        // On the ground: at rest until the time is up, then straight up at half speed (at least
        // min_speed) to rejoin.
        Boid next = self;
        next.v = glm::vec3(0.0f);
        next.perch = self.perch - p.dt;
        if (next.perch > 0.0f) return next;
        next.perch = 0.0f;
        next.v = glm::vec3(0.0f, std::max(k.min_speed, 0.5f * k.max_speed), 0.0f);
        next.p = wrapPosition(ctx, self.p + next.v * p.dt);
        return next;
    }
    glm::vec3 dv{0.0f};  // velocity change this step
    if (ctx.style == Style::Vicsek || ctx.style == Style::Couzin) {
        Boid next = self;
        next.v = ctx.style == Style::Vicsek ? vicsekVelocity(ctx, k, self, sums) : couzinVelocity(ctx, k, self, sums);
        return finishStep(ctx, self, next);
    }
    if (ctx.style == Style::Gloss) {
        // The post's rules: the escape routes' sum normalised; the normalised mean velocity and
        // the centre (self included) of those in view; each times max_force and its weight.
        Boid next = self;
        const glm::vec3 a = glossAcceleration(ctx, k, self, sums);
        next.steer = glm::vec4(a, float(sums.neighbours));  // the view cone's axis next step
        next.v = limitSpeed(ctx, k, self.v + a * p.dt);
        return finishStep(ctx, self, next);
    }
    if (ctx.style == Style::Decarpentier) {
        // Steering (the clamped acceleration) at the boid's rate; motion every step.
        Boid next = self;
        if (steersNow(ctx, self)) {
            const glm::vec3 a = decarpentierAcceleration(ctx, k, self, sums);
            next.steer = glm::vec4(a, float(sums.neighbours));
        }
        next.v = decarpentierMove(ctx, k, self, glm::vec3(next.steer));
        return finishStep(ctx, self, next);
    }
    if (ctx.style == Style::Graded) {
        // Separation grows as the distance shrinks (each neighbour -dir * (r_sep/|d| - 1)) and
        // cohesion is a spring to the local centre (max_force at one cohesion radius): both are
        // forces, so a crowd pushes back harder the denser it is. Alignment steers as Reynolds'.
        glm::vec3 a{0.0f};
        if (sums.n_sep > 0) a += (k.w_sep * k.max_force) * sums.sep;
        if (sums.n_ali > 0) a += k.w_ali * steerTowards(k, sums.ali / float(sums.n_ali), self.v);
        if (sums.n_coh > 0) a += (ctx.cohesion_sign * k.w_coh * k.max_force * k.inv_r_coh) * (sums.coh / float(sums.n_coh));
        if (sums.n_flee > 0) a += k.w_flee * steerTowards(k, sums.flee, self.v);
        if (sums.chasing) a += k.chase * steerTowards(k, sums.chase_d, self.v);
        dv = (a + boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self)) * p.dt;
    } else if (ctx.style == Style::Steering) {
        glm::vec3 a{0.0f};
        if (sums.n_sep > 0) a += k.w_sep * steerTowards(k, sums.sep, self.v);
        if (sums.n_ali > 0) a += k.w_ali * steerTowards(k, sums.ali / float(sums.n_ali), self.v);
        if (sums.n_coh > 0) a += ctx.cohesion_sign * k.w_coh * steerTowards(k, sums.coh / float(sums.n_coh), self.v);
        if (sums.n_flee > 0) a += k.w_flee * steerTowards(k, sums.flee, self.v);
        if (sums.chasing) a += k.chase * steerTowards(k, sums.chase_d, self.v);
        dv = (a + boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self)) * p.dt;
    } else if (p.offset_sums) {
        // flock.rb: each rule summed over the neighbours, not averaged.
        if (sums.n_sep > 0) dv -= sums.sep * k.w_sep;
        if (sums.n_ali > 0) dv += sums.ali * k.w_ali;
        if (sums.n_coh > 0) dv += sums.coh * (ctx.cohesion_sign * k.w_coh);
        if (sums.n_flee > 0) dv -= sums.flee * k.w_flee;
        if (sums.chasing) dv += sums.chase_d * k.chase;
        dv += boundsAcceleration(ctx, self.p) * p.dt + influenceOffset(ctx, self);
    } else {
        // Parker: each rule is a velocity offset per step, summed; walls still push per second.
        if (sums.n_sep > 0) dv -= (sums.sep / float(sums.n_sep)) * k.w_sep;
        if (sums.n_ali > 0) dv += (sums.ali / float(sums.n_ali) - self.v) * k.w_ali;
        else if (p.offset_lone) dv += self.v;  // the Ruby's rule 3 with no one near: the boid's own velocity
        if (sums.n_coh > 0) dv += (sums.coh / float(sums.n_coh)) * (ctx.cohesion_sign * k.w_coh);
        if (sums.n_flee > 0) dv -= (sums.flee / float(sums.n_flee)) * k.w_flee;
        if (sums.chasing) dv += sums.chase_d * k.chase;
        dv += boundsAcceleration(ctx, self.p) * p.dt + influenceOffset(ctx, self);
    }
    Boid next = self;
    next.v = limitSpeed(ctx, k, self.v + dv);
    return finishStep(ctx, self, next);
}

Boid finishStep(const RuleContext& ctx, const Boid& self, Boid next) {
    const Params& p = ctx.p;
    const SpeciesContext& k = ctx.species[std::min(self.species, kMaxSpecies - 1)];
    // Semi-implicit Euler moves with the new velocity, explicit Euler with the old one.
    next.p = self.p + (p.integrator == Integrator::Explicit ? self.v : next.v) * p.dt;
    resolveObstacles(ctx, next.p, next.v);
    if (ctx.perching && self.p.y > p.perch_ground && next.p.y <= p.perch_ground && !(p.leader && self.id == 0)) {
        // Landing: crossing the ground from above puts the boid on it, at rest, for a random time.
        const float u = eventUniform(eventHash(seedLow(p.seed), self.id, ctx.step));
        const float rest = p.perch_min + u * (p.perch_max - p.perch_min);
        if (rest > 0.0f) {
            next.p.y = p.perch_ground;
            next.v = glm::vec3(0.0f);
            next.perch = rest;
        }
    }
    next.p = wrapPosition(ctx, next.p);
    if (p.leader && self.id == 0) {
        // The leader is put where it is led; its velocity is the move (at most max_speed), so
        // the flock aligns with it.
        next.v = limit(offsetBetween(ctx, self.p, ctx.leader_at) * (1.0f / p.dt), k.max_speed);
        next.p = wrapPosition(ctx, ctx.leader_at);
    }
    if (ctx.dims == 2) next.p.z = next.v.z = 0.0f;
    return next;
}

}  // namespace murmur
