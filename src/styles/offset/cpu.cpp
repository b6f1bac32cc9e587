// Offset style; see offset.hpp and docs/model.md.
#include "styles/offset/cpu.hpp"

namespace murmur {

void OffsetStyle::addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                               float d2, NeighbourSums& sums) {
    if (d2 < k.r2_counted) ++sums.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < k.r2_sep) {  // separation: from every species
        ++sums.n_sep;
        sums.sep += d;
    }
    addAlignmentAndCohesion(k, other.species == self.species, other, d, d2, sums);  // within the species
    addPredatorOrPrey(k, ctx.of(other), other, d, d2, sums, true);
}

Boid OffsetStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                            const Search&) {
    const Params& p = ctx.p;
    glm::vec3 dv{0.0f};  // velocity change this step
    if (p.offset.sums) {
        // flock.rb: each rule summed over the neighbours, not averaged.
        if (sums.n_sep > 0) dv -= sums.sep * k.w_sep;
        if (sums.n_ali > 0) dv += sums.ali * k.w_ali;
        if (sums.n_coh > 0) dv += sums.coh * (ctx.cohesion_sign * k.w_coh);
        if (sums.n_flee > 0) dv -= sums.flee * k.w_flee;
        if (sums.chasing) dv += sums.chase_d * k.chase;
    } else {
        // Parker: each rule is a velocity offset per step, summed; walls still push per second.
        if (sums.n_sep > 0) dv -= (sums.sep / float(sums.n_sep)) * k.w_sep;
        if (sums.n_ali > 0) dv += (sums.ali / float(sums.n_ali) - self.v) * k.w_ali;
        else if (p.offset.lone) dv += self.v;  // the Ruby's rule 3 with no one near: the boid's own velocity
        if (sums.n_coh > 0) dv += (sums.coh / float(sums.n_coh)) * (ctx.cohesion_sign * k.w_coh);
        if (sums.n_flee > 0) dv -= (sums.flee / float(sums.n_flee)) * k.w_flee;
        if (sums.chasing) dv += sums.chase_d * k.chase;
    }
    dv += boundsAcceleration(ctx, self.p) * p.dt + influenceOffset(ctx, self);
    Boid next = self;
    next.v = limitSpeed(ctx, k, self.v + dv);
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::Offset>() {
    return functionsOf<OffsetStyle>();
}

}  // namespace murmur
