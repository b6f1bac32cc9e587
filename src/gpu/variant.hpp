// Which build of the compute programs a flock needs: the shader variant's defines, from its
// style, dims, bounds and switches. Flocks of one ensemble share a variant, obstacles aside.
#pragma once

#include "gl/program.hpp"
#include "model/params.hpp"

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
// How the shader reads a style's slot k (StyleSlot): its define's value, "(P.style[k / 4].x)" and so on.
std::string styleSlotRead(std::size_t k);
// What an ensemble's shaders are built for: flock 0's parameters, with the first obstacles of any
// flock when flock 0 has none, so that OBSTACLES is on if some flock has obstacles (a flock
// without them loops over none). Only the variant is taken from it.
Params ensembleVariantParams(const std::vector<Params>& flocks);

}  // namespace murmur::gpu
