#version 430
// Pass 3b: each cell's start resolved in place (grid_cells.glsl) and its boids put in id order
// (insertion sort over the cell's range of the sorted copy). The scatter's order within a cell
// follows the binning's atomics, which differ from
// run to run; summing neighbours in id order instead makes a GPU run reproducible to the bit
// (same seed, parameters and driver, same state after any number of steps).
#include "common.glsl"
#define CELL_START_ACCESS  // read and written: each cell's start resolved in place
#include "grid_cells.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_SORTED_POS) buffer SortedPos { uvec4 sorted_pos[]; };  // float bits, id: moved as uints
layout(std430, binding = BIND_SORTED_VEL) buffer SortedVel { uvec4 sorted_vel[]; };
#if PERCHING
layout(std430, binding = BIND_SORTED_PERCH) buffer SortedPerch { float sorted_perch[]; };
#endif
#if STORED_STEER
layout(std430, binding = BIND_SORTED_STEER) buffer SortedSteer { vec4 sorted_steer[]; };
#endif

// Everything the scatter moved for one boid.
struct Entry {
    uvec4 p, v;
    float perch;
    vec4 steer;
};

Entry load(uint k) {
    Entry e = Entry(sorted_pos[k], sorted_vel[k], 0.0, vec4(0.0));
#if PERCHING
    e.perch = sorted_perch[k];
#endif
#if STORED_STEER
    e.steer = sorted_steer[k];
#endif
    return e;
}

void store(uint k, Entry e) {
    sorted_pos[k] = e.p;
    sorted_vel[k] = e.v;
#if PERCHING
    sorted_perch[k] = e.perch;
#endif
#if STORED_STEER
    sorted_steer[k] = e.steer;
#endif
}

void main() {
    uint cell = flatIndex(STEP_GROUP_SIZE);
    if (cell >= CELL_TOTAL) return;
    uint start = scannedStart(cell), end = start + cell_count[cell];
    cell_start[cell] = start;  // resolved for the passes after this one (sorted_reads.glsl)
    for (uint a = start + 1u; a < end; ++a) {
        Entry e = load(a);
        uint id = e.p.w, b = a;
        for (; b > start && sorted_pos[b - 1u].w > id; --b) store(b, load(b - 1u));
        if (b != a) store(b, e);
    }
}
