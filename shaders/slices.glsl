// Passes that may run in slices of work groups (the steer pass of a slow step, a sample spread
// over frames): u_first_group is this dispatch's first work group in the whole pass (0 when the
// pass is one dispatch).
#ifndef MURMUR_SLICES_GLSL
#define MURMUR_SLICES_GLSL

uniform uint u_first_group;

// This invocation's work group and boid slot in the whole pass.
uint sliceGroup() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x + u_first_group; }
uint sliceIndex() { return sliceGroup() * uint(STEP_GROUP_SIZE) + gl_LocalInvocationID.x; }

// The measure passes go over one flock's slots: an ensemble's flock u_flock (its work groups
// counted from its first slot, as when it is alone), or the one flock.
#if ENSEMBLE
uniform uint u_flock;
#endif
uint measuredSlot() {
#if ENSEMBLE
    g_flock = u_flock;
#endif
    return FIRST_SLOT + sliceIndex();
}
bool inMeasuredFlock(uint i) { return i < FIRST_SLOT + BOIDS; }

#endif
