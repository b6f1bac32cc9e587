// What the passes after the binning (steer, measure) read of the sorted copy and the grid: the
// neighbours' state and each cell's range, through buffer textures over the buffers the scatter
// and order passes wrote (GpuSimulation binds them to the TEX_* units after a texture-fetch
// barrier). The same bits as the storage buffers hold; texelFetch lets a driver gather a whole
// SIMD vector's texels at once where storage loads may go lane by lane (llvmpipe), and on a GPU
// it reads through the texture cache.
#ifndef MURMUR_SORTED_READS_GLSL
#define MURMUR_SORTED_READS_GLSL

layout(binding = TEX_SORTED_POS) uniform usamplerBuffer sorted_pos_tex;  // xyz float bits, w id
layout(binding = TEX_SORTED_VEL) uniform usamplerBuffer sorted_vel_tex;  // xyz float bits, w species
layout(binding = TEX_CELL_START) uniform usamplerBuffer cell_start_tex;

// The state as uints: positions and velocities are float bits, ids and species plain uints, so
// no float path (a driver flushing denormals) ever touches an id.
vec3 posAt(uint j) { return uintBitsToFloat(texelFetch(sorted_pos_tex, int(j)).xyz); }
vec3 velAt(uint j) { return uintBitsToFloat(texelFetch(sorted_vel_tex, int(j)).xyz); }
uint idAt(uint j) { return texelFetch(sorted_pos_tex, int(j)).w; }
uint speciesAt(uint j) { return texelFetch(sorted_vel_tex, int(j)).w; }
#if PERCHING
layout(binding = TEX_SORTED_PERCH) uniform usamplerBuffer sorted_perch_tex;
float perchAt(uint j) { return uintBitsToFloat(texelFetch(sorted_perch_tex, int(j)).x); }
#endif

// Cell c's boids are slots [cellStart(c), cellEnd(c)) of the sorted copy: the cells are stored
// in order, so a cell ends where the next starts (for the last cell, at the scan's total,
// cellStart(CELL_TOTAL)); one texture and one read per end.
uint cellStart(uint c) { return texelFetch(cell_start_tex, int(c)).x; }
uint cellEnd(uint c) { return cellStart(c + 1u); }

#endif
