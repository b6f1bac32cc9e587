#version 430
// The state's positions and velocities in id order, xyz packed (GpuSimulation::readXyzById): the
// state is kept by slot; this places each boid's two vectors at its id on the GPU, so a reader
// gets 12 bytes a boid per array, straight into its own memory, with no sort on the host.
// Output: positions and velocities, 3 floats per id, in two buffers (each 12 bytes a boid: within
// the storage-block size that the 16-byte state already fits).
#include "common.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
layout(std430, binding = BIND_POS) readonly buffer PosBuf { uvec4 pos[]; };  // float bits, id
layout(std430, binding = BIND_VEL) readonly buffer VelBuf { uvec4 vel[]; };  // float bits, species
layout(std430, binding = BIND_XYZ_BY_ID) writeonly buffer PosById { uint pos_by_id[]; };
layout(std430, binding = BIND_VEL_XYZ_BY_ID) writeonly buffer VelById { uint vel_by_id[]; };

void main() {
    uint i = flatIndex(STEP_GROUP_SIZE);
    if (i >= BOIDS) return;
    uint id = pos[i].w;
    if (id >= BOIDS) return;
    for (uint k = 0u; k < 3u; ++k) {
        pos_by_id[3u * id + k] = pos[i][k];
        vel_by_id[3u * id + k] = vel[i][k];
    }
}
