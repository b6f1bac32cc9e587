// One-dispatch exclusive scan; see grid_scan.hpp and shaders/grid_scan.comp.
#include "gpu/grid_scan.hpp"

#include "gpu/dispatch.hpp"

namespace murmur::gpu {

std::size_t GridScan::outCount(std::uint32_t count) { return std::size_t(count) + 2 + groupsFor(count, SCAN_BLOCK); }

void GridScan::run(const gl::Buffer& in, const gl::Buffer& out, std::uint32_t count, const gl::Buffer* clear) {
    if (count == 0) return;
    scan_.use();
    glUniform1ui(0, count);
    glUniform1ui(1, clear ? 1u : 0u);
    in.bindBase(GL_SHADER_STORAGE_BUFFER, BIND_SCAN_IN);
    out.bindBase(GL_SHADER_STORAGE_BUFFER, BIND_SCAN_OUT);
    (clear ? *clear : out).bindBase(GL_SHADER_STORAGE_BUFFER, BIND_SCAN_CLEAR);  // unwritten without u_clear
    dispatchGroups(groupsFor(count, SCAN_BLOCK));
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

std::vector<std::uint32_t> GridScan::resolve(const std::vector<std::uint32_t>& out, std::uint32_t count) {
    std::vector<std::uint32_t> starts(std::size_t(count) + 1);
    for (std::uint32_t i = 0; i < count; ++i) starts[i] = out[i] + out[std::size_t(count) + 2 + i / SCAN_BLOCK];
    starts[count] = out[count];  // the total, as the last group wrote it
    return starts;
}

}  // namespace murmur::gpu
