#version 430
// Whether every boid's position and velocity is finite (GpuSimulation::allFinite: the library's
// step refuses a flock that is not). By the exponent's bits, not isnan/isinf, which a compiler
// that assumes finite arithmetic may fold away. u_slots: every slot (all of an ensemble's).
// Output: one word, 1 if some component of some boid is infinite or NaN (left 0 otherwise).
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) readonly buffer PosBuf { uvec4 pos[]; };  // float bits, id
layout(std430, binding = BIND_VEL) readonly buffer VelBuf { uvec4 vel[]; };  // float bits, species
layout(std430, binding = BIND_XYZ_BY_ID) buffer Flag { uint non_finite; };

uniform uint u_slots;

bool finiteBits(uvec3 bits) { return all(notEqual(bits & 0x7F800000u, uvec3(0x7F800000u))); }

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= u_slots) return;
    if (!finiteBits(pos[i].xyz) || !finiteBits(vel[i].xyz)) atomicOr(non_finite, 1u);
}
