// D'Orsogna style; see dorsogna.hpp and docs/model.md.
#include "styles/dorsogna/cpu.hpp"

namespace murmur {

// -dU/dr of the Morse potential: (C_a / l_a) e^(-r / l_a) - (C_r / l_r) e^(-r / l_r).
float DOrsognaStyle::pairForce(const DOrsognaParams& m, float r) {
    return m.attractionSlope() * std::exp(-r * m.inverseAttractionRange()) - m.repulsionSlope() * std::exp(-r * m.inverseRepulsionRange());
}

// Within the cut-off (the species' alignment radius, which the registry sets to it), any species:
// the pair force along the unit offset into the cohesion sum. Coincident boids give no direction.
void DOrsognaStyle::addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid&, const Boid&, glm::vec3 d, float d2,
                                 NeighbourSums& sums) {
    if (!(d2 < k.r2_ali) || !(d2 > 0.0f)) return;
    ++sums.neighbours;
    ++sums.n_coh;
    const float r = std::sqrt(d2);
    sums.coh += (pairForce(ctx.p.dorsogna, r) / r) * d;
}

// v' = v + dt ((alpha - beta |v|^2) v + the pair forces + the walls and influences); no speed limit.
Boid DOrsognaStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                              const Search&) {
    const DOrsognaParams& m = ctx.p.dorsogna;
    const glm::vec3 propulsion = (m.propulsion - m.friction * glm::dot(self.v, self.v)) * self.v;
    const glm::vec3 a = propulsion + sums.coh + boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self);
    Boid next = self;
    next.v = self.v + a * ctx.p.dt;
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::DOrsogna>() {
    return functionsOf<DOrsognaStyle>();
}

}  // namespace murmur
