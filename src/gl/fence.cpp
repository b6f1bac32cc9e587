// The fence; see fence.hpp.
#include "gl/fence.hpp"

#include <stdexcept>
#include <utility>

namespace murmur::gl {

Fence Fence::afterIssued() {
    Fence f(glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0));
    glFlush();  // a fence not yet flushed might never signal to a wait without the flush bit
    return f;
}

Fence::Fence(Fence&& o) noexcept : sync_(std::exchange(o.sync_, nullptr)) {}

Fence& Fence::operator=(Fence&& o) noexcept {
    if (this != &o) {
        if (sync_) glDeleteSync(sync_);
        sync_ = std::exchange(o.sync_, nullptr);
    }
    return *this;
}

Fence::~Fence() {
    if (sync_) glDeleteSync(sync_);
}

// A wait of no time, with the flush bit: the driver looks now and flushes what the fence is behind.
// Some signal late all the same (zink over lavapipe: thousands of small dispatches after the work
// was done), so a caller that polls also bounds how long it polls (the window: kLandingFrames).
bool Fence::signalled() const {
    if (!sync_) return true;
    const GLenum r = glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, 0);
    if (r == GL_WAIT_FAILED) throw std::runtime_error("the GL driver failed a wait on a fence (GL_WAIT_FAILED)");
    return r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED;
}

void Fence::wait() const {
    if (!sync_) return;
    constexpr GLuint64 kSecond = 1000000000;
    for (;;) {
        const GLenum r = glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, kSecond);
        if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED) return;
        if (r == GL_WAIT_FAILED) throw std::runtime_error("the GL driver failed a wait on a fence (GL_WAIT_FAILED)");
    }
}

}  // namespace murmur::gl
