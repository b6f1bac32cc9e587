// Starling style; see cpu.hpp and docs/model.md.
#include "styles/starling/cpu.hpp"

namespace murmur {
namespace {

constexpr float kRoostTurnBias = 0.34202014f;  // sin 20 degrees (SL_ROOST_TURN_BIAS in starling.glsl)

// 1 within the core, falling smoothly (smoothstep) to 0 at the separation radius.
float separationFalloff(float core, float r_sep, float dist) {
    const float t = std::min(std::max((dist - core) / (r_sep - core), 0.0f), 1.0f);
    return 1.0f - t * t * (3.0f - 2.0f * t);
}

}  // namespace

// Every neighbour: its unit offset (centrality) and separation; those of its species ahead of the
// rear blind cone: alignment (their unit headings) and cohesion (their offsets).
void StarlingStyle::addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other,
                                 glm::vec3 d, float d2, Sums& sums) {
    if (!(d2 < k.r2_counted) || !(d2 > 0.0f)) return;  // coincident: no direction to go by
    ++sums.neighbours;
    const float dist = std::sqrt(d2);
    const glm::vec3 u = d / dist;
    sums.around += u;
    if (d2 < k.r2_sep) {
        ++sums.n_sep;
        sums.sep -= u * separationFalloff(ctx.p.starling.core, k.r_sep, dist);
    }
    const float v2 = glm::dot(self.v, self.v);
    const bool blind = v2 > 0.0f && glm::dot(self.v, u) < -ctx.cos_half_blind * std::sqrt(v2);
    if (other.species != self.species || blind) return;
    const float w2 = glm::dot(other.v, other.v);
    if (d2 < k.r2_ali && w2 > 0.0f) {
        ++sums.n_ali;
        sums.ali += other.v / std::sqrt(w2);
    }
    if (d2 < k.r2_coh) {
        ++sums.n_coh;
        sums.coh += d;
    }
}

BirdAxes StarlingStyle::axesOf(const RuleContext& ctx, glm::vec3 v) {
    const float speed = std::sqrt(glm::dot(v, v));
    BirdAxes b;
    b.f = speed > 0.0f ? v / speed : glm::vec3(1.0f, 0.0f, 0.0f);
    if (ctx.dims == 2) {
        b.side = glm::vec3(-b.f.y, b.f.x, 0.0f);
        b.up = glm::vec3(0.0f);
        return b;
    }
    b.side = glm::vec3(-b.f.z, 0.0f, b.f.x);  // f x (0, 1, 0)
    const float side_len = std::sqrt(glm::dot(b.side, b.side));
    b.side = side_len > 1e-6f ? b.side / side_len : glm::vec3(0.0f, 0.0f, 1.0f);
    b.up = glm::cross(b.side, b.f);
    return b;
}

// C = |mean unit vector to the neighbours|: 0 deep inside a flock, near 1 at its edge.
float StarlingStyle::centralityOf(const Sums& s) {
    return s.neighbours > 0 ? std::sqrt(glm::dot(s.around, s.around)) / float(s.neighbours) : 0.0f;
}

// Separation (mean of the faded pushes), cohesion toward the seen neighbours' centre weighted by
// centrality squared, alignment (mean unit heading minus its own); the sum clipped to max_social.
glm::vec3 StarlingStyle::socialForce(const RuleContext& ctx, const SpeciesContext& k, const BirdAxes& b, const Sums& s) {
    glm::vec3 f{0.0f};
    if (s.n_sep > 0) f += k.w_sep * s.sep / float(s.n_sep);
    const float c = centralityOf(s);
    if (s.n_coh > 0) f += k.w_coh * c * c * unitOr(s.coh, glm::vec3(0.0f));
    if (s.n_ali > 0) f += k.w_ali * (s.ali / float(s.n_ali) - b.f);
    return limit(f, ctx.p.starling.max_social);
}

// Beyond roost_radius horizontally from the world box's centre, a sideways push growing with the
// distance beyond and with how directly the bird heads out (half when it flies across): toward
// +side (the bird's right in 3D, its left in 2D) unless the roost lies more than kRoostTurnBias
// (sin 20 degrees) toward -side, so a flock heading straight out turns as one rather than
// splitting down its middle; in 3D, a spring toward the centre's height.
glm::vec3 StarlingStyle::roostForce(const RuleContext& ctx, const Boid& self, const BirdAxes& b) {
    const StarlingParams& sp = ctx.p.starling;
    glm::vec3 off = self.p - ctx.L * 0.5f;
    if (ctx.dims == 2) off.z = 0.0f;
    glm::vec3 flat = off, heading = b.f;
    if (ctx.dims == 3) flat.y = heading.y = 0.0f;
    glm::vec3 force{0.0f};
    const float h = std::sqrt(glm::dot(flat, flat));
    if (h > sp.roost_radius) {
        const glm::vec3 out = flat / h;
        const float outward = glm::dot(unitOr(heading, glm::vec3(0.0f)), out);
        const float turn = glm::dot(b.side, out) > kRoostTurnBias ? -1.0f : 1.0f;
        force += b.side * (turn * sp.roost_weight * (h - sp.roost_radius) * (0.5f + 0.5f * outward));
    }
    if (ctx.dims == 3) force.y -= sp.altitude_weight * off.y;
    return force;
}

// The force wanted (social, roost, speed control, influences as mass x acceleration); in 3D the
// bank rolls toward atan(sideways force / weight), lift m g (v/v0)^2 acts along the banked up
// axis, thrust minus drag along the heading, the force wanted but its sideways part directly, and
// gravity; in 2D the force wanted alone.
Boid StarlingStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums,
                              const Search&) {
    const StarlingParams& sp = ctx.p.starling;
    const BirdAxes b = axesOf(ctx, self.v);
    const float speed = std::sqrt(glm::dot(self.v, self.v));
    glm::vec3 force = socialForce(ctx, k, b, sums) + roostForce(ctx, self, b) + b.f * (sp.mass * (sp.cruise_speed - speed) / sp.speed_time) +
                      sp.mass * (boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self));
    Boid next = self;
    float bank = 0.0f, sideways = 0.0f;
    glm::vec3 acc = force / sp.mass;
    if (ctx.dims == 3) {
        const float weight = sp.mass * kGravity;
        const float ratio = speed / sp.cruise_speed;
        const float lift = weight * ratio * ratio;
        sideways = glm::dot(force, b.side);
        bank = self.steer.x + std::min(sp.roll_rate * ctx.p.dt, 1.0f) * (std::atan2(sideways, weight) - self.steer.x);
        const glm::vec3 up = std::cos(bank) * b.up + std::sin(bank) * b.side;
        acc = (lift * up + ((weight - lift) / sp.lift_drag) * b.f + force - sideways * b.side) / sp.mass - glm::vec3(0.0f, kGravity, 0.0f);
    }
    next.v = limitSpeed(ctx, k, self.v + acc * ctx.p.dt);
    next.steer = glm::vec4(bank, centralityOf(sums), sideways, self.steer.w);
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::Starling>() {
    return functionsOf<StarlingStyle>();
}

}  // namespace murmur
