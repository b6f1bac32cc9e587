// One step of each seed preset against its source's own formulas, on either backend
// (tests/no_gl/test_sources.cpp on the CPU, tests/gl/test_hand_cases.cpp on the GPU).
//
// Each case loads the shipped preset, builds a small state by hand (3-5 boids, every rule of the
// source active), and works the step out the way the source writes it: a direct transcription of
// the source's procedure in double precision, in the source's own order, written here apart from
// murmur's code (a mistake in flock_rules.cpp and flock_steer.comp alike still fails). The
// comments carry the arithmetic of one boid per case. Every boid is compared within
// kSourceTol = 2e-4 units (or units/s): about 3 float ulps at the positions used (< 1024).
#pragma once

#include "hand_cases.hpp"
#include "io/preset_json.hpp"

#include <glm/geometric.hpp>
#include <glm/vec3.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace murmur::test {

inline constexpr float kSourceTol = 2e-4f;

using dvec3 = glm::dvec3;

struct SourceBoid {
    dvec3 p, v, a;  // a: the stored acceleration (gloss's view axis)
};

inline Params shippedPreset(const std::string& name) { return loadPresetFile(resolvePreset(name), Params{}); }

inline dvec3 limitTo(dvec3 x, double m) {
    const double len = glm::length(x);
    return len > m ? x * (m / len) : x;
}
inline dvec3 magTo(dvec3 x, double m) {
    const double len = glm::length(x);
    return len > 0.0 ? x * (m / len) : dvec3(0.0);
}

inline HandCase sourceCase(std::string name, const Params& params, const std::vector<SourceBoid>& start,
                           const std::vector<SourceBoid>& after) {
    HandCase c{std::move(name), params, {}, {}};
    c.tol = kSourceTol;
    for (std::uint32_t i = 0; i < start.size(); ++i) {
        Boid b = boid(i, glm::vec3(start[i].p), glm::vec3(start[i].v));
        b.steer = glm::vec4(glm::vec3(start[i].a), 0.0f);
        c.start.push_back(b);
        c.expected.push_back({i, glm::vec3(after[i].v), glm::vec3(after[i].p)});
    }
    return c;
}

// Parker's Ruby program: boids.each(&:update), in place. nearby = every boid (self included)
// closer than max_distance; rule 1 moves 1 % toward the others' centre (0 with none: the centre
// is then the boid's own position); rule 2 averages -diff over the others closer than TOO_CLOSE
// and divides by 8; rule 3 is (mean velocity - own) / 4, or the boid's own velocity with no one
// near. Velocity limited to MAX_VELOCITY, then position += velocity.
inline std::vector<SourceBoid> parkerRubyStep(std::vector<SourceBoid> b, double max_distance, double too_close, double max_velocity) {
    for (std::size_t i = 0; i < b.size(); ++i) {  // in place: boid i sees boids 0..i-1 moved
        dvec3 centre(0.0), sep(0.0), vel(0.0);
        int others = 0, hits = 0;
        for (std::size_t j = 0; j < b.size(); ++j) {
            const dvec3 diff = b[j].p - b[i].p;
            if (j == i || !(glm::length(diff) < max_distance)) continue;
            centre += b[j].p;
            vel += b[j].v;
            ++others;
            if (glm::length(diff) < too_close) {
                sep -= diff;
                ++hits;
            }
        }
        const dvec3 v1 = others ? (centre / double(others) - b[i].p) * 0.01 : dvec3(0.0);
        const dvec3 v2 = (hits ? sep / double(hits) : sep) / 8.0;
        const dvec3 v3 = others ? (vel / double(others) - b[i].v) / 4.0 : b[i].v;
        b[i].v = limitTo(b[i].v + v1 + v2 + v3, max_velocity);
        b[i].p += b[i].v;
    }
    return b;
}

// flock.rb, Eqs. 7-8 (all boids from the same state): v += sum_{|d| <= r} (p_i - p_j)
// + sum_{|d| <= R} v_j + sum_{|d| <= R} (p_j - p_i), bounded by Vmx; p += v.
inline std::vector<SourceBoid> flockRbStep(const std::vector<SourceBoid>& b, double r, double R, double vmx) {
    std::vector<SourceBoid> out = b;
    for (std::size_t i = 0; i < b.size(); ++i) {
        dvec3 dv(0.0);
        for (std::size_t j = 0; j < b.size(); ++j) {
            const double dist = glm::length(b[i].p - b[j].p);
            if (j == i) continue;
            if (dist <= r) dv += b[i].p - b[j].p;
            if (dist <= R) dv += b[j].v + (b[j].p - b[i].p);
        }
        out[i].v = limitTo(b[i].v + dv, vmx);
        out[i].p = b[i].p + out[i].v;
    }
    return out;
}

