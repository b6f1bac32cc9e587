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

// Work groups per dispatch row: MAX_DISPATCH_X, or fewer in tests (setDispatchRowLimit), so the
// split paths run at sizes a software renderer affords.
inline std::uint32_t& dispatchRowLimit() {
    static std::uint32_t limit = MAX_DISPATCH_X;
    return limit;
}
inline void setDispatchRowLimit(std::uint32_t groups) { dispatchRowLimit() = groups < 1u ? 1u : (groups > MAX_DISPATCH_X ? MAX_DISPATCH_X : groups); }

// Compute dispatches issued so far (the benchmark's dispatches per step).
inline std::uint64_t& dispatchCount() {
    static std::uint64_t count = 0;
    return count;
}

inline void dispatchGroups(std::uint32_t groups) {
    if (groups == 0) return;
    const std::uint32_t row = dispatchRowLimit();
    const std::uint32_t x = groups < row ? groups : row;
    glDispatchCompute(x, (groups + x - 1) / x, 1);
    ++dispatchCount();
}

// A dispatch whose work-group counts a pass wrote at `offset` of `args` (three uints: x, y, z);
// the caller's barrier (GL_COMMAND_BARRIER_BIT) makes that write visible.
inline void dispatchIndirect(GLuint args, GLintptr offset) {
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, args);
    glDispatchComputeIndirect(offset);
    glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
    ++dispatchCount();
}

}  // namespace murmur::gpu
