// A GL buffer object (immutable storage via glBufferStorage-like named API) with typed upload,
// download and binding to indexed targets (shader storage, uniform).
#pragma once

#include "gl/handle.hpp"
#include "gl/read_buffer.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace murmur::gl {

// Bytes read back from GPU buffers by this process so far: every buffer read goes through a
// ReadBuffer (Buffer::download, or a read queued and taken later), copied into it on the GPU
// (murmur never reads a compute buffer with glGetNamedBufferSubData), so a caller can measure
// what a sample or a frame costs the bus.
std::uint64_t bytesReadBack();

class Buffer {
public:
    Buffer() = default;
    // size bytes of storage, zero-filled; data may be null. flags: glNamedBufferStorage flags.
    explicit Buffer(std::size_t size, const void* data = nullptr, GLbitfield flags = GL_DYNAMIC_STORAGE_BIT);

    GLuint id() const { return handle_.id(); }
    std::size_t size() const { return size_; }
    explicit operator bool() const { return bool(handle_); }

    void upload(const void* data, std::size_t bytes, std::size_t offset = 0);
    // Through this buffer's own ReadBuffer (made at the first read, grown to the largest read),
    // so the buffer itself stays where the driver put it.
    void download(void* data, std::size_t bytes, std::size_t offset = 0) const;
    template <class T>
    std::vector<T> read(std::size_t count, std::size_t first = 0) const {
        std::vector<T> out(count);
        if (count) download(out.data(), count * sizeof(T), first * sizeof(T));
        return out;
    }
    void clearToZero();
    void clearTo(std::uint32_t word);  // every 32-bit word of it
    // The first `bytes` of `source` into this buffer's start, on the GPU (nothing is read back).
    void copyFrom(const Buffer& source, std::size_t bytes);
    void bindBase(GLenum target, GLuint index) const;
    void bindRange(GLenum target, GLuint index, std::size_t offset, std::size_t bytes) const;

private:
    Handle<deleteBuffer> handle_;
    std::size_t size_ = 0;
    mutable ReadBuffer staging_;
};

}  // namespace murmur::gl
