#version 430
// Group measures, pass 0: every slot its own root in the union-find forest (groups.glsl), before
// the links: flock_measure.comp's walk (pass 1), group_giant.comp and group_links.comp (no pass
// depends on a group's diameter).
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;

void main() {
    uint i = measuredSlot();
    if (inMeasuredFlock(i)) parent[i] = i;
}
