// EGL display selection and context creation; see egl_context.hpp.
#include "gl/egl_context.hpp"

#include <atomic>

#include <unistd.h>

#include "gl/egl_devices.hpp"
#include "gl/gl.hpp"

#include <glad/egl.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <vector>

namespace murmur::gl {

struct HeadlessContext::Impl {
    EGLDisplay display = EGL_NO_DISPLAY;
    EGLContext context = EGL_NO_CONTEXT;
    // What was current on the creating thread before this context: made current again when this
    // one ends while current (a CLI run in-process hands the caller's context back).
    EGLDisplay previous_display = EGL_NO_DISPLAY;
    EGLContext previous_context = EGL_NO_CONTEXT;
    EGLSurface previous_draw = EGL_NO_SURFACE;
    EGLSurface previous_read = EGL_NO_SURFACE;
    // What was current on a thread that borrowed this context (borrow/giveBack).
    EGLDisplay lender_display = EGL_NO_DISPLAY;
    EGLContext lender_context = EGL_NO_CONTEXT;
    EGLSurface lender_draw = EGL_NO_SURFACE, lender_read = EGL_NO_SURFACE;
};

namespace {

// The EGL displays murmur's contexts use, each with the number of murmur contexts (or attempts)
// holding it. An EGL display is one per device and platform in a process, and eglTerminate ends
// every context on it, other clients' too: a display is terminated only when its last holder lets
// it go, and never when it was already initialized by someone else (the caller's own EGL).
struct DisplayUse {
    int holders = 0;
    bool ours = true;  // initialized by murmur, so murmur may terminate it
};
std::mutex g_displays_mutex;
std::map<EGLDisplay, DisplayUse>& displays() {
    static std::map<EGLDisplay, DisplayUse> uses;
    return uses;
}

// eglInitialize, counted. False if the display cannot be initialized.
bool holdDisplay(EGLDisplay display) {
    const std::lock_guard<std::mutex> lock(g_displays_mutex);
    DisplayUse& use = displays()[display];
    if (use.holders == 0) use.ours = eglQueryString(display, EGL_VERSION) == nullptr;  // not yet initialized
    EGLint major = 0, minor = 0;
    if (!eglInitialize(display, &major, &minor)) {
        if (use.holders == 0) displays().erase(display);
        return false;
    }
    ++use.holders;
    return true;
}

// The counterpart of holdDisplay: terminates the display with its last murmur holder.
void releaseDisplay(EGLDisplay display) {
    const std::lock_guard<std::mutex> lock(g_displays_mutex);
    const auto found = displays().find(display);
    if (found == displays().end() || --found->second.holders > 0) return;
    if (found->second.ours) eglTerminate(display);
    displays().erase(found);
}

bool hasExtension(const char* list, const char* name) {
    if (!list) return false;
    const std::size_t n = std::strlen(name);
    for (const char* p = std::strstr(list, name); p; p = std::strstr(p + 1, name))
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
    return false;
}

// murmur's live contexts: when one ends, those made on top of it take over what it would have
// made current again, so ending contexts out of order still hands back the first caller's.
std::vector<HeadlessContext::Impl*>& liveContexts() {
    static std::vector<HeadlessContext::Impl*> live;
    return live;
}

void spliceOut(HeadlessContext::Impl* ended) {
    const std::lock_guard<std::mutex> lock(g_displays_mutex);
    auto& live = liveContexts();
    live.erase(std::remove(live.begin(), live.end(), ended), live.end());
    for (HeadlessContext::Impl* c : live)
        if (c->previous_context == ended->context) {
            c->previous_display = ended->previous_display;
            c->previous_context = ended->previous_context;
            c->previous_draw = ended->previous_draw;
            c->previous_read = ended->previous_read;
        }
}

// What is current on this thread now (EGL 1.0's eglGetCurrentDisplay first: the loader has only
// EGL 1.0's functions before it knows a display).
void rememberCurrent(HeadlessContext::Impl& impl) {
    impl.previous_display = eglGetCurrentDisplay();
    if (impl.previous_display == EGL_NO_DISPLAY || !gladLoaderLoadEGL(impl.previous_display) || !eglGetCurrentContext) return;
    impl.previous_context = eglGetCurrentContext();
    impl.previous_draw = eglGetCurrentSurface(EGL_DRAW);
    impl.previous_read = eglGetCurrentSurface(EGL_READ);
}

// Makes current again what was current before the context (or none, if that is gone).
void restorePrevious(const HeadlessContext::Impl& impl) {
    if (impl.previous_context != EGL_NO_CONTEXT &&
        eglMakeCurrent(impl.previous_display, impl.previous_draw, impl.previous_read, impl.previous_context))
        return;
    const EGLDisplay current = eglGetCurrentDisplay();
    if (current != EGL_NO_DISPLAY) eglMakeCurrent(current, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

// Tries to make a 4.5 core context current on display; returns a description of the
// failure, or "" on success.
std::string tryDisplay(EGLDisplay display, bool debug, HeadlessContext::Impl& impl) {
    if (display == EGL_NO_DISPLAY) return "no display";
    if (!holdDisplay(display)) return "eglInitialize failed";
    if (!gladLoaderLoadEGL(display)) {
        releaseDisplay(display);
        return "cannot load EGL functions";
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        releaseDisplay(display);
        return "no desktop OpenGL API";
    }
    // A pbuffer-capable config: Mesa's surfaceless and device platforms offer none for a bare
    // EGL_OPENGL_BIT request; with no config at all, EGL_KHR_no_config_context still works.
    const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint n = 0;
    const bool no_config = hasExtension(eglQueryString(display, EGL_EXTENSIONS), "EGL_KHR_no_config_context");
    if ((!eglChooseConfig(display, config_attribs, &config, 1, &n) || n == 0) && !no_config) {
        releaseDisplay(display);
        return "no OpenGL config";
    }
    if (n == 0) config = EGL_NO_CONFIG_KHR;
    std::string found = "none";
    // 4.5 is what murmur needs (direct state access); 4.3 is asked too, only to name what the
    // driver has. The debug flag is EGL_KHR_create_context's (EGL 1.4 displays have no
    // EGL_CONTEXT_OPENGL_DEBUG).
    for (EGLint want_minor : {5, 3}) {
        const EGLint ctx_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, want_minor,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                      EGL_CONTEXT_FLAGS_KHR, debug ? EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR : 0, EGL_NONE};
        EGLContext ctx = eglCreateContext(display, config, EGL_NO_CONTEXT, ctx_attribs);
        if (ctx == EGL_NO_CONTEXT) continue;
        if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx) &&
            gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)) && GLAD_GL_VERSION_4_5) {
            impl.display = display;
            impl.context = ctx;
            return "";
        }
        if (glGetString) found = reinterpret_cast<const char*>(glGetString(GL_VERSION));
        restorePrevious(impl);
        eglDestroyContext(display, ctx);
    }
    releaseDisplay(display);
    return "no OpenGL 4.5 core context (murmur uses 4.5's direct state access; found: " + found + ")";
}

}  // namespace

