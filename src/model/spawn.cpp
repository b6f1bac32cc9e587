// Each boid draws from its own PCG32 stream (seed, id), so spawn is order-independent.
#include "model/spawn.hpp"

#include "model/rng.hpp"
#include "model/styles.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace murmur {

namespace {

// x^(1/dims) from +, -, *, / and sqrt alone (so the same bytes everywhere): sqrt in 2D, a fixed
// number of Newton steps in double in 3D (from max(x, 1) it falls by at least a third a step while
// far off, then doubles its digits).
double rootOf(double x, int dims) {
    if (dims != 3) return std::sqrt(x);
    double r = std::max(x, 1.0);
    for (int k = 0; k < 200; ++k) r = (2.0 * r + x / (r * r)) / 3.0;
    return r;
}

// The adaptive topological radius a spawned boid starts with: the radius whose sphere holds
// max(n_c - 1, 1) others at the spawn's density (the ball of spawn.radius, else the world box), the
// count the rule settles at in a uniform gas; at most max_radius. 0 (max_radius) when the radius
// is off or the style keeps its own state in the slot.
float initialReach(const Params& p) {
    if (!p.topological.on() || !styleInfo(p.style).traits.takesAdaptiveRadius() || p.boids == 0) return 0.0f;
    const double pi = 3.14159265358979323846, others = std::max(double(p.topological.count) - 1.0, 1.0);
    const double unit_ball = p.dims == 3 ? 4.0 * pi / 3.0 : pi;
    const double r = double(p.spawn_radius), L = double(p.world_size);
    const double volume = r > 0.0 ? unit_ball * (p.dims == 3 ? r * r * r : r * r) : (p.dims == 3 ? L * L * L : L * L);
    const double reach = rootOf(others * volume / (double(p.boids) * unit_ball), p.dims);
    return float(std::min(reach, double(p.topological.max_radius)));
}

}  // namespace

Flock spawn(const Params& params) {
    Flock flock(params.boids);
    const float L = params.world_size;
    // Species by id: consecutive id ranges in proportion to the shares (the last takes the rest).
    const std::uint32_t species = std::min(std::max(params.species_count, 1u), kMaxSpecies);
    double total = 0.0;
    for (std::uint32_t s = 0; s < species; ++s) total += double(params.roles[s].share);
    std::array<std::uint32_t, kMaxSpecies> end{};
    double acc = 0.0;
    for (std::uint32_t s = 0; s < species; ++s) {
        acc += double(params.roles[s].share);
        end[s] = s + 1 == species || !(total > 0.0) ? params.boids : std::uint32_t(std::llround(double(params.boids) * acc / total));
    }
    const float reach = initialReach(params);
    for (std::uint32_t i = 0; i < params.boids; ++i) {
        Pcg32 rng(params.seed, i);
        Boid& b = flock[i];
        b.id = i;
        b.species = 0;
        while (b.species + 1 < species && i >= end[b.species]) ++b.species;
        const SpeciesRules rules = params.rulesOf(b.species);
        b.p = {rng.uniform() * L, rng.uniform() * L, params.dims == 3 ? rng.uniform() * L : 0.0f};
        if (params.spawn_radius > 0.0f) {
            // In the ball of spawn.radius at the centre: rejection-sample the unit ball from the
            // boid's stream (after the draws above, so the default spawn is unchanged).
            const float r = params.spawn_radius, z_on = params.dims == 3 ? 1.0f : 0.0f;
            glm::vec3 u{0.0f};
            do u = {2.0f * rng.uniform() - 1.0f, 2.0f * rng.uniform() - 1.0f, z_on * (2.0f * rng.uniform() - 1.0f)};
            while (u.x * u.x + u.y * u.y + u.z * u.z > 1.0f);
            b.p = glm::vec3(0.5f * L, 0.5f * L, z_on * 0.5f * L) + r * u;
        }
        // Direction: rejection-sample the unit disc/ball (no sin/cos, whose last bit varies by libm).
        glm::vec3 dir{0.0f};
        float len2 = 0.0f;
        do {
            dir = {2.0f * rng.uniform() - 1.0f, 2.0f * rng.uniform() - 1.0f,
                   params.dims == 3 ? 2.0f * rng.uniform() - 1.0f : 0.0f};
            len2 = dir.x * dir.x + dir.y * dir.y + dir.z * dir.z;
        } while (len2 > 1.0f || len2 < 1e-4f);
        const float speed = rules.min_speed + rng.uniform() * (rules.max_speed - rules.min_speed);
        b.v = dir * (speed / std::sqrt(len2));
        if (params.spawn_heading > 0.0f) {  // turned toward +x (0 leaves the bytes above as they were)
            const float h = params.spawn_heading;
            glm::vec3 u = (1.0f - h) * (dir / std::sqrt(len2)) + glm::vec3(h, 0.0f, 0.0f);
            const float u2 = u.x * u.x + u.y * u.y + u.z * u.z;
            b.v = (u2 > 1e-12f ? u / std::sqrt(u2) : glm::vec3(1.0f, 0.0f, 0.0f)) * speed;
        }
        b.steer.w = reach;
    }
    return flock;
}

}  // namespace murmur
