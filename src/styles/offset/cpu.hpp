// Offset style (Parker's pseudocode): each rule a velocity offset per step, averaged over the
// neighbours (offset.sums: summed, as flock.rb); the attractor and repeller are offsets too.
// Its GPU twin is src/styles/offset/offset.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct OffsetStyle : StyleDefaults {
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, NeighbourSums& sums);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                          const Search& search);
};

}  // namespace murmur