void workAroundDriverBugs() { setenv("ZINK_INLINE_UNIFORMS", "false", 0); }

HeadlessContext::HeadlessContext(bool debug) : impl_(std::make_unique<Impl>()), thread_(std::this_thread::get_id()) {
    if (const auto forked = forkedAfterContext()) throw ContextError(*forked);
    workAroundDriverBugs();
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) throw ContextError("cannot load libEGL (is libegl1 installed?)");
    rememberCurrent(*impl_);
    const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    std::string tried;
    auto attempt = [&](const std::string& what, const std::function<EGLDisplay()>& get) {
        const std::string err = tryDisplay(get(), debug, *impl_);
        if (err.empty()) {
            platform_ = what;
            registerLive();
            return true;
        }
        tried += "\n  " + what + ": " + err;
        return false;
    };

    // 1. EGL device platform: the device MURMUR_EGL_DEVICE or CUDA_VISIBLE_DEVICES names (only it),
    // else NVIDIA devices first, then other hardware (egl_devices.hpp).
    const DeviceChoice choice = chooseEglDevices(eglDevices());
    if (!choice.problem.empty()) throw ContextError(choice.problem);
    for (const EglDevice& d : choice.order)
        if (attempt(d.describe(), [&] { return eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, d.handle, nullptr); })) return;
    if (choice.named) throw ContextError("the EGL device asked for could not make an OpenGL 4.5 context; tried:" + tried);
    if (choice.order.empty()) tried += "\n  EGL device platform: no hardware devices";
    // 2. Mesa's surfaceless platform (llvmpipe on a machine with no GPU).
    if (hasExtension(client, "EGL_MESA_platform_surfaceless")) {
        if (attempt("EGL surfaceless (Mesa)",
                    [] { return eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr); }))
            return;
    } else {
        tried += "\n  EGL surfaceless platform: not supported";
    }
    // 3. The default display.
    if (attempt("EGL default display", [] { return eglGetDisplay(EGL_DEFAULT_DISPLAY); })) return;
    throw ContextError("no OpenGL 4.5 context could be created; tried:" + tried);
}

