// Couzin style (Couzin et al. 2002): zones of repulsion, orientation and attraction, a blind
// angle, Gaussian noise on the desired direction and a turning rate, at the constant speed max_speed.
// Its GPU twin is src/styles/couzin/couzin.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct CouzinStyle : StyleDefaults {
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, NeighbourSums& sums);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                          const Search& search);
};

}  // namespace murmur
