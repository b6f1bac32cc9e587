// Cucker-Smale style; see cucker_smale.hpp and docs/model.md.
#include "styles/cucker_smale/cpu.hpp"

namespace murmur {

// The communication weight at squared distance d2: (1 + r^2)^-beta.
float CuckerSmaleStyle::psi(float d2, float beta) { return std::pow(1.0f + d2, -beta); }

// Within the cut-off (the style's reach, as its registry row gives it) and of self's species:
// psi(r) (v_j - v_i).
void CuckerSmaleStyle::addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other,
                                    glm::vec3, float d2, Sums& sums) {
    if (other.species != self.species || !(d2 < k.r2_reach)) return;
    ++sums.neighbours;
    sums.pull += psi(d2, ctx.p.cucker_smale.beta) * (other.v - self.v);
}

// v' = v + dt (lambda / N) sum_j psi (v_j - v_i), plus the walls and influences; no speed limit.
Boid CuckerSmaleStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums,
                                 const Search&) {
    const float pull = ctx.p.cuckerSmalePull();
    const glm::vec3 a = pull * sums.pull + boundsAcceleration(ctx, self.p) + influenceAcceleration(ctx, k, self);
    Boid next = self;
    next.v = self.v + a * ctx.p.dt;
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::CuckerSmale>() {
    return functionsOf<CuckerSmaleStyle>();
}

}  // namespace murmur
