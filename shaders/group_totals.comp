#version 430
// Group measures, pass 6: each root of a group of at least MIN_GROUP_SIZE boids adds its count,
// |heading sum| and |spin sum| to the flock's totals (read back: 32 bytes a flock), and lists its
// slot for group_largest.comp.
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_GROUP_LIST) writeonly buffer GroupList { uint group_list[]; };

uniform uint u_min_group;

void main() {
    uint i = measuredSlot();
    if (!inMeasuredFlock(i) || !isRoot(i)) return;
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
