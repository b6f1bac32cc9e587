// Vicsek style (Vicsek et al. 1995): the mean heading within the alignment radius, self included,
// turned by angular noise, at the constant speed max_speed.
// Its GPU twin is src/styles/vicsek/vicsek.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct VicsekStyle : StyleDefaults {
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, NeighbourSums& sums);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                          const Search& search);
};

}  // namespace murmur
