// Decarpentier style (the write-up on birds): three neighbours (the two nearest of its species and
// the nearest beyond far_factor x the closest distance), avoid / preferred distance / velocity
// match terms, level flight and height, the sum split into the boid's axes and each clamped, the
// speed smoothed; steering recomputed dc.steer_hz times a second per boid, motion every step.
// Its GPU twin is src/styles/decarpentier/decarpentier.glsl: the same functions, in the same order.
#pragma once

#include "cpu/flock_step.hpp"

namespace murmur {

// The three neighbours that count, among self's species within its largest rule radius and view:
// the closest and second closest (first sweep), and the closest one farther than far_factor
// times the closest distance (second sweep). Keys are (d2, id): ties go to the lower id.
class ThreeNeighbours {
public:
    static constexpr bool kFirstSweep = true;
    void offerFirst(const RuleContext& ctx, const Boid& self, const Boid& other, float d2, std::uint32_t slot);
    void offerSecond(const RuleContext& ctx, const Boid& self, const Boid& other, float d2, std::uint32_t slot);
    // Copies each found neighbour's offset and velocity, nearest first.
    void collect(const RuleContext& ctx, const Flock& flock, const Boid& self);

    std::uint32_t n = 0;  // found (up to 3; the third may be absent)
    glm::vec3 offset[3] = {};  // self to each
    float dist2[3] = {};
    glm::vec3 vel[3] = {};

private:
    struct Key {
        bool set = false;
        float d2 = 0.0f;
        std::uint32_t id = 0, slot = 0;
        bool before(float d2_, std::uint32_t id_) const { return !set || d2_ < d2 || (d2_ == d2 && id_ < id); }
    };
    Key near_[2], far_;
};

struct DecarpentierStyle : StyleDefaults {
    using Search = ThreeNeighbours;
    static void addNeighbour(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const Boid& other, glm::vec3 d,
                             float d2, NeighbourSums& sums);
    static glm::vec3 decarpentierAcceleration(const RuleContext& ctx, const SpeciesContext& k, const Boid& self,
                                              const NeighbourSums& s, const ThreeNeighbours& t);
    static glm::vec3 decarpentierMove(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, glm::vec3 a);
    static bool steersNow(const RuleContext& ctx, const Boid& self);
    static Boid integrate(const RuleContext& ctx, const SpeciesContext& k, const Boid& self, const NeighbourSums& sums,
                          const Search& search);
};

}  // namespace murmur
