#version 430
// Group measures, pass 5: each boid's r̂ × v̂ about its group's centre (the root plus the mean
// offset from it) added to the root's spin sum; a work group's boids of its first boid's group
// summed first (in registers, then in shared memory), with group_sums.comp's layout: SUM_LANES
// invocations, each taking sixteen boids.
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"
#include "work_group_sum.glsl"

layout(local_size_x = 16) in;  // SUM_LANES

shared vec4 s_spin[SUM_LANES];

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
    uint lane = gl_LocalInvocationID.x;
    uint first = measuredSlot() - lane;  // the work group's first boid (and, in an ensemble, its flock)
    // Each tree was flattened by group_sums.comp, but a path halving there may have overwritten a
    // slot's root with an ancestor after its own invocation wrote it: the root found again (a
    // read or two on a flattened tree).
    uint first_root = inMeasuredFlock(first) ? findRoot(first) : NO_SLOT;
    vec4 spins = vec4(0.0);
    for (uint k = 0u; k < SUM_LANE_BOIDS; ++k) {
        uint i = laneBoid(first, lane, k);
        bool live = inMeasuredFlock(i);
        uint root = live ? findRoot(i) : NO_SLOT;
        vec3 spin = live ? spinOf(i, root) : vec3(0.0);
        bool together = live && root == first_root;
        vec4 entry = together ? vec4(spin, 0.0) : vec4(0.0);
        spins = laneSum(spins, entry, k);
        if (live && !together) addSpin(root, spin);
    }
    s_spin[lane] = spins;
    barrier();
    if (lane == 0u && first_root != NO_SLOT) {
        SUM_LEVEL_TWO(s_spin);
        addSpin(first_root, s_spin[0].xyz);
    }
}
