// The per-pair and per-boid math of the flock model (../shared/MODEL.md, docs/model.md), written
// plainly. Both CPU neighbour searches (grid and brute force) call these; the GPU's
// flock_steer.comp implements the same formulas and parity tests hold it to them.
#pragma once

#include "model/boid.hpp"
#include "model/params.hpp"

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include <cstdint>
#include <vector>

namespace murmur {

// Values derived once per step from Params (the GPU receives the same floats).
struct RuleContext {
    int dims = 2;
    bool wrap = true;
    Style style = Style::Steering;
    glm::vec3 L{0.0f}, inv_L{0.0f};  // world extent and its reciprocal (0 on unused axes)
    float r2_sep = 0, r2_ali = 0, r2_coh = 0, r2_max = 0;  // squared radii
    bool use_fov = false;
    float cos_half_fov = -1.0f;
    // Influences (docs/model.md): unused axes zeroed in 2D.
    glm::vec3 wind{0.0f}, attractor{0.0f}, repeller{0.0f}, leader_at{0.0f};
    float r2_repeller = 0.0f;
    float cohesion_sign = 1.0f;  // -1 while scattering
    std::vector<glm::vec4> obstacles;  // xyz centre, w radius
    Params p;

    explicit RuleContext(const Params& params);
};

// Sums over the neighbours of one boid, filled by accumulate().
struct NeighbourSums {
    glm::vec3 sep{0.0f};  // steering: sum of -d/|d|^2; offset: sum of d
    glm::vec3 ali{0.0f};  // sum of v_j
    glm::vec3 coh{0.0f};  // sum of d
    std::uint32_t n_sep = 0, n_ali = 0, n_coh = 0;
    std::uint32_t neighbours = 0;  // j within the largest radius and the field of view
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
// Adds `other` to self's sums if it is a neighbour (and, with a cap, among the k nearest).
void accumulate(const RuleContext& ctx, const Boid& self, const Boid& other, NeighbourSums& sums,
                const NearestK* cap = nullptr);
// Self at step t+1 from its sums at step t: rules, bounds, semi-implicit Euler, speed clamp, wrap.
Boid integrate(const RuleContext& ctx, const Boid& self, const NeighbourSums& sums);

}  // namespace murmur
