// The neighbour search of flock_steer.comp (gather in src/cpu/flock_step.hpp): the neighbour
// cap's k nearest, then every candidate in the grid cells around a boid (or, in the sequential
// order, every boid) in one or two sweeps, handed to the style's addNeighbour (and its search).

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
};

// With a neighbour cap or a style's own search, sweep 0 finds the k nearest and offers each
// neighbour to the search; sweep 1 sums (only the k nearest) and offers again; otherwise one
// summing sweep.
#if NEIGHBOUR_CAP || OWN_SEARCH
#define FIRST_SWEEP 0
#else
#define FIRST_SWEEP 1
#endif

// One candidate at offset d (d2 = |d|^2) in one sweep (the body of gather's loops in
// src/cpu/flock_step.hpp).
void visitAt(SpeciesBlock S, Self self, int sweep, uint j, vec3 d, float d2, inout Sweep w) {
    if (j == self.slot || !isNeighbourAt(S, self, j, d, d2)) return;
    uint jid = idAt(j);
#if OWN_SEARCH
    if (sweep == 0) offerFirst(S, self, j, jid, d2);
#endif
#if NEIGHBOUR_CAP
    if (sweep == 0) offer(w.cap, d2, jid, NEIGHBOUR_CAP_K);
    if (sweep == 1 && admits(w.cap, d2, jid, NEIGHBOUR_CAP_K))
#else
    if (sweep == 1)
#endif
        addNeighbour(S, self, j, jid, d, d2, w.sums);
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

// Every candidate in the cells around self, in each sweep (gather in src/cpu/flock_step.hpp).
Sweep gather(SpeciesBlock S, Self self) {
    Sweep w;
    w.sums = noNeighbours();
#if NEIGHBOUR_CAP
    w.cap.n = 0u;
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
    float reach2 = max(LOOK_R2(S), nearReach2(g.m));  // the same candidates in reach, in the same order
    for (g.sweep = FIRST_SWEEP; g.sweep < 2; ++g.sweep) walkCells(self.slot, self.p, reach2, g);
    g_near = g.m;
#else
    for (g.sweep = FIRST_SWEEP; g.sweep < 2; ++g.sweep) walkCells(self.slot, self.p, LOOK_R2(S), g);
#endif
    w = g.w;
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

