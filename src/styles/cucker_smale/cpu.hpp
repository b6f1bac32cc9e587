// Cucker-Smale style (Cucker & Smale 2007, "Emergent behavior in flocks"): each boid's velocity is
// pulled towards every other's of its species, dv_i/dt = (lambda / N) sum_j psi(r_ij) (v_j - v_i)
// with psi(r) = (1 + r^2)^-beta, within the cut-off radius (0: every pair). The pull is symmetric,
// so the mean velocity is conserved. No speed limit; walls and influences act as in every style.
// Its GPU twin is src/styles/cucker_smale/cucker_smale.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct CuckerSmaleStyle : StyleDefaults {
    // Its own sums: psi-weighted velocity differences to the boids of its species within the
    // cut-off, and how many.
    struct Sums {
        glm::vec3 pull{0.0f};
        std::uint32_t neighbours = 0;
    };
    static float psi(float d2, float beta);
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, Sums& sums);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums,
                          const Search& search);
};

}  // namespace murmur
