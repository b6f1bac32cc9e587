#version 430
// Pass 4: for each boid (in cell order) gather its neighbours over the 5x5(x5) half-radius cells
// around it, then steer and integrate into the state buffers: reads the sorted copy, writes the
// other set and bins what it writes for the next step (grid_bin.glsl).
// The step of src/cpu/flock_step.hpp: what every style shares is flock_rules.glsl (the CPU's
// flock_rules.cpp), the search flock_gather.glsl, and the style's own rules the one file the
// variant names (STYLE_GLSL: shaders/styles/<name>.glsl, the CPU's src/cpu/styles/<name>.cpp).
// Parity tests hold the two backends together; the hand-computed cases (tests/cpu/hand_cases.hpp)
// hold both to the formulas.
// MEASURE_IN_STEER (a sampled step, GpuSimulation::measureWithNextStep): the walk also does
// flock_measure.comp's walk over the state the step starts from, the one being sampled: it writes
// each slot's squared nearest distance and links each boid to the first two boids closer than the
// group radius, so that the sample's other passes need not walk the cells again.
#include "common.glsl"
// A slow step runs in slices (GpuSimulation::setInterrupt).
#include "slices.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
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

// The boid this invocation steps (Boid in src/model/boid.hpp), and what its view needs.
struct Self {
    vec3 p, v;
    uint id;
    uint species_bits;  // the species as stored (compared raw, like the CPU's ==)
    uint slot;          // its index in the sorted copy
    float v2;           // |v|^2
    uint use_fov;       // 1: its species' view cone applies and it is moving
    vec3 a;             // its last acceleration (styles that keep it): gloss's axis of view
};


#ifdef MEASURE_IN_STEER
#define GROUPS_FOREST_ONLY
#include "groups.glsl"
#include "measure_radii.glsl"
#include "near_walk.glsl"
layout(std430, binding = BIND_MEASURE_NEAREST) writeonly buffer Nearest { float nearest[]; };
#endif

#include "flock_rules.glsl"
#include STYLE_GLSL
#include "flock_gather.glsl"

#ifdef MEASURE_IN_STEER
// What the walk found for the boid in slot i: its squared nearest distance kept for the sample,
// and its links made (flock_measure.comp's walk does both).
void keepNear(uint i) {
    nearest[i] = g_near.best;
    linkNear(i, g_near);
}
#endif

Self loadSelf(uint i) {
    Self self;
    self.p = posAt(i);
    self.v = velAt(i);
    self.id = idAt(i);
    self.species_bits = speciesAt(i);
    self.slot = i;
    self.v2 = dot(self.v, self.v);
    self.use_fov = VIEW_CONE_FLAG(P.species[min(self.species_bits, uint(MAX_SPECIES - 1))]) > 0.5 && self.v2 > 0.0 ? 1u : 0u;
#if STORED_STEER
    self.a = sorted_steer[i].xyz;
#else
    self.a = vec3(0.0);
#endif
    return self;
}

// The boid's new state into slot i, binned for the next step (grid_bin.glsl) while it is at hand.
void store(uint i, Self self, vec3 np, vec3 nv, uint counted) {
    pos[i] = uvec4(floatBitsToUint(np), self.id);
    vel[i] = uvec4(floatBitsToUint(nv), self.species_bits);
    neighbours[i] = counted;
#if !UPDATE_SEQUENTIAL
    binBoid(i, np);
#endif
}

// Steps the boid in slot i: gather, the style's velocity, the end of the step, store.
void stepBoid(uint i) {
    Self self = loadSelf(i);
    SpeciesBlock S = P.species[min(self.species_bits, uint(MAX_SPECIES - 1))];
#if PERCHING
    if (perchAt(i) > 0.0) {  // on the ground: out of the flock, looks at no one
#ifdef MEASURE_IN_STEER
        measureOnly(S, self);
        keepNear(i);
#endif
        vec3 rest_p, rest_v;
        float rest = restOnTheGround(S, self, perchAt(i), rest_p, rest_v);
        store(i, self, rest_p, rest_v, 0u);
        perch[i] = rest;
#if STORED_STEER
        steer[i] = sorted_steer[i];  // kept for take-off (the CPU's next = self)
#endif
        return;
    }
#endif
    bool steer_now = steersNow(self);
    Sweep w;
    if (steer_now) w = gather(S, self);
    else w.sums = noNeighbours();
#ifdef MEASURE_IN_STEER
    if (!steer_now) measureOnly(S, self);
    keepNear(i);
#endif
#if STORED_STEER
    vec4 kept = sorted_steer[i];
#else
    vec4 kept = vec4(0.0);
#endif
    uint counted = steer_now ? w.sums.neighbours : uint(kept.w);  // coasting: the count it steered with
    vec3 nv = integrate(S, self, w.sums, kept);
#if STORED_STEER
    steer[i] = kept;
#endif
    float landed;
    vec3 np = finishStep(S, self, nv, landed);
#if PERCHING
    perch[i] = landed;
#endif
    store(i, self, np, nv, counted);
}

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
