// The per-pair and per-boid math of the flock model (docs/model.md), written
// plainly. Both CPU neighbour searches (grid and brute force) call these; the GPU's
// flock_steer.comp implements the same formulas and parity tests hold it to them.
#pragma once

#include "model/boid.hpp"
#include "model/params.hpp"

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace murmur {

// One species' derived values (the GPU receives the same floats in SpeciesBlock).
struct SpeciesContext {
    float r2_sep = 0, r2_ali = 0, r2_coh = 0;  // squared radii
    float r2_max = 0;                          // largest of them and the flee radius
    float r2_counted = 0;                      // largest rule radius: the neighbour count's
    bool use_fov = false;
    float cos_half_fov = -1.0f;
    float w_sep = 0, w_ali = 0, w_coh = 0;
    float r_sep = 0, inv_r_coh = 0;            // graded style: separation radius, 1 / cohesion radius
    float min_speed = 0, max_speed = 0, max_force = 0;
    Manoeuvre dc{};  // decarpentier style
    bool predator = false;
    float chase = 0.0f;
    float r2_flee = 0.0f, w_flee = 0.0f;
};

// Values derived once per step from Params (the GPU receives the same floats).
struct RuleContext {
    int dims = 2;
    bool wrap = true;
    Style style = Style::Steering;
    glm::vec3 L{0.0f}, inv_L{0.0f};  // world extent and its reciprocal (0 on unused axes)
    std::array<SpeciesContext, kMaxSpecies> species{};  // indexed by Boid::species
    // Influences (docs/model.md): unused axes zeroed in 2D.
    glm::vec3 wind{0.0f}, attractor{0.0f}, repeller{0.0f}, leader_at{0.0f};
    float r2_repeller = 0.0f;
    float cohesion_sign = 1.0f;  // -1 while scattering
    std::vector<glm::vec4> obstacles;  // xyz centre, w radius
    bool perching = false;
    std::uint32_t step = 0;  // steps since upload (perch lengths are drawn from (seed, id, step))
    std::uint32_t steps_per_steer = 1;  // decarpentier: a boid steers every this many steps
    Params p;

    explicit RuleContext(const Params& params);
};

// Sums over the neighbours of one boid, filled by accumulate().
struct NeighbourSums {
    glm::vec3 sep{0.0f};  // steering: sum of -d/|d|^2; offset: sum of d; decarpentier: -d/|d|^2 over other species
    glm::vec3 ali{0.0f};  // sum of v_j
    glm::vec3 coh{0.0f};  // sum of d
    std::uint32_t n_sep = 0, n_ali = 0, n_coh = 0;
    std::uint32_t neighbours = 0;  // j within the largest rule radius and the field of view
    glm::vec3 flee{0.0f};          // prey: steering: sum of -d/|d|^2 over predators; offset: sum of d
    std::uint32_t n_flee = 0;
    // Predator: the nearest prey it sees within its cohesion radius, by (d2, id).
    bool chasing = false;
    glm::vec3 chase_d{0.0f};
    float chase_d2 = 0.0f;
    std::uint32_t chase_id = 0;
    // Decarpentier style: the three neighbours that count (see ThreeNeighbours), nearest first.
    std::uint32_t dc_n = 0;
    glm::vec3 dc_d[3] = {};
    float dc_d2[3] = {};
    glm::vec3 dc_v[3] = {};
};

// Decarpentier style's three neighbours of a boid, among its own species within its largest
// rule radius and view: the closest and second closest (first sweep, offerNear), and the closest
// one farther than far_factor times the closest distance (second sweep, offerFar). Keys are
// (d2, id): ties go to the lower id. Slots hold the caller's index of each neighbour.
class ThreeNeighbours {
public:
    void offerNear(float d2, std::uint32_t id, std::uint32_t slot);
    void offerFar(float d2, std::uint32_t id, std::uint32_t slot, float far_factor);
    // The found neighbours' slots, nearest first (up to 3; the third may be absent).
    std::uint32_t count() const;
    std::uint32_t slot(std::uint32_t k) const;

private:
    struct Key {
        bool set = false;
        float d2 = 0.0f;
        std::uint32_t id = 0, slot = 0;
        bool before(float d2_, std::uint32_t id_) const { return !set || d2_ < d2 || (d2_ == d2 && id_ < id); }
    };
    Key near_[2], far_;
};

// The neighbour cap: the k nearest neighbours by (d2, id), kept sorted by insertion (k <= 32).
// offer() every neighbour first; then admits() says whether one is among the k nearest.
class NearestK {
public:
    explicit NearestK(std::uint32_t k) : k_(k) {}
    void offer(float d2, std::uint32_t id);
    bool admits(float d2, std::uint32_t id) const;

private:
    std::uint32_t k_, n_ = 0;
    float d2_[32] = {};
    std::uint32_t id_[32] = {};
};

// Minimum-image offset in wrap mode, plain difference in soft mode.
glm::vec3 offsetBetween(const RuleContext& ctx, glm::vec3 from, glm::vec3 to);
// A wrap-mode position folded into [0, L) (unchanged in soft mode).
glm::vec3 wrapPosition(const RuleContext& ctx, glm::vec3 p);
// True if `other` is a neighbour of self (within the largest radius and the field of view);
// sets d (minimum image, self to other) and d2. j != i is the caller's job.
bool isNeighbourOf(const RuleContext& ctx, const Boid& self, const Boid& other, glm::vec3& d, float& d2);
// For a neighbour at squared distance d2 (isNeighbourOf): may it be one of self's three
// Decarpentier neighbours (same species, within the largest rule radius)?
bool isDcCandidate(const RuleContext& ctx, const Boid& self, const Boid& other, float d2);
// Adds `other` to self's sums if it is a neighbour (and, with a cap, among the k nearest).
void accumulate(const RuleContext& ctx, const Boid& self, const Boid& other, NeighbourSums& sums,
                const NearestK* cap = nullptr);
// accumulate() for a boid isNeighbourOf() has already found, with its offset d and d2.
void addNeighbour(const RuleContext& ctx, const Boid& self, const Boid& other, glm::vec3 d, float d2, NeighbourSums& sums,
                  const NearestK* cap = nullptr);
// Decarpentier style: does self compute its steering this step (else it reuses Boid::steer)?
bool steersNow(const RuleContext& ctx, const Boid& self);
// Self at step t+1 from its sums at step t: rules, bounds, semi-implicit Euler, speed clamp, wrap.
Boid integrate(const RuleContext& ctx, const Boid& self, const NeighbourSums& sums);

}  // namespace murmur
