// Debug callback: errors and warnings to stderr, counted.
#include "gl/debug.hpp"

#include "gl/gl.hpp"

#include <atomic>
#include <cstdio>

namespace murmur::gl {
namespace {

std::atomic<std::uint64_t> g_errors{0};
bool g_verbose = false;

void GLAD_API_PTR onMessage(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei /*length*/,
                            const GLchar* message, const void* /*user*/) {
    // Shader compile errors reach the caller whole, with file and line, as a ShaderError.
    if (source == GL_DEBUG_SOURCE_SHADER_COMPILER) return;
    if (type == GL_DEBUG_TYPE_ERROR) ++g_errors;
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION && !g_verbose) return;
    std::fprintf(stderr, "murmur: GL %s (id %u): %s\n",
                 type == GL_DEBUG_TYPE_ERROR ? "error" : (type == GL_DEBUG_TYPE_PERFORMANCE ? "performance" : "message"),
                 id, message);
}

}  // namespace

void enableDebugOutput(bool verbose) {
    g_verbose = verbose;
    if (!GLAD_GL_VERSION_4_3 && !GLAD_GL_KHR_debug) return;
    glEnable(GL_DEBUG_OUTPUT);
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
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

}  // namespace murmur::gl
