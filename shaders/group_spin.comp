#version 430
// Group measures, pass 5: each boid's r̂ × v̂ about its group's centre (the root plus the mean
// offset from it) added to the root's spin sum; a work group's boids of its first invocation's
// group summed in shared memory first, as in group_sums.comp.
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"
#include "work_group_sum.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

shared uint s_root;
shared vec4 s_spin[STEP_GROUP_SIZE];

vec3 spinOf(uint i, uint root) {
    uint at = root * SUM_STRIDE;
    float count = float(group_sums[at + SUM_COUNT]);
    vec3 mean_offset = fixedVec3(at + SUM_OFFSET) / count;
    vec3 r = offsetBetween(posAt(root), posAt(i)) - mean_offset;
    float len = length(r);
    if (!(len > 0.0)) return vec3(0.0);
    vec3 spin = cross(r / len, unitOf(velAt(i)));
#if DIMS == 2
    spin = vec3(0.0, 0.0, spin.z);
#endif
    return spin;
}

void addSpin(uint root, vec3 spin) {
    for (uint k = 0u; k < 3u; ++k) addFixed(root * SUM_STRIDE + SUM_SPIN + 2u * k, spin[k]);
}

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint i = measuredSlot();
    bool live = inMeasuredFlock(i);
    uint root = live ? parent[i] : 0xFFFFFFFFu;
    vec3 spin = live ? spinOf(i, root) : vec3(0.0);
    if (lid == 0u) s_root = root;
    barrier();
    bool together = live && root == s_root;
    s_spin[lid] = together ? vec4(spin, 0.0) : vec4(0.0);
    barrier();
    SUM_LEVEL_ONE(s_spin, lid);
    barrier();
    if (lid == 0u && live) {
        SUM_LEVEL_TWO(s_spin);
        addSpin(root, s_spin[0].xyz);
    }
    if (live && !together) addSpin(root, spin);
}
