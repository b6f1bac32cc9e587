// A persistently mapped read-back buffer; see read_buffer.hpp.
#include "gl/read_buffer.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

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

ReadBuffer::ReadBuffer(ReadBuffer&& o) noexcept
    : handle_(std::move(o.handle_)), capacity_(std::exchange(o.capacity_, 0)), mapped_(std::exchange(o.mapped_, nullptr)) {}

ReadBuffer& ReadBuffer::operator=(ReadBuffer&& o) noexcept {
    if (this != &o) {
        if (mapped_ && handle_) glUnmapNamedBuffer(handle_.id());
        handle_ = std::move(o.handle_);
        capacity_ = std::exchange(o.capacity_, 0);
        mapped_ = std::exchange(o.mapped_, nullptr);
    }
    return *this;
}

ReadBuffer::~ReadBuffer() {
    if (mapped_ && handle_) glUnmapNamedBuffer(handle_.id());
}

void ReadBuffer::read(GLuint source, std::size_t offset, std::size_t bytes, void* out) {
    if (!bytes) return;
    if (bytes > capacity_ || !mapped_) throw std::logic_error("a read of " + std::to_string(bytes) + " bytes from a read buffer of " +
                                                             std::to_string(capacity_));
    glCopyNamedBufferSubData(source, handle_.id(), GLintptr(offset), 0, GLsizeiptr(bytes));
    GLsync fence = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!fence) throw std::runtime_error("the GL driver made no fence for a read-back");
    // Coherent mapping: the copy's bytes are visible once the fence has signalled.
    GLenum r = GL_TIMEOUT_EXPIRED;
    for (int second = 0; second < 60 && r == GL_TIMEOUT_EXPIRED; ++second)
        r = glClientWaitSync(fence, second == 0 ? GL_SYNC_FLUSH_COMMANDS_BIT : 0, 1000000000ull);
    glDeleteSync(fence);
    if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED)
        throw std::runtime_error(r == GL_WAIT_FAILED ? "waiting for a read-back failed (the GL context is lost?)"
                                                     : "the GPU did not finish a read-back within 60 s");
    std::memcpy(out, mapped_, bytes);
}

}  // namespace murmur::gl
