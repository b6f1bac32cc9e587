// Graded style; see graded.hpp and docs/model.md.
#include "styles/graded/cpu.hpp"

namespace murmur {

void GradedStyle::addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                               float d2, NeighbourSums& sums) {
    if (d2 < k.r2_counted) ++sums.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < k.r2_sep) {  // separation: from every species, -dir * min(r_sep/|d| - 1, kGradedCore)
        ++sums.n_sep;
        if (d2 > 0.0f) sums.sep -= d * (std::min(k.r_sep - std::sqrt(d2), kGradedCore * std::sqrt(d2)) / d2);
    }
    addAlignmentAndCohesion(k, other.species == self.species, other, d, d2, sums);  // within the species
    addPredatorOrPrey(k, ctx.of(other), other, d, d2, sums);
}

Boid GradedStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                            const Search&) {
    // Separation grows as the distance shrinks and cohesion is a spring to the local centre
    // (max_force at one cohesion radius): both are forces, so a crowd pushes back harder the
    // denser it is. Alignment steers as Reynolds'.
    glm::vec3 a{0.0f};
    if (sums.n_sep > 0) a += (k.w_sep * k.max_force) * sums.sep;
    if (sums.n_ali > 0) a += k.w_ali * steerTowards(k, sums.ali / float(sums.n_ali), self.v);
    if (sums.n_coh > 0) a += (ctx.cohesion_sign * k.w_coh * k.max_force * k.inv_r_coh) * (sums.coh / float(sums.n_coh));
    Boid next = self;
    next.v = steeredVelocity(ctx, k, self, sums, a);
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::Graded>() {
    return functionsOf<GradedStyle>();
}

}  // namespace murmur
