#version 430
// Many steps of small flocks in one dispatch, one work group a flock (GroupStepsPass::run,
// src/gpu/group_steps_pass.cpp). For flocks of at most STEP_GROUP_SIZE boids whose grid lists every cell around
// each boid (listsEveryCell in cell_walk.glsl), a boid's candidates are all of its flock's boids
// in the grid's order, so no grid is needed to find them, only that order. Each step orders the
// flock by (cell, id) as the binning would (scatter, then order within each cell), steps every
// boid with step_boid.glsl reading the ordered flock (what flock_steer.comp reads from the sorted
// copy) and keeps each new state in its invocation. The last step's state goes to the state
// buffers in the slots flock_steer.comp would have written: u_steps steps to the same bits, in
// one dispatch instead of four or five a step.
#define STEPS_DONE g_steps_done
uint g_steps_done = 0u;
#include "common.glsl"
#if UPDATE_SEQUENTIAL || PERCHING || STORED_STEER
#error "flock_steps.comp steps neither the sequential order, nor perching, nor a style that keeps its steering"
#endif

// FLOCK_GROUP_SIZE (injected): the largest flock's boids rounded up to a multiple of 32, at most
// STEP_GROUP_SIZE; the lanes past a flock's boids only meet the barriers.
layout(local_size_x = FLOCK_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) buffer Pos { uvec4 pos[]; };
layout(std430, binding = BIND_VEL) buffer Vel { uvec4 vel[]; };
layout(std430, binding = BIND_NEIGHBOURS) writeonly buffer Neighbours { uint neighbours[]; };

uniform uint u_steps;  // steps this dispatch takes
uint g_first = 0u;     // the flock's first slot

// This step's ordered flock (the sorted copy's slots g_first ..), and each boid's key where it
// stood after the step before: its cell, its id. ORDERED_IN_SHARED (injected) keeps them in shared
// memory (a GPU reads it at L1 speed); else in images over the sorted copy and the binning's
// buffer (software renderers: llvmpipe loads shared memory lane by lane but gathers image texels
// a SIMD vector at once), `coherent`, so that with memoryBarrierImage() and barrier() each write
// is visible to the work group (GLSL 4.30, 4.10).
#if ORDERED_IN_SHARED
shared uvec4 ordered_pos[FLOCK_GROUP_SIZE];
shared uvec4 ordered_vel[FLOCK_GROUP_SIZE];
shared uvec2 keys[FLOCK_GROUP_SIZE];
uvec4 orderedPos(uint j) { return ordered_pos[j - g_first]; }
uvec4 orderedVel(uint j) { return ordered_vel[j - g_first]; }
void putOrdered(uint j, uvec4 p, uvec4 v) {
    ordered_pos[j - g_first] = p;
    ordered_vel[j - g_first] = v;
}
uvec2 keyOf(uint j) { return keys[j - g_first]; }
void putKey(uint j, uvec2 k) { keys[j - g_first] = k; }
void groupWritesDone() {
    memoryBarrierShared();
    barrier();
}
#else
layout(binding = IMAGE_ORDERED_POS, rgba32ui) coherent uniform uimageBuffer ordered_pos;
layout(binding = IMAGE_ORDERED_VEL, rgba32ui) coherent uniform uimageBuffer ordered_vel;
layout(binding = IMAGE_KEYS, rg32ui) coherent uniform uimageBuffer keys;
uvec4 orderedPos(uint j) { return imageLoad(ordered_pos, int(j)); }
uvec4 orderedVel(uint j) { return imageLoad(ordered_vel, int(j)); }
void putOrdered(uint j, uvec4 p, uvec4 v) {
    imageStore(ordered_pos, int(j), p);
    imageStore(ordered_vel, int(j), v);
}
uvec2 keyOf(uint j) { return imageLoad(keys, int(j)).xy; }
void putKey(uint j, uvec2 k) { imageStore(keys, int(j), uvec4(k, 0u, 0u)); }
void groupWritesDone() {
    memoryBarrierImage();
    barrier();
}
#endif

vec3 posAt(uint j) { return uintBitsToFloat(orderedPos(j).xyz); }
vec3 velAt(uint j) { return uintBitsToFloat(orderedVel(j).xyz); }
uint idAt(uint j) { return orderedPos(j).w; }
uint speciesAt(uint j) { return orderedVel(j).w; }
// The cells around any boid are all of the flock's cells, in order: walkCells reads the start
// of the first and the end of the last, which are the flock's first slot and its end.
uint cellStart(uint c) { return c == FIRST_CELL ? g_first : g_first + BOIDS; }
uint cellEnd(uint c) { return cellStart(c + 1u); }

#define COUNT_IMAGES_INLINE 1  // each step has the old position at hand
#include "step_boid.glsl"

// What stepBoid stores: the boid's new state, kept in its invocation for the next step.
vec3 g_new_p, g_new_v;
uint g_counted = 0u;
void store(uint i, Self self, vec3 np, vec3 nv, uint counted) {
    g_new_p = np;
    g_new_v = nv;
    g_counted = counted;
}

// Where the boid with key k (in lane `lane`) stands in the grid's order: the flock's boids
// before it by cell, then by id (and by lane, should two share an id).
uint rankOf(uvec2 k, uint lane, uint n) {
    uint rank = 0u;
    for (uint j = 0u; j < n; ++j) {
        uvec2 o = keyOf(g_first + j);
        if (o.x < k.x || (o.x == k.x && (o.y < k.y || (o.y == k.y && j < lane)))) ++rank;
    }
    return rank;
}

void main() {
#if ENSEMBLE
    if (flatGroup() >= FLOCK_COUNT) return;  // a last dispatch row's padding
    g_flock = flatGroup();
#endif
    g_first = FIRST_SLOT;
    uint lane = gl_LocalInvocationID.x, n = BOIDS;
    bool mine = lane < n;
    uvec4 p = mine ? pos[g_first + lane] : uvec4(0u), v = mine ? vel[g_first + lane] : uvec4(0u);
    uint slot = lane, counted = 0u;
    for (uint s = 0u; s < u_steps; ++s) {
        g_steps_done = s;
        uvec2 key = uvec2(cellIndex(cellOf(uintBitsToFloat(p.xyz))), p.w);
        if (mine) putKey(g_first + lane, key);
        groupWritesDone();
        if (mine) {
            slot = rankOf(key, lane, n);
            putOrdered(g_first + slot, p, v);
        }
        groupWritesDone();  // the keys are read, the ordered flock written; the next writes of either come after the next such
        if (mine) {
            stepBoid(g_first + slot);
            p.xyz = floatBitsToUint(g_new_p);
            v.xyz = floatBitsToUint(g_new_v);
            counted = g_counted;
        }
    }
    if (!mine) return;
    pos[g_first + slot] = p;
    vel[g_first + slot] = v;
    neighbours[g_first + slot] = counted;
}
