// The neighbour search of flock_steer.comp (gather in src/cpu/flock_step.hpp): every candidate in
// the grid cells around a boid (or, in the sequential order, every boid) in one or two sweeps,
// handed to the style's addNeighbour (and its search); with a neighbour cap, only its k nearest.

#if NEIGHBOUR_CAP
#define CAP_SLOTS NEIGHBOUR_CAP  // the list's length: 8, 16 or 32 (gpu/variant.cpp's capSlots), at least k
// The k nearest neighbours by (d2, id), sorted by insertion, with their slots (NearestK), in a
// list of CAP_SLOTS entries that every loop walks with constant indices, so that a driver keeps it
// in registers (indexed by a variable, llvmpipe kept 32 entries in memory: 30-40x the plain step).
// Its first CAP_SLOTS - k entries hold d2 = -1, before every neighbour, and never move; the last k
// hold the k nearest found so far, empty ones d2 = +inf; both kinds have the id 0xFFFFFFFF, which
// no boid has. A candidate is offered only when it comes before the last entry, which turns most
// of them away.
struct NearestK {
    float d2[CAP_SLOTS];
    uint id[CAP_SLOTS];
    uint slot[CAP_SLOTS];
};

bool keyBefore(float d2, uint id, float e2, uint eid) { return d2 < e2 || (d2 == e2 && id < eid); }

NearestK noNearest(uint k) {
    NearestK c;
    for (int i = 0; i < CAP_SLOTS; ++i) {
        c.d2[i] = uint(i) + k < uint(CAP_SLOTS) ? -1.0 : uintBitsToFloat(0x7F800000u);
        c.id[i] = 0xFFFFFFFFu;
        c.slot[i] = 0u;
    }
    return c;
}

bool admits(NearestK c, float d2, uint id) { return !keyBefore(c.d2[CAP_SLOTS - 1], c.id[CAP_SLOTS - 1], d2, id); }

void offer(inout NearestK c, float d2, uint id, uint slot) {
    if (!keyBefore(d2, id, c.d2[CAP_SLOTS - 1], c.id[CAP_SLOTS - 1])) return;
    for (int i = CAP_SLOTS - 1; i > 0; --i) {  // from the end: entry i - 1 moves up, or the new one lands at i
        bool up = keyBefore(d2, id, c.d2[i - 1], c.id[i - 1]);
        bool here = !up && keyBefore(d2, id, c.d2[i], c.id[i]);
        if (up) {
            c.d2[i] = c.d2[i - 1];
            c.id[i] = c.id[i - 1];
            c.slot[i] = c.slot[i - 1];
        } else if (here) {
            c.d2[i] = d2;
            c.id[i] = id;
            c.slot[i] = slot;
        }
    }
    if (keyBefore(d2, id, c.d2[0], c.id[0])) {
        c.d2[0] = d2;
        c.id[0] = id;
        c.slot[0] = slot;
    }
}
#endif

// What gather() builds: the sums, and what the first sweep finds for the second.
struct Sweep {
    GATHER_SUMS sums;
#if NEIGHBOUR_CAP
    NearestK cap;
#endif
    uint seen;  // every neighbour of the summing sweep (a cap keeps k of them): the adaptive radius' count
};

// With a style's own search, sweep 0 finds the cap's k nearest and offers each neighbour to the
// search; sweep 1 sums (only the k nearest) and offers again. Otherwise one sweep: it sums, or,
// with a neighbour cap, finds the k nearest, which gather() then sums nearest first.
#if OWN_SEARCH
#define FIRST_SWEEP 0
#else
#define FIRST_SWEEP 1
#endif
#define CAP_ALONE (NEIGHBOUR_CAP && !OWN_SEARCH)

// One candidate at offset d (d2 = |d|^2) in one sweep (the body of gather's loops in
// src/cpu/flock_step.hpp).
void visitAt(SpeciesBlock S, Self self, int sweep, uint j, vec3 d, float d2, inout Sweep w) {
    if (j == self.slot || !isNeighbourAt(S, self, j, d, d2)) return;
    if (sweep == 1) ++w.seen;
    uint jid = idAt(j);
#if OWN_SEARCH
    if (sweep == 0) offerFirst(S, self, j, jid, d2);
#endif
#if CAP_ALONE
    if (sweep == 1) offer(w.cap, d2, jid, j);
#else
#if NEIGHBOUR_CAP
    if (sweep == 0) offer(w.cap, d2, jid, j);
    if (sweep == 1 && admits(w.cap, d2, jid))
#else
    if (sweep == 1)
#endif
        addNeighbour(S, self, j, jid, d, d2, w.sums);
#endif
#if OWN_SEARCH
    if (sweep == 1) offerSecond(S, self, j, jid, d2);
#endif
}

