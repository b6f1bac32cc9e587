#version 430
// Group measures, pass 6: each root group_sums.comp listed, of a group of at least
// MIN_GROUP_SIZE boids, adds its count, |heading sum| and |spin sum| to its flock's totals (read
// back: 32 bytes a flock), and lists its slot for group_largest.comp. Dispatched indirectly, a
// work group per STEP_GROUP_SIZE roots (groups.glsl): a dense flock's few roots cost a few work
// groups, not one a STEP_GROUP_SIZE boids.
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_GROUP_LIST) writeonly buffer GroupList { uint group_list[]; };

uniform uint u_min_group;

void addToTotals(uint i) {
#if ENSEMBLE
    if (allFlocks()) selectFlockOfSlot(i);
    else g_flock = u_flock;
#endif
    uint at = i * SUM_STRIDE;
    uint count = group_sums[at + SUM_COUNT];
    if (count < u_min_group) return;
    vec3 heading = fixedVec3(at + SUM_HEADING), spin = fixedVec3(at + SUM_SPIN);
    uint base = measuredFlockIndex() * TOTALS_STRIDE;
    group_list[FIRST_SLOT + atomicAdd(totals[base], 1u)] = i;
    atomicAdd(totals[base + 1u], count);
    atomicMax(totals[base + 2u], count);
    addFixedTotal(base + 4u, length(heading));
    addFixedTotal(base + 6u, length(spin));
}

void main() {
    uint stride = gl_NumWorkGroups.x * uint(STEP_GROUP_SIZE);
    for (uint t = gl_GlobalInvocationID.x; t < root_count; t += stride) addToTotals(roots[t]);
}
