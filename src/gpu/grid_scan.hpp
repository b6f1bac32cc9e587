// Exclusive prefix sum over a buffer of uints on the GPU in one dispatch (shaders/grid_scan.comp):
// starts within blocks of SCAN_BLOCK elements, and the blocks' starts, which the passes that read
// them add (grid_cells.glsl's scannedStart, resolve() here). Correct for any count (tested across
// block boundaries and past a block of blocks).
#pragma once

#include "gl/buffer.hpp"
#include "gl/program.hpp"

#include <cstdint>
#include <vector>

namespace murmur::gpu {

class GridScan {
public:
    GridScan() = default;  // no program: set one before run()
    explicit GridScan(gl::Program scan) : scan_(std::move(scan)) {}
    // Uints run() writes for count elements: the starts within blocks, the total (element
    // `count`: the start of an element past the last), a count of finished work groups (zero
    // before and after a run), one start per block.
    static std::size_t outCount(std::uint32_t count);
    // One dispatch over `count` uints of `in` into `out` (outCount(count) uints, element
    // `count + 1` zero: a new buffer cleared once). `clear`, if given, is zeroed over `count` uints.
    void run(const gl::Buffer& in, const gl::Buffer& out, std::uint32_t count, const gl::Buffer* clear = nullptr);
    // The exclusive scan from run()'s output (out[i] plus its block's start), then the total:
    // count + 1 values.
    static std::vector<std::uint32_t> resolve(const std::vector<std::uint32_t>& out, std::uint32_t count);

private:
    gl::Program scan_;
};

}  // namespace murmur::gpu
