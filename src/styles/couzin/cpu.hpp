// Couzin style (Couzin et al. 2002): zones of repulsion, orientation and attraction, a blind
// angle, Gaussian noise on the desired direction and a turning rate, at the constant speed max_speed.
// Its GPU twin is src/styles/couzin/couzin.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

struct CouzinStyle : StyleDefaults {
    // Its own sums: away from those in the zone of repulsion, the unit headings in the zone of
    // orientation and the unit directions in the zone of attraction, each with how many, and the
    // neighbours counted for the order parameters.
    struct Sums {
        glm::vec3 repulsion{0.0f}, orientation{0.0f}, attraction{0.0f};
        std::uint32_t n_repulsion = 0, n_orientation = 0, n_attraction = 0;
        std::uint32_t neighbours = 0;
    };
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, Sums& sums);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums,
                          const Search& search);
};

}  // namespace murmur
