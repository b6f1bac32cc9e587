// Which build of the compute programs a flock needs: the shader variant's defines, from its
// style, dims, bounds and switches. Flocks of one ensemble share a variant, obstacles aside.
#pragma once

#include "gl/program.hpp"
#include "model/params.hpp"

#include <span>
#include <string>
#include <vector>

namespace murmur::gpu {

// The shader variant's defines for these parameters (one flock, or an ensemble's flocks), and
// them as one string: flocks of an ensemble must give the same, obstacles aside.
std::vector<gl::ShaderDefine> variantDefines(const Params& p, bool ensemble = false);
std::string variantOf(const Params& p, bool ensemble = false);
// variantDefines with one more define set to `value`: a pass's own build of a shared source.
std::vector<gl::ShaderDefine> variantDefinesWith(const Params& p, bool ensemble, const char* define, const std::string& value = "1");
// How the passes after the binning (steer, measure, groups) read the sorted copy and the cell
// starts: through buffer textures (the default: llvmpipe gathers a SIMD vector's texels at once,
// where its storage loads go lane by lane) or through storage buffers (for hardware GPUs, opt-in
// until measured on one). The environment's MURMUR_GPU_READS, "textures" or "storage" (unset or
// empty: textures); std::invalid_argument naming both for any other value.
enum class SortedReads { Textures, Storage };
SortedReads sortedReads();
const char* sortedReadsName(SortedReads reads);
// How the steer pass walks the cells around its boids: each boid its own rows from the sorted copy
// (the default), or a work group per block of cells with its neighbours' positions staged in
// shared memory first (shaders/cell_tiles.glsl: for hardware GPUs, opt-in until measured on one;
// the same bits). The environment's MURMUR_GPU_WALK, "rows" or "tiles" (unset or empty: rows);
// std::invalid_argument naming both for any other value. Tiles apply to one flock in the parallel
// order; an ensemble and the sequential order keep rows.
enum class CellWalk { Rows, Tiles };
CellWalk cellWalk();
const char* cellWalkName(CellWalk walk);
bool tiledWalk(const Params& p, bool ensemble);  // does this variant's steer pass walk in tiles
// A path the environment chooses: its variable and its two values, the first the default, with
// what each means (the table sortedReads and cellWalk read by; the benchmark's A/B checks by it).
struct PathChoice {
    const char* var;
    const char* values[2];
    const char* means[2];
};
std::span<const PathChoice> pathChoices();  // MURMUR_GPU_READS's, then MURMUR_GPU_WALK's
// Either variable's value for the programs built from now on in this process, in place of the
// environment's (the benchmark's A/B: changing the environment while a GL driver's threads run
// is not safe); an empty value gives the environment's back. Not thread-safe: the caller's thread
// builds the programs.
void overridePath(const std::string& var, const std::string& value);
// How the shader reads a style's slot k (StyleSlot): its define's value, "(P.style[k / 4].x)" and so on.
std::string styleSlotRead(std::size_t k);
// What an ensemble's shaders are built for: flock 0's parameters, with the first obstacles of any
// flock when flock 0 has none, so that OBSTACLES is on if some flock has obstacles (a flock
// without them loops over none). Only the variant is taken from it.
Params ensembleVariantParams(const std::vector<Params>& flocks);

}  // namespace murmur::gpu
