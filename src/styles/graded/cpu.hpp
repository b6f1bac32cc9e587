// Graded style (the default): separation grows as the distance shrinks, cohesion is a spring to
// the local centre, alignment steers as Reynolds'.
// Its GPU twin is src/styles/graded/graded.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct GradedStyle : StyleDefaults {

    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, NeighbourSums& sums);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                          const Search& search);
};

}  // namespace murmur
