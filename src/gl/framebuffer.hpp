// Renderbuffers and framebuffer objects, for offscreen frames (headless screenshots, render
// tests) where there is no window and no default framebuffer.
#pragma once

#include "gl/handle.hpp"

#include <cstdint>
#include <vector>

namespace murmur::gl {

class Renderbuffer {
public:
    Renderbuffer() = default;
    Renderbuffer(GLenum format, int width, int height);
    GLuint id() const { return handle_.id(); }

private:
    Handle<deleteRenderbuffer> handle_;
};

// An RGBA8 colour + 24-bit depth target of a fixed size.
class Framebuffer {
public:
    // Throws std::runtime_error if the driver says the framebuffer is incomplete.
    Framebuffer(int width, int height);
    GLuint id() const { return handle_.id(); }
    int width() const { return width_; }
    int height() const { return height_; }
    // Binds for drawing and sets the viewport to the whole target.
    void bind() const;
    // RGBA8 pixels, bottom row first (GL order).
    std::vector<std::uint8_t> readRgba() const;

private:
    Handle<deleteFramebuffer> handle_;
    Renderbuffer colour_, depth_;
    int width_ = 0, height_ = 0;
};

// A float colour target for sums drawn with additive blending (RGBA32F, no depth), its texture
// read back by a later pass with texelFetch: the renderer's density splats.
class SumTarget {
public:
    SumTarget() = default;
    // Throws std::runtime_error if the driver says the framebuffer is incomplete.
    SumTarget(int width, int height);
    int width() const { return width_; }
    int height() const { return height_; }
    // Binds for drawing, sets the viewport to the whole target and clears it to zero.
    void bindCleared() const;
    void bindTexture(GLuint unit) const { glBindTextureUnit(unit, texture_.id()); }

private:
    Handle<deleteFramebuffer> handle_;
    Handle<deleteTexture> texture_;
    int width_ = 0, height_ = 0;
};

// RGBA8 pixels of the bound read framebuffer's region, bottom row first.
std::vector<std::uint8_t> readPixelsRgba(GLuint framebuffer, int width, int height);

}  // namespace murmur::gl
