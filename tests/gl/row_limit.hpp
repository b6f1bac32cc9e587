// The dispatch row limit (gpu/dispatch.hpp) lowered for a scope, restored however it ends: the
// paths that split a dispatch into rows run at sizes a software renderer affords.
#pragma once

#include "gpu/dispatch.hpp"

#include <cstdint>

namespace murmur {

struct RowLimit {
    explicit RowLimit(std::uint32_t groups) { gpu::setDispatchRowLimit(groups); }
    ~RowLimit() { gpu::setDispatchRowLimit(MAX_DISPATCH_X); }
    RowLimit(const RowLimit&) = delete;
    RowLimit& operator=(const RowLimit&) = delete;
};

}  // namespace murmur
