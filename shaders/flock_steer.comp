#version 430
// Pass 4: for each boid (in cell order) gather its neighbours over the 5x5(x5) half-radius cells around it,
// then steer and integrate into the state buffers: reads the sorted copy, writes the other set and
// bins what it writes for the next step (grid_bin.glsl).
// It mirrors src/cpu/flock_rules.cpp function for function, in the same order and with the same
// names (setMag, steerTowards, boundsAcceleration, ..., isNeighbourOf, addNeighbour, integrate,
// finishStep), and gather() is CpuSimulation::gather. Each variant (STYLE_*, NEIGHBOUR_CAP,
// PERCHING, MULTI_SPECIES) is chosen at the top of the function it changes. Parity tests hold
// the two together; the hand-computed cases (tests/cpu/hand_cases.hpp) hold both to the formulas.
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_NEIGHBOURS) writeonly buffer Neighbours { uint neighbours[]; };
#if UPDATE_SEQUENTIAL
// Sequential order: one invocation steps the boids one after another in the state buffers
// themselves, so each reads what the ones before it wrote (posAt and the others read the state).
layout(std430, binding = BIND_POS) buffer Pos { uvec4 pos[]; };
layout(std430, binding = BIND_VEL) buffer Vel { uvec4 vel[]; };
layout(std430, binding = BIND_SLOT_OF_ID) buffer SlotOfId { uint slot_of_id[]; };
#if PERCHING
layout(std430, binding = BIND_PERCH) buffer Perch { float perch[]; };
float perchAt(uint j) { return perch[j]; }
#endif
#if STORED_STEER
layout(std430, binding = BIND_STEER) buffer Steer { vec4 steer[]; };
#define sorted_steer steer  // the sorted copy's name in the parallel order
#endif
// The state as uints: positions and velocities are float bits, ids and species plain uints, so
// no float path (a driver flushing denormals) ever touches an id.
vec3 posAt(uint j) { return uintBitsToFloat(pos[j].xyz); }
vec3 velAt(uint j) { return uintBitsToFloat(vel[j].xyz); }
uint idAt(uint j) { return pos[j].w; }
uint speciesAt(uint j) { return vel[j].w; }
#else
// posAt, velAt, idAt, speciesAt, perchAt, cellStart and cellEnd read the sorted copy.
#include "sorted_reads.glsl"
#include "grid_bin.glsl"
layout(std430, binding = BIND_POS) writeonly buffer Pos { uvec4 pos[]; };
layout(std430, binding = BIND_VEL) writeonly buffer Vel { uvec4 vel[]; };
#if PERCHING
layout(std430, binding = BIND_PERCH) writeonly buffer Perch { float perch[]; };
#endif
#if STORED_STEER
layout(std430, binding = BIND_SORTED_STEER) readonly buffer SortedSteer { vec4 sorted_steer[]; };
layout(std430, binding = BIND_STEER) writeonly buffer Steer { vec4 steer[]; };
#endif
#endif

// A slow step runs in slices (GpuSimulation::setInterrupt): the first work group of this one.
uniform uint u_first_group;
// Sequential order: this dispatch steps the boids with ids [u_first_id, u_first_id + u_id_count).
uniform uint u_first_id;
uniform uint u_id_count;

// The boid this invocation steps (Boid in src/model/boid.hpp), and what its view needs.
struct Self {
    vec3 p, v;
    uint id;
    uint species_bits;  // the species as stored (compared raw, like the CPU's ==)
    uint slot;          // its index in the sorted copy
    float v2;           // |v|^2
    uint use_fov;       // 1: its species' view cone applies and it is moving
    vec3 a;             // gloss: its last acceleration, the axis of its view
};

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

// x over its length, or fallback when x is 0.
vec3 unitOr(vec3 x, vec3 fallback) {
    float len = length(x);
    return len > 0.0 ? x / len : fallback;
}

// Reynolds' steer towards a desired direction at full speed, clamped to max_force.
vec3 steerTowards(SpeciesBlock S, vec3 desired, vec3 v) { return limitLength(setMag(desired, MAX_SPEED(S)) - v, MAX_FORCE(S)); }

vec3 boundsAcceleration(vec3 p) {
    vec3 a = vec3(0.0);
#if !BOUNDS_WRAP
    float m = WALL_MARGIN;
    for (int k = 0; k < DIMS; ++k) {
        float low = m - p[k];
        float high = p[k] - (P.world[k] - m);
        if (low > 0.0) a[k] += WALL_PUSH * (m > 0.0 ? low / m : 1.0);
        if (high > 0.0) a[k] -= WALL_PUSH * (m > 0.0 ? high / m : 1.0);
    }
#endif
    return a;
}

