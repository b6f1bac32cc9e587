#version 430
// Group measures, pass 4: each root of a group of at least MIN_GROUP_SIZE boids adds its count,
// |heading sum| and |spin sum| to the flock's totals (the only thing read back: 32 bytes).
#include "common.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

uniform uint u_min_group;

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= BOIDS || parent[i] != i) return;
    uint at = i * SUM_STRIDE;
    uint count = group_sums[at + SUM_COUNT];
    if (count < u_min_group) return;
    vec3 heading = vec3(uintBitsToFloat(group_sums[at + SUM_HEADING]), uintBitsToFloat(group_sums[at + SUM_HEADING + 1u]),
                        uintBitsToFloat(group_sums[at + SUM_HEADING + 2u]));
    vec3 spin = vec3(uintBitsToFloat(group_sums[at + SUM_SPIN]), uintBitsToFloat(group_sums[at + SUM_SPIN + 1u]),
                     uintBitsToFloat(group_sums[at + SUM_SPIN + 2u]));
    atomicAdd(totals[0], 1u);
    atomicAdd(totals[1], count);
    atomicMax(totals[2], count);
    addTotal(4u, length(heading));
    addTotal(5u, length(spin));
}
