// Debug callback: errors to stderr and counted; the driver's advice counted, printed if verbose.
#include "gl/debug.hpp"

#include "gl/egl_context.hpp"
#include "gl/gl.hpp"
#include "io/env_switch.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace murmur::gl {
namespace {

std::atomic<std::uint64_t> g_errors{0};
std::atomic<std::uint64_t> g_performance{0};
std::atomic<bool> g_verbose{false};

bool verboseFromEnvironment() {
    return envSwitch("MURMUR_GL_DEBUG").value_or(false);
}

const char* typeName(GLenum type) {
    switch (type) {
        case GL_DEBUG_TYPE_ERROR: return "error";
        case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR: return "undefined behaviour";
        case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR: return "deprecated behaviour";
        case GL_DEBUG_TYPE_PERFORMANCE: return "performance";
        case GL_DEBUG_TYPE_PORTABILITY: return "portability";
        default: return "message";
    }
}

void GLAD_API_PTR onMessage(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei /*length*/,
                            const GLchar* message, const void* /*user*/) {
    // Shader compile errors reach the caller whole, with file and line, as a ShaderError.
    if (source == GL_DEBUG_SOURCE_SHADER_COMPILER) return;
    if (type == GL_DEBUG_TYPE_ERROR) ++g_errors;
    if (type == GL_DEBUG_TYPE_PERFORMANCE) ++g_performance;
    const bool always = type == GL_DEBUG_TYPE_ERROR || type == GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR ||
                        type == GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR;
    if (!always && !g_verbose) return;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION && !g_verbose) return;
    std::fprintf(stderr, "murmur: GL %s (id %u): %s\n", typeName(type), id, message);
}

}  // namespace

void setVerboseDebugOutput(bool verbose) { g_verbose = verbose; }

void enableDebugOutput() {
    if (verboseFromEnvironment()) g_verbose = true;
    if (!GLAD_GL_VERSION_4_3 && !GLAD_GL_KHR_debug) return;
    glEnable(GL_DEBUG_OUTPUT);
    // Synchronous output makes a hardware driver finish each call before the next (a cost on
    // every dispatch): there only with --gl-debug, where a message must name its call. Software
    // renderers keep it, so that a test's error count includes its own calls' errors.
    if (g_verbose || isSoftwareRenderer(rendererString())) glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    else glDisable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(onMessage, nullptr);
}

std::uint64_t takeErrorCount() {
    std::uint64_t n = g_errors.exchange(0);
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
        std::fprintf(stderr, "murmur: glGetError 0x%04x\n", e);
        ++n;
    }
    return n;
}

std::uint64_t performanceMessageCount() { return g_performance.load(); }

}  // namespace murmur::gl
