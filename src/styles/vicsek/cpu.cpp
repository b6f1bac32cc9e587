// Vicsek style; see vicsek.hpp and docs/model.md.
#include "styles/vicsek/cpu.hpp"

#include "model/rng.hpp"

namespace murmur {
namespace {

// `mean` (a unit heading) turned by the step's noise: in 2D by an angle uniform in
// [-eta/2, eta/2]; in 3D to a direction uniform in the cone of half-angle eta/2 around it.
glm::vec3 vicsekNoise(const RuleContext& ctx, const Boid& self, glm::vec3 mean) {
    const std::uint32_t seed_lo = seedLow(ctx.p.seed);
    const float u0 = vicsekUniform(seed_lo, self.id, ctx.step, 0), u1 = vicsekUniform(seed_lo, self.id, ctx.step, 1);
    const float eta = ctx.p.vicsek.noise;
    if (ctx.dims == 2) {
        const float a = eta * (u0 - 0.5f), c = std::cos(a), s = std::sin(a);
        return {mean.x * c - mean.y * s, mean.x * s + mean.y * c, 0.0f};
    }
    const float cos_t = 1.0f - u0 * (1.0f - std::cos(0.5f * eta));
    const float sin_t = std::sqrt(std::max(0.0f, 1.0f - cos_t * cos_t));
    const float phi = 6.2831853f * u1;
    const glm::vec3 helper = std::abs(mean.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0.0f, 1.0f, 0.0f);
    const glm::vec3 e1 = glm::normalize(glm::cross(mean, helper)), e2 = glm::cross(mean, e1);
    return mean * cos_t + (e1 * std::cos(phi) + e2 * std::sin(phi)) * sin_t;
}

// Vectorial noise: the direction of `sum` (n unit headings) plus noise x n x a random unit vector
// (2D: at the angle 2 pi u0; 3D: uniform on the sphere, z = 2 u0 - 1 at the azimuth 2 pi u1).
glm::vec3 vicsekVectorial(const RuleContext& ctx, const Boid& self, glm::vec3 sum, float n, glm::vec3 own) {
    const std::uint32_t seed_lo = seedLow(ctx.p.seed);
    const float u0 = vicsekUniform(seed_lo, self.id, ctx.step, 0), u1 = vicsekUniform(seed_lo, self.id, ctx.step, 1);
    glm::vec3 xi;
    if (ctx.dims == 2) xi = {std::cos(6.2831853f * u0), std::sin(6.2831853f * u0), 0.0f};
    else {
        const float z = 2.0f * u0 - 1.0f, r = std::sqrt(std::max(0.0f, 1.0f - z * z)), phi = 6.2831853f * u1;
        xi = {r * std::cos(phi), r * std::sin(phi), z};
    }
    return unitOr(sum + (ctx.p.vicsek.noise * n) * xi, own);
}

}  // namespace

void VicsekStyle::addNeighbour(const RuleContext&, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3,
                               float d2, Sums& sums) {
    if (d2 < k.r2_counted) ++sums.neighbours;
    if (other.species == self.species && d2 < k.r2_ali) {  // headings, not velocities
        ++sums.n_headings;
        sums.headings += unitOr(other.v, glm::vec3(0.0f));
    }
}

// The mean heading of self and its neighbours within the alignment radius (a cancelled sum keeps
// self's heading), with noise, at the constant speed max_speed.
Boid VicsekStyle::integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums, const Search&) {
    const glm::vec3 own = unitOr(self.v, glm::vec3(1.0f, 0.0f, 0.0f));
    Boid next = self;
    const glm::vec3 heading = ctx.p.vicsek.vectorial
                                  ? vicsekVectorial(ctx, self, sums.headings + own, float(sums.n_headings + 1), own)
                                  : vicsekNoise(ctx, self, unitOr(sums.headings + own, own));
    next.v = trapTurn(ctx, self, heading * k.max_speed);
    return next;
}

template <>
StyleFunctions styleFunctionsOf<Style::Vicsek>() {
    return functionsOf<VicsekStyle>();
}

}  // namespace murmur
