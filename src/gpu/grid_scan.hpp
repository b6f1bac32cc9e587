// Exclusive prefix sum over a buffer of uints on the GPU: per-block scans, the block totals
// scanned recursively, then added back. Correct for any count (tested across block boundaries).
#pragma once

#include "gl/buffer.hpp"
#include "gl/program.hpp"

#include <cstdint>
#include <vector>

namespace murmur::gpu {

class GridScan {
public:
    GridScan(gl::Program scan, gl::Program add) : scan_(std::move(scan)), add_(std::move(add)) {}
    // out[i] = sum of in[0..i) for i < count. in and out must hold count uints.
    void run(const gl::Buffer& in, const gl::Buffer& out, std::uint32_t count);
    // Bytes of scratch the block sums need for count elements.
    static std::size_t scratchBytes(std::uint32_t count);

private:
    void runLevel(const gl::Buffer& in, const gl::Buffer& out, std::uint32_t count, std::size_t level);

    gl::Program scan_, add_;
    std::vector<gl::Buffer> sums_, scanned_;  // per level
};

}  // namespace murmur::gpu
