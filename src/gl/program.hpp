// Shader and program objects. Building reports the stage, the file and line, and the driver's
// whole log as a ShaderError; callers keep their last good program when a rebuild fails.
#pragma once

#include "gl/handle.hpp"
#include "gl/shader_source.hpp"

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace murmur::gl {

class ShaderError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Shader {
public:
    // Throws ShaderError("compile error in <stage> shader <file>: <annotated log>").
    Shader(GLenum stage, const AssembledShader& source);
    GLuint id() const { return handle_.id(); }

private:
    Handle<deleteShader> handle_;
};

class Program {
public:
    Program() = default;
    explicit Program(const std::vector<const Shader*>& shaders, const std::string& label);
    GLuint id() const { return handle_.id(); }
    explicit operator bool() const { return bool(handle_); }
    void use() const { glUseProgram(id()); }
    // Uniform location by name (-1 if the linker dropped it; setting -1 is a no-op in GL), asked
    // of the driver once per name and cached.
    GLint uniform(const char* name) const;

private:
    Handle<deleteProgram> handle_;
    mutable std::unordered_map<std::string, GLint> locations_;
};

const char* stageName(GLenum stage);

// A compute program from one .comp file of the library with the given defines.
Program buildCompute(const ShaderLibrary& lib, const std::string& file, const std::vector<ShaderDefine>& defines);
// A vertex + fragment program from two files of the library, both with the given defines.
Program buildGraphics(const ShaderLibrary& lib, const std::string& vertex, const std::string& fragment,
                      const std::vector<ShaderDefine>& defines);

}  // namespace murmur::gl
