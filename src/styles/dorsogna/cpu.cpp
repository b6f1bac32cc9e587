// D'Orsogna style; see dorsogna.hpp and docs/model.md.
#include "styles/dorsogna/cpu.hpp"

#include "model/rng.hpp"

namespace murmur {

// -dU/dr of the Morse potential: (C_a / l_a) e^(-r / l_a) - (C_r / l_r) e^(-r / l_r).
float DOrsognaStyle::pairForce(const DOrsognaParams& m, float r) {
    return m.attractionSlope() * std::exp(-r * m.inverseAttractionRange()) - m.repulsionSlope() * std::exp(-r * m.inverseRepulsionRange());
}

// Within the cut-off (the style's reach, as its registry row gives it), any species: the pair
// force along the unit offset. Coincident boids give no direction.
void DOrsognaStyle::addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid&, const Boid&, glm::vec3 d, float d2,
                                 Sums& sums) {
    if (!(d2 < k.r2_reach) || !(d2 > 0.0f)) return;
    ++sums.neighbours;
    const float r = std::sqrt(d2);
    sums.force += (pairForce(ctx.p.dorsogna, r) / r) * d;
}

namespace {

// The step's noise on the velocity: sqrt(2 D dt) x a standard normal on each used axis (Box-Muller
// over the boid's four uniforms: x and y from the first pair, z from the second).
glm::vec3 dorsognaKick(const RuleContext& ctx, const Boid& self) {
    const float step = ctx.p.dorsogna.noiseStep(ctx.p.dt);
    if (!(step > 0.0f)) return glm::vec3(0.0f);
    const std::uint32_t seed_lo = seedLow(ctx.p.seed);
    float u[4];
    for (int k = 0; k < 4; ++k) u[k] = dorsognaUniform(seed_lo, self.id, ctx.step, k);
    const float r01 = std::sqrt(-2.0f * std::log(1.0f - u[0])), r23 = std::sqrt(-2.0f * std::log(1.0f - u[2]));
    const float a01 = 6.2831853f * u[1], a23 = 6.2831853f * u[3];
    const glm::vec3 g(r01 * std::cos(a01), r01 * std::sin(a01), ctx.dims == 3 ? r23 * std::cos(a23) : 0.0f);
    return step * g;
}

}  // namespace

// v' = v + dt ((alpha - beta |v|^2) v + the pair forces + the walls and influences) + the noise; no speed limit.
Boid DOrsognaStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums,
                              const Search&) {
    const DOrsognaParams& m = ctx.p.dorsogna;
    const glm::vec3 propulsion = (m.propulsion - m.friction * glm::dot(self.v, self.v)) * self.v;
    const glm::vec3 a = propulsion + sums.force + boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self);
    Boid next = self;
    next.v = self.v + a * ctx.p.dt + dorsognaKick(ctx, self);
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::DOrsogna>() {
    return functionsOf<DOrsognaStyle>();
}

}  // namespace murmur
