#version 430
// Group measures, pass 3 (Afforest's last round): every boid not in the tree group_giant.comp
// chose walks the cells around it again and links every boid closer than the group radius, in
// either direction (a link between two such boids is made twice, the second time a no-op). The
// forest then holds the groups of docs/model.md "Order parameters": a link whose two ends are both
// in the chosen tree joins nothing new, and any other has an end that walks here.
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

struct WalkState {
    vec3 p;
    float link2;
    uint root;  // a slot of the walking boid's tree, carried from link to link
};

void visitNear(inout WalkState w, uint j, float d2) {
    if (d2 < w.link2) w.root = unite(w.root, j);
}

#include "measure_walk.glsl"

void main() {
    uint i = measuredSlot();
    if (!inMeasuredFlock(i)) return;
    WalkState w;
    w.link2 = groupRadius() * groupRadius();
    if (!(w.link2 > 0.0)) return;
    w.p = posAt(i);
    w.root = findRoot(i);
    // Under the chosen tree now (its root then, or the root it was hooked under since): equal
    // roots mean one tree, so the skipped boids are all of one group.
    uint giant = totals[measuredFlockIndex() * TOTALS_STRIDE + TOTALS_GIANT];
    if (giant != 0u && w.root == findRoot(giant - 1u)) return;
    walkCells(i, w.p, w.link2, w);
}
