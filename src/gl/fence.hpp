// A GL fence sync object: signalled once the GPU has done every command issued before it.
// Move-only; asks without waiting (signalled) or waits (wait). The way a read-back lands without
// stalling the loop that issued it.
#pragma once

#include "gl/gl.hpp"

#include <optional>
#include <string>

namespace murmur::gl {

class Fence {
public:
    Fence() = default;
    static Fence afterIssued();  // a fence after every command issued so far (flushed, so it will signal)
    Fence(Fence&& o) noexcept;
    Fence& operator=(Fence&& o) noexcept;
    Fence(const Fence&) = delete;
    Fence& operator=(const Fence&) = delete;
    ~Fence();

    explicit operator bool() const { return sync_ != nullptr; }
    bool signalled() const;  // no wait; true for an empty fence
    // Until signalled: a warning after 30 s; throws std::runtime_error if the driver reports a
    // failure or past MURMUR_GPU_TIMEOUT seconds (600 by default, 0 for ever).
    void wait() const;

private:
    explicit Fence(GLsync sync) : sync_(sync) {}
    GLsync sync_ = nullptr;
};

// MURMUR_GPU_TIMEOUT's value is not seconds (0 or more): the message (exit 2), else nullopt.
std::optional<std::string> gpuTimeoutProblem();

}  // namespace murmur::gl
