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
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, NeighbourSums& sums);
    static BirdAxes axesOf(const RuleContext& ctx, glm::vec3 v);
    static float centralityOf(const NeighbourSums& s);
    static glm::vec3 socialForce(const RuleContext& ctx, const SpeciesContext& k, const BirdAxes& b, const NeighbourSums& s);
    static glm::vec3 roostForce(const RuleContext& ctx, const Boid& self, const BirdAxes& b);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                          const Search& search);
};

}  // namespace murmur
