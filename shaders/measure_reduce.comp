#version 430
// After flock_measure.comp: its per-work-group pairs of partial sums added up on the GPU, so a
// sample reads back two vec4 (and the histogram) whatever the flock's size. One work group: each
// invocation adds a strided share in order, then a tree in shared memory, the same order every
// time. The totals go after the partials, at 2 * u_partials.
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_MEASURE_SUMS) buffer Sums { vec4 sums[]; };

uniform uint u_partials;  // work groups flock_measure.comp wrote

shared vec4 s_heading[STEP_GROUP_SIZE];
shared vec4 s_other[STEP_GROUP_SIZE];

void main() {
    uint lid = gl_LocalInvocationID.x;
    vec4 heading = vec4(0.0), other = vec4(0.0);
    for (uint g = lid; g < u_partials; g += uint(STEP_GROUP_SIZE)) {
        heading += sums[2u * g];
        other += sums[2u * g + 1u];
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
        sums[2u * u_partials] = s_heading[0];
        sums[2u * u_partials + 1u] = s_other[0];
    }
}
