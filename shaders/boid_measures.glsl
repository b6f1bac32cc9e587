// The per-boid order parameters of a sample (measureFlock in src/cpu/order_params.cpp): each
// boid's unit velocity, speed, nearest distance and neighbour count, summed a work group at a
// time into two vec4 partial sums (measure_reduce.comp adds them up), and its nearest distance
// into a histogram. flock_measure.comp takes them; so does group_sums.comp for a sample taken
// with the next step (NEAREST_STORED: the steer pass stored each nearest distance), in the same
// pass as the group sums. The includer defines walkNeighbours(i, p) (the squared nearest distance
// of boid i at p) unless NEAREST_STORED, and includes work_group_sum.glsl, slices.glsl and
// measure_radii.glsl first.
#ifndef MURMUR_BOID_MEASURES_GLSL
#define MURMUR_BOID_MEASURES_GLSL

layout(std430, binding = BIND_NEIGHBOURS) readonly buffer Neighbours { uint neighbours[]; };
layout(std430, binding = BIND_MEASURE_SUMS) writeonly buffer Sums { vec4 sums[]; };
layout(std430, binding = BIND_MEASURE_HIST) buffer Histogram { uint histogram[]; };

#ifdef NEAREST_STORED
#define MEASURE_ENTRIES SUM_LANES  // one a lane (work_group_sum.glsl's layout in registers)
layout(std430, binding = BIND_MEASURE_NEAREST) readonly buffer Nearest { float nearest[]; };
float walkNeighbours(uint i, vec3 p) { return nearest[i]; }
#else
#define MEASURE_ENTRIES STEP_GROUP_SIZE  // one a boid
#endif
shared vec4 s_heading[MEASURE_ENTRIES];  // xyz unit velocity, w 1 if moving
shared vec4 s_other[MEASURE_ENTRIES];    // x speed, y nearest distance, z neighbours
shared uint s_histogram[NN_BINS + 1];

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

#ifdef NEAREST_STORED
// In the lane layout: the histogram cleared by the lanes (a barrier before the first boid), boid
// i as a lane's k-th added to its sums, the histogram added out (after the barrier that follows
// the lanes' sums).
void clearHistogram(uint lane) {
    for (uint b = lane; b <= uint(NN_BINS); b += SUM_LANES) s_histogram[b] = 0u;
}

void measureLaneBoid(uint i, uint k, inout vec4 heading, inout vec4 other) {
    vec4 h, o;
    measureBoid(i, h, o);
    heading = laneSum(heading, h, k);
    other = laneSum(other, o, k);
}

void addHistogram(uint lane) {
    uint bins = measuredFlockIndex() * uint(NN_BINS + 1);
    for (uint b = lane; b <= uint(NN_BINS); b += SUM_LANES)
        if (s_histogram[b] > 0u) atomicAdd(histogram[bins + b], s_histogram[b]);
}
#endif

#endif
