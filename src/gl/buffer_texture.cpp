// Buffer texture through the direct-state-access API (GL 4.5).
#include "gl/buffer_texture.hpp"

namespace murmur::gl {

BufferTexture::BufferTexture(const Buffer& buffer, GLenum format) : format_(format) {
    GLuint id = 0;
    glCreateTextures(GL_TEXTURE_BUFFER, 1, &id);
    handle_ = Handle<deleteTexture>(id);
    glTextureBuffer(id, format, buffer.id());
}

void BufferTexture::bindUnit(GLuint unit) const { glBindTextureUnit(unit, id()); }

void BufferTexture::bindImage(GLuint unit) const { glBindImageTexture(unit, id(), 0, GL_FALSE, 0, GL_READ_WRITE, format_); }

std::uint64_t maxBufferTexels() {
    GLint64 texels = 0;  // 64-bit: some drivers allow 2^32 - 1
    glGetInteger64v(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
    return std::uint64_t(texels);
}

}  // namespace murmur::gl
