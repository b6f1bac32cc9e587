#version 430
// Pass 4: for each boid (in cell order) gather separation, alignment and cohesion over the
// 3x3(x3) cells around it, then steer and integrate (semi-implicit Euler) into the state
// buffers: reads the sorted copy, writes the other set. The formulas are docs/model.md's, and
// match src/cpu/flock_rules.cpp line for line; parity tests hold the two together.
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_SORTED_POS) readonly buffer SortedPos { vec4 sorted_pos[]; };
layout(std430, binding = BIND_SORTED_VEL) readonly buffer SortedVel { vec4 sorted_vel[]; };
layout(std430, binding = BIND_CELL_COUNT) readonly buffer CellCount { uint cell_count[]; };
layout(std430, binding = BIND_CELL_START) readonly buffer CellStart { uint cell_start[]; };
layout(std430, binding = BIND_POS) writeonly buffer Pos { vec4 pos[]; };
layout(std430, binding = BIND_VEL) writeonly buffer Vel { vec4 vel[]; };
layout(std430, binding = BIND_NEIGHBOURS) writeonly buffer Neighbours { uint neighbours[]; };
#if PERCHING
layout(std430, binding = BIND_SORTED_PERCH) readonly buffer SortedPerch { float sorted_perch[]; };
layout(std430, binding = BIND_PERCH) writeonly buffer Perch { float perch[]; };
#endif
#if STYLE_DC
layout(std430, binding = BIND_SORTED_STEER) readonly buffer SortedSteer { vec4 sorted_steer[]; };
layout(std430, binding = BIND_STEER) writeonly buffer Steer { vec4 steer[]; };
#endif

