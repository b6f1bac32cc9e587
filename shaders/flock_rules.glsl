// What every style shares (src/cpu/flock_rules.{hpp,cpp}): the same functions with the same
// names, in the same order where both have them. flock_steer.comp includes this after declaring
// Self and the state's reads (posAt, velAt, idAt, speciesAt, perchAt), then the style's file.

#include "event_hash.glsl"

// Sums over the neighbours of one boid (NeighbourSums in src/cpu/flock_rules.hpp).
struct NeighbourSums {
    vec3 sep, ali, coh, flee;
    uint n_sep, n_ali, n_coh, n_flee, neighbours;
    uint chasing;  // predators: the nearest prey seen within the cohesion radius, by (d2, id)
    vec3 chase_d;
    float chase_d2;
    uint chase_id;
};

#if ADAPTIVE_REACH
// R moved toward the radius that would hold TOPO_COUNT boids, itself included, given the `seen`
// within it (nextReach in src/cpu/flock_rules.cpp).
float nextReach(float reach, uint seen) {
    float target = reach * pow(TOPO_COUNT / float(seen + 1u), TOPO_EXPONENT);
    return min(reach + TOPO_RATE * (target - reach), TOPO_MAX_R);
}
#endif

NeighbourSums noNeighbours() { return NeighbourSums(vec3(0.0), vec3(0.0), vec3(0.0), vec3(0.0), 0u, 0u, 0u, 0u, 0u, 0u, vec3(0.0), 0.0, 0u); }

// Is the boid in slot j, at offset d from self (minimum image, self to it; d2 = |d|^2), a
// neighbour of self: not on the ground, within the largest radius and the view cone?
bool isNeighbourAt(SpeciesBlock S, Self self, uint j, vec3 d, float d2) {
#if PERCHING
    if (perchAt(j) > 0.0) return false;  // boids on the ground are out of the flock
#endif
    if (!(d2 < LOOK_R2(S))) return false;
#if ADAPTIVE_REACH
    if (!(d2 < self.reach2)) return false;
#endif
#if VIEW_CONE  // without a velocity cone use_fov is 0 for every boid: a software driver would still
    // work out the test for each candidate and throw it away
    if (self.use_fov != 0u && d2 > 0.0 && dot(self.v, d) < COS_HALF_FOV(S) * sqrt(self.v2 * d2)) return false;
#endif
    return true;
}

// The same for the boid in slot j by itself: sets d and d2.
bool isNeighbourOf(SpeciesBlock S, Self self, uint j, out vec3 d, out float d2) {
    d = offsetBetween(self.p, posAt(j));
    d2 = dot(d, d);
    return isNeighbourAt(S, self, j, d, d2);
}

// Predators and prey, for every style: prey within its flee radius of a predator adds -d/|d|^2 to
// flee (d when flee_along_d: the offset style's velocity offsets); a predator marks the nearest
// prey it sees within its cohesion radius, by (d2, id).
void addPredatorOrPrey(SpeciesBlock S, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s, bool flee_along_d) {
#if MULTI_SPECIES
    bool predator = PREDATOR_FLAG(S) > 0.5;
    uint other = min(speciesAt(j), uint(MAX_SPECIES - 1));
    bool other_predator = PREDATOR_FLAG(P.species[other]) > 0.5;
    if (!predator && other_predator && d2 < FLEE_R2(S)) {
        ++s.n_flee;
        if (flee_along_d) s.flee += d;
        else if (d2 > 0.0) s.flee -= d / d2;
    }
    if (predator && !other_predator && d2 < COH_R2(S) &&
        (s.chasing == 0u || d2 < s.chase_d2 || (d2 == s.chase_d2 && jid < s.chase_id))) {
        s.chasing = 1u;
        s.chase_d = d;
        s.chase_d2 = d2;
        s.chase_id = jid;
    }
#endif
}

// Is the boid in slot j of self's species? (One species: always, without reading it.)
bool sameSpecies(Self self, uint j) {
#if MULTI_SPECIES
    return speciesAt(j) == self.species_bits;
#else
    return true;
#endif
}

