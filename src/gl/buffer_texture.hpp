// A buffer texture: a texture object whose texels are a buffer's contents (GL 4.5, 8.9), so a
// shader can read a storage buffer through texelFetch. Reading the sorted copy this way lets the
// driver gather eight lanes' texels at once where its storage-buffer loads go lane by lane
// (llvmpipe), and sends read-only neighbour data through the texture cache on a GPU.
#pragma once

#include "gl/buffer.hpp"
#include "gl/handle.hpp"

#include <cstdint>

namespace murmur::gl {

class BufferTexture {
public:
    BufferTexture() = default;
    // A view of the whole of `buffer` as texels of `format` (e.g. GL_RGBA32UI, GL_R32UI). The
    // buffer must outlive the texture's use; a new buffer needs a new view.
    BufferTexture(const Buffer& buffer, GLenum format);

    GLuint id() const { return handle_.id(); }
    explicit operator bool() const { return bool(handle_); }
    void bindUnit(GLuint unit) const;
    // To image unit `unit` as an image of its own format, read and written (imageLoad, imageStore).
    void bindImage(GLuint unit) const;

private:
    Handle<deleteTexture> handle_;
    GLenum format_ = 0;
};

// GL_MAX_TEXTURE_BUFFER_SIZE: the most texels one buffer texture shows (65,536 at least; what a
// read past it returns is undefined without robust access, so what is read through one must fit).
std::uint64_t maxBufferTexels();

}  // namespace murmur::gl