// The Processing tutorial (seed 001): boid 0 sits at the pointer; the others, one after another,
// flock() then update(). Separation: mean of (p_i - p_j)/dist within the neighbourhood radius;
// alignment: mean velocity within the vision radius; cohesion: mean position within the
// neighbourhood radius minus p_i; each setMag(maxSpeed) - v, limited to maxForce; summed into the
// acceleration. update(): position += velocity, then velocity += acceleration (no speed clamp).
inline std::vector<SourceBoid> seed001Step(std::vector<SourceBoid> b, double neighbourhood, double vision, double max_speed,
                                           double max_force) {
    for (std::size_t i = 1; i < b.size(); ++i) {
        dvec3 sep(0.0), ali(0.0), coh(0.0);
        int n_sep = 0, n_ali = 0, n_coh = 0;
        for (std::size_t j = 0; j < b.size(); ++j) {
            if (j == i) continue;
            const double dist = glm::length(b[i].p - b[j].p);
            if (dist < neighbourhood) {
                sep += (b[i].p - b[j].p) / dist;
                ++n_sep;
                coh += b[j].p;
                ++n_coh;
            }
            if (dist < vision) {
                ali += b[j].v;
                ++n_ali;
            }
        }
        dvec3 a(0.0);
        if (n_sep) a += limitTo(magTo(sep / double(n_sep), max_speed) - b[i].v, max_force);
        if (n_ali) a += limitTo(magTo(ali / double(n_ali), max_speed) - b[i].v, max_force);
        if (n_coh) a += limitTo(magTo(coh / double(n_coh) - b[i].p, max_speed) - b[i].v, max_force);
        b[i].p += b[i].v;
        b[i].v += a;
    }
    return b;
}

// The gloss post: canView(viewer, subject) = within viewDist and within viewAngle of the
// viewer's acceleration (with no acceleration the angle is undefined and the test passes; the
// viewer passes its own). cohesion = centre of the peers in view - own position; alignment =
// normalize(mean velocity of the peers in view); separation = normalize(sum of escape routes
// (p_i - p_j) / (|d| / safeSpace)) over the others inside the safe space. Where the post stops,
// murmur's choices (docs/model.md): a = max_force (w_sep sep + w_ali ali + w_coh coh / viewDist),
// stored as the next step's view axis; v += a dt, clamped to [min, max]; p += v dt.
inline std::vector<SourceBoid> glossStep(const std::vector<SourceBoid>& b, const Params& p) {
    const SpeciesRules& k = p.species[0];
    const double view = k.cohesion.radius, safe = k.separation.radius, half_angle = double(k.fov_deg) / 2.0 * 3.14159265358979323846 / 180.0;
    auto canView = [&](const SourceBoid& viewer, const SourceBoid& subject) {
        const dvec3 d = subject.p - viewer.p;
        if (glm::length(d) > view) return false;
        const double len = glm::length(viewer.a) * glm::length(d);
        if (!(len > 0.0)) return true;  // acos of NaN: the post's test does not reject
        return !(std::abs(std::acos(std::clamp(glm::dot(viewer.a, d) / len, -1.0, 1.0))) > half_angle);
    };
    std::vector<SourceBoid> out = b;
    for (std::size_t i = 0; i < b.size(); ++i) {
        dvec3 centre(0.0), vel(0.0), escape(0.0);
        int peers = 0;
        for (std::size_t j = 0; j < b.size(); ++j) {
            if (canView(b[i], b[j])) {
                centre += b[j].p;
                vel += b[j].v;
                ++peers;
            }
            const dvec3 route = b[i].p - b[j].p;
            const double dist = glm::length(route);
            if (j != i && dist < safe) escape += route / (dist / safe);
        }
        const dvec3 coh = centre / double(peers) - b[i].p;
        const dvec3 ali = magTo(vel / double(peers), 1.0);
        const dvec3 sep = magTo(escape, 1.0);
        const dvec3 a = double(k.max_force) * (double(k.separation.weight) * sep + double(k.alignment.weight) * ali +
                                               double(k.cohesion.weight) * coh / view);
        dvec3 v = b[i].v + a * double(p.dt);
        const double s = glm::length(v);
        if (s > k.max_speed) v *= double(k.max_speed) / s;
        if (s > 0.0 && s < k.min_speed) v *= double(k.min_speed) / s;
        out[i].a = a;
        out[i].v = v;
        out[i].p = b[i].p + v * double(p.dt);
    }
    return out;
}