// The same integer hash as eventHash() in src/model/rng.hpp.
uint eventHash(uint seed_lo, uint id, uint step) {
    uint h = seed_lo ^ (id * 0x9E3779B1u) ^ (step * 0x85EBCA77u);
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

vec3 setMag(vec3 x, float m) {
    float len = length(x);
    return len > 0.0 ? x * (m / len) : vec3(0.0);
}

vec3 limitLength(vec3 x, float m) {
    float len = length(x);
    return len > m ? x * (m / len) : x;
}

// The species block of the boid this invocation steps (set first thing in main).
SpeciesBlock S;

vec3 steerTowards(vec3 desired, vec3 v) { return limitLength(setMag(desired, S.motion.y) - v, S.motion.z); }

vec3 boundsAcceleration(vec3 p) {
    vec3 a = vec3(0.0);
#if !BOUNDS_WRAP
    float m = P.walls.x;
    for (int k = 0; k < DIMS; ++k) {
        float low = m - p[k];
        float high = p[k] - (P.world[k] - m);
        if (low > 0.0) a[k] += P.walls.y * (m > 0.0 ? low / m : 1.0);
        if (high > 0.0) a[k] -= P.walls.y * (m > 0.0 ? high / m : 1.0);
    }
#endif
    return a;
}

// Obstacles: a push out from each centre, obstacle_push at the surface, fading to 0 at the band.
vec3 obstacleAcceleration(vec3 p) {
    vec3 a = vec3(0.0);
    for (uint k = 0u; k < P.counts.z; ++k) {
        vec4 o = P.obstacles[k];
        vec3 d = offsetBetween(p, o.xyz);
        float dist = sqrt(dot(d, d));
        if (!(dist > 0.0)) continue;
        float clearance = dist - o.w, m = P.influence.y;
        float factor = 0.0;
        if (m > 0.0) factor = min(max(1.0 - clearance / m, 0.0), 1.0);
        else if (clearance < 0.0) factor = 1.0;
        a -= d * (P.influence.z * factor / dist);
    }
    return a;
}

// Wander (wanderJitter in src/model/rng.hpp): a random push in [-1, 1]^dims times P.noise.x.
const uint kWanderSalt[3] = uint[3](0xA511E9B3u, 0x63D83595u, 0x2F1B7C4Du);
vec3 wanderAcceleration(uint id) {
    vec3 a = vec3(0.0);
    if (!(P.noise.x > 0.0)) return a;
    for (int k = 0; k < DIMS; ++k) {
        uint h = eventHash(P.events.y ^ kWanderSalt[k], id, P.events.x);
        a[k] = P.noise.x * (2.0 * (float(h >> 8u) * (1.0 / 16777216.0)) - 1.0);
    }
    return a;
}

#if STYLE_OFFSET
// Offset style: attractor and repeller as velocity offsets per step; wind, wander and obstacles per second.
vec3 influenceOffset(vec3 p, uint id) {
    vec3 dv = (P.wind.xyz + wanderAcceleration(id) + obstacleAcceleration(p)) * P.motion.w;
    if (P.attractor.w > 0.0) dv += offsetBetween(p, P.attractor.xyz) * P.attractor.w;
    if (P.repeller.w > 0.0) {
        vec3 d = offsetBetween(p, P.repeller.xyz);
        if (dot(d, d) < P.influence.x) dv -= d * P.repeller.w;
    }
    return dv;
}
#else
// Steering style: wind, wander, attractor and repeller as accelerations.
vec3 influenceAcceleration(vec3 p, vec3 v, uint id) {
    vec3 a = P.wind.xyz + wanderAcceleration(id) + obstacleAcceleration(p);
    if (P.attractor.w > 0.0) a += P.attractor.w * steerTowards(offsetBetween(p, P.attractor.xyz), v);
    if (P.repeller.w > 0.0) {
        vec3 d = offsetBetween(p, P.repeller.xyz);
        if (dot(d, d) < P.influence.x) a += P.repeller.w * steerTowards(-d, v);
    }
    return a;
}
#endif

// No boid ends a step inside an obstacle: moved to the surface, inward velocity removed; two sweeps.
void resolveObstacles(inout vec3 p, inout vec3 v) {
    for (int sweep = 0; sweep < 2; ++sweep)
        for (uint k = 0u; k < P.counts.z; ++k) {
            vec4 o = P.obstacles[k];
            vec3 d = offsetBetween(o.xyz, p);
            float d2 = dot(d, d);
            if (!(d2 < o.w * o.w)) continue;
            vec3 n = d2 > 0.0 ? d / sqrt(d2) : vec3(1.0, 0.0, 0.0);
            p = p - d + n * (o.w * 1.0001);
            float inward = dot(v, n);
            if (inward < 0.0) v -= inward * n;
        }
}

#if NEIGHBOUR_CAP
// The k nearest neighbours by (d2, id), sorted by insertion; see NearestK in src/cpu/flock_rules.
float cap_d2[MAX_NEIGHBOUR_CAP];
uint cap_id[MAX_NEIGHBOUR_CAP];
uint cap_n = 0u;

void capOffer(float d2, uint id, uint k) {
    uint i = cap_n < k ? cap_n++ : k;
    while (i > 0u && (d2 < cap_d2[i - 1u] || (d2 == cap_d2[i - 1u] && id < cap_id[i - 1u]))) {
        if (i < k) {
            cap_d2[i] = cap_d2[i - 1u];
            cap_id[i] = cap_id[i - 1u];
        }
        --i;
    }
    if (i < k) {
        cap_d2[i] = d2;
        cap_id[i] = id;
    }
}

bool capAdmits(float d2, uint id, uint k) {
    if (cap_n < k) return true;
    return d2 < cap_d2[k - 1u] || (d2 == cap_d2[k - 1u] && id <= cap_id[k - 1u]);
}
#endif

#if STYLE_DC
// Decarpentier style's three neighbours (see ThreeNeighbours in src/cpu/flock_rules): keys
// (d2, id), slot j; [0] and [1] the two nearest, [2] the nearest beyond far_factor x the closest.
bool dc_set[3] = bool[3](false, false, false);
float dc_key_d2[3];
uint dc_key_id[3], dc_slot[3];

bool dcBefore(int k, float d2, uint id) {
    return !dc_set[k] || d2 < dc_key_d2[k] || (d2 == dc_key_d2[k] && id < dc_key_id[k]);
}
void dcOfferNear(float d2, uint id, uint j) {
    if (dcBefore(0, d2, id)) {
        dc_set[1] = dc_set[0];
        dc_key_d2[1] = dc_key_d2[0];
        dc_key_id[1] = dc_key_id[0];
        dc_slot[1] = dc_slot[0];
        dc_set[0] = true;
        dc_key_d2[0] = d2;
        dc_key_id[0] = id;
        dc_slot[0] = j;
    } else if (dcBefore(1, d2, id)) {
        dc_set[1] = true;
        dc_key_d2[1] = d2;
        dc_key_id[1] = id;
        dc_slot[1] = j;
    }
}
void dcOfferFar(float d2, uint id, uint j) {
    if (!dc_set[0] || id == dc_key_id[0] || (dc_set[1] && id == dc_key_id[1])) return;
    float x = P.dc0.x;
    if (!(d2 > x * x * dc_key_d2[0])) return;
    if (dcBefore(2, d2, id)) {
        dc_set[2] = true;
        dc_key_d2[2] = d2;
        dc_key_id[2] = id;
        dc_slot[2] = j;
    }
}
#endif

vec3 clampSpeed(vec3 v) {
    float s = length(v);
    if (s > S.motion.y) return v * (S.motion.y / s);
    if (s > 0.0 && s < S.motion.x) return v * (S.motion.x / s);
    return v;
}

vec3 wrapPosition(vec3 p) {
#if BOUNDS_WRAP
    for (int k = 0; k < DIMS; ++k) {
        float w = p[k] - P.world[k] * floor(p[k] * P.inv_world[k]);
        if (w < 0.0) w += P.world[k];
        if (w >= P.world[k]) w = 0.0;
        p[k] = w;
    }
#endif
    return p;
}

// A slow step runs in slices (GpuSimulation::setInterrupt): the first work group of this one.
uniform uint u_first_group;

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE) + u_first_group * uint(STEP_GROUP_SIZE);
    if (i >= P.counts.x) return;
    vec4 self_p = sorted_pos[i];
    vec4 self_v = sorted_vel[i];
    vec3 p = self_p.xyz, v = self_v.xyz;
    uint species = min(floatBitsToUint(self_v.w), uint(MAX_SPECIES - 1));
    S = P.species[species];
    bool predator = S.role.z > 0.5;
