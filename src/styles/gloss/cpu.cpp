// Gloss style; see gloss.hpp and docs/model.md.
#include "styles/gloss/cpu.hpp"

namespace murmur {

// The view: within the cone about the boid's last acceleration (Boid::steer.xyz); with no
// acceleration, or for a coincident boid, all round.
bool GlossStyle::glossSees(const SpeciesContext& k, const Boid& self, glm::vec3 d, float d2) {
    if (!k.use_fov || !(d2 > 0.0f)) return true;
    const glm::vec3 a(self.steer);
    const float a2 = glm::dot(a, a);
    return !(a2 > 0.0f) || glm::dot(a, d) >= k.cos_half_fov * std::sqrt(a2 * d2);
}

void GlossStyle::addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                              float d2, NeighbourSums& sums) {
    // Separation looks all round the safe space; alignment and cohesion only in the view.
    const bool seen = glossSees(k, self, d, d2);
    if (d2 < k.r2_counted && (seen || d2 < k.r2_sep)) ++sums.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < k.r2_sep) {  // separation: from every species, an escape route of length r_sep
        ++sums.n_sep;
        if (d2 > 0.0f) sums.sep -= d * (k.r_sep / std::sqrt(d2));
    }
    addAlignmentAndCohesion(k, other.species == self.species && seen, other, d, d2, sums);
    addPredatorOrPrey(k, ctx.of(other), other, d, d2, sums);
}

glm::vec3 GlossStyle::glossAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& s) {
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

Boid GlossStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                           const Search&) {
    Boid next = self;
    const glm::vec3 a = glossAcceleration(ctx, k, self, sums);
    next.steer = glm::vec4(a, float(sums.neighbours));  // the view cone's axis next step
    next.v = limitSpeed(ctx, k, self.v + a * ctx.p.dt);
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::Gloss>() {
    return functionsOf<GlossStyle>();
}

}  // namespace murmur
