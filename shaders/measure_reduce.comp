#version 430
// After flock_measure.comp: its per-work-group pairs of partial sums added up on the GPU, so a
// sample reads back two vec4 (and the histogram) whatever the flock's size. One work group: each
// invocation adds a strided share in order, then a tree in shared memory, the same order every
// time. The totals go after the partials, at 2 * u_partials. After an all-flocks pass
// (slices.glsl), work group k (counted across dispatch rows) adds up flock k's partials, in the
// same order as alone, and puts its totals at 2 * (u_partials + k).
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_MEASURE_SUMS) buffer Sums { vec4 sums[]; };

uniform uint u_partials;  // work groups flock_measure.comp wrote
#if ENSEMBLE
uniform uint u_flock;  // ALL_FLOCKS (slices.glsl's value): one work group a flock
#endif

shared vec4 s_heading[STEP_GROUP_SIZE];
shared vec4 s_other[STEP_GROUP_SIZE];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint first = 0u, count = u_partials, out_at = u_partials;
#if ENSEMBLE
    if (u_flock == 0xFFFFFFFFu) {
        g_flock = flatGroup();  // dispatched in rows
        if (g_flock >= FLOCK_COUNT) return;  // a row's padding (the whole work group)
        first = FLOCK_FIRST_GROUP(g_flock);
        count = (BOIDS + uint(STEP_GROUP_SIZE) - 1u) / uint(STEP_GROUP_SIZE);
        out_at = u_partials + g_flock;
    }
#endif
    vec4 heading = vec4(0.0), other = vec4(0.0);
    for (uint g = lid; g < count; g += uint(STEP_GROUP_SIZE)) {
        heading += sums[2u * (first + g)];
        other += sums[2u * (first + g) + 1u];
    }
    s_heading[lid] = heading;
    s_other[lid] = other;
    barrier();
    for (uint stride = STEP_GROUP_SIZE / 2u; stride > 0u; stride >>= 1u) {
        if (lid < stride) {
            s_heading[lid] += s_heading[lid + stride];
            s_other[lid] += s_other[lid + stride];
        }
        barrier();
    }
    if (lid == 0u) {
        sums[2u * out_at] = s_heading[0];
        sums[2u * out_at + 1u] = s_other[0];
    }
}
