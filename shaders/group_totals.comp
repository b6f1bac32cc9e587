#version 430
// Group measures, pass 4: each root of a group of at least MIN_GROUP_SIZE boids adds its count,
// |heading sum| and |spin sum| to the flock's totals (the only thing read back: 32 bytes a flock).
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

uniform uint u_min_group;

void main() {
    uint i = measuredSlot();
    if (!inMeasuredFlock(i) || parent[i] != i) return;
    uint at = i * SUM_STRIDE;
    uint count = group_sums[at + SUM_COUNT];
    if (count < u_min_group) return;
    vec3 heading = fixedVec3(at + SUM_HEADING), spin = fixedVec3(at + SUM_SPIN);
    uint base = measuredFlockIndex() * TOTALS_STRIDE;
    atomicAdd(totals[base], 1u);
    atomicAdd(totals[base + 1u], count);
    atomicMax(totals[base + 2u], count);
    addFixedTotal(base + 4u, length(heading));
    addFixedTotal(base + 6u, length(spin));
}
