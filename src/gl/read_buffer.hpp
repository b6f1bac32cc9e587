// The one way bytes come back from the GPU: a buffer in host memory (client storage, mapped for
// reading) that a GPU buffer's bytes are copied into on the GPU, then read. Reading a compute
// buffer directly (glGetNamedBufferSubData) makes some drivers move that buffer to host memory
// (NVIDIA says so: "copied/moved from VIDEO memory to HOST memory"), and the steps after it then
// run on a buffer in the wrong memory.
#pragma once

#include "gl/handle.hpp"

#include <cstddef>

namespace murmur::gl {

class ReadBuffer {
public:
    ReadBuffer() = default;
    explicit ReadBuffer(std::size_t capacity);
    ReadBuffer(ReadBuffer&& o) noexcept;
    ReadBuffer& operator=(ReadBuffer&& o) noexcept;
    ReadBuffer(const ReadBuffer&) = delete;
    ReadBuffer& operator=(const ReadBuffer&) = delete;
    ~ReadBuffer();

    std::size_t capacity() const { return capacity_; }
    // bytes of `source` from `offset` into out: a copy on the GPU, then a map for reading (which
    // waits for the copy) and a memcpy. bytes <= capacity() (else std::logic_error). The caller has
    // issued the barrier that makes shader writes visible to buffer copies. Throws
    // std::runtime_error if the driver cannot map it or loses it (never stale bytes).
    void read(GLuint source, std::size_t offset, std::size_t bytes, void* out);

private:
    Handle<deleteBuffer> handle_;
    std::size_t capacity_ = 0;
};

}  // namespace murmur::gl
