#version 430
// Order parameters on the GPU (measureFlock in src/cpu/order_params.cpp is the reference): per
// boid its unit velocity, speed, neighbour count and nearest-neighbour distance within
// u_nn_radius over the cells around it, summed per work group in shared memory; one pair of
// vec4 partial sums per group goes out (GpuSimulation::measure adds them up), plus a histogram of
// the nearest-neighbour distances. The same dispatch starts the groups' union-find forest
// (groups.glsl; every slot a root when the sample began): each boid is linked to the first
// two boids it finds closer than u_group_radius (0: none); group_giant.comp and group_links.comp
// link the rest. Reads the sorted copy the binning passes just wrote.
// NEAREST_STORED (a sample taken in the next step, GpuSimulation::requestSample with the next step): that
// step's steer pass did the walk (flock_steer.comp with MEASURE_IN_STEER), so this pass reads
// each slot's squared nearest distance instead, the links already made.
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
layout(std430, binding = BIND_NEIGHBOURS) readonly buffer Neighbours { uint neighbours[]; };
layout(std430, binding = BIND_MEASURE_SUMS) writeonly buffer Sums { vec4 sums[]; };
layout(std430, binding = BIND_MEASURE_HIST) buffer Histogram { uint histogram[]; };

#ifdef NEAREST_STORED
#define MEASURE_ENTRIES SUM_LANES  // one a lane
#else
#define MEASURE_ENTRIES STEP_GROUP_SIZE  // one a boid
#endif
shared vec4 s_heading[MEASURE_ENTRIES];  // xyz unit velocity, w 1 if moving
shared vec4 s_other[MEASURE_ENTRIES];    // x speed, y nearest distance, z neighbours, w speed / 2^64
shared uint s_histogram[NN_BINS + 1];

#include "measure_radii.glsl"
#include "near_walk.glsl"

#ifdef NEAREST_STORED
layout(std430, binding = BIND_MEASURE_NEAREST) readonly buffer Nearest { float nearest[]; };
float walkNeighbours(uint i, vec3 p) { return nearest[i]; }
#else
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

// The work group's pair of partial sums out, from the first SUM_LANES entries of the shared
// arrays (SUM_LEVEL_TWO's order; an all-flocks pass: each flock's partials after the flocks'
// before it).
void writePartials(uint lid) {
    if (lid == 0u && measuredLocalGroup() * uint(STEP_GROUP_SIZE) < BOIDS) {  // not a split dispatch's padding
        SUM_LEVEL_TWO(s_heading);
        SUM_LEVEL_TWO(s_other);
        uint group = sliceGroup();
        sums[2u * group] = s_heading[0];
        sums[2u * group + 1u] = s_other[0];
    }
}

// Boid i's share: its unit velocity (w 1 if moving) and its speed, nearest distance and
// neighbour count, its nearest distance into the work group's histogram.
void measureBoid(uint i, out vec4 heading, out vec4 other) {
    heading = vec4(0.0);
    other = vec4(0.0);
    if (!inMeasuredFlock(i)) return;
    vec3 v = velAt(i);
    float speed = safeLength(v);
    if (speed > 0.0) heading = vec4(v / speed, 1.0);
    // "None within the radius" decided on the squared distance, as the CPU does (a driver's
    // sqrt need not be correctly rounded).
    float r = nnRadius(), nn = 0.0;
    float best = r > 0.0 || groupRadius() > 0.0 ? walkNeighbours(i, posAt(i)) : 0.0;
    if (r > 0.0) {
        bool found = best < r * r;
        nn = found ? sqrt(best) : r;
        atomicAdd(s_histogram[found ? min(uint(nn / r * float(NN_BINS)), uint(NN_BINS - 1)) : uint(NN_BINS)], 1u);
    }
    // w: the speed over 2^64, exactly, whose sum stays finite where the speeds' own overflows
    // (300 boids at 8e37); the mean is read from it then (sampler_read.cpp).
    other = vec4(speed, nn, float(neighbours[i]), ldexp(speed, -64));
}

#ifdef NEAREST_STORED
void main() {
    uint lane = gl_LocalInvocationID.x;
    for (uint b = lane; b <= uint(NN_BINS); b += SUM_LANES) s_histogram[b] = 0u;
    barrier();
    uint first = measuredSlot() - lane;  // the work group's first boid (and, in an ensemble, its flock)
    vec4 heading = vec4(0.0), other = vec4(0.0);
    for (uint k = 0u; k < SUM_LANE_BOIDS; ++k) {
        vec4 h, o;
        measureBoid(laneBoid(first, lane, k), h, o);
        heading = laneSum(heading, h, k);
        other = laneSum(other, o, k);
    }
    s_heading[lane] = heading;
    s_other[lane] = other;
    barrier();
    writePartials(lane);
    uint bins = measuredFlockIndex() * uint(NN_BINS + 1);
    for (uint b = lane; b <= uint(NN_BINS); b += SUM_LANES)
        if (s_histogram[b] > 0u) atomicAdd(histogram[bins + b], s_histogram[b]);
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
