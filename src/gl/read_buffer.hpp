// The one way bytes come back from the GPU: a buffer in host memory (client storage, mapped for
// reading) that a GPU buffer's bytes are copied into on the GPU, then read. Reading a compute
// buffer directly (glGetNamedBufferSubData) makes some drivers move that buffer to host memory
// (NVIDIA says so: "copied/moved from VIDEO memory to HOST memory"), and the steps after it then
// run on a buffer in the wrong memory.
#pragma once

#include "gl/fence.hpp"
#include "gl/handle.hpp"

#include <cstddef>

namespace murmur::gl {

void countReadBack(std::size_t bytes);  // bytesReadBack() (buffer.hpp) grows by `bytes`

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

    // The same without waiting: copies queued on the GPU (each `bytes` of `source` from
    // `src_offset` to `dst_offset` here; the caller's barrier first), then land() puts a fence
    // behind them. landed() asks, without waiting, whether they are done; take() reads the first
    // `bytes` (waiting for the fence if they are not). Counted in bytesReadBack() when taken.
    void queueCopy(GLuint source, std::size_t src_offset, std::size_t dst_offset, std::size_t bytes);
    void land() { fence_ = Fence::afterIssued(); }
    bool landed() const { return fence_.signalled(); }
    void take(std::size_t bytes, void* out);

private:
    void mapAndCopy(std::size_t bytes, void* out);

    Handle<deleteBuffer> handle_;
    std::size_t capacity_ = 0;
    Fence fence_;
};

}  // namespace murmur::gl