// Reynolds' alignment and cohesion terms of the neighbour in slot j if of self's species (same):
// v_j within the alignment radius, d within the cohesion radius.
void addAlignmentAndCohesion(SpeciesBlock S, bool same, uint j, vec3 d, float d2, inout NeighbourSums s) {
    if (same && d2 < ALI_R2(S)) {
        ++s.n_ali;
        s.ali += velAt(j);
    }
    if (same && d2 < COH_R2(S)) {
        ++s.n_coh;
        s.coh += d;
    }
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
#if !BOUNDS_WRAP && !BOUNDS_OPEN
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
    for (uint k = 0u; k < OBSTACLE_LOOP_END; ++k) {
        if (k >= OBSTACLE_COUNT) continue;
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
const uint kWanderSalt[3] = uint[3](WANDER_SALTS);
vec3 wanderAcceleration(uint id) {
    vec3 a = vec3(0.0);
    if (!(WANDER > 0.0)) return a;
    for (int k = 0; k < DIMS; ++k) {
        a[k] = WANDER * (2.0 * eventUniform(eventHash(SEED_LO ^ kWanderSalt[k], id, STEP_INDEX)) - 1.0);
    }
    return a;
}

// The harmonic trap's pull at p (trapAcceleration in src/cpu/flock_rules.cpp), 0 when off.
vec3 trapAcceleration(vec3 p) {
    if (!(TRAP_K > 0.0)) return vec3(0.0);
    return -TRAP_K * offsetBetween(TRAP_AT, p);
}

// A constant-speed style's new velocity v turned by the trap, its speed kept (trapTurn).
vec3 trapTurn(Self self, vec3 v) {
    if (!(TRAP_K > 0.0)) return v;
    return unitOr(v + trapAcceleration(self.p) * DT, unitOr(v, vec3(1.0, 0.0, 0.0))) * length(v);
}

// Wind, wander, obstacles, the trap, the attractor and the repeller as accelerations.
vec3 influenceAcceleration(SpeciesBlock S, Self self) {
    vec3 a = WIND + wanderAcceleration(self.id) + obstacleAcceleration(self.p) + trapAcceleration(self.p);
    if (ATTRACTOR_WEIGHT > 0.0) a += ATTRACTOR_WEIGHT * steerTowards(S, offsetBetween(self.p, ATTRACTOR_AT), self.v);
    if (REPELLER_WEIGHT > 0.0) {
        vec3 d = offsetBetween(self.p, REPELLER_AT);
        if (dot(d, d) < REPELLER_R2) a += REPELLER_WEIGHT * steerTowards(S, -d, self.v);
    }
    return a;
}
// The same as velocity offsets per step (the offset style): attractor and repeller as Parker's tend
// to / away from a place; wind, wander and obstacles still accelerations, times dt.
vec3 influenceOffset(Self self) {
    vec3 dv = (WIND + wanderAcceleration(self.id) + obstacleAcceleration(self.p) + trapAcceleration(self.p)) * DT;
    if (ATTRACTOR_WEIGHT > 0.0) dv += offsetBetween(self.p, ATTRACTOR_AT) * ATTRACTOR_WEIGHT;
    if (REPELLER_WEIGHT > 0.0) {
        vec3 d = offsetBetween(self.p, REPELLER_AT);
        if (dot(d, d) < REPELLER_R2) dv -= d * REPELLER_WEIGHT;
    }
    return dv;
}
// No boid ends a step inside an obstacle: moved to the surface, inward velocity removed; two sweeps.
void resolveObstacles(inout vec3 p, inout vec3 v) {
    for (int sweep = 0; sweep < 2; ++sweep)
        for (uint k = 0u; k < OBSTACLE_LOOP_END; ++k) {
            if (k >= OBSTACLE_COUNT) continue;
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

// Speed into [min_speed, max_speed]; a boid at exact rest stays at rest.
vec3 clampSpeed(SpeciesBlock S, vec3 v) {
    float s = length(v);
    if (s > MAX_SPEED(S)) return v * (MAX_SPEED(S) / s);
    if (s > 0.0 && s < MIN_SPEED(S)) return v * (MIN_SPEED(S) / s);
    return v;
}

// A wrap-mode position folded into [0, L) (unchanged in soft mode).
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

// clampSpeed unless the speed limit is off.
vec3 limitSpeed(SpeciesBlock S, vec3 v) {
#if SPEED_LIMIT
    return clampSpeed(S, v);
#else
    return v;
#endif
}

// The new velocity of a style whose rules give an acceleration `a` (steeredVelocity in
// src/cpu/flock_rules.cpp): plus fleeing and chasing, walls and influences, over dt, limited.
vec3 steeredVelocity(SpeciesBlock S, Self self, NeighbourSums s, vec3 a) {
    vec3 v = self.v;
    if (s.n_flee > 0u) a += W_FLEE(S) * steerTowards(S, s.flee, v);
    if (s.chasing != 0u) a += CHASE(S) * steerTowards(S, s.chase_d, v);
    vec3 dv = (a + boundsAcceleration(self.p) + influenceAcceleration(S, self)) * DT;
    return limitSpeed(S, v + dv);
}

// A unit vector perpendicular to the unit vector u (in the xy plane in 2D).
vec3 perpendicularTo(vec3 u) {
#if DIMS == 2
    return vec3(-u.y, u.x, 0.0);
#else
    vec3 helper = abs(u.x) < 0.9 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
    return normalize(cross(u, helper));
#endif
}

// A boid on the ground (perching): at rest until its time is up, then straight up at half speed
// (at least min_speed) to rejoin. Returns the new rest; p and v are its position and velocity.
float restOnTheGround(SpeciesBlock S, Self self, float rest, out vec3 p, out vec3 v) {
    v = vec3(0.0);
    p = self.p;
    rest -= DT;
    if (!(rest > 0.0)) {
        rest = 0.0;
        v = vec3(0.0, max(MIN_SPEED(S), 0.5 * MAX_SPEED(S)), 0.0);
        p = wrapPosition(self.p + v * DT);
    }
    return rest;
}

// Amortised steering (steersAt() in src/model/rng.hpp; decarpentier): between its steering steps
// a boid reuses its last steering and skips the neighbour search.
bool steersNow(Self self) {
#if AMORTISED_STEERING
    uint period = STEPS_PER_STEER;
    return STEP_INDEX == 0u || period <= 1u || (STEP_INDEX + eventHash(STEER_PHASE_SEED, self.id, 0u) % period) % period == 0u;
#else
    return true;
#endif
}

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
        float u = eventUniform(eventHash(SEED_LO, self.id, STEP_INDEX));
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