// Ends this context only: the previous one becomes current again if this one was current, and
// the display stays initialized while another murmur context (or the caller) uses it.
HeadlessContext::~HeadlessContext() {
    if (impl_->display == EGL_NO_DISPLAY) return;
    if (eglGetCurrentContext() == impl_->context) {
        glFinish();  // no work in flight while the driver tears down
        restorePrevious(*impl_);
    }
    spliceOut(impl_.get());
    eglDestroyContext(impl_->display, impl_->context);
    releaseDisplay(impl_->display);
}

namespace {
std::atomic<long> g_context_pid{0};  // the process that made a context, once one has
}  // namespace

std::optional<std::string> forkedAfterContext() {
    const long made_in = g_context_pid.load();
    if (made_in == 0 || made_in == long(::getpid())) return std::nullopt;
    return "this process was forked (os.fork, or multiprocessing's default 'fork' start method) from process " +
           std::to_string(made_in) + ", which had made murmur's OpenGL context; a forked child cannot use OpenGL: use the "
           "'spawn' or 'forkserver' start method (multiprocessing.get_context('spawn')), or make GPU flocks only in "
           "processes that are not forked from one that made one";
}

void HeadlessContext::registerLive() {
    g_context_pid.store(long(::getpid()));
    const std::lock_guard<std::mutex> lock(g_displays_mutex);
    liveContexts().push_back(impl_.get());
}

bool HeadlessContext::isCurrent() const { return eglGetCurrentContext() == impl_->context; }

bool HeadlessContext::borrow() {
    if (impl_->display == EGL_NO_DISPLAY) return false;
    const EGLDisplay display = eglGetCurrentDisplay();
    const EGLContext context = eglGetCurrentContext();
    const EGLSurface draw = eglGetCurrentSurface(EGL_DRAW), read = eglGetCurrentSurface(EGL_READ);
    if (eglMakeCurrent(impl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, impl_->context) != EGL_TRUE)
        return false;  // EGL_BAD_ACCESS: current on another thread
    impl_->lender_display = display, impl_->lender_context = context, impl_->lender_draw = draw, impl_->lender_read = read;
    return true;
}

void HeadlessContext::giveBack() {
    glFinish();
    if (impl_->lender_context != EGL_NO_CONTEXT &&
        eglMakeCurrent(impl_->lender_display, impl_->lender_draw, impl_->lender_read, impl_->lender_context))
        return;
    eglMakeCurrent(impl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

void HeadlessContext::letGo() {
    if (!isCurrent()) return;
    glFinish();
    eglMakeCurrent(impl_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
}

std::string rendererString() {
    const auto* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return r ? r : "unknown renderer";
}

bool isSoftwareRenderer(const std::string& renderer) {
    std::string r = renderer;
    std::transform(r.begin(), r.end(), r.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    for (const char* name : {"llvmpipe", "softpipe", "swiftshader", "software", "gdi generic", "swrast"})
        if (r.find(name) != std::string::npos) return true;
    return false;
}

std::string glVersionString() {
    const auto* v = reinterpret_cast<const char*>(glGetString(GL_VERSION));
    return v ? v : "unknown version";
}

}  // namespace murmur::gl
