#version 430
// Pass 4: for each boid (in cell order) gather its neighbours over the 5x5(x5) half-radius cells
// around it, then steer and integrate into the state buffers: reads the sorted copy, writes the
// other set and bins what it writes for the next step (grid_bin.glsl).
// The step of one boid is step_boid.glsl's (flock_steps.comp's too); this pass reads the sorted
// copy and writes the state. Parity tests hold the two backends together; the hand-computed cases
// (tests/no_gl/hand_cases.hpp) hold both to the formulas.
// MEASURE_IN_STEER (a sampled step, GpuSimulation::requestSample with the next step): the walk also does
// flock_measure.comp's walk over the state the step starts from, the one being sampled: it writes
// each slot's squared nearest distance and links each boid to the first two boids closer than the
// group radius, so that the sample's other passes need not walk the cells again.
#include "common.glsl"
// TILED_WALK (MURMUR_GPU_WALK=tiles; never in the sequential order or an ensemble): work groups of
// TILE_GROUP_SIZE boids that stage their neighbours' positions in shared memory (cell_tiles.glsl).
#if TILED_WALK
#define TILE_READS 1
#define SLICE_GROUP_SIZE TILE_GROUP_SIZE
layout(local_size_x = TILE_GROUP_SIZE) in;
void tileRow(int k);
#define WALK_ROW tileRow
#else
layout(local_size_x = STEP_GROUP_SIZE) in;
#endif
// A slow step runs in slices (GpuSimulation::setInterrupt).
#include "slices.glsl"

layout(std430, binding = BIND_NEIGHBOURS) writeonly buffer Neighbours { uint neighbours[]; };
#if UPDATE_SEQUENTIAL
// Sequential order: one invocation steps the boids one after another in the state buffers
// themselves, so each reads what the ones before it wrote (posAt and the others read the state).
layout(std430, binding = BIND_POS) buffer Pos { uvec4 pos[]; };
layout(std430, binding = BIND_VEL) buffer Vel { uvec4 vel[]; };
layout(std430, binding = BIND_SLOT_OF_ID) buffer SlotOfId { uint slot_of_id[]; };
#if PERCHING
layout(std430, binding = BIND_PERCH) buffer Perch { float perch[]; };
float perchAt(uint j) { return perch[j]; }
#endif
#if STORED_STEER
layout(std430, binding = BIND_STEER) buffer Steer { vec4 steer[]; };
#define sorted_steer steer  // the sorted copy's name in the parallel order
#endif
// The state as uints: positions and velocities are float bits, ids and species plain uints, so
// no float path (a driver flushing denormals) ever touches an id.
vec3 posAt(uint j) { return uintBitsToFloat(pos[j].xyz); }
vec3 velAt(uint j) { return uintBitsToFloat(vel[j].xyz); }
uint idAt(uint j) { return pos[j].w; }
uint speciesAt(uint j) { return vel[j].w; }
#else
// posAt, velAt, idAt, speciesAt, perchAt, cellStart and cellEnd read the sorted copy.
#include "sorted_reads.glsl"
#include "grid_bin.glsl"
layout(std430, binding = BIND_POS) writeonly buffer Pos { uvec4 pos[]; };
layout(std430, binding = BIND_VEL) writeonly buffer Vel { uvec4 vel[]; };
#if PERCHING
layout(std430, binding = BIND_PERCH) writeonly buffer Perch { float perch[]; };
#endif
#if STORED_STEER
layout(std430, binding = BIND_SORTED_STEER) readonly buffer SortedSteer { vec4 sorted_steer[]; };
layout(std430, binding = BIND_STEER) writeonly buffer Steer { vec4 steer[]; };
#endif
#endif

// Sequential order: this dispatch steps the boids with ids [u_first_id, u_first_id + u_id_count).
uniform uint u_first_id;
uniform uint u_id_count;

#define COUNT_IMAGES_INLINE UPDATE_SEQUENTIAL  // the parallel order: image_count.comp after the pass
#include "step_boid.glsl"

// The boid's new state into slot i, binned for the next step (grid_bin.glsl) while it is at hand.
void store(uint i, Self self, vec3 np, vec3 nv, uint counted) {
    pos[i] = uvec4(floatBitsToUint(np), self.id);
    vel[i] = uvec4(floatBitsToUint(nv), self.species_bits);
    neighbours[i] = counted;
#if !UPDATE_SEQUENTIAL
    binBoid(i, np);
#endif
}

#if TILED_WALK
#include "cell_tiles.glsl"

// The group's tile staged (a barrier after each stage, every lane of the group taking part), then
// each invocation's boid stepped.
void main() {
    uint lane = gl_LocalInvocationID.x, i = sliceIndex();
    uint first = min(i - lane, TOTAL_BOIDS - 1u), last = min(first + uint(TILE_GROUP_SIZE) - 1u, TOTAL_BOIDS - 1u);
    if (lane < uint(TILE_ROWS)) tileRowSlots(tileSpan(first, last), lane);  // a lane a listed row
    barrier();
    if (lane == 0u) tileRowBases();
    barrier();
    tileCopy(lane);
    barrier();
    if (i < TOTAL_BOIDS) stepBoid(i);
}
#else
void main() {
#if UPDATE_SEQUENTIAL
    // One invocation walks the flock in id order (CpuSimulation::visitOrder), in place, a run of
    // ids per dispatch; the first builds the slot of each id (slots stay put during the step).
    if (flatIndex(STEP_GROUP_SIZE) != 0u) return;
    if (u_first_id == 0u)
        for (uint s = 0u; s < BOIDS; ++s) slot_of_id[min(pos[s].w, BOIDS - 1u)] = s;
    uint end = min(u_first_id + u_id_count, BOIDS);
    for (uint id = u_first_id; id < end; ++id) stepBoid(slot_of_id[id]);
#else
    uint i = sliceIndex();
    if (i >= TOTAL_BOIDS) return;
    selectFlockOfSlot(i);
    stepBoid(i);
#endif
}
#endif  // TILED_WALK
