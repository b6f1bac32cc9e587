// Compile and link with full error reporting.
#include "gl/program.hpp"

namespace murmur::gl {

const char* stageName(GLenum stage) {
    switch (stage) {
        case GL_COMPUTE_SHADER: return "compute";
        case GL_VERTEX_SHADER: return "vertex";
        case GL_FRAGMENT_SHADER: return "fragment";
        case GL_GEOMETRY_SHADER: return "geometry";
        default: return "unknown-stage";
    }
}

Shader::Shader(GLenum stage, const AssembledShader& source) : handle_(glCreateShader(stage)) {
    const char* text = source.text.c_str();
    glShaderSource(id(), 1, &text, nullptr);
    glCompileShader(id());
    GLint ok = GL_FALSE, length = 0;
    glGetShaderiv(id(), GL_COMPILE_STATUS, &ok);
    if (ok) return;
    glGetShaderiv(id(), GL_INFO_LOG_LENGTH, &length);
    std::string log(std::size_t(std::max(length, 1)), '\0');
    glGetShaderInfoLog(id(), GLsizei(log.size()), nullptr, log.data());
    log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
    throw ShaderError(std::string("compile error in ") + stageName(stage) + " shader " + source.files.front() + ":\n" +
                      annotateLog(log, source.files));
}

Program::Program(const std::vector<const Shader*>& shaders, const std::string& label) : handle_(glCreateProgram()) {
    for (const Shader* s : shaders) glAttachShader(id(), s->id());
    glLinkProgram(id());
    for (const Shader* s : shaders) glDetachShader(id(), s->id());
    GLint ok = GL_FALSE, length = 0;
    glGetProgramiv(id(), GL_LINK_STATUS, &ok);
    if (ok) {
        glObjectLabel(GL_PROGRAM, id(), GLsizei(label.size()), label.c_str());
        return;
    }
    glGetProgramiv(id(), GL_INFO_LOG_LENGTH, &length);
    std::string log(std::size_t(std::max(length, 1)), '\0');
    glGetProgramInfoLog(id(), GLsizei(log.size()), nullptr, log.data());
    throw ShaderError("link error in program " + label + ":\n" + log);
}

Program buildCompute(const ShaderLibrary& lib, const std::string& file, const std::vector<ShaderDefine>& defines) {
    const Shader shader(GL_COMPUTE_SHADER, lib.assemble(file, defines));
    return Program({&shader}, file);
}

Program buildGraphics(const ShaderLibrary& lib, const std::string& vertex, const std::string& fragment,
                      const std::vector<ShaderDefine>& defines) {
    const Shader vs(GL_VERTEX_SHADER, lib.assemble(vertex, defines));
    const Shader fs(GL_FRAGMENT_SHADER, lib.assemble(fragment, defines));
    return Program({&vs, &fs}, vertex + "+" + fragment);
}

GLint Program::uniform(const char* name) const {
    const auto found = locations_.find(name);
    if (found != locations_.end()) return found->second;
    const GLint location = glGetUniformLocation(id(), name);
    locations_.emplace(name, location);
    return location;
}

}  // namespace murmur::gl
