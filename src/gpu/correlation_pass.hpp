// The pair correlations' pass (model/correlations.hpp): two dispatches over the flock's slots,
// correlation_mean.comp (the mean velocity and mean |u|^2, one work group) then
// correlation_pairs.comp (every pair once, the N-body way, into fixed-point bins); only the bins
// and mean |u|^2 are read back (16 bytes a bin). Built when first asked for, for the flock's
// variant (minimum image and dimensions), and forgotten when the variant changes.
#pragma once

#include "gl/buffer.hpp"
#include "gl/program.hpp"
#include "gl/shader_source.hpp"
#include "gpu/flock_state.hpp"
#include "model/correlations.hpp"

#include <string>
#include <vector>

namespace murmur::gpu {

class CorrelationPass {
public:
    static std::vector<std::string> shaderFiles() { return {"correlation_mean.comp", "correlation_pairs.comp"}; }
    void forget() { mean_ = gl::Program{}; }  // a new variant or shaders: built again when next asked for
    // The sums of the flock alone, or of an ensemble's flock `flock`; bins in [1,
    // kMaxCorrelationBins], r_max above 0.
    PairSums measure(FlockState& s, const gl::ShaderLibrary& lib, const std::vector<gl::ShaderDefine>& defines, std::uint32_t flock,
                     std::uint32_t bins, double r_max);

private:
    gl::Program mean_, pairs_;
    gl::Buffer mean_u2_, bins_;
};

}  // namespace murmur::gpu
