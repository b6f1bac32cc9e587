// Steering style; see steering.hpp and docs/model.md.
#include "styles/steering/cpu.hpp"

namespace murmur {

// The unit push is a shader switch on the GPU (SEP_UNIT, from the model module's row): a test per
// neighbour pair there cost a seventh of a step.
void SteeringStyle::addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                                 float d2, NeighbourSums& sums) {
    if (d2 < k.r2_counted) ++sums.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < k.r2_sep) {  // separation: from every species; coincident boids give no direction
        ++sums.n_sep;
        if (ctx.p.steering.separation == Falloff::Unit && d2 > 0.0f) sums.sep -= d / std::sqrt(d2);
        else if (d2 > 0.0f) sums.sep -= d / d2;
    }
    addAlignmentAndCohesion(k, other.species == self.species, other, d, d2, sums);  // within the species
    addPredatorOrPrey(k, ctx.of(other), other, d, d2, sums);
}

Boid SteeringStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                              const Search&) {
    glm::vec3 a{0.0f};
    if (sums.n_sep > 0) a += k.w_sep * steerTowards(k, sums.sep, self.v);
    if (sums.n_ali > 0) a += k.w_ali * steerTowards(k, sums.ali / float(sums.n_ali), self.v);
    if (sums.n_coh > 0) a += ctx.cohesion_sign * k.w_coh * steerTowards(k, sums.coh / float(sums.n_coh), self.v);
    Boid next = self;
    next.v = steeredVelocity(ctx, k, self, sums, a);
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::Steering>() {
    return functionsOf<SteeringStyle>();
}

}  // namespace murmur
