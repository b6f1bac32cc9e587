#version 430
// Group measures, pass 4: each boid's tree flattened to its root, and its share added to the
// root's sums: its offset from the root (minimum image), 1 to the count, its unit velocity. The
// boids of a work group are neighbours in the sorted copy and mostly of one group: those of the
// first invocation's group are summed in shared memory and added once; the others add their own.
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"
#include "work_group_sum.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

shared uint s_root;
shared vec4 s_offset[STEP_GROUP_SIZE];   // xyz offset from the root, w 1 (the count)
shared vec4 s_heading[STEP_GROUP_SIZE];  // xyz unit velocity

void addToRoot(uint root, vec3 d, vec3 h, uint count) {
    uint at = root * SUM_STRIDE;
    for (uint k = 0u; k < 3u; ++k) {
        addFixed(at + SUM_OFFSET + 2u * k, d[k]);
        addFixed(at + SUM_HEADING + 2u * k, h[k]);
    }
    atomicAdd(group_sums[at + SUM_COUNT], count);
}

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint i = measuredSlot();
    bool live = inMeasuredFlock(i);
    uint root = 0xFFFFFFFFu;
    vec3 d = vec3(0.0), h = vec3(0.0);
    if (live) {
        root = findRoot(i);
        parent[i] = root;
        d = offsetBetween(posAt(root), posAt(i));
        h = unitOf(velAt(i));
    }
    if (lid == 0u) s_root = root;
    barrier();
    bool together = live && root == s_root;
    s_offset[lid] = together ? vec4(d, 1.0) : vec4(0.0);
    s_heading[lid] = together ? vec4(h, 0.0) : vec4(0.0);
    barrier();
    SUM_LEVEL_ONE(s_offset, lid);
    SUM_LEVEL_ONE(s_heading, lid);
    barrier();
    if (lid == 0u && live) {
        SUM_LEVEL_TWO(s_offset);
        SUM_LEVEL_TWO(s_heading);
        addToRoot(root, s_offset[0].xyz, s_heading[0].xyz, uint(s_offset[0].w));
    }
    if (live && !together) addToRoot(root, d, h, 1u);
}
