#version 430
// Visual debug: finds the boid with id u_id among the flock's slots and writes its position,
// velocity and last neighbour count to PickedBoid (one invocation matches; ids are unique).
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) readonly buffer PosBuf { uvec4 pos[]; };  // float bits, id
layout(std430, binding = BIND_VEL) readonly buffer VelBuf { uvec4 vel[]; };  // float bits, species
layout(std430, binding = BIND_NEIGHBOURS) readonly buffer NbBuf { uint neighbours[]; };
layout(std430, binding = BIND_PICKED) writeonly buffer PickedBuf { PickedBoid picked; };

uniform uint u_id;

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= BOIDS || pos[i].w != u_id) return;
    picked.p = vec4(uintBitsToFloat(pos[i].xyz), 1.0);
    picked.v = vec4(uintBitsToFloat(vel[i].xyz), 0.0);
    picked.info = uvec4(neighbours[i], i, 0u, 0u);
}