#if PERCHING
    float rest = sorted_perch[i];
    if (rest > 0.0) {  // on the ground: at rest until the time is up, then straight up to rejoin
        vec3 out_v = vec3(0.0);
        vec3 out_p = p;
        rest -= P.motion.w;
        if (!(rest > 0.0)) {
            rest = 0.0;
            out_v = vec3(0.0, max(S.motion.x, 0.5 * S.motion.y), 0.0);
            out_p = wrapPosition(p + out_v * P.motion.w);
        }
        pos[i] = vec4(out_p, self_p.w);
        vel[i] = vec4(out_v, self_v.w);
        perch[i] = rest;
        neighbours[i] = 0u;
        return;
    }
#endif

    vec3 sep = vec3(0.0), ali = vec3(0.0), coh = vec3(0.0), flee = vec3(0.0);
    uint n_sep = 0u, n_ali = 0u, n_coh = 0u, n_all = 0u, n_flee = 0u;
    bool chasing = false;  // predators: the nearest prey seen within the cohesion radius, by (d2, id)
    vec3 chase_d = vec3(0.0);
    float chase_d2 = 0.0;
    uint chase_id = 0u;
    float v2 = dot(v, v);
    bool use_fov = S.role.w > 0.5 && v2 > 0.0;
    // The species' radii and view in locals: the neighbour loop reads them for every candidate.
    const vec4 radii2 = S.radii2;
    const float cos_half_fov = S.motion.w, r2_counted = S.counted.x, r2_flee = S.role.x;

#if STYLE_DC
    // Amortised steering (steersAt() in src/model/rng.hpp): between its steering steps a boid
    // reuses its last steering and skips the neighbour search.
    uint my_id = floatBitsToUint(self_p.w), period = P.events.w;
    bool steer_now = P.events.x == 0u || period <= 1u || (P.events.x + eventHash(0x5EEDu, my_id, 0u) % period) % period == 0u;
#else
    const bool steer_now = true;
#endif
    uvec3 c = cellOf(p);
    uint xs[3], ys[3], zs[3];
    int nx = neighbourCells(c.x, P.cells.x, xs);
    int ny = neighbourCells(c.y, P.cells.y, ys);
    int nz = DIMS == 3 ? neighbourCells(c.z, P.cells.z, zs) : 1;
    if (DIMS != 3) zs[0] = 0u;
#if NEIGHBOUR_CAP || STYLE_DC
    // Pass 0 finds the k nearest neighbours (cap) and the two nearest (decarpentier); pass 1 sums
    // (only the k nearest) and finds decarpentier's third.
    for (int pass = 0; pass < (steer_now ? 2 : 0); ++pass)
#else
    const int pass = 1;
    if (steer_now)
