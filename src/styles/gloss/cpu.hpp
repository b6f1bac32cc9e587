// Gloss style (the Haskell post): the escape routes' sum, the mean velocity and the centre of
// those in view, each normalised and scaled by max_force; the view is a cone about the boid's
// last acceleration, not its velocity (separation looks all round).
// Its GPU twin is src/styles/gloss/gloss.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct GlossStyle : StyleDefaults {
    static constexpr bool kVelocityCone = false;  // glossSees is its view
    static bool glossSees(const SpeciesContext& k, const Boid& self, glm::vec3 d, float d2);
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, NeighbourSums& sums);
    static glm::vec3 glossAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& s);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                          const Search& search);
};

}  // namespace murmur
