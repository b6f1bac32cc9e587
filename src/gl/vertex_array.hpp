// A vertex array object. murmur's boid shaders pull their data from storage buffers, so most
// draws bind an empty one (core profile requires some VAO bound); the line overlay attaches a
// vertex buffer through the direct-state-access API.
#pragma once

#include "gl/buffer.hpp"
#include "gl/handle.hpp"

namespace murmur::gl {

class VertexArray {
public:
    VertexArray() {
        GLuint id = 0;
        glCreateVertexArrays(1, &id);
        handle_ = Handle<deleteVertexArray>(id);
    }
    GLuint id() const { return handle_.id(); }
    void bind() const { glBindVertexArray(id()); }
    // Float attribute `index` with `components` floats at `offset` in each `stride`-byte vertex
    // of binding point 0.
    void floatAttribute(GLuint index, GLint components, GLuint offset) {
        glEnableVertexArrayAttrib(id(), index);
        glVertexArrayAttribFormat(id(), index, components, GL_FLOAT, GL_FALSE, offset);
        glVertexArrayAttribBinding(id(), index, 0);
    }
    void vertexBuffer(const Buffer& buffer, GLsizei stride) { glVertexArrayVertexBuffer(id(), 0, buffer.id(), 0, stride); }

private:
    Handle<deleteVertexArray> handle_;
};

}  // namespace murmur::gl
