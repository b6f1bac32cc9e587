#version 430
// Group measures, pass 0: every slot its own root in the union-find forest (groups.glsl), before
// flock_measure.comp's walk links every pair closer than the group radius in one dispatch (the
// passes do not depend on a group's diameter).
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

void main() {
    uint i = measuredSlot();
    if (inMeasuredFlock(i)) parent[i] = i;
}
