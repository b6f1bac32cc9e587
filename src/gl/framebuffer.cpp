// Framebuffer objects through the direct-state-access API (GL 4.5).
#include "gl/framebuffer.hpp"

#include <stdexcept>
#include <string>

namespace murmur::gl {

Renderbuffer::Renderbuffer(GLenum format, int width, int height) {
    GLuint id = 0;
    glCreateRenderbuffers(1, &id);
    handle_ = Handle<deleteRenderbuffer>(id);
    glNamedRenderbufferStorage(id, format, width, height);
}

Framebuffer::Framebuffer(int width, int height)
    : colour_(GL_RGBA8, width, height), depth_(GL_DEPTH_COMPONENT24, width, height), width_(width), height_(height) {
    GLuint id = 0;
    glCreateFramebuffers(1, &id);
    handle_ = Handle<deleteFramebuffer>(id);
    glNamedFramebufferRenderbuffer(id, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour_.id());
    glNamedFramebufferRenderbuffer(id, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.id());
    const GLenum status = glCheckNamedFramebufferStatus(id, GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw std::runtime_error("offscreen framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
                                 " is incomplete (glCheckFramebufferStatus " + std::to_string(status) + ")");
}

void Framebuffer::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, id());
    glViewport(0, 0, width_, height_);
}

SumTarget::SumTarget(int width, int height) : width_(width), height_(height) {
    GLuint tex = 0, fbo = 0;
    glCreateTextures(GL_TEXTURE_2D, 1, &tex);
    texture_ = Handle<deleteTexture>(tex);
    glTextureStorage2D(tex, 1, GL_RGBA32F, width, height);  // counts exact to 2^24 a pixel
    glCreateFramebuffers(1, &fbo);
    handle_ = Handle<deleteFramebuffer>(fbo);
    glNamedFramebufferTexture(fbo, GL_COLOR_ATTACHMENT0, tex, 0);
    const GLenum status = glCheckNamedFramebufferStatus(fbo, GL_FRAMEBUFFER);
    if (status != GL_FRAMEBUFFER_COMPLETE)
        throw std::runtime_error("sum target " + std::to_string(width) + "x" + std::to_string(height) +
                                 " is incomplete (glCheckFramebufferStatus " + std::to_string(status) + ")");
}

void SumTarget::bindCleared() const {
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, handle_.id());
    glViewport(0, 0, width_, height_);
    const float zero[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    glClearNamedFramebufferfv(handle_.id(), GL_COLOR, 0, zero);
}

std::vector<std::uint8_t> Framebuffer::readRgba() const { return readPixelsRgba(id(), width_, height_); }

std::vector<std::uint8_t> readPixelsRgba(GLuint framebuffer, int width, int height) {
    std::vector<std::uint8_t> pixels(std::size_t(width) * std::size_t(height) * 4);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
    return pixels;
}

}  // namespace murmur::gl