// Obstacles: a push out from each centre, obstacle_push at the surface, fading to 0 at the band.
vec3 obstacleAcceleration(vec3 p) {
    vec3 a = vec3(0.0);
    for (uint k = 0u; k < OBSTACLE_COUNT; ++k) {
        vec4 o = P.obstacles[k];
        vec3 d = offsetBetween(p, o.xyz);
        float dist = sqrt(dot(d, d));
        if (!(dist > 0.0)) continue;
        float clearance = dist - o.w, m = OBSTACLE_MARGIN;
        float factor = 0.0;
        if (m > 0.0) factor = min(max(1.0 - clearance / m, 0.0), 1.0);
        else if (clearance < 0.0) factor = 1.0;
        a -= d * (OBSTACLE_PUSH * factor / dist);
    }
    return a;
}

// Wander (wanderJitter in src/model/rng.hpp): a random push in [-1, 1]^dims times WANDER.
const uint kWanderSalt[3] = uint[3](0xA511E9B3u, 0x63D83595u, 0x2F1B7C4Du);
vec3 wanderAcceleration(uint id) {
    vec3 a = vec3(0.0);
    if (!(WANDER > 0.0)) return a;
    for (int k = 0; k < DIMS; ++k) {
        uint h = eventHash(SEED_LO ^ kWanderSalt[k], id, STEP_INDEX);
        a[k] = WANDER * (2.0 * (float(h >> 8u) * (1.0 / 16777216.0)) - 1.0);
    }
    return a;
}

#if STYLE_OFFSET
// Offset style: attractor and repeller as velocity offsets per step; wind, wander and obstacles per second.
vec3 influenceOffset(Self self) {
    vec3 dv = (WIND + wanderAcceleration(self.id) + obstacleAcceleration(self.p)) * DT;
    if (ATTRACTOR_WEIGHT > 0.0) dv += offsetBetween(self.p, ATTRACTOR_AT) * ATTRACTOR_WEIGHT;
    if (REPELLER_WEIGHT > 0.0) {
        vec3 d = offsetBetween(self.p, REPELLER_AT);
        if (dot(d, d) < REPELLER_R2) dv -= d * REPELLER_WEIGHT;
    }
    return dv;
}
#else
// The other styles: wind, wander, attractor and repeller as accelerations.
vec3 influenceAcceleration(SpeciesBlock S, Self self) {
    vec3 a = WIND + wanderAcceleration(self.id) + obstacleAcceleration(self.p);
    if (ATTRACTOR_WEIGHT > 0.0) a += ATTRACTOR_WEIGHT * steerTowards(S, offsetBetween(self.p, ATTRACTOR_AT), self.v);
    if (REPELLER_WEIGHT > 0.0) {
        vec3 d = offsetBetween(self.p, REPELLER_AT);
        if (dot(d, d) < REPELLER_R2) a += REPELLER_WEIGHT * steerTowards(S, -d, self.v);
    }
    return a;
}
#endif

