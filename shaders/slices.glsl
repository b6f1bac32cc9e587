// Passes that may run in slices of work groups (the steer pass of a slow step, a sample spread
// over frames): u_first_group is this dispatch's first work group in the whole pass (0 when the
// pass is one dispatch).
#ifndef MURMUR_SLICES_GLSL
#define MURMUR_SLICES_GLSL

uniform uint u_first_group;
#ifndef SLICE_GROUP_SIZE
#define SLICE_GROUP_SIZE STEP_GROUP_SIZE  // boids a work group (the tiled steer pass's fewer)
#endif

// This invocation's work group and boid slot in the whole pass.
uint sliceGroup() { return flatGroup() + u_first_group; }
uint sliceIndex() { return sliceGroup() * uint(SLICE_GROUP_SIZE) + gl_LocalInvocationID.x; }

// The measure passes go over one flock's slots: an ensemble's flock u_flock (its work groups
// counted from its first slot, as when it is alone), or the one flock; or, with u_flock
// ALL_FLOCKS, over every flock of an ensemble at once, each flock's boids in work groups of
// their own laid one flock after another (FLOCK_FIRST_GROUP), each group as it is alone.
#define ALL_FLOCKS 0xFFFFFFFFu
#if ENSEMBLE
uniform uint u_flock;
bool allFlocks() { return u_flock == ALL_FLOCKS; }
// The flock work group g of an all-flocks pass belongs to: the last whose first group is at most g.
uint flockOfGroup(uint g) {
    uint lo = 0u, hi = FLOCK_COUNT - 1u;
    while (lo < hi) {
        uint mid = (lo + hi + 1u) / 2u;
        if (FLOCK_FIRST_GROUP(mid) <= g) lo = mid; else hi = mid - 1u;
    }
    return lo;
}
#else
bool allFlocks() { return false; }
#endif
// This work group's index within its flock's own groups (as when the flock is alone).
uint measuredLocalGroup() {
#if ENSEMBLE
    if (allFlocks()) return sliceGroup() - FLOCK_FIRST_GROUP(g_flock);
#endif
    return sliceGroup();
}
uint measuredSlot() {
#if ENSEMBLE
    g_flock = allFlocks() ? flockOfGroup(sliceGroup()) : u_flock;
#endif
    return FIRST_SLOT + measuredLocalGroup() * uint(STEP_GROUP_SIZE) + gl_LocalInvocationID.x;
}
bool inMeasuredFlock(uint i) { return i < FIRST_SLOT + BOIDS; }
// Where the measured flock's figures go among an all-flocks pass's (0 for one flock).
uint measuredFlockIndex() {
#if ENSEMBLE
    if (allFlocks()) return g_flock;
#endif
    return 0u;
}

#endif
