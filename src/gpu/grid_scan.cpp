// Multi-level work-efficient scan; see grid_scan.hpp and shaders/grid_scan*.comp.
#include "gpu/grid_scan.hpp"

#include "gpu/dispatch.hpp"

namespace murmur::gpu {

std::size_t GridScan::scratchBytes(std::uint32_t count) {
    std::size_t bytes = 0;
    for (std::uint32_t n = groupsFor(count, SCAN_BLOCK); n > 1; n = groupsFor(n, SCAN_BLOCK)) bytes += 2 * 4 * std::size_t(n);
    return bytes + 8;
}

void GridScan::run(const gl::Buffer& in, const gl::Buffer& out, std::uint32_t count) {
    if (count == 0) return;
    // Size every level's scratch first: the recursion below holds references into sums_.
    std::size_t level = 0;
    for (std::uint32_t n = groupsFor(count, SCAN_BLOCK); n > 1; n = groupsFor(n, SCAN_BLOCK), ++level) {
        if (sums_.size() <= level) {
            sums_.emplace_back();
            scanned_.emplace_back();
        }
        if (sums_[level].size() < std::size_t(n) * 4) {
            sums_[level] = gl::Buffer(std::size_t(n) * 4);
            scanned_[level] = gl::Buffer(std::size_t(n) * 4);
        }
    }
    if (sums_.size() <= level) {  // the last level's single block total
        sums_.emplace_back(4);
        scanned_.emplace_back(4);
    }
    runLevel(in, out, count, 0);
}

void GridScan::runLevel(const gl::Buffer& in, const gl::Buffer& out, std::uint32_t count, std::size_t level) {
    const std::uint32_t blocks = groupsFor(count, SCAN_BLOCK);
    scan_.use();
    glUniform1ui(0, count);
    in.bindBase(GL_SHADER_STORAGE_BUFFER, BIND_SCAN_IN);
    out.bindBase(GL_SHADER_STORAGE_BUFFER, BIND_SCAN_OUT);
    sums_[level].bindBase(GL_SHADER_STORAGE_BUFFER, BIND_SCAN_SUMS);
    dispatchGroups(blocks);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    if (blocks <= 1) return;
    // Scan the block totals, then add each block's offset to its elements.
    runLevel(sums_[level], scanned_[level], blocks, level + 1);
    add_.use();
    glUniform1ui(0, count);
    out.bindBase(GL_SHADER_STORAGE_BUFFER, BIND_SCAN_OUT);
    scanned_[level].bindBase(GL_SHADER_STORAGE_BUFFER, BIND_SCAN_SUMS);
    dispatchGroups(groupsFor(count, SCAN_GROUP_SIZE));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

}  // namespace murmur::gpu
