// Programs built from the shader library. Building reports the stage, the file and line, and the
// driver's whole log as a ShaderError; callers keep their last good program when a rebuild fails.
// A batch of programs is compiled and linked before any is waited for (a driver with
// GL_KHR_parallel_shader_compile builds them at once), and linked programs are kept across runs
// in the program cache (program_cache.hpp).
#pragma once

#include "gl/handle.hpp"
#include "gl/shader_source.hpp"

#include <stdexcept>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace murmur::gl {

class ShaderError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class Program {
public:
    Program() = default;
    explicit Program(Handle<deleteProgram> handle) : handle_(std::move(handle)) {}
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

// One program's stages: each stage's kind and assembled source.
struct ProgramSource {
    std::vector<std::pair<GLenum, AssembledShader>> stages;
    std::string label;
};
ProgramSource computeSource(const ShaderLibrary& lib, const std::string& file,
                            const std::vector<ShaderDefine>& defines);
// Why a compute program's source cannot link where a stage offers `limit` storage blocks (it
// declares more: shader_blocks.hpp), or would read one buffer as two blocks (two at one binding),
// or nullopt. buildPrograms refuses such a program before
// compiling it, with this message, as a ShaderError.
std::optional<std::string> storageBlockProblem(const ProgramSource& source, int limit);

// Builds every program of the batch: all compiles and links are issued before the first is
// waited for. Throws the first ShaderError (in the batch's order).
std::vector<Program> buildPrograms(const std::vector<ProgramSource>& sources);

// A compute program from one .comp file of the library with the given defines.
Program buildCompute(const ShaderLibrary& lib, const std::string& file, const std::vector<ShaderDefine>& defines);
// Compute programs from several .comp files, all with the given defines, built as one batch.
std::vector<Program> buildComputes(const ShaderLibrary& lib, const std::vector<std::string>& files,
                                   const std::vector<ShaderDefine>& defines);
// A vertex + fragment program from two files of the library, both with the given defines.
Program buildGraphics(const ShaderLibrary& lib, const std::string& vertex, const std::string& fragment,
                      const std::vector<ShaderDefine>& defines);

}  // namespace murmur::gl
