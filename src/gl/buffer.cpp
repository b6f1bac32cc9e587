// Buffer object through the direct-state-access API (GL 4.5).
#include "gl/buffer.hpp"

#include <atomic>

namespace murmur::gl {

namespace {
std::atomic<std::uint64_t> read_back{0};
}  // namespace

std::uint64_t bytesReadBack() { return read_back.load(); }
void countReadBack(std::size_t bytes) { read_back += bytes; }

Buffer::Buffer(std::size_t size, const void* data, GLbitfield flags) : size_(size) {
    GLuint id = 0;
    glCreateBuffers(1, &id);
    handle_ = Handle<deleteBuffer>(id);
    // Zero-size storage is an error in GL; keep 16 bytes so empty flocks still bind.
    const std::size_t bytes = size > 0 ? size : 16;
    glNamedBufferStorage(id, GLsizeiptr(bytes), data, flags);
    if (!data) clearToZero();
}

void Buffer::upload(const void* data, std::size_t bytes, std::size_t offset) {
    if (bytes) glNamedBufferSubData(id(), GLintptr(offset), GLsizeiptr(bytes), data);
}

void Buffer::download(void* data, std::size_t bytes, std::size_t offset) const {
    if (!bytes) return;
    // Shader writes become visible to buffer reads only after this barrier (GL 4.6, 7.13.2).
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    if (staging_.capacity() < bytes) staging_ = ReadBuffer(bytes);
    staging_.read(id(), offset, bytes, data);
    countReadBack(bytes);
}

void Buffer::clearToZero() { glClearNamedBufferData(id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr); }

void Buffer::clearTo(std::uint32_t word) {
    glClearNamedBufferData(id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &word);
}

void Buffer::copyFrom(const Buffer& source, std::size_t bytes) {
    if (bytes) glCopyNamedBufferSubData(source.id(), id(), 0, 0, GLsizeiptr(bytes));
}

void Buffer::bindBase(GLenum target, GLuint index) const { glBindBufferBase(target, index, id()); }

void Buffer::bindRange(GLenum target, GLuint index, std::size_t offset, std::size_t bytes) const {
    glBindBufferRange(target, index, id(), GLintptr(offset), GLsizeiptr(bytes));
}

}  // namespace murmur::gl
