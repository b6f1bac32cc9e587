#version 430
// Order parameters on the GPU (measureFlock in src/cpu/order_params.cpp is the reference): per
// boid its unit velocity, speed, neighbour count and nearest-neighbour distance within
// u_nn_radius over the cells around it, summed per work group in shared memory; one pair of
// vec4 partial sums per group goes out (GpuSimulation::measure adds them up), plus a histogram of
// the nearest-neighbour distances. The same dispatch starts the groups' union-find forest
// (groups.glsl; every slot its own root when the sample began): each boid is linked to the first
// two boids it finds closer than u_group_radius (0: none); group_giant.comp and group_links.comp
// link the rest. Reads the sorted copy the binning passes just wrote.
// NEAREST_STORED (a sample taken in the next step, GpuSimulation::measureWithNextStep): that
// step's steer pass did the walk (flock_steer.comp with MEASURE_IN_STEER), so this pass reads
// each slot's squared nearest distance instead, the links already made; where the groups are
// measured on the GPU, group_sums.comp takes these measures instead (boid_measures.glsl), and
// this pass does not run.
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"
#include "work_group_sum.glsl"

#ifdef NEAREST_STORED
// No walk here: SUM_LANES invocations a work group, each taking sixteen of its STEP_GROUP_SIZE
// boids (lane l the boids l, l + 16, ...) and summing them in registers, which is the same
// order of additions as the first level of SUM_LEVEL_ONE's (so the same bits as a work group of
// one invocation a boid), with sixteen times fewer shared-memory writes: on llvmpipe those are
// most of a reduction's cost (a sample at 2x10^5 boids: about 6 of this pass's 7.5 ms).
layout(local_size_x = 16) in;
#else
layout(local_size_x = STEP_GROUP_SIZE) in;
#endif
#include "measure_radii.glsl"
#include "near_walk.glsl"

#ifndef NEAREST_STORED
// What the walk carries: the walking boid's position and what near_walk.glsl keeps.
struct WalkState {
    vec3 p;
    NearWalk m;
};

void visitNear(inout WalkState w, uint j, float d2) { visitNear(w.m, j, d2); }

#include "measure_walk.glsl"

// One walk for both searches (near_walk.glsl); then boid i linked to the two boids it found.
float walkNeighbours(uint i, vec3 p) {
    WalkState w;
    w.p = p;
    w.m = startNear();
    walkCells(i, p, nearReach2(w.m), w);
    linkNear(i, w.m);
    return w.m.best;
}
#endif

#include "boid_measures.glsl"

#ifdef NEAREST_STORED
void main() {
    uint lane = gl_LocalInvocationID.x;
    clearHistogram(lane);
    barrier();
    uint first = measuredSlot() - lane;  // the work group's first boid (and, in an ensemble, its flock)
    vec4 heading = vec4(0.0), other = vec4(0.0);
    for (uint k = 0u; k < SUM_LANE_BOIDS; ++k) measureLaneBoid(laneBoid(first, lane, k), k, heading, other);
    s_heading[lane] = heading;
    s_other[lane] = other;
    barrier();
    writePartials(lane);
    addHistogram(lane);
}
#else
void main() {
    uint lid = gl_LocalInvocationID.x;
    if (lid <= uint(NN_BINS)) s_histogram[lid] = 0u;
    barrier();
    uint i = measuredSlot();
    vec4 heading, other;
    measureBoid(i, heading, other);
    s_heading[lid] = heading;
    s_other[lid] = other;
    barrier();
    SUM_LEVEL_ONE(s_heading, lid);
    SUM_LEVEL_ONE(s_other, lid);
    barrier();
    writePartials(lid);
    uint bins = measuredFlockIndex() * uint(NN_BINS + 1);
    if (lid <= uint(NN_BINS) && s_histogram[lid] > 0u) atomicAdd(histogram[bins + lid], s_histogram[lid]);
}
#endif
