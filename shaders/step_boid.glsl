// The step of one boid, which flock_steer.comp (a step of every flock, from the sorted copy) and
// flock_steps.comp (many steps of small flocks in shared memory) share: src/cpu/flock_step.hpp's
// step. What every style shares is flock_rules.glsl (the CPU's flock_rules.cpp), the search
// flock_gather.glsl, and the style's own rules the one file the variant names (STYLE_GLSL:
// src/styles/<name>/<name>.glsl, the CPU's src/styles/<name>/cpu.cpp). The including pass first
// defines the reads (posAt, velAt, idAt, speciesAt, perchAt, cellStart, cellEnd) and the buffers
// a variant writes (perch, steer, sorted_steer), and after this file store().
#ifndef MURMUR_STEP_BOID_GLSL
#define MURMUR_STEP_BOID_GLSL

// The boid this invocation steps (Boid in src/model/boid.hpp), and what its view needs.
struct Self {
    vec3 p, v;
    uint id;
    uint species_bits;  // the species as stored (compared raw, like the CPU's ==)
    uint slot;          // its index in the sorted copy
    float v2;           // |v|^2
    uint use_fov;       // 1: its species' view cone applies and it is moving
    vec3 a;             // its last acceleration (styles that keep it): gloss's axis of view
#if ADAPTIVE_REACH
    float reach;        // its own search radius (reachOf in src/cpu/neighbour_rules.hpp)
    float reach2;       // reach^2: it sees no one beyond
#endif
};

// The boid's new state, into slot i: the including pass defines it (its own writes).
void store(uint i, Self self, vec3 np, vec3 nv, uint counted);

#ifdef MEASURE_IN_STEER
#define GROUPS_FOREST_ONLY
#include "groups.glsl"
#include "measure_radii.glsl"
#include "near_walk.glsl"
layout(std430, binding = BIND_MEASURE_NEAREST) writeonly buffer Nearest { float nearest[]; };
#endif

#include "flock_rules.glsl"
#include STYLE_GLSL
// The sums the style adds up over its neighbours (with their count in `neighbours`): its own
// (GATHER_SUMS and noStyleSums(), declared by its file), or Reynolds' NeighbourSums.
#ifndef GATHER_SUMS
#define GATHER_SUMS NeighbourSums
NeighbourSums noStyleSums() { return noNeighbours(); }
#endif

// COUNT_IMAGES_INLINE (the including pass): the step counts the images each boid crosses (it has
// the old position at hand); else image_count.comp counts them after the pass.
#if COUNT_IMAGES_INLINE
#include "images.glsl"
#define COUNT_IMAGES(self, np) countImages(self.id, self.p, np)
#else
#define COUNT_IMAGES(self, np)
#endif
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
#if ADAPTIVE_REACH
    float r = sorted_steer[i].w;
    self.reach = r > 0.0 ? min(r, TOPO_MAX_R) : TOPO_MAX_R;
    self.reach2 = self.reach * self.reach;
#endif
    return self;
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
        COUNT_IMAGES(self, rest_p);
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
    else {
        w.sums = noStyleSums();
        w.seen = 0u;
    }
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
#if ADAPTIVE_REACH
    if (steer_now) kept.w = nextReach(self.reach, w.seen);
#endif
#if STORED_STEER
    steer[i] = kept;
#endif
    float landed;
    vec3 np = finishStep(S, self, nv, landed);
#if PERCHING
    perch[i] = landed;
#endif
    COUNT_IMAGES(self, np);
    store(i, self, np, nv, counted);
}

#endif
