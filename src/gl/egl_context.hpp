// A headless OpenGL context through EGL, with no window: tries the EGL device platform
// (preferring an NVIDIA device: GPU servers have no display), then Mesa's surfaceless platform,
// then the default display. OpenGL 4.5 core (murmur uses its direct state access).
// Any number may live in one process, made and ended in any order: one's end never ends another
// (the display is counted) and hands back the context that was current before it.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

namespace murmur::gl {

class ContextError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class HeadlessContext {
public:
    // Makes the context current on this thread and loads GL. Throws ContextError saying what
    // was tried and which GL version, if any, was found.
    explicit HeadlessContext(bool debug = false);
    ~HeadlessContext();
    HeadlessContext(const HeadlessContext&) = delete;
    HeadlessContext& operator=(const HeadlessContext&) = delete;

    const std::string& platform() const { return platform_; }  // which attempt succeeded
    // The thread that made it (a GL context is current on one thread at a time), and whether it
    // is current on the calling thread now.
    std::thread::id thread() const { return thread_; }
    bool isCurrent() const;
    // A context's objects can be deleted only where it is current. borrow() makes it current on
    // the calling thread when no thread has it current (its thread let it go or ended): true then,
    // and giveBack() makes current again what was current here before. letGo() leaves it current
    // nowhere, from the thread it is current on (a thread's end).
    bool borrow();
    void giveBack();
    void letGo();

    struct Impl;  // EGL display and context (kept out of this header)

private:
    void registerLive();

    std::unique_ptr<Impl> impl_;
    std::string platform_;
    std::thread::id thread_;
};

// Settings that keep known driver bugs away, made before a context exists (each only if the user
// has not set it). Mesa 22.3's zink specialises shaders on "inlined" uniform values and kept a
// stale specialisation of the scan's cell count when a flock's grid grew: the binning then went
// wrong (found by the ensemble sweep's byte test; ZINK_INLINE_UNIFORMS=false avoids it).
void workAroundDriverBugs();

// Set once a process has made a context: in a child forked after that, the driver's threads and
// locks are not whole (using them hangs), so the child can use no GL. The message naming fork
// and the ways around it, or nullopt when this process may make and use contexts.
std::optional<std::string> forkedAfterContext();

// "GL_RENDERER / GL_VERSION" of the current context.
std::string rendererString();
std::string glVersionString();

// A renderer that runs shaders on the CPU, by its GL_RENDERER string: llvmpipe (zink over lavapipe
// names it too), softpipe, SwiftShader, Microsoft's GDI renderer, or any "software" renderer.
bool isSoftwareRenderer(const std::string& renderer);

}  // namespace murmur::gl
