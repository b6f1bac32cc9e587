// What the passes after the binning (steer, measure) read of the sorted copy and the grid: the
// neighbours' state and each cell's range. Two builds read the same bits (gpu/variant.hpp,
// SortedReads): by default through buffer textures over the buffers the scatter and order passes
// wrote (bound to the TEX_* units after a texture-fetch barrier; texelFetch lets a driver gather a
// whole SIMD vector's texels at once where storage loads may go lane by lane, as on llvmpipe, and
// on a GPU it reads through the texture cache); with STORAGE_READS, from those storage buffers
// themselves (readonly, at their BIND_* slots).
#ifndef MURMUR_SORTED_READS_GLSL
#define MURMUR_SORTED_READS_GLSL

#if STORAGE_READS
#include "grid_cells.glsl"
layout(std430, binding = BIND_SORTED_POS) readonly restrict buffer SortedPosReads { uvec4 sorted_pos_read[]; };
layout(std430, binding = BIND_SORTED_VEL) readonly restrict buffer SortedVelReads { uvec4 sorted_vel_read[]; };
uvec4 sortedPos(uint j) { return sorted_pos_read[j]; }
vec3 velAt(uint j) { return uintBitsToFloat(sorted_vel_read[j].xyz); }
uint speciesAt(uint j) { return sorted_vel_read[j].w; }
#if PERCHING
layout(std430, binding = BIND_SORTED_PERCH) readonly restrict buffer SortedPerchReads { float sorted_perch_read[]; };
float perchAt(uint j) { return sorted_perch_read[j]; }
#endif
uint cellStart(uint c) { return cell_start[c]; }
uint cellEnd(uint c) { return cellStart(c + 1u); }
#else

layout(binding = TEX_SORTED_POS) uniform usamplerBuffer sorted_pos_tex;  // xyz float bits, w id
layout(binding = TEX_SORTED_VEL) uniform usamplerBuffer sorted_vel_tex;  // xyz float bits, w species
layout(binding = TEX_CELL_START) uniform usamplerBuffer cell_start_tex;

// The state as uints: positions and velocities are float bits, ids and species plain uints, so
// no float path (a driver flushing denormals) ever touches an id.
uvec4 sortedPos(uint j) { return texelFetch(sorted_pos_tex, int(j)); }
vec3 velAt(uint j) { return uintBitsToFloat(texelFetch(sorted_vel_tex, int(j)).xyz); }
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
#endif  // STORAGE_READS

// A position record (xyz float bits, w id): from the sorted copy, or, in the tiled steer pass
// (TILE_READS, cell_tiles.glsl), from the tile where the slot is among those staged for the row
// being walked: a copy of the same record.
#if defined(TILE_READS) && TILE_READS
shared uvec4 s_tile[TILE_CAPACITY];
uint g_tile_first = 0u, g_tile_count = 0u, g_tile_base = 0u;  // the row's staged slots, and where they lie in s_tile
uvec4 posRecord(uint j) {
    uint k = j - g_tile_first;  // wraps to a large value below the first
    return k < g_tile_count ? s_tile[g_tile_base + k] : sortedPos(j);
}
#else
uvec4 posRecord(uint j) { return sortedPos(j); }
#endif
vec3 posAt(uint j) { return uintBitsToFloat(posRecord(j).xyz); }
uint idAt(uint j) { return posRecord(j).w; }

#endif
