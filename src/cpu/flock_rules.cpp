// What every style shares; see flock_rules.hpp. Each choice the spec leaves open is documented in
// docs/model.md.
#include "cpu/flock_rules.hpp"
#include "cpu/neighbour_rules.hpp"

#include "model/rng.hpp"

namespace murmur {

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
// (margin 0: a push of `turn` once past the wall). Zero in wrap mode and open sky.
glm::vec3 boundsAcceleration(const RuleContext& ctx, glm::vec3 p) {
    glm::vec3 a{0.0f};
    if (!ctx.walls) return a;
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
static glm::vec3 obstacleAcceleration(const RuleContext& ctx, glm::vec3 p) {
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
static glm::vec3 wanderAcceleration(const RuleContext& ctx, const Boid& self) {
    glm::vec3 a{0.0f};
    if (!(ctx.p.wander > 0.0f)) return a;
    const std::uint32_t seed_lo = seedLow(ctx.p.seed);
    for (int k = 0; k < ctx.dims; ++k) a[k] = ctx.p.wander * wanderJitter(seed_lo, self.id, ctx.step, k);
    return a;
}


glm::vec3 trapAcceleration(const RuleContext& ctx, glm::vec3 p) {
    if (!(ctx.trap_k > 0.0f)) return glm::vec3(0.0f);
    return -ctx.trap_k * offsetBetween(ctx, ctx.trap_at, p);
}

glm::vec3 trapTurn(const RuleContext& ctx, const Boid& self, glm::vec3 v) {
    if (!(ctx.trap_k > 0.0f)) return v;
    return unitOr(v + trapAcceleration(ctx, self.p) * ctx.p.dt, unitOr(v, glm::vec3(1.0f, 0.0f, 0.0f))) * glm::length(v);
}

glm::vec3 influenceAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self) {
    glm::vec3 a = ctx.wind + wanderAcceleration(ctx, self) + obstacleAcceleration(ctx, self.p) + trapAcceleration(ctx, self.p);
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
    glm::vec3 dv = (ctx.wind + wanderAcceleration(ctx, self) + obstacleAcceleration(ctx, self.p) + trapAcceleration(ctx, self.p)) * ctx.p.dt;
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
static void resolveObstacles(const RuleContext& ctx, glm::vec3& p, glm::vec3& v) {
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


// Speed into [min_speed, max_speed]; a boid at exact rest stays at rest.
static glm::vec3 clampSpeed(const SpeciesContext& k, glm::vec3 v) {
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


// A unit vector perpendicular to the unit vector u (in the xy plane in 2D).
glm::vec3 steeredVelocity(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums, glm::vec3 a) {
    if (sums.n_flee > 0) a += k.w_flee * steerTowards(k, sums.flee, self.v);
    if (sums.chasing) a += k.chase * steerTowards(k, sums.chase_d, self.v);
    const glm::vec3 dv = (a + boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self)) * ctx.p.dt;
    return limitSpeed(ctx, k, self.v + dv);
}

glm::vec3 perpendicularTo(const RuleContext& ctx, glm::vec3 u) {
    if (ctx.dims == 2) return {-u.y, u.x, 0.0f};
    const glm::vec3 helper = std::abs(u.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
    return glm::normalize(glm::cross(u, helper));
}


SpeciesContext speciesContextOf(const Params& params, std::uint32_t s) {
    const SpeciesRules r = params.rulesOf(s);
    const SpeciesRole& role = params.roles[std::min(s, kMaxSpecies - 1)];
    SpeciesContext k;
    k.r2_sep = r.separation.radius * r.separation.radius;
    k.r2_ali = r.alignment.radius * r.alignment.radius;
    k.r2_coh = r.cohesion.radius * r.cohesion.radius;
    k.r2_reach = r.reach * r.reach;
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
    return k;
}

RuleContext::RuleContext(const Params& params) : dims(params.dims), wrap(params.bounds == Bounds::Wrap), walls(params.bounds == Bounds::Soft), p(params) {
    for (int k = 0; k < dims; ++k) {
        L[k] = params.world_size;
        inv_L[k] = 1.0f / params.world_size;
    }
    for (std::uint32_t s = 0; s < kMaxSpecies; ++s) species[s] = speciesContextOf(params, s);
    const glm::vec3 used(1.0f, 1.0f, dims == 3 ? 1.0f : 0.0f);
    wind = glm::vec3(params.wind.x, params.wind.y, params.wind.z) * used;
    attractor = glm::vec3(params.attractor.at.x, params.attractor.at.y, params.attractor.at.z) * used;
    repeller = glm::vec3(params.repeller.at.x, params.repeller.at.y, params.repeller.at.z) * used;
    leader_at = glm::vec3(params.leader_at.x, params.leader_at.y, params.leader_at.z) * used;
    const Vec3f trap = params.trapCentre();
    trap_at = glm::vec3(trap.x, trap.y, trap.z);
    trap_k = params.trap.stiffness;
    r2_repeller = params.repeller.radius * params.repeller.radius;
    cohesion_sign = params.scatter ? -1.0f : 1.0f;
    perching = params.perching;
    steps_per_steer = params.stepsPerSteer();
    adaptive = params.topological.on();
    cos_half_blind = starlingCosHalfBlind(params);
    for (const Obstacle& o : params.obstacles) obstacles.emplace_back(o.at.x, o.at.y, dims == 3 ? o.at.z : 0.0f, o.radius);
}

void NearestK::offer(float d2, std::uint32_t id, std::uint32_t slot) {
    const auto before = [](float a2, std::uint32_t a, float b2, std::uint32_t b) { return a2 < b2 || (a2 == b2 && a < b); };
    if (n_ == k_ && !before(d2, id, d2_[k_ - 1], id_[k_ - 1])) return;  // past the k-th: most candidates
    // Insertion into the sorted (d2, id) list: into the free place, or over the k-th.
    std::uint32_t i = n_ < k_ ? n_++ : k_ - 1;
    for (; i > 0 && before(d2, id, d2_[i - 1], id_[i - 1]); --i) {
        d2_[i] = d2_[i - 1];
        id_[i] = id_[i - 1];
        slot_[i] = slot_[i - 1];
    }
    d2_[i] = d2;
    id_[i] = id;
    slot_[i] = slot;
}

float nextReach(const RuleContext& ctx, float reach, std::uint32_t seen) {
    const Topological& t = ctx.p.topological;
    const float target = reach * std::pow(t.count / float(seen + 1u), 1.0f / float(ctx.dims));
    return std::min(reach + t.rate * (target - reach), t.max_radius);
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

glm::ivec3 imagesCrossed(const RuleContext& ctx, glm::vec3 from, glm::vec3 to) {
    glm::ivec3 crossed(0);
    if (!ctx.wrap) return crossed;
    for (int k = 0; k < ctx.dims; ++k) {
        const float boxes = std::floor((to[k] - from[k]) * ctx.inv_L[k] + 0.5f);
        crossed[k] = std::fabs(boxes) < 1e6f ? -int(boxes) : 0;  // a non-finite move crosses nothing
    }
    return crossed;
}

Boid restOnTheGround(const RuleContext& ctx, const SpeciesContext& k, const Boid& self) {
    // At rest until the time is up, then straight up at half speed (at least min_speed) to rejoin.
    Boid next = self;
    next.v = glm::vec3(0.0f);
    next.perch = self.perch - ctx.p.dt;
    if (next.perch > 0.0f) return next;
    next.perch = 0.0f;
    next.v = glm::vec3(0.0f, std::max(k.min_speed, 0.5f * k.max_speed), 0.0f);
    next.p = wrapPosition(ctx, self.p + next.v * ctx.p.dt);
    return next;
}

Boid finishStep(const RuleContext& ctx, const Boid& self, Boid next) {
    const Params& p = ctx.p;
    const SpeciesContext& k = ctx.of(self);
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
