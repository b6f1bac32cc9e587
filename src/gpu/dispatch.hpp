// Dispatching more work groups than one row allows: rows of MAX_DISPATCH_X groups, with the
// shaders' flatIndex() undoing the split.
#pragma once

#include "gl/gl.hpp"
#include "gpu/layout.hpp"

#include <cstdint>

namespace murmur::gpu {

inline std::uint32_t groupsFor(std::uint64_t items, std::uint32_t per_group) {
    return std::uint32_t((items + per_group - 1) / per_group);
}

inline void dispatchGroups(std::uint32_t groups) {
    if (groups == 0) return;
    const std::uint32_t x = groups < MAX_DISPATCH_X ? groups : MAX_DISPATCH_X;
    glDispatchCompute(x, (groups + x - 1) / x, 1);
}

}  // namespace murmur::gpu