// No boid ends a step inside an obstacle: moved to the surface, inward velocity removed; two sweeps.
void resolveObstacles(inout vec3 p, inout vec3 v) {
    for (int sweep = 0; sweep < 2; ++sweep)
        for (uint k = 0u; k < OBSTACLE_COUNT; ++k) {
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

// Sums over the neighbours of one boid (NeighbourSums in src/cpu/flock_rules.hpp).
struct NeighbourSums {
    vec3 sep, ali, coh, flee;
    uint n_sep, n_ali, n_coh, n_flee, neighbours;
    uint chasing;  // predators: the nearest prey seen within the cohesion radius, by (d2, id)
    vec3 chase_d;
    float chase_d2;
    uint chase_id;
};

NeighbourSums noNeighbours() { return NeighbourSums(vec3(0.0), vec3(0.0), vec3(0.0), vec3(0.0), 0u, 0u, 0u, 0u, 0u, 0u, vec3(0.0), 0.0, 0u); }

#if STYLE_DC
// Decarpentier's three neighbours (ThreeNeighbours): keys (d2, id) and the slot of each; [0] and
// [1] the two nearest, [2] the nearest beyond far_factor x the closest distance.
struct DcKey {
    uint set;
    float d2;
    uint id, slot;
};
struct ThreeNeighbours {
    DcKey k[3];
};

bool before(DcKey key, float d2, uint id) { return key.set == 0u || d2 < key.d2 || (d2 == key.d2 && id < key.id); }

void offerNear(inout ThreeNeighbours t, float d2, uint id, uint slot) {
    if (before(t.k[0], d2, id)) {
        t.k[1] = t.k[0];
        t.k[0] = DcKey(1u, d2, id, slot);
    } else if (before(t.k[1], d2, id)) {
        t.k[1] = DcKey(1u, d2, id, slot);
    }
}

void offerFar(inout ThreeNeighbours t, float d2, uint id, uint slot) {
    if (t.k[0].set == 0u || id == t.k[0].id || (t.k[1].set != 0u && id == t.k[1].id)) return;
    float x = DC_FAR_FACTOR;
    if (!(d2 > x * x * t.k[0].d2)) return;
    if (before(t.k[2], d2, id)) t.k[2] = DcKey(1u, d2, id, slot);
}

// Decarpentier style's acceleration from its three neighbours, flee/chase, level flight, height,
// walls and influences, split into the boid's axes and each clamped.
vec3 decarpentierAcceleration(SpeciesBlock S, Self self, NeighbourSums s, ThreeNeighbours t) {
    vec3 v = self.v;
    vec3 vertical_avoid = vec3(1.0, DC_VERTICAL_AVOID, 1.0), vertical_distance = vec3(1.0, DC_VERTICAL_DISTANCE, 1.0),
         vertical_match = vec3(1.0, DC_VERTICAL_MATCH, 1.0);
    vec3 a = vec3(0.0);
    for (int k = 0; k < 3; ++k) {
        if (t.k[k].set == 0u) continue;
        vec3 d = offsetBetween(self.p, posAt(t.k[k].slot));
        float dist = sqrt(dot(d, d));
        if (!(dist > 0.0)) continue;  // coincident: no direction to go by
        vec3 dir = d / dist;
        a += W_SEP(S) * (-dir / dist) * vertical_avoid;                                      // avoid
        a += W_COH(S) * (dir * (1.0 - DC_PREFERRED_DISTANCE(S) / dist)) * vertical_distance;  // preferred distance
        a += W_ALI(S) * ((velAt(t.k[k].slot) - v) / sqrt(dist)) * vertical_match;   // velocity match
    }
    a += W_SEP(S) * s.sep;  // the other species within the separation radius: sum of -dir/|d|
    if (s.n_flee > 0u) a += W_FLEE(S) * s.flee;
    if (s.chasing != 0u && s.chase_d2 > 0.0) a += CHASE(S) * (s.chase_d / sqrt(s.chase_d2));
    a.y -= DC_HORIZONTAL * v.y;
    if (DC_HEIGHT_WEIGHT > 0.0) a.y += DC_HEIGHT_WEIGHT * (DC_HEIGHT - self.p.y);
    a += boundsAcceleration(self.p) + influenceAcceleration(S, self);
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
    float af = min(max(dot(a, f), -DC_BRAKE(S)), DC_ACCEL_FORWARD(S));
    float as_ = min(max(dot(a, side), -DC_ACCEL_SIDE(S)), DC_ACCEL_SIDE(S));
    float au = min(max(dot(a, up), -DC_ACCEL_UP(S)), DC_ACCEL_UP(S));
    return f * af + side * as_ + up * au;
}

// Decarpentier style's motion every step: smoothed speed, diving, clamp.
vec3 decarpentierMove(SpeciesBlock S, Self self, vec3 a) {
    float speed = sqrt(dot(self.v, self.v));
    vec3 v1 = self.v + a * DT;
    float s1 = sqrt(dot(v1, v1));
    if (!(s1 > 0.0)) return v1;
    vec3 dir = v1 / s1;
    float new_speed = s1 + (speed - s1) * DC_SMOOTHING(S);
    new_speed *= 1.0 - DC_DIVE * dir.y * DT;  // gravity: faster diving, slower climbing
    new_speed = min(max(new_speed, MIN_SPEED(S)), MAX_SPEED(S));
    return dir * new_speed;
}
#endif

// Speed into [min_speed, max_speed]; a boid at exact rest stays at rest.
vec3 clampSpeed(SpeciesBlock S, vec3 v) {
    float s = length(v);
    if (s > MAX_SPEED(S)) return v * (MAX_SPEED(S) / s);
    if (s > 0.0 && s < MIN_SPEED(S)) return v * (MIN_SPEED(S) / s);
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

// Is the boid in slot j a neighbour of self (within the largest radius and the view cone)?
// Sets d (minimum image, self to it) and d2.
bool isNeighbourOf(SpeciesBlock S, Self self, uint j, out vec3 d, out float d2) {
    d = vec3(0.0);
    d2 = 0.0;
#if PERCHING
    if (perchAt(j) > 0.0) return false;  // boids on the ground are out of the flock
#endif
    d = offsetBetween(self.p, posAt(j));
    d2 = dot(d, d);
    if (!(d2 < LOOK_R2(S))) return false;
#if !STYLE_GLOSS && VIEW_CONE  // without a cone use_fov is 0 for every boid: a software driver
    // would still work out the test for each candidate and throw it away
    if (self.use_fov != 0u && d2 > 0.0 && dot(self.v, d) < COS_HALF_FOV(S) * sqrt(self.v2 * d2)) return false;
#endif
    return true;
}

// Gloss style's view (glossSees): the cone around the last acceleration; all round without one.
bool glossSees(SpeciesBlock S, Self self, vec3 d, float d2) {
    if (VIEW_CONE_FLAG(S) < 0.5 || !(d2 > 0.0)) return true;
    float a2 = dot(self.a, self.a);
    return !(a2 > 0.0) || dot(self.a, d) >= COS_HALF_FOV(S) * sqrt(a2 * d2);
}

#if MULTI_SPECIES
// Prey flee predators within their flee radius; a predator marks the nearest prey it sees.
void addPredatorOrPrey(SpeciesBlock S, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s) {
    bool predator = PREDATOR_FLAG(S) > 0.5;
    uint other = min(speciesAt(j), uint(MAX_SPECIES - 1));
    bool other_predator = PREDATOR_FLAG(P.species[other]) > 0.5;
    if (!predator && other_predator && d2 < FLEE_R2(S)) {
        ++s.n_flee;
#if STYLE_OFFSET
        s.flee += d;
#else
        if (d2 > 0.0) s.flee -= d / d2;
#endif
    }
    if (predator && !other_predator && d2 < COH_R2(S) &&
        (s.chasing == 0u || d2 < s.chase_d2 || (d2 == s.chase_d2 && jid < s.chase_id))) {
        s.chasing = 1u;
        s.chase_d = d;
        s.chase_d2 = d2;
        s.chase_id = jid;
    }
}
#endif

// Adds the neighbour in slot j (id jid, offset d) to the sums.
void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s) {
#if STYLE_GLOSS
    bool seen = glossSees(S, self, d, d2);  // separation all round; alignment and cohesion in view
#else
    const bool seen = true;
#endif
    if (d2 < COUNTED_R2(S) && (seen || d2 < SEP_R2(S))) ++s.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < SEP_R2(S)) {  // separation: from every species
        ++s.n_sep;
#if STYLE_OFFSET
        s.sep += d;
#elif STYLE_GRADED
        if (d2 > 0.0) s.sep -= d * (min(SEP_RADIUS(S) - sqrt(d2), GRADED_CORE * sqrt(d2)) / d2);
#elif STYLE_GLOSS
        if (d2 > 0.0) s.sep -= d * (SEP_RADIUS(S) / sqrt(d2));  // escape route of length r_sep
#elif SEP_UNIT || STYLE_COUZIN
        if (d2 > 0.0) s.sep -= d / sqrt(d2);
#elif STYLE_DC
        // Another species is an object to avoid, -dir/|d| (predators and prey chase and flee instead).
        uint other_sp = min(speciesAt(j), uint(MAX_SPECIES - 1));
        if (speciesAt(j) != self.species_bits && PREDATOR_FLAG(S) < 0.5 &&
            PREDATOR_FLAG(P.species[other_sp]) < 0.5 && d2 > 0.0)
            s.sep -= d / d2;
#else
        if (d2 > 0.0) s.sep -= d / d2;
#endif
    }
#if MULTI_SPECIES
    bool same = speciesAt(j) == self.species_bits && seen;
#else
    bool same = seen;  // one species: skip the neighbour's species read
#endif
    if (same && d2 < ALI_R2(S)) {  // alignment and cohesion: within the species
        ++s.n_ali;
#if STYLE_VICSEK || STYLE_COUZIN
        s.ali += unitOr(velAt(j), vec3(0.0));  // headings, not velocities
#else
        s.ali += velAt(j);
#endif
    }
#if STYLE_COUZIN
    if (same && d2 < COH_R2(S) && d2 >= ALI_R2(S) && d2 > 0.0) {  // attraction: beyond orientation's zone, unit directions
        ++s.n_coh;
        s.coh += d / sqrt(d2);
    }
#else
    if (same && d2 < COH_R2(S)) {
        ++s.n_coh;
        s.coh += d;
    }
#endif
#if MULTI_SPECIES
    addPredatorOrPrey(S, j, jid, d, d2, s);
#endif
}

#if NEIGHBOUR_CAP
// The k nearest neighbours by (d2, id), sorted by insertion (NearestK).
struct NearestK {
    float d2[MAX_NEIGHBOUR_CAP];
    uint id[MAX_NEIGHBOUR_CAP];
    uint n;
};

void offer(inout NearestK c, float d2, uint id, uint k) {
    uint i = c.n < k ? c.n++ : k;
    while (i > 0u && (d2 < c.d2[i - 1u] || (d2 == c.d2[i - 1u] && id < c.id[i - 1u]))) {
        if (i < k) {
            c.d2[i] = c.d2[i - 1u];
            c.id[i] = c.id[i - 1u];
        }
        --i;
    }
    if (i < k) {
        c.d2[i] = d2;
        c.id[i] = id;
    }
}

bool admits(inout NearestK c, float d2, uint id, uint k) {
    if (c.n < k) return true;
    return d2 < c.d2[k - 1u] || (d2 == c.d2[k - 1u] && id <= c.id[k - 1u]);
}
#endif

// What gather() builds: the sums, and what the first sweep finds for the second.
struct Sweep {
    NeighbourSums sums;
#if NEIGHBOUR_CAP
    NearestK cap;
#endif
#if STYLE_DC
    ThreeNeighbours three;
#endif
};

// With a neighbour cap or decarpentier's three, sweep 0 finds the k nearest / the two nearest
// and sweep 1 sums (only the k nearest) and finds the third; otherwise one summing sweep.
#if NEIGHBOUR_CAP || STYLE_DC
#define FIRST_SWEEP 0
#else
#define FIRST_SWEEP 1
#endif

// One candidate in one sweep (the body of CpuSimulation::gather's loops).
void visit(SpeciesBlock S, Self self, int sweep, uint j, inout Sweep w) {
    vec3 d;
    float d2;
    if (j == self.slot || !isNeighbourOf(S, self, j, d, d2)) return;
    uint jid = idAt(j);
#if STYLE_DC
    bool dc_candidate = speciesAt(j) == self.species_bits && d2 < COUNTED_R2(S);
    if (sweep == 0 && dc_candidate) offerNear(w.three, d2, jid, j);
    if (sweep == 1 && dc_candidate) offerFar(w.three, d2, jid, j);
#endif
#if NEIGHBOUR_CAP
    if (sweep == 0) offer(w.cap, d2, jid, NEIGHBOUR_CAP_K);
    if (sweep == 1 && !admits(w.cap, d2, jid, NEIGHBOUR_CAP_K)) return;
#endif
    if (sweep == 1) addNeighbour(S, self, j, jid, d, d2, w.sums);
}

// Every candidate in the cells around self, in each sweep (CpuSimulation::gather).
Sweep gather(SpeciesBlock S, Self self) {
    Sweep w;
    w.sums = noNeighbours();
#if NEIGHBOUR_CAP
    w.cap.n = 0u;
#endif
#if STYLE_DC
    for (int k = 0; k < 3; ++k) w.three.k[k] = DcKey(0u, 0.0, 0u, 0u);
#endif
#if UPDATE_SEQUENTIAL
    // The boids move during a sequential step: every one is a candidate (no grid).
    for (int sweep = FIRST_SWEEP; sweep < 2; ++sweep)
        for (uint j = 0u; j < BOIDS; ++j) visit(S, self, sweep, j, w);
#else
    uvec3 c = cellOf(self.p);
    AxisCells ax = axisCells(c.x, CELLS_PER_AXIS.x), ay = axisCells(c.y, CELLS_PER_AXIS.y);
    AxisCells az = DIMS == 3 ? axisCells(c.z, CELLS_PER_AXIS.z) : AxisCells(0, 1, 1);
    CellCull cull = cellCull(self.p, c);
    float reach2 = LOOK_R2(S) * (1.0 + 2.0 * CULL_SLACK);
    // Each row's consecutive x cells as one range: the same boids in the same order as cell by
    // cell (UniformGrid::forEachCandidate), with fewer lookups; rows and x cells out of reach
    // skipped (cellCull: only boids that cannot be neighbours are left out).
    for (int sweep = FIRST_SWEEP; sweep < 2; ++sweep)
        for (int iz = 0; iz < az.count; ++iz) {
            float gz2 = DIMS == 3 ? axisGap2(cull, 2, az.first + iz - int(c.z)) : 0.0;
            for (int iy = 0; iy < ay.count; ++iy) {
                float rem2 = reach2 - gz2 - axisGap2(cull, 1, ay.first + iy - int(c.y));
                if (!(rem2 > 0.0)) continue;
                uint row = (listedCell(az, iz) * CELLS_PER_AXIS.y + listedCell(ay, iy)) * CELLS_PER_AXIS.x;
                ivec4 runs = xRuns(narrowedX(ax, cull, c.x, rem2));
                for (int r = 0; r < 2; ++r) {
                    ivec2 run = r == 0 ? runs.xy : runs.zw;
                    if (run.x > run.y) continue;
                    uint end = cellEnd(row + uint(run.y));
                    for (uint j = cellStart(row + uint(run.x)); j < end; ++j) visit(S, self, sweep, j, w);
                }
            }
        }
#endif
    return w;
}

// clampSpeed unless the speed limit is off.
vec3 limitSpeed(SpeciesBlock S, vec3 v) {
#if SPEED_LIMIT
    return clampSpeed(S, v);
#else
    return v;
#endif
}

#if STYLE_VICSEK
// Vicsek style (vicsekNoise and vicsekVelocity in src/cpu/flock_rules.cpp): the mean heading of
// self and its neighbours within the alignment radius, turned by the step's noise, at max_speed.
const uint kVicsekSalt[2] = uint[2](0x7C5A1B2Du, 0x1D2E3F4Bu);
float vicsekUniform(uint id, int which) {
    return float(eventHash(SEED_LO ^ kVicsekSalt[which], id, STEP_INDEX) >> 8u) * (1.0 / 16777216.0);
}

vec3 vicsekNoise(SpeciesBlock S, Self self, vec3 mean) {
    float u0 = vicsekUniform(self.id, 0), u1 = vicsekUniform(self.id, 1);
    float eta = VICSEK_NOISE(S);
#if DIMS == 2
    float a = eta * (u0 - 0.5), c = cos(a), s = sin(a);
    return vec3(mean.x * c - mean.y * s, mean.x * s + mean.y * c, 0.0);
#else
    float cos_t = 1.0 - u0 * (1.0 - cos(0.5 * eta));
    float sin_t = sqrt(max(0.0, 1.0 - cos_t * cos_t));
    float phi = 6.2831853 * u1;
    vec3 helper = abs(mean.x) < 0.9 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
    vec3 e1 = normalize(cross(mean, helper)), e2 = cross(mean, e1);
    return mean * cos_t + (e1 * cos(phi) + e2 * sin(phi)) * sin_t;
#endif
}

vec3 vicsekVelocity(SpeciesBlock S, Self self, NeighbourSums s) {
    vec3 own = unitOr(self.v, vec3(1.0, 0.0, 0.0));
    vec3 mean = unitOr(s.ali + own, own);
    return vicsekNoise(S, self, mean) * MAX_SPEED(S);
}
#endif

#if STYLE_COUZIN
// Couzin style (perpendicularTo, couzinNoise, couzinDesired, couzinVelocity in src/cpu/flock_rules.cpp).
const uint kCouzinSalt[2] = uint[2](0x43A9E1F7u, 0x2B6C0D95u);
float couzinUniform(uint id, int which) {
    return float(eventHash(SEED_LO ^ kCouzinSalt[which], id, STEP_INDEX) >> 8u) * (1.0 / 16777216.0);
}

vec3 perpendicularTo(vec3 u) {
#if DIMS == 2
    return vec3(-u.y, u.x, 0.0);
#else
    vec3 helper = abs(u.x) < 0.9 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
    return normalize(cross(u, helper));
#endif
}

vec3 couzinNoise(SpeciesBlock S, Self self, vec3 d) {
    float u0 = couzinUniform(self.id, 0), u1 = couzinUniform(self.id, 1);
    float radius = COUZIN_NOISE(S) * sqrt(-2.0 * log(1.0 - u0)), phi = 6.2831853 * u1;
#if DIMS == 2
    float a = radius * cos(phi), c = cos(a), s = sin(a);
    return vec3(d.x * c - d.y * s, d.x * s + d.y * c, 0.0);
#else
    vec3 e1 = perpendicularTo(d), e2 = cross(d, e1);
    return d * cos(radius) + (e1 * cos(phi) + e2 * sin(phi)) * sin(radius);
#endif
}

vec3 couzinDesired(NeighbourSums s, vec3 own) {
    if (s.n_sep > 0u) return unitOr(s.sep, own);
    vec3 d_o = unitOr(s.ali + own, own);
    if (s.n_coh == 0u) return d_o;
    vec3 d_a = unitOr(s.coh, own);
    return s.n_ali > 0u ? unitOr(0.5 * (d_o + d_a), own) : d_a;
}

vec3 couzinVelocity(SpeciesBlock S, Self self, NeighbourSums s) {
    vec3 own = unitOr(self.v, vec3(1.0, 0.0, 0.0));
    vec3 want = couzinNoise(S, self, couzinDesired(s, own));
    float turn = COUZIN_TURN(S), cos_angle = dot(own, want);
    if (cos_angle >= cos(turn)) return want * MAX_SPEED(S);
    vec3 side = unitOr(want - cos_angle * own, perpendicularTo(own));
    return (own * cos(turn) + side * sin(turn)) * MAX_SPEED(S);
}
#endif

#if STYLE_GLOSS
// Gloss style's acceleration (glossAcceleration): the escape routes' sum normalised; the
// normalised mean velocity and the centre of those in view, the viewer included.
vec3 glossAcceleration(SpeciesBlock S, Self self, NeighbourSums s) {
    vec3 a = vec3(0.0);
    if (s.n_sep > 0u && length(s.sep) > GLOSS_CANCEL * SEP_RADIUS(S)) a += (W_SEP(S) * MAX_FORCE(S)) * setMag(s.sep, 1.0);
    float seen_ali = float(s.n_ali + 1u), seen_coh = float(s.n_coh + 1u);
    vec3 mean_v = (s.ali + self.v) / seen_ali;
    if (length(mean_v) > GLOSS_CANCEL * MAX_SPEED(S)) a += (W_ALI(S) * MAX_FORCE(S)) * setMag(mean_v, 1.0);
    a += (COHESION_SIGN * W_COH(S) * MAX_FORCE(S) * INV_COH_RADIUS(S)) * (s.coh / seen_coh);
    if (s.n_flee > 0u) a += W_FLEE(S) * steerTowards(S, s.flee, self.v);
    if (s.chasing != 0u) a += CHASE(S) * steerTowards(S, s.chase_d, self.v);
    return a + boundsAcceleration(self.p) + influenceAcceleration(S, self);
}
#endif

#if !STYLE_DC && !STYLE_GLOSS
// Self's new velocity from its sums (integrate() for the steering, graded and offset styles).
vec3 integrate(SpeciesBlock S, Self self, NeighbourSums s) {
    vec3 v = self.v;
    vec3 dv = vec3(0.0);
#if STYLE_OFFSET && OFFSET_SUMS
    // flock.rb: each rule summed over the neighbours, not averaged.
    if (s.n_sep > 0u) dv -= s.sep * W_SEP(S);
    if (s.n_ali > 0u) dv += s.ali * W_ALI(S);
    if (s.n_coh > 0u) dv += s.coh * (COHESION_SIGN * W_COH(S));
    if (s.n_flee > 0u) dv -= s.flee * W_FLEE(S);
    if (s.chasing != 0u) dv += s.chase_d * CHASE(S);
    dv += boundsAcceleration(self.p) * DT + influenceOffset(self);
#elif STYLE_OFFSET
    // Parker: each rule is a velocity offset per step, summed; walls still push per second.
    if (s.n_sep > 0u) dv -= (s.sep / float(s.n_sep)) * W_SEP(S);
    if (s.n_ali > 0u) dv += (s.ali / float(s.n_ali) - v) * W_ALI(S);
#if OFFSET_LONE
    else dv += v;  // the Ruby's rule 3 with no one near: the boid's own velocity
#endif
    if (s.n_coh > 0u) dv += (s.coh / float(s.n_coh)) * (COHESION_SIGN * W_COH(S));
    if (s.n_flee > 0u) dv -= (s.flee / float(s.n_flee)) * W_FLEE(S);
    if (s.chasing != 0u) dv += s.chase_d * CHASE(S);
    dv += boundsAcceleration(self.p) * DT + influenceOffset(self);
#elif STYLE_GRADED
    // Separation growing as the distance shrinks, cohesion a spring, alignment steered.
    vec3 a = vec3(0.0);
    if (s.n_sep > 0u) a += (W_SEP(S) * MAX_FORCE(S)) * s.sep;
    if (s.n_ali > 0u) a += W_ALI(S) * steerTowards(S, s.ali / float(s.n_ali), v);
    if (s.n_coh > 0u) a += (COHESION_SIGN * W_COH(S) * MAX_FORCE(S) * INV_COH_RADIUS(S)) * (s.coh / float(s.n_coh));
    if (s.n_flee > 0u) a += W_FLEE(S) * steerTowards(S, s.flee, v);
    if (s.chasing != 0u) a += CHASE(S) * steerTowards(S, s.chase_d, v);
    dv = (a + boundsAcceleration(self.p) + influenceAcceleration(S, self)) * DT;
#else
    vec3 a = vec3(0.0);
    if (s.n_sep > 0u) a += W_SEP(S) * steerTowards(S, s.sep, v);
    if (s.n_ali > 0u) a += W_ALI(S) * steerTowards(S, s.ali / float(s.n_ali), v);
    if (s.n_coh > 0u) a += COHESION_SIGN * W_COH(S) * steerTowards(S, s.coh / float(s.n_coh), v);
    if (s.n_flee > 0u) a += W_FLEE(S) * steerTowards(S, s.flee, v);
    if (s.chasing != 0u) a += CHASE(S) * steerTowards(S, s.chase_d, v);
    dv = (a + boundsAcceleration(self.p) + influenceAcceleration(S, self)) * DT;
#endif
    return limitSpeed(S, v + dv);
}
#endif

// Position from the new velocity, obstacles, landing (perching), wrap, the led boid, 2D
// (finishStep). Returns the position; nv may change; landed is the rest drawn on landing.
vec3 finishStep(SpeciesBlock S, Self self, inout vec3 nv, out float landed) {
    landed = 0.0;
#if INTEGRATE_EXPLICIT
    vec3 np = self.p + self.v * DT;  // explicit Euler: moved with the old velocity
#else
    vec3 np = self.p + nv * DT;
#endif
    resolveObstacles(np, nv);
#if PERCHING
    if (self.p.y > PERCH_GROUND && np.y <= PERCH_GROUND && !(LEADER_ON > 0.5 && self.id == 0u)) {
        // Landing: crossing the ground from above puts the boid on it, at rest, for a random time.
        float u = float(eventHash(SEED_LO, self.id, STEP_INDEX) >> 8u) * (1.0 / 16777216.0);
        float t = PERCH_MIN + u * (PERCH_MAX - PERCH_MIN);
        if (t > 0.0) {
            np.y = PERCH_GROUND;
            nv = vec3(0.0);
            landed = t;
        }
    }
#endif
    np = wrapPosition(np);
    if (LEADER_ON > 0.5 && self.id == 0u) {  // the led boid (see flock_rules.cpp)
        nv = limitLength(offsetBetween(self.p, LEADER_AT) * INV_DT, MAX_SPEED(S));
        np = wrapPosition(LEADER_AT);
    }
#if DIMS == 2
    nv.z = 0.0;
    np.z = 0.0;
#endif
    return np;
}

Self loadSelf(uint i) {
    Self self;
    self.p = posAt(i);
    self.v = velAt(i);
    self.id = idAt(i);
    self.species_bits = speciesAt(i);
    self.slot = i;
    self.v2 = dot(self.v, self.v);
    self.use_fov = VIEW_CONE_FLAG(P.species[min(self.species_bits, uint(MAX_SPECIES - 1))]) > 0.5 && self.v2 > 0.0 ? 1u : 0u;
#if STYLE_GLOSS
    self.a = sorted_steer[i].xyz;
#else
    self.a = vec3(0.0);
#endif
    return self;
}

// The boid's new state into slot i, binned for the next step (grid_bin.glsl) while it is at hand.
void store(uint i, Self self, vec3 np, vec3 nv, uint counted) {
    pos[i] = uvec4(floatBitsToUint(np), self.id);
    vel[i] = uvec4(floatBitsToUint(nv), self.species_bits);
    neighbours[i] = counted;
#if !UPDATE_SEQUENTIAL
    binBoid(i, np);
#endif
}

#if PERCHING
// On the ground: at rest until the time is up, then straight up at half speed (at least
// min_speed) to rejoin; out of the flock meanwhile (integrate()'s perching branch).
void restOnTheGround(SpeciesBlock S, Self self, float rest) {
    vec3 out_v = vec3(0.0);
    vec3 out_p = self.p;
    rest -= DT;
    if (!(rest > 0.0)) {
        rest = 0.0;
        out_v = vec3(0.0, max(MIN_SPEED(S), 0.5 * MAX_SPEED(S)), 0.0);
        out_p = wrapPosition(self.p + out_v * DT);
    }
    store(self.slot, self, out_p, out_v, 0u);
    perch[self.slot] = rest;
#if STORED_STEER
    steer[self.slot] = sorted_steer[self.slot];  // kept for take-off (the CPU's next = self)
#endif
}
#endif

// Decarpentier's amortised steering (steersAt() in src/model/rng.hpp): between its steering steps
// a boid reuses its last steering and skips the neighbour search.
bool steersNow(Self self) {
#if STYLE_DC
    uint period = STEPS_PER_STEER;
    return STEP_INDEX == 0u || period <= 1u || (STEP_INDEX + eventHash(0x5EEDu, self.id, 0u) % period) % period == 0u;
#else
    return true;
#endif
}

// Steps the boid in slot i: gather, steer, integrate, store.
void stepBoid(uint i) {
    Self self = loadSelf(i);
    SpeciesBlock S = P.species[min(self.species_bits, uint(MAX_SPECIES - 1))];
#if PERCHING
    if (perchAt(i) > 0.0) {
        restOnTheGround(S, self, perchAt(i));
        return;
    }
#endif
    bool steer_now = steersNow(self);
    Sweep w;
    if (steer_now) w = gather(S, self);
    else w.sums = noNeighbours();
    uint counted = w.sums.neighbours;
#if STYLE_DC
    vec4 stored = sorted_steer[i];
    vec3 a = steer_now ? decarpentierAcceleration(S, self, w.sums, w.three) : stored.xyz;
    if (!steer_now) counted = uint(stored.w);
    steer[i] = vec4(a, float(counted));
    vec3 nv = decarpentierMove(S, self, a);
#elif STYLE_GLOSS
    vec3 a = glossAcceleration(S, self, w.sums);
    steer[i] = vec4(a, float(counted));  // the view cone's axis next step
    vec3 nv = limitSpeed(S, self.v + a * DT);
#elif STYLE_VICSEK
    vec3 nv = vicsekVelocity(S, self, w.sums);
#elif STYLE_COUZIN
    vec3 nv = couzinVelocity(S, self, w.sums);
#else
    vec3 nv = integrate(S, self, w.sums);
#endif
    float landed;
    vec3 np = finishStep(S, self, nv, landed);
#if PERCHING
    perch[i] = landed;
#endif
    store(i, self, np, nv, counted);
}

void main() {
#if UPDATE_SEQUENTIAL
    // One invocation walks the flock in id order (CpuSimulation::visitOrder), in place, a run of
    // ids per dispatch; the first builds the slot of each id (slots stay put during the step).
    if (flatIndex(STEP_GROUP_SIZE) != 0u) return;
    if (u_first_id == 0u)
        for (uint s = 0u; s < BOIDS; ++s) slot_of_id[min(pos[s].w, BOIDS - 1u)] = s;
    uint end = min(u_first_id + u_id_count, BOIDS);
    for (uint id = u_first_id; id < end; ++id) stepBoid(slot_of_id[id]);
#else
    uint i = flatIndex(STEP_GROUP_SIZE) + u_first_group * uint(STEP_GROUP_SIZE);
    if (i >= BOIDS) return;
    stepBoid(i);
#endif
}
