// The files of shaders/, embedded at build time (generated embedded_shaders.cpp).
#pragma once

#include <span>

namespace murmur::gl {

struct EmbeddedShader {
    const char* name;  // file name within shaders/, e.g. "flock_steer.comp"
    const char* text;
};

std::span<const EmbeddedShader> embeddedShaders();

}  // namespace murmur::gl