inline std::vector<HandCase> sourceCases() {
    std::vector<HandCase> cases;
    {
        // parker: 0 and 1 are 31.6 apart (< 50: separation), 2 is 63 from 0 and 71 from 1 (< 100:
        // centre and velocity only), 3 is alone (its rule 3 adds its own velocity: (3,0) doubles to
        // (6,0), limited to (5,0); p (105,700)). Boid 0: centre of 1, 2 = (405,435), v1 = (5,35) x
        // 0.01 = (0.05,0.35); v2 = -(30,10) / 8 = (-3.75,-1.25); v3 = ((0,2)+(-1,1))/2 - (1,0) =
        // (-1.5,1.5) / 4 = (-0.375,0.375); v = (1,0) + sum = (-3.075,-0.525), |v| = 3.12 < 5;
        // p = (396.925, 399.475). Boid 1 then sees boid 0 there, not at (400,400).
        const Params p = shippedPreset("parker");
        const std::vector<SourceBoid> start = {{{400, 400, 0}, {1, 0, 0}, {}},
                                               {{430, 410, 0}, {0, 2, 0}, {}},
                                               {{380, 460, 0}, {-1, 1, 0}, {}},
                                               {{100, 700, 0}, {3, 0, 0}, {}}};
        cases.push_back(sourceCase("parker: the Ruby update, boid by boid in place", p, start,
                                   parkerRubyStep(start, p.species[0].cohesion.radius, p.species[0].separation.radius, p.species[0].max_speed)));
    }
    {
        // flockrb: r = 8, R = 30, Vmx = 4. Boid 0 (200,200) v (1,0): 1 at (205,200) and 2 at
        // (200,206) are within r and R, 4 at (215,190) within R only. Sums: separation
        // (-5,0) + (0,-6) = (-5,-6); velocities (0,1) + (0.5,-0.5) + (-1,0) = (-0.5,0.5); offsets
        // (5,0) + (0,6) + (15,-10) = (20,-4): dv = (14.5,-9.5); v = bound((15.5,-9.5), 4) =
        // (3.4104,-2.0902); p = (203.4104, 197.9098). (Means would give separation (-2.5,-3)
        // and v along (18,-6.5): another direction.) Boid 3 (100,100) has no one: v stays (0,3).
        const Params p = shippedPreset("flockrb");
        const std::vector<SourceBoid> start = {{{200, 200, 0}, {1, 0, 0}, {}},
                                               {{205, 200, 0}, {0, 1, 0}, {}},
                                               {{200, 206, 0}, {0.5, -0.5, 0}, {}},
                                               {{100, 100, 0}, {0, 3, 0}, {}},
                                               {{215, 190, 0}, {-1, 0, 0}, {}}};
        cases.push_back(sourceCase("flockrb: Eqs. 7-8, summed and unweighted", p, start,
                                   flockRbStep(start, p.species[0].separation.radius, p.species[0].alignment.radius, p.species[0].max_speed)));
    }
    {
        // processing (seed 001): boid 0 is the pointer's, already there at rest (the seed never
        // updates its velocity; murmur gives the led boid its move, here 0). Boid 1 (330,320)
        // v (0.5,0.5), neighbourhood 30, vision 60, maxSpeed 3, maxForce 0.05: 0 is 10 away
        // (separation, cohesion, alignment), 2 (350,330) is 22.4 away (all three), 3 (370,300)
        // 44.7 away (alignment only). Separation mean of (1,0) and (-0.894,-0.447) = (0.053,
        // -0.224), setMag 3 = (0.69,-2.92), minus v, limited to 0.05. position += old velocity
        // first: p = (330.5,320.5); then v += the three forces, unclamped.
        const Params p = shippedPreset("processing");
        const std::vector<SourceBoid> start = {{{320, 320, 0}, {0, 0, 0}, {}},
                                               {{330, 320, 0}, {0.5, 0.5, 0}, {}},
                                               {{350, 330, 0}, {-1, 0.2, 0}, {}},
                                               {{370, 300, 0}, {2.5, -2.5, 0}, {}}};
        cases.push_back(sourceCase("processing: seed 001's flock() then update(), boid by boid", p, start,
                                   seed001Step(start, p.species[0].separation.radius, p.species[0].alignment.radius,
                                               p.species[0].max_speed, p.species[0].max_force)));
    }
    {
        // gloss: view 100 within +-70 degrees of the stored acceleration, safe space 25. Boid 0
        // (400,400) accelerating along (1,0): 1 at (420,400) is ahead (in view, and in the safe
        // space), 2 at (380,410) behind (out of view: 153 degrees), but inside the safe space
        // (22.4), so it still repels. 3 (400,470) is 90 degrees off (out of view). Peers of 0:
        // itself and 1, centre (410,400), coh = (10,0); ali = normalize(((30,0)+(25,5))/2);
        // escape = (-20,0)/(20/25) + (20,-10)/(22.36/25) = (-25,0) + (22.36,-11.18), normalised.
        // Boid 1 has no acceleration yet: it sees all round within 100 (0, 2, 3 and itself).
        const Params p = shippedPreset("gloss");
        const std::vector<SourceBoid> start = {{{400, 400, 0}, {30, 0, 0}, {1, 0, 0}},
                                               {{420, 400, 0}, {25, 5, 0}, {0, 0, 0}},
                                               {{380, 410, 0}, {20, 20, 0}, {0, -3, 0}},
                                               {{400, 470, 0}, {-30, 10, 0}, {2, 2, 0}}};
        HandCase c = sourceCase("gloss: the post's rules from the stored acceleration", p, start, glossStep(start, p));
        cases.push_back(c);
    }
    return cases;
}

}  // namespace murmur::test
