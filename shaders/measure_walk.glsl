// What the measure passes that walk the cells around a boid share (flock_measure.comp's nearest
// neighbour and first links, group_links.comp's remaining links): their radii, and the walk
// (cell_walk.glsl) handing each candidate's squared distance to the pass's visitNear(w, j, d2).
// The including pass defines WalkState (with the walking boid's position p) and visitNear first.
#ifndef MURMUR_MEASURE_WALK_GLSL
#define MURMUR_MEASURE_WALK_GLSL

void visitCandidate(inout WalkState w, uint j) {
    vec3 d = offsetBetween(w.p, posAt(j));
    visitNear(w, j, dot(d, d));
}

#include "cell_walk.glsl"
#include "measure_radii.glsl"

#endif
