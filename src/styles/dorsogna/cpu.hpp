// D'Orsogna style (D'Orsogna, Chuang, Bertozzi & Chayes 2006, "Self-propelled particles with
// soft-core interactions"): each boid, of unit mass, propels itself and is slowed by friction,
// alpha v - beta |v|^2 v, and feels the Morse potential's force from every boid within the
// cut-off, whatever its species: (C_a / l_a) e^(-r / l_a) towards it, (C_r / l_r) e^(-r / l_r)
// away. No speed limit; walls and influences act as in every style.
// Its GPU twin is src/styles/dorsogna/dorsogna.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct DOrsognaStyle : StyleDefaults {
    static constexpr bool kVelocityCone = false;  // every boid within the cut-off acts, all round
    // Its own sums: the pair forces of the boids within the cut-off, and how many.
    struct Sums {
        glm::vec3 force{0.0f};
        std::uint32_t neighbours = 0;
    };
    // The pair force's magnitude at distance r, positive towards the other boid.
    static float pairForce(const DOrsognaParams& m, float r);
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, Sums& sums);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums,
                          const Search& search);
};

}  // namespace murmur
