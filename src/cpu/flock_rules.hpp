// What every style shares (docs/model.md), written plainly: the values derived from Params, the
// neighbour sums, the minimum image, the view test, the influences, bounds, obstacles, perching,
// the speed clamp and the end of a step. A style (src/styles/<name>/cpu.cpp) adds its own neighbour terms
// and velocity update; the driver (flock_step.hpp) walks the grid and calls them.
// shaders/flock_rules.glsl implements the same functions, and parity tests hold it to them.
#pragma once

#include "model/boid.hpp"
#include "model/params.hpp"

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace murmur {

// One species' derived values, computed once for both backends (gpu/layout.cpp packs these).
struct SpeciesContext {
    float r2_sep = 0, r2_ali = 0, r2_coh = 0;  // squared radii
    float r2_reach = 0;                        // a style's own reach (its cut-off), squared
    float r2_max = 0;                          // largest of them and the flee radius
    float r2_counted = 0;                      // largest rule radius: the neighbour count's
    bool use_fov = false;
    float cos_half_fov = -1.0f;
    float w_sep = 0, w_ali = 0, w_coh = 0;
    float r_sep = 0, inv_r_coh = 0;            // separation radius, 1 / cohesion radius (0 when it is 0)
    float min_speed = 0, max_speed = 0, max_force = 0;
    Manoeuvre dc{};  // decarpentier style
    bool predator = false;
    float chase = 0.0f;
    float r2_flee = 0.0f, w_flee = 0.0f;
};

// Species s's derived values.
SpeciesContext speciesContextOf(const Params& params, std::uint32_t s);

// Values derived once per step from Params.
struct RuleContext {
    int dims = 2;
    bool wrap = true;    // the world is periodic (offsets are minimum images, positions fold)
    bool walls = false;  // soft bounds' walls push (not in wrap or open sky)
    glm::vec3 L{0.0f}, inv_L{0.0f};  // world extent and its reciprocal (0 on unused axes)
    std::array<SpeciesContext, kMaxSpecies> species{};  // indexed by Boid::species
    // Influences (docs/model.md): unused axes zeroed in 2D.
    glm::vec3 wind{0.0f}, attractor{0.0f}, repeller{0.0f}, leader_at{0.0f};
    glm::vec3 trap_at{0.0f};  // the harmonic trap's centre (Params::trapCentre)
    float trap_k = 0.0f;      // its stiffness (0: off)
    float r2_repeller = 0.0f;
    float cohesion_sign = 1.0f;  // -1 while scattering
    std::vector<glm::vec4> obstacles;  // xyz centre, w radius
    bool perching = false;
    std::uint32_t step = 0;  // steps since upload (noise and perch lengths are drawn from (seed, id, step))
    std::uint32_t steps_per_steer = 1;  // amortised steering: a boid steers every this many steps
    bool adaptive = false;  // topological.count > 0: each boid sees within its own radius (reachOf)
    float cos_half_blind = -1.0f;  // the starling style's rear blind cone (starlingCosHalfBlind)
    Params p;

    explicit RuleContext(const Params& params);
    const SpeciesContext& of(const Boid& b) const { return species[std::min(b.species, kMaxSpecies - 1)]; }
};

// Sums over the neighbours of one boid: what the shared terms and the style's addNeighbour add.
struct NeighbourSums {
    glm::vec3 sep{0.0f};  // separation: each style's own term
    glm::vec3 ali{0.0f};  // alignment: v_j (or the style's term)
    glm::vec3 coh{0.0f};  // cohesion: d (or the style's term)
    std::uint32_t n_sep = 0, n_ali = 0, n_coh = 0;
    std::uint32_t neighbours = 0;  // j within the largest rule radius and the field of view
    glm::vec3 flee{0.0f};          // prey: sum of -d/|d|^2 over predators (offset style: sum of d)
    std::uint32_t n_flee = 0;
    // Predator: the nearest prey it sees within its cohesion radius, by (d2, id).
    bool chasing = false;
    glm::vec3 chase_d{0.0f};
    float chase_d2 = 0.0f;
    std::uint32_t chase_id = 0;
};

// The neighbour cap: the k nearest neighbours by (d2, id), kept sorted by insertion (k <= 32),
// each with its slot. offer() every neighbour; then the list is the k nearest, nearest first
// (size(), slot(i), d2(i)), and admits() says whether one is among them. Once the list is full a
// neighbour past its last is turned away by one comparison (the GPU's flock_gather.glsl likewise).
class NearestK {
public:
    explicit NearestK(std::uint32_t k) : k_(k) {}
    void offer(float d2, std::uint32_t id, std::uint32_t slot = 0);
    bool admits(float d2, std::uint32_t id) const {
        if (n_ < k_) return true;
        return d2 < d2_[k_ - 1] || (d2 == d2_[k_ - 1] && id <= id_[k_ - 1]);
    }
    std::uint32_t size() const { return n_; }
    std::uint32_t slot(std::uint32_t i) const { return slot_[i]; }
    float d2(std::uint32_t i) const { return d2_[i]; }

private:
    std::uint32_t k_, n_ = 0;
    float d2_[32] = {};
    std::uint32_t id_[32] = {}, slot_[32] = {};
};

// A wrap-mode position folded into [0, L) (unchanged in soft mode).
glm::vec3 wrapPosition(const RuleContext& ctx, glm::vec3 p);
// The periodic images a boid crossed moving from `from` to `to` (both in the box): on each
// wrapped axis minus the whole boxes the minimum image takes off the move (0 in soft and open
// bounds). shaders/step_boid.glsl's countImages.
glm::ivec3 imagesCrossed(const RuleContext& ctx, glm::vec3 from, glm::vec3 to);

// R moved toward the radius that would hold topological.count boids, itself included, given the
// `seen` boids within it this step: R + rate (R (count / (seen + 1))^(1/dims) - R), at most
// max_radius (StarDisplay's rule).
float nextReach(const RuleContext& ctx, float reach, std::uint32_t seen);

// x over its length, or fallback when x is 0.
glm::vec3 unitOr(glm::vec3 v, glm::vec3 fallback);
// x scaled to length m; 0 stays 0.
glm::vec3 setMag(glm::vec3 x, float m);
// x clamped to length at most m.
glm::vec3 limit(glm::vec3 x, float m);
// Reynolds' steer towards a desired direction at full speed, clamped to max_force.
glm::vec3 steerTowards(const SpeciesContext& k, glm::vec3 desired, glm::vec3 v);
// Soft walls: per axis, a push of turn * depth / margin once inside the margin band. 0 in wrap mode
// and open sky.
glm::vec3 boundsAcceleration(const RuleContext& ctx, glm::vec3 p);
// Wind, wander, obstacles, the attractor and the repeller as accelerations.
glm::vec3 influenceAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self);
// The harmonic trap's pull at p: -stiffness x (p - centre) (the minimum image in wrap), 0 when off.
glm::vec3 trapAcceleration(const RuleContext& ctx, glm::vec3 p);
// A constant-speed style's new velocity v turned by the trap: |v| (v + trap x dt) / |v + trap x dt|.
glm::vec3 trapTurn(const RuleContext& ctx, const Boid& self, glm::vec3 v);
// The same as velocity offsets per step (the offset style): the attractor and repeller as Parker's
// tend to / away from a place; wind, wander and obstacles still accelerations, times dt.
glm::vec3 influenceOffset(const RuleContext& ctx, const Boid& self);
// The new velocity of a style whose rules give an acceleration `a` (steering, graded): plus
// fleeing predators and chasing prey (steered as Reynolds'), walls and influences, over dt, the
// speed limited.
glm::vec3 steeredVelocity(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums, glm::vec3 a);
// Speed into [min_speed, max_speed] unless the speed limit is off; a boid at rest stays at rest.
glm::vec3 limitSpeed(const RuleContext& ctx, const SpeciesContext& k, glm::vec3 v);
// A unit vector perpendicular to the unit vector u (in the xy plane in 2D).
glm::vec3 perpendicularTo(const RuleContext& ctx, glm::vec3 u);
// A boid on the ground (perching): at rest until its time is up, then straight up to rejoin.
Boid restOnTheGround(const RuleContext& ctx, const SpeciesContext& k, const Boid& self);
// The end of every step: position from the new velocity (or the old, explicit Euler), obstacles,
// landing, wrap, the led boid, 2D. `next` holds the style's new velocity (and steering).
Boid finishStep(const RuleContext& ctx, const Boid& self, Boid next);

}  // namespace murmur
