// Move-only ownership of one GL object name: copy deleted, a noexcept move that zeroes the
// source, and the kind's delete function in the destructor. Each object kind (buffer, shader,
// program, vertex array, framebuffer, texture, query) is a small class built on this.
#pragma once

#include "gl/gl.hpp"

#include <utility>

namespace murmur::gl {

template <void (*Delete)(GLuint)>
class Handle {
public:
    Handle() = default;
    explicit Handle(GLuint id) : id_(id) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
    Handle& operator=(Handle&& o) noexcept {
        if (this != &o) {
            reset();
            id_ = std::exchange(o.id_, 0);
        }
        return *this;
    }
    ~Handle() { reset(); }

    GLuint id() const { return id_; }
    explicit operator bool() const { return id_ != 0; }
    void reset() {
        if (id_) Delete(id_);
        id_ = 0;
    }

private:
    GLuint id_ = 0;
};

// Adapters from the glDelete*(n, names) form to a single name.
inline void deleteBuffer(GLuint id) { glDeleteBuffers(1, &id); }
inline void deleteVertexArray(GLuint id) { glDeleteVertexArrays(1, &id); }
inline void deleteFramebuffer(GLuint id) { glDeleteFramebuffers(1, &id); }
inline void deleteTexture(GLuint id) { glDeleteTextures(1, &id); }
inline void deleteRenderbuffer(GLuint id) { glDeleteRenderbuffers(1, &id); }
inline void deleteQuery(GLuint id) { glDeleteQueries(1, &id); }
inline void deleteShader(GLuint id) { glDeleteShader(id); }
inline void deleteProgram(GLuint id) { glDeleteProgram(id); }

}  // namespace murmur::gl
