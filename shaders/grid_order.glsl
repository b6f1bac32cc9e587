// What the order passes share (grid_order.comp, grid_order_large.comp): the sorted copy read and
// written in place, and one boid's entry moved as a whole.
#ifndef MURMUR_GRID_ORDER_GLSL
#define MURMUR_GRID_ORDER_GLSL

#ifndef ORDER_SHARED
#define ORDER_SHARED  // grid_order_large.comp: coherent (its work group swaps through memory)
#endif
layout(std430, binding = BIND_SORTED_POS) ORDER_SHARED buffer SortedPos { uvec4 sorted_pos[]; };  // float bits, id: moved as uints
layout(std430, binding = BIND_SORTED_VEL) ORDER_SHARED buffer SortedVel { uvec4 sorted_vel[]; };
#if PERCHING
layout(std430, binding = BIND_SORTED_PERCH) ORDER_SHARED buffer SortedPerch { float sorted_perch[]; };
#endif
#if STORED_STEER
layout(std430, binding = BIND_SORTED_STEER) ORDER_SHARED buffer SortedSteer { vec4 sorted_steer[]; };
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

// The cells of more than ORDER_SMALL_CELL boids, for grid_order_large.comp: an indirect dispatch's
// three group counts (x: how many, y and z: 1), then the cells. (The scan's input slot: the scan
// has run.)
layout(std430, binding = BIND_LARGE_CELLS) coherent buffer LargeCells {
    uvec4 large_dispatch;
    uint large_cells[];
};

#endif
