// The radii of the measure walks (measure_walk.glsl's passes, and a sampled step's steer pass):
// the nearest-neighbour radius and the group radius (groups.glsl's u_group_radius) of the measured
// flock: one flock's uniforms, or in an all-flocks pass (slices.glsl) each flock's from the table.
#ifndef MURMUR_MEASURE_RADII_GLSL
#define MURMUR_MEASURE_RADII_GLSL

uniform float u_nn_radius;

float nnRadius() {
#if ENSEMBLE
    if (allFlocks()) return FLOCK_NN_RADIUS(g_flock);
#endif
    return u_nn_radius;
}
float groupRadius() {
#if ENSEMBLE
    if (allFlocks()) return FLOCK_GROUP_RADIUS(g_flock);
#endif
    return u_group_radius;
}

#endif
