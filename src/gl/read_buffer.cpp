// A persistently mapped read-back buffer; see read_buffer.hpp.
#include "gl/read_buffer.hpp"

#include <cstring>
#include <stdexcept>

namespace murmur::gl {

namespace {
constexpr GLbitfield kMapFlags = GL_MAP_READ_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
}  // namespace

ReadBuffer::ReadBuffer(std::size_t capacity) : capacity_(capacity) {
    GLuint id = 0;
    glCreateBuffers(1, &id);
    handle_ = Handle<deleteBuffer>(id);
    glNamedBufferStorage(id, GLsizeiptr(capacity > 0 ? capacity : 16), nullptr, kMapFlags | GL_CLIENT_STORAGE_BIT);
    mapped_ = glMapNamedBufferRange(id, 0, GLsizeiptr(capacity > 0 ? capacity : 16), kMapFlags);
    if (!mapped_)
        throw std::runtime_error("the GL driver could not map a read-back buffer of " + std::to_string(capacity) +
                                 " bytes");
}

ReadBuffer::~ReadBuffer() {
    if (mapped_ && handle_) glUnmapNamedBuffer(handle_.id());
}

void ReadBuffer::read(GLuint source, std::size_t offset, std::size_t bytes, void* out) {
    if (!bytes) return;
    glCopyNamedBufferSubData(source, handle_.id(), GLintptr(offset), 0, GLsizeiptr(bytes));
    GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    // Coherent mapping: the copy's bytes are visible once the fence has signalled.
    for (GLbitfield flags = GL_SYNC_FLUSH_COMMANDS_BIT;; flags = 0) {
        const GLenum r = glClientWaitSync(fence, flags, 1000000000ull);
        if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED || r == GL_WAIT_FAILED) break;
    }
    glDeleteSync(fence);
    std::memcpy(out, mapped_, bytes);
}

}  // namespace murmur::gl
