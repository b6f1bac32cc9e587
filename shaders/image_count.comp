#version 430
// After a step of the passes in the parallel order (SteerPass::run): slot i of the state holds the
// boid the steer pass read from slot i of the sorted copy, so the two positions are its move, and
// countImages adds the periodic images it crossed (wrap bounds; the pass is not run elsewhere).
// The steer pass itself would need one storage block more than its fullest variant may have.
#include "common.glsl"
layout(local_size_x = STEP_GROUP_SIZE) in;

layout(std430, binding = BIND_POS) readonly buffer Pos { uvec4 pos[]; };
layout(std430, binding = BIND_SORTED_POS) readonly buffer SortedPos { uvec4 sorted_pos[]; };
#include "images.glsl"

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= TOTAL_BOIDS) return;
    selectFlockOfSlot(i);
    countImages(pos[i].w, uintBitsToFloat(sorted_pos[i].xyz), uintBitsToFloat(pos[i].xyz));
}