#endif
    for (int iz = 0; iz < nz; ++iz)
        for (int iy = 0; iy < ny; ++iy)
            for (int ix = 0; ix < nx; ++ix) {
                uint cell = (zs[iz] * P.cells.y + ys[iy]) * P.cells.x + xs[ix];
                uint start = cell_start[cell];
                uint end = start + cell_count[cell];
                for (uint j = start; j < end; ++j) {
                    if (j == i) continue;
#if PERCHING
                    if (sorted_perch[j] > 0.0) continue;  // boids on the ground are out of the flock
#endif
                    vec3 d = offsetBetween(p, sorted_pos[j].xyz);
                    float d2 = dot(d, d);
                    if (!(d2 < radii2.w)) continue;
                    if (use_fov && d2 > 0.0 && dot(v, d) < cos_half_fov * sqrt(v2 * d2)) continue;
                    uint jid = floatBitsToUint(sorted_pos[j].w);
#if STYLE_DC
                    bool dc_candidate = floatBitsToUint(sorted_vel[j].w) == floatBitsToUint(self_v.w) && d2 < r2_counted;
                    if (pass == 0 && dc_candidate) dcOfferNear(d2, jid, j);
                    if (pass == 1 && dc_candidate) dcOfferFar(d2, jid, j);
#endif
#if NEIGHBOUR_CAP
                    if (pass == 0) capOffer(d2, jid, P.counts.w);
                    if (pass == 1 && !capAdmits(d2, jid, P.counts.w)) continue;
#endif
#if NEIGHBOUR_CAP || STYLE_DC
                    if (pass == 0) continue;
#endif
                    if (d2 < r2_counted) ++n_all;
                    if (d2 < radii2.x) {  // separation: from every species
                        ++n_sep;
#if STYLE_OFFSET
                        sep += d;
#elif STYLE_GRADED
                        if (d2 > 0.0) sep -= d * (min(S.graded.x - sqrt(d2), GRADED_CORE * sqrt(d2)) / d2);
#else
                        if (d2 > 0.0) sep -= d / d2;
#endif
                    }
#if MULTI_SPECIES
                    bool same = floatBitsToUint(sorted_vel[j].w) == floatBitsToUint(self_v.w);
#else
                    const bool same = true;  // one species: skip the neighbour's species read
#endif
                    if (same && d2 < radii2.y) {  // alignment and cohesion: within the species
                        ++n_ali;
                        ali += sorted_vel[j].xyz;
                    }
                    if (same && d2 < radii2.z) {
                        ++n_coh;
                        coh += d;
                    }
#if MULTI_SPECIES
                    uint other = min(floatBitsToUint(sorted_vel[j].w), uint(MAX_SPECIES - 1));
                    bool other_predator = P.species[other].role.z > 0.5;
                    if (!predator && other_predator && d2 < r2_flee) {  // prey flee predators
                        ++n_flee;
#if STYLE_OFFSET
                        flee += d;
#else
                        if (d2 > 0.0) flee -= d / d2;
#endif
                    }
                    if (predator && !other_predator && d2 < radii2.z &&
                        (!chasing || d2 < chase_d2 || (d2 == chase_d2 && jid < chase_id))) {
                        chasing = true;
                        chase_d = d;
                        chase_d2 = d2;
                        chase_id = jid;
                    }
#endif
                }
            }

    vec3 dv = vec3(0.0);
    vec3 nv;
#if STYLE_DC
    vec3 a_steer = sorted_steer[i].xyz;
    if (!steer_now) n_all = uint(sorted_steer[i].w);
    if (steer_now) {
        // The three neighbours' terms (as decarpentierAcceleration in src/cpu/flock_rules.cpp).
        vec3 a = vec3(0.0);
        for (int k = 0; k < 3; ++k) {
            if (!dc_set[k]) continue;
            vec3 d = offsetBetween(p, sorted_pos[dc_slot[k]].xyz);
            float dist = sqrt(dot(d, d));
            if (!(dist > 0.0)) continue;
            vec3 dir = d / dist;
            a += S.weights.x * (-dir / dist);
            a += S.weights.z * (dir * (1.0 - P.dc0.y / dist));
            a += S.weights.y * ((sorted_vel[dc_slot[k]].xyz - v) / sqrt(dist));
        }
        if (n_flee > 0u) a += S.role.y * flee;
        if (chasing && chase_d2 > 0.0) a += S.weights.w * (chase_d / sqrt(chase_d2));
        a.y -= P.dc0.z * v.y;
        if (P.dc1.x > 0.0) a.y += P.dc1.x * (P.dc0.w - p.y);
        a += boundsAcceleration(p) + influenceAcceleration(p, v, floatBitsToUint(self_p.w));
        float speed = sqrt(dot(v, v));
        vec3 f = speed > 0.0 ? v / speed : vec3(1.0, 0.0, 0.0);
        vec3 side, up = vec3(0.0);
#if DIMS == 2
        side = vec3(-f.y, f.x, 0.0);
#else
        side = cross(f, vec3(0.0, 1.0, 0.0));
        float side_len = sqrt(dot(side, side));
        side = side_len > 1e-6 ? side / side_len : vec3(0.0, 0.0, 1.0);
        up = cross(side, f);
#endif
        float af = min(max(dot(a, f), -P.dc1.z), P.dc1.y);
        float as_ = min(max(dot(a, side), -P.dc1.w), P.dc1.w);
        float au = min(max(dot(a, up), -P.dc2.x), P.dc2.x);
        a_steer = f * af + side * as_ + up * au;
    }
    steer[i] = vec4(a_steer, float(n_all));
    {
        // Motion every step (decarpentierMove): smoothed speed, diving, clamp.
        float speed = sqrt(dot(v, v));
        vec3 v1 = v + a_steer * P.motion.w;
        float s1 = sqrt(dot(v1, v1));
        nv = v1;
        if (s1 > 0.0) {
            vec3 dir = v1 / s1;
            float new_speed = s1 + (speed - s1) * P.dc2.y;
            new_speed -= P.dc2.z * dir.y * P.motion.w;
            new_speed = min(max(new_speed, S.motion.x), S.motion.y);
            nv = dir * new_speed;
        }
    }
