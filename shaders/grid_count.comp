#version 430
// Pass 1, when the state was not written by the steer pass (after an upload, a change of
// parameters, a sequential step): each boid's cell and its rank within it (grid_bin.glsl).
#include "common.glsl"
#include "grid_bin.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) readonly buffer Pos { uvec4 pos[]; };  // float bits, id

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= TOTAL_BOIDS) return;
    selectFlockOfSlot(i);
    binBoid(i, uintBitsToFloat(pos[i].xyz));
}
