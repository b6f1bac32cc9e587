// The read-back buffer; see read_buffer.hpp.
#include "gl/read_buffer.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

namespace murmur::gl {

ReadBuffer::ReadBuffer(std::size_t capacity) : capacity_(capacity) {
    GLuint id = 0;
    glCreateBuffers(1, &id);
    handle_ = Handle<deleteBuffer>(id);
    glNamedBufferStorage(id, GLsizeiptr(capacity > 0 ? capacity : 16), nullptr, GL_MAP_READ_BIT | GL_CLIENT_STORAGE_BIT);
}

ReadBuffer::ReadBuffer(ReadBuffer&& o) noexcept
    : handle_(std::move(o.handle_)), capacity_(std::exchange(o.capacity_, 0)), fence_(std::move(o.fence_)) {}

ReadBuffer& ReadBuffer::operator=(ReadBuffer&& o) noexcept {
    if (this != &o) {
        handle_ = std::move(o.handle_);
        capacity_ = std::exchange(o.capacity_, 0);
        fence_ = std::move(o.fence_);
    }
    return *this;
}

ReadBuffer::~ReadBuffer() = default;

// The copy on the GPU, then a map for reading, which waits for the copy (the driver's implicit
// sync), a memcpy and the unmap. A map per read rather than a persistent, coherent one: the
// plainest path through every driver (with the persistent mapping, two full zink runs each had a
// test crash mid-run, not reproduced alone; the cause was not found).
void ReadBuffer::read(GLuint source, std::size_t offset, std::size_t bytes, void* out) {
    if (!bytes) return;
    queueCopy(source, offset, 0, bytes);
    mapAndCopy(bytes, out);
}

void ReadBuffer::queueCopy(GLuint source, std::size_t src_offset, std::size_t dst_offset, std::size_t bytes) {
    if (!bytes) return;
    if (dst_offset + bytes > capacity_ || !handle_)
        throw std::logic_error("a read of " + std::to_string(bytes) + " bytes at " + std::to_string(dst_offset) + " into a read buffer of " +
                               std::to_string(capacity_));
    glCopyNamedBufferSubData(source, handle_.id(), GLintptr(src_offset), GLintptr(dst_offset), GLsizeiptr(bytes));
}

void ReadBuffer::take(std::size_t bytes, void* out) {
    if (!bytes) return;
    if (bytes > capacity_) throw std::logic_error("a take of " + std::to_string(bytes) + " bytes from a read buffer of " + std::to_string(capacity_));
    fence_.wait();
    fence_ = Fence{};
    mapAndCopy(bytes, out);
    countReadBack(bytes);
}

// A map for reading (which waits for any copy still in flight: the driver's implicit sync), a
// memcpy and the unmap.
void ReadBuffer::mapAndCopy(std::size_t bytes, void* out) {
    const void* mapped = glMapNamedBufferRange(handle_.id(), 0, GLsizeiptr(bytes), GL_MAP_READ_BIT);
    if (!mapped) throw std::runtime_error("the GL driver could not map a read-back of " + std::to_string(bytes) + " bytes");
    std::memcpy(out, mapped, bytes);
    if (!glUnmapNamedBuffer(handle_.id())) throw std::runtime_error("a read-back's memory was lost while mapped (GL_FALSE from glUnmapNamedBuffer)");
}

}  // namespace murmur::gl
