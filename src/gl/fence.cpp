// The fence; see fence.hpp.
#include "gl/fence.hpp"

#include "io/env_switch.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
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

namespace {

// MURMUR_GPU_TIMEOUT in seconds (0: for ever; 600 when unset or empty), or nullopt when it is not
// a number of seconds.
std::optional<double> timeoutSeconds() {
    const char* text = std::getenv("MURMUR_GPU_TIMEOUT");
    if (!text || !*text) return 600.0;
    char* end = nullptr;
    const double seconds = std::strtod(text, &end);
    if (*end != '\0' || !(seconds >= 0.0)) return std::nullopt;
    return seconds;
}

}  // namespace

std::optional<std::string> gpuTimeoutProblem() {
    if (timeoutSeconds()) return std::nullopt;
    return "MURMUR_GPU_TIMEOUT='" + env_detail::envValueShown(std::getenv("MURMUR_GPU_TIMEOUT")) +
           "': valid: seconds, 0 or more (0: wait for ever; unset: 600)";
}

// Waits a second at a time: a word after 30 s (a hung GPU says nothing of itself), an error past
// the timeout rather than a wait for ever.
void Fence::wait() const {
    if (!sync_) return;
    constexpr GLuint64 kSecond = 1000000000;
    const std::optional<double> seconds = timeoutSeconds();  // read once a wait
    if (!seconds) throw std::runtime_error(*gpuTimeoutProblem());  // refused up front (engine::gpuPathProblem)
    const double limit = *seconds;
    const auto began = std::chrono::steady_clock::now();
    bool said = false;
    for (;;) {
        const GLenum r = glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, kSecond);
        if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED) return;
        if (r == GL_WAIT_FAILED) throw std::runtime_error("the GL driver failed a wait on a fence (GL_WAIT_FAILED)");
        const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
        if (limit > 0.0 && waited >= limit)
            throw std::runtime_error("the GPU did not finish its work in " + std::to_string(int(limit)) +
                                     " s (MURMUR_GPU_TIMEOUT): a hung GPU or driver? (nvidia-smi shows its state)");
        if (!said && waited >= 30.0) {
            std::fprintf(stderr, "murmur: warning: waited %.0f s for the GPU to finish its work (a hung GPU?); giving up at %s\n",
                         waited, limit > 0.0 ? (std::to_string(int(limit)) + " s").c_str() : "never (MURMUR_GPU_TIMEOUT=0)");
            said = true;
        }
    }
}

}  // namespace murmur::gl
