// Steering style (Reynolds 1987/1999, Shiffman): each rule a desired velocity, steered towards
// at max_force; separation pushes -d/|d|^2 per neighbour (steering.separation: or the unit -d/|d|).
// Its GPU twin is src/styles/steering/steering.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct SteeringStyle : StyleDefaults {
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, NeighbourSums& sums);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                          const Search& search);
};

}  // namespace murmur
