// Vicsek style (Vicsek et al. 1995): the mean heading within the alignment radius, self included,
// turned by angular noise, at the constant speed max_speed.
// Its GPU twin is src/styles/vicsek/vicsek.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct VicsekStyle : StyleDefaults {
    // Its own sums: the unit headings of the boids of its species within the alignment radius,
    // how many, and the neighbours counted for the order parameters.
    struct Sums {
        glm::vec3 headings{0.0f};
        std::uint32_t n_headings = 0;
        std::uint32_t neighbours = 0;
    };
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, Sums& sums);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums,
                          const Search& search);
};

}  // namespace murmur
