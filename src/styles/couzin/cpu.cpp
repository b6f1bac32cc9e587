// Couzin style; see couzin.hpp and docs/model.md.
#include "styles/couzin/cpu.hpp"

#include "model/rng.hpp"

namespace murmur {
namespace {

// The unit direction `d` turned by the step's Gaussian noise of s.d. sigma: in 2D by an angle
// sigma g (g standard normal, Box-Muller); in 3D by the angle sigma |g2| (g2 a standard normal
// pair: an isotropic Gaussian step in the tangent plane) about a uniform azimuth.
glm::vec3 couzinNoise(const RuleContext& ctx, const Boid& self, glm::vec3 d) {
    const std::uint32_t seed_lo = seedLow(ctx.p.seed);
    const float u0 = couzinUniform(seed_lo, self.id, ctx.step, 0), u1 = couzinUniform(seed_lo, self.id, ctx.step, 1);
    const float radius = ctx.p.couzin.noise * std::sqrt(-2.0f * std::log(1.0f - u0)), phi = 6.2831853f * u1;
    if (ctx.dims == 2) {
        const float a = radius * std::cos(phi), c = std::cos(a), s = std::sin(a);
        return {d.x * c - d.y * s, d.x * s + d.y * c, 0.0f};
    }
    const glm::vec3 e1 = perpendicularTo(ctx, d), e2 = glm::cross(d, e1);
    return d * std::cos(radius) + (e1 * std::cos(phi) + e2 * std::sin(phi)) * std::sin(radius);
}

// The desired direction: away from those in the zone of repulsion if any (absolute priority);
// else the unit headings of those in the zone of orientation, self included, and the unit
// directions to those in the zone of attraction, each normalised and averaged when both are
// there; else straight on. A sum that cancels keeps the heading.
glm::vec3 couzinDesired(const CouzinStyle::Sums& s, glm::vec3 own) {
    if (s.n_repulsion > 0) return unitOr(s.repulsion, own);
    const glm::vec3 d_o = unitOr(s.orientation + own, own);
    if (s.n_attraction == 0) return d_o;  // orientation alone (or no one: self's own heading)
    const glm::vec3 d_a = unitOr(s.attraction, own);
    return s.n_orientation > 0 ? unitOr(0.5f * (d_o + d_a), own) : d_a;
}

}  // namespace

void CouzinStyle::addNeighbour(const RuleContext&, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                               float d2, Sums& sums) {
    if (d2 < k.r2_counted) ++sums.neighbours;
    if (d2 < k.r2_sep) {  // repulsion: away from each, unit
        ++sums.n_repulsion;
        if (d2 > 0.0f) sums.repulsion -= d / std::sqrt(d2);
    }
    const bool same = other.species == self.species;
    if (same && d2 < k.r2_ali) {  // orientation: headings, not velocities
        ++sums.n_orientation;
        sums.orientation += unitOr(other.v, glm::vec3(0.0f));
    }
    if (same && d2 < k.r2_coh && d2 >= k.r2_ali && d2 > 0.0f) {  // attraction: beyond orientation's zone, unit directions
        ++sums.n_attraction;
        sums.attraction += d / std::sqrt(d2);
    }
}

// The noisy desired direction, reached if it is within the step's turn (turn_rate x dt) of the
// heading, else the heading turned by that much towards it; at max_speed.
Boid CouzinStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums, const Search&) {
    const glm::vec3 own = unitOr(self.v, glm::vec3(1.0f, 0.0f, 0.0f));
    const glm::vec3 want = couzinNoise(ctx, self, couzinDesired(sums, own));
    const float turn = ctx.p.couzinTurnPerStep(), cos_angle = glm::dot(own, want);
    Boid next = self;
    if (cos_angle >= std::cos(turn)) {
        next.v = trapTurn(ctx, self, want * k.max_speed);
        return next;
    }
    const glm::vec3 side = unitOr(want - cos_angle * own, perpendicularTo(ctx, own));
    next.v = trapTurn(ctx, self, (own * std::cos(turn) + side * std::sin(turn)) * k.max_speed);
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::Couzin>() {
    return functionsOf<CouzinStyle>();
}

}  // namespace murmur