void visit(SpeciesBlock S, Self self, int sweep, uint j, inout Sweep w) {
    vec3 d = offsetBetween(self.p, posAt(j));
    visitAt(S, self, sweep, j, d, dot(d, d), w);
}

#if !UPDATE_SEQUENTIAL
#ifdef MEASURE_IN_STEER
// A sampled step (MEASURE_IN_STEER): the walk of the last sweep also does flock_measure.comp's
// walk (near_walk.glsl) over the state this step starts from, the state being sampled, finding
// what that walk finds in the grid's order, its reach being within this one.
#define MEASURE_ONLY 2  // a sweep that only measures (a boid that does not gather this step)
#endif

// What a sweep over the cells around self carries (cell_walk.glsl hands it each candidate).
struct WalkState {
    SpeciesBlock S;
    Self self;
    int sweep;
    Sweep w;
#ifdef MEASURE_IN_STEER
    NearWalk m;
#endif
};

#ifdef MEASURE_IN_STEER
NearWalk g_near;  // what the sampled step's walk found for the boid it steps

void visitCandidate(inout WalkState g, uint j) {
    vec3 d = offsetBetween(g.self.p, posAt(j));
    float d2 = dot(d, d);
    if (g.sweep >= 1) visitNear(g.m, j, d2);
    if (g.sweep <= 1) visitAt(g.S, g.self, g.sweep, j, d, d2, g.w);
}
#else
void visitCandidate(inout WalkState g, uint j) { visit(g.S, g.self, g.sweep, j, g.w); }
#endif

#include "cell_walk.glsl"
#endif

// How far self sees, squared: its look radius, and within its own radius when adaptive.
float seenWithin2(SpeciesBlock S, Self self) {
#if ADAPTIVE_REACH
    return min(LOOK_R2(S), self.reach2);
#else
    return LOOK_R2(S);
#endif
}

// Every candidate in the cells around self, in each sweep (gather in src/cpu/flock_step.hpp).
Sweep gather(SpeciesBlock S, Self self) {
    Sweep w;
    w.sums = noStyleSums();
    w.seen = 0u;
#if NEIGHBOUR_CAP
    w.cap = noNearest(NEIGHBOUR_CAP_K);
#endif
#if OWN_SEARCH
    startSearch();
#endif
#if UPDATE_SEQUENTIAL
    // The boids move during a sequential step: every one is a candidate (no grid).
    for (int sweep = FIRST_SWEEP; sweep < 2; ++sweep)
        for (uint j = FIRST_SLOT; j < FIRST_SLOT + BOIDS; ++j) visit(S, self, sweep, j, w);
#else
    WalkState g;
    g.S = S;
    g.self = self;
    g.w = w;
#ifdef MEASURE_IN_STEER
    g.m = startNear();
    float reach2 = max(seenWithin2(S, self), nearReach2(g.m));  // the same candidates in reach, in the same order
    for (g.sweep = FIRST_SWEEP; g.sweep < 2; ++g.sweep) walkCells(self.slot, self.p, reach2, g);
    g_near = g.m;
#else
    for (g.sweep = FIRST_SWEEP; g.sweep < 2; ++g.sweep) walkCells(self.slot, self.p, seenWithin2(S, self), g);
#endif
    w = g.w;
#endif
#if CAP_ALONE
    for (int i = 0; i < CAP_SLOTS; ++i) {  // the k nearest, nearest first
        uint j = w.cap.slot[i];
        if (w.cap.id[i] != 0xFFFFFFFFu)  // not a fixed or empty entry
            addNeighbour(S, self, j, w.cap.id[i], offsetBetween(self.p, posAt(j)), w.cap.d2[i], w.sums);
    }
#endif
    return w;
}

#ifdef MEASURE_IN_STEER
// The measure walk alone, for a boid that does not gather this step (on the ground, coasting).
void measureOnly(SpeciesBlock S, Self self) {
    WalkState g;
    g.S = S;
    g.self = self;
    g.sweep = MEASURE_ONLY;
    g.m = startNear();
    if (nearReach2(g.m) > 0.0) walkCells(self.slot, self.p, nearReach2(g.m), g);
    g_near = g.m;
}
#endif

