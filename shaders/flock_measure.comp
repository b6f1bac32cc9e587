#version 430
// Order parameters on the GPU (measureFlock in src/cpu/order_params.cpp is the reference): per
// boid its unit velocity, speed, neighbour count and nearest-neighbour distance within
// u_nn_radius over the cells around it, summed per work group in shared memory; one pair of
// vec4 partial sums per group goes out (GpuSimulation::measure adds them up), plus a histogram of
// the nearest-neighbour distances. The same dispatch links every pair closer than
// u_group_radius (0: none) in the groups' union-find forest (groups.glsl; group_init.comp made
// every slot its own root). Reads the sorted copy the binning passes just wrote.
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_NEIGHBOURS) readonly buffer Neighbours { uint neighbours[]; };
layout(std430, binding = BIND_MEASURE_SUMS) writeonly buffer Sums { vec4 sums[]; };
layout(std430, binding = BIND_MEASURE_HIST) buffer Histogram { uint histogram[]; };

uniform float u_nn_radius;  // one flock's; an all-flocks pass reads each flock's from the table

// The measured flock's radii (slices.glsl: one flock, or this work group's in an all-flocks pass).
float nnRadius() {
#if ENSEMBLE
    if (allFlocks()) return FLOCK_NN_RADIUS(g_flock);
#endif
    return u_nn_radius;
}
float groupRadius() {
#if ENSEMBLE
    if (allFlocks()) return FLOCK_GROUP_RADIUS(g_flock);
#endif
    return u_group_radius;
}

shared vec4 s_heading[STEP_GROUP_SIZE];  // xyz unit velocity, w 1 if moving
shared vec4 s_other[STEP_GROUP_SIZE];    // x speed, y nearest distance, z neighbours
shared uint s_histogram[NN_BINS + 1];

// One walk over the cells around boid i at p for both searches: the squared distance to the
// nearest other boid within the nearest-neighbour radius (the radius squared when none is
// nearer), and, with a group radius, a link to every later slot closer than that (each pair
// once). Rows and x cells beyond the larger radius are skipped as the steer pass's gather skips
// them (cellCull: only boids that can be neither are left out), so the answers are the full
// walk's to the bit.
float walkNeighbours(uint i, vec3 p) {
    float nn2 = nnRadius() * nnRadius(), link2 = groupRadius() * groupRadius(), best = nn2;
    uint root = i;  // a slot of i's tree, carried from link to link: the next find starts near the top
    uvec3 c = cellOf(p);
    AxisCells ax = axisCells(c.x, CELLS_PER_AXIS.x), ay = axisCells(c.y, CELLS_PER_AXIS.y);
    AxisCells az = DIMS == 3 ? axisCells(c.z, CELLS_PER_AXIS.z) : AxisCells(0, 1, 1);
    CellCull cull = cellCull(p, c);
    float reach2 = max(nn2, link2) * (1.0 + 2.0 * CULL_SLACK);
    for (int iz = 0; iz < az.count; ++iz) {
        float gz2 = DIMS == 3 ? axisGap2(cull, 2, az.first + iz - int(c.z)) : 0.0;
        for (int iy = 0; iy < ay.count; ++iy) {
            float rem2 = reach2 - gz2 - axisGap2(cull, 1, ay.first + iy - int(c.y));
            if (!(rem2 > 0.0)) continue;
            uint row = FIRST_CELL + (listedCell(az, iz) * CELLS_PER_AXIS.y + listedCell(ay, iy)) * CELLS_PER_AXIS.x;
            ivec4 runs = xRuns(narrowedX(ax, cull, c.x, rem2));
            for (int r = 0; r < 2; ++r) {
                ivec2 run = r == 0 ? runs.xy : runs.zw;
                if (run.x > run.y) continue;
                uint end = cellEnd(row + uint(run.y));
                for (uint j = cellStart(row + uint(run.x)); j < end; ++j) {
                    if (j == i) continue;
                    vec3 d = offsetBetween(p, posAt(j));
                    float d2 = dot(d, d);
                    best = min(best, d2);
                    if (j > i && d2 < link2) root = unite(root, j);
                }
            }
        }
    }
    return best;
}

void main() {
    uint lid = gl_LocalInvocationID.x;
    if (lid <= uint(NN_BINS)) s_histogram[lid] = 0u;
    barrier();
    uint i = measuredSlot();
    vec4 heading = vec4(0.0), other = vec4(0.0);
    if (inMeasuredFlock(i)) {
        vec3 v = velAt(i);
        float speed = length(v);
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
        other = vec4(speed, nn, float(neighbours[i]), 0.0);
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
    uint group = sliceGroup();  // an all-flocks pass: each flock's partials after the flocks' before it
    if (lid == 0u && measuredLocalGroup() * uint(STEP_GROUP_SIZE) < BOIDS) {  // not a split dispatch's padding
        sums[2u * group] = s_heading[0];
        sums[2u * group + 1u] = s_other[0];
    }
    uint bins = measuredFlockIndex() * uint(NN_BINS + 1);
    if (lid <= uint(NN_BINS) && s_histogram[lid] > 0u) atomicAdd(histogram[bins + lid], s_histogram[lid]);
}
