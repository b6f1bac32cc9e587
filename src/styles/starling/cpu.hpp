// Starling style (StarDisplay: Hildenbrandt, Carere & Hemelrijk 2010): separation fading from a
// hard core, cohesion weighted by the bird's centrality squared, alignment, both blind to the rear;
// a roost and a preferred height; cruise-speed control; and simplified flight: lift along the
// banked up axis, drag, thrust and gravity, the bank rolled toward the sideways force wanted.
// It keeps its bank and centrality in Boid::steer (x, y), its sideways force wanted in z, and
// leaves w to the adaptive radius. Its GPU twin is src/styles/starling/starling.glsl: the same
// functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

inline constexpr float kGravity = 9.81f;  // m/s^2, -y

// The bird's axes: heading f, the level side axis (f x y), the unbanked up axis (side x f).
struct BirdAxes {
    glm::vec3 f, side, up;
};

struct StarlingStyle : StyleDefaults {
    // Its own sums: the unit vectors to its neighbours (centrality) and how many; separation,
    // alignment and cohesion, each with how many.
    struct Sums {
        glm::vec3 around{0.0f};
        glm::vec3 sep{0.0f}, ali{0.0f}, coh{0.0f};
        std::uint32_t n_sep = 0, n_ali = 0, n_coh = 0;
        std::uint32_t neighbours = 0;
    };
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, Sums& sums);
    static BirdAxes axesOf(const RuleContext& ctx, glm::vec3 v);
    static float centralityOf(const Sums& s);
    static glm::vec3 socialForce(const RuleContext& ctx, const SpeciesContext& k, const BirdAxes& b, const Sums& s);
    static glm::vec3 roostForce(const RuleContext& ctx, const Boid& self, const BirdAxes& b);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Sums& sums,
                          const Search& search);
};

}  // namespace murmur
