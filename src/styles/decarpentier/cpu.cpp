// Decarpentier style; see decarpentier.hpp and docs/model.md.
#include "styles/decarpentier/cpu.hpp"

#include "model/rng.hpp"

namespace murmur {
namespace {

float clampf(float x, float lo, float hi) { return std::min(std::max(x, lo), hi); }

// May `other` be one of self's three (same species, within the largest rule radius)?
bool isCandidate(const RuleContext& ctx, const Boid& self, const Boid& other, float d2) {
    return other.species == self.species && d2 < ctx.of(self).r2_counted;
}

}  // namespace

void ThreeNeighbours::offerFirst(const RuleContext& ctx, const Boid& self, const Boid& other, float d2, std::uint32_t slot) {
    if (!isCandidate(ctx, self, other, d2)) return;
    if (near_[0].before(d2, other.id)) {
        near_[1] = near_[0];
        near_[0] = {true, d2, other.id, slot};
    } else if (near_[1].before(d2, other.id)) {
        near_[1] = {true, d2, other.id, slot};
    }
}

void ThreeNeighbours::offerSecond(const RuleContext& ctx, const Boid& self, const Boid& other, float d2, std::uint32_t slot) {
    if (!isCandidate(ctx, self, other, d2)) return;
    const std::uint32_t id = other.id;
    if (!near_[0].set || id == near_[0].id || (near_[1].set && id == near_[1].id)) return;
    const float x = ctx.p.dc.far_factor;
    if (!(d2 > x * x * near_[0].d2)) return;
    if (far_.before(d2, id)) far_ = {true, d2, id, slot};
}

void ThreeNeighbours::collect(const RuleContext& ctx, const Flock& flock, const Boid& self) {
    const Key* found[3] = {&near_[0], &near_[1], &far_};
    n = 0;
    for (const Key* key : found) {
        if (!key->set) continue;
        const Boid& other = flock[key->slot];
        offset[n] = offsetBetween(ctx, self.p, other.p);
        dist2[n] = glm::dot(offset[n], offset[n]);
        vel[n] = other.v;
        ++n;
    }
}

void DecarpentierStyle::addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other,
                                     glm::vec3 d, float d2, NeighbourSums& sums) {
    const SpeciesContext& o = ctx.of(other);
    if (d2 < k.r2_counted) ++sums.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < k.r2_sep) {
        ++sums.n_sep;
        // Another species is an object to avoid, -dir/|d| (predators and prey chase and flee instead).
        if (other.species != self.species && !k.predator && !o.predator && d2 > 0.0f) sums.sep -= d / d2;
    }
    addAlignmentAndCohesion(k, other.species == self.species, other, d, d2, sums);  // within the species
    addPredatorOrPrey(k, o, other, d, d2, sums);
}

// The three neighbours' avoid, preferred-distance and velocity-match terms, level flight, height,
// flee/chase, walls and influences; the sum split into the boid's forward/side/up axes, each clamped.
glm::vec3 DecarpentierStyle::decarpentierAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self,
                                                      const NeighbourSums& s, const ThreeNeighbours& t) {
    const Params& p = ctx.p;
    const glm::vec3 v = self.v;
    const glm::vec3 vertical_avoid(1.0f, p.dc.vertical_avoid, 1.0f), vertical_distance(1.0f, p.dc.vertical_distance, 1.0f),
        vertical_match(1.0f, p.dc.vertical_match, 1.0f);
    glm::vec3 a{0.0f};
    for (std::uint32_t n = 0; n < t.n; ++n) {
        const float dist = std::sqrt(t.dist2[n]);
        if (!(dist > 0.0f)) continue;  // coincident: no direction to go by
        const glm::vec3 dir = t.offset[n] / dist;
        a += k.w_sep * (-dir / dist) * vertical_avoid;                                       // avoid
        a += k.w_coh * (dir * (1.0f - k.dc.preferred_distance / dist)) * vertical_distance;  // preferred distance
        a += k.w_ali * ((t.vel[n] - v) / std::sqrt(dist)) * vertical_match;                    // velocity match
    }
    a += k.w_sep * s.sep;  // the other species within the separation radius: sum of -dir/|d|
    if (s.n_flee > 0) a += k.w_flee * s.flee;  // sum of -dir/d over predators
    if (s.chasing && s.chase_d2 > 0.0f) a += k.chase * (s.chase_d / std::sqrt(s.chase_d2));
    a.y -= p.dc.horizontal * v.y;  // prefer level flight
    if (p.dc.height_weight > 0.0f) a.y += p.dc.height_weight * (p.dc.height - self.p.y);
    a += boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self);
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

// Motion every step: the speed mixed with the previous one (direction kept), plus diving, clamped.
glm::vec3 DecarpentierStyle::decarpentierMove(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, glm::vec3 a) {
    const Params& p = ctx.p;
    const glm::vec3 v = self.v;
    const float speed = std::sqrt(glm::dot(v, v));
    const glm::vec3 v1 = v + a * p.dt;
    const float s1 = std::sqrt(glm::dot(v1, v1));
    if (!(s1 > 0.0f)) return v1;
    const glm::vec3 dir = v1 / s1;
    float new_speed = s1 + (speed - s1) * k.dc.smoothing;
    new_speed *= 1.0f - p.dc.dive * dir.y * p.dt;  // gravity: faster diving, slower climbing
    new_speed = clampf(new_speed, k.min_speed, k.max_speed);
    return dir * new_speed;
}

// A boid steers on its own phase every steps_per_steer steps (steersAt in model/rng.hpp).
bool DecarpentierStyle::steersNow(const RuleContext& ctx, const Boid& self) { return steersAt(self.id, ctx.step, ctx.steps_per_steer); }

// Steering (the clamped acceleration) at the boid's rate; motion every step.
Boid DecarpentierStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                                  const Search& search) {
    Boid next = self;
    if (steersNow(ctx, self)) next.steer = glm::vec4(decarpentierAcceleration(ctx, k, self, sums, search), float(sums.neighbours));
    next.v = decarpentierMove(ctx, k, self, glm::vec3(next.steer));
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::Decarpentier>() {
    return functionsOf<DecarpentierStyle>();
}

}  // namespace murmur