#else
#if STYLE_OFFSET
    if (n_sep > 0u) dv -= (sep / float(n_sep)) * S.weights.x;
    if (n_ali > 0u) dv += (ali / float(n_ali) - v) * S.weights.y;
    if (n_coh > 0u) dv += (coh / float(n_coh)) * (P.wind.w * S.weights.z);
    if (n_flee > 0u) dv -= (flee / float(n_flee)) * S.role.y;
    if (chasing) dv += chase_d * S.weights.w;
    dv += boundsAcceleration(p) * P.motion.w + influenceOffset(p, floatBitsToUint(self_p.w));
#elif STYLE_GRADED
    // Separation growing as the distance shrinks, cohesion a spring, alignment steered (graded
    // style in flock_rules.cpp).
    vec3 a = vec3(0.0);
    if (n_sep > 0u) a += (S.weights.x * S.motion.z) * sep;
    if (n_ali > 0u) a += S.weights.y * steerTowards(ali / float(n_ali), v);
    if (n_coh > 0u) a += (P.wind.w * S.weights.z * S.motion.z * S.graded.y) * (coh / float(n_coh));
    if (n_flee > 0u) a += S.role.y * steerTowards(flee, v);
    if (chasing) a += S.weights.w * steerTowards(chase_d, v);
    dv = (a + boundsAcceleration(p) + influenceAcceleration(p, v, floatBitsToUint(self_p.w))) * P.motion.w;
#else
    vec3 a = vec3(0.0);
    if (n_sep > 0u) a += S.weights.x * steerTowards(sep, v);
    if (n_ali > 0u) a += S.weights.y * steerTowards(ali / float(n_ali), v);
    if (n_coh > 0u) a += P.wind.w * S.weights.z * steerTowards(coh / float(n_coh), v);
    if (n_flee > 0u) a += S.role.y * steerTowards(flee, v);
    if (chasing) a += S.weights.w * steerTowards(chase_d, v);
    dv = (a + boundsAcceleration(p) + influenceAcceleration(p, v, floatBitsToUint(self_p.w))) * P.motion.w;
#endif
    nv = clampSpeed(v + dv);
#endif
    vec3 np = p + nv * P.motion.w;
    resolveObstacles(np, nv);
#if PERCHING
    float landed = 0.0;
    uint self_id = floatBitsToUint(self_p.w);
    if (p.y > P.perch.x && np.y <= P.perch.x && !(P.leader.w > 0.5 && self_id == 0u)) {
        float u = float(eventHash(P.events.y, self_id, P.events.x) >> 8u) * (1.0 / 16777216.0);
        float t = P.perch.y + u * (P.perch.z - P.perch.y);
        if (t > 0.0) {
            np.y = P.perch.x;
            nv = vec3(0.0);
            landed = t;
        }
    }
    perch[i] = landed;
#endif
    np = wrapPosition(np);
    if (P.leader.w > 0.5 && floatBitsToUint(self_p.w) == 0u) {  // the led boid (see flock_rules.cpp)
        nv = limitLength(offsetBetween(p, P.leader.xyz) * P.influence.w, S.motion.y);
        np = wrapPosition(P.leader.xyz);
    }
#if DIMS == 2
    nv.z = 0.0;
    np.z = 0.0;
#endif
    pos[i] = vec4(np, self_p.w);
    vel[i] = vec4(nv, self_v.w);
    neighbours[i] = n_all;
}
