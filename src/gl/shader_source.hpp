// Shader text: looked up among the sources embedded in the binary at build time, or read from
// a --shader-dir for development; #include "file" (or #include MACRO, a define whose value is the
// quoted file: the variant's style) expanded; #defines injected after #version.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace murmur::gl {

struct ShaderDefine {
    std::string name, value;
};

// One assembled source, plus the file name behind each GLSL source-string number used in the
// #line directives (so a driver's "0:12" or "0(12)" can be mapped back to file and line).
struct AssembledShader {
    std::string text;
    std::vector<std::string> files;  // index = source-string number
};

class ShaderLibrary {
public:
    // dir empty: embedded sources only. Otherwise each name is read from dir (a style's shader,
    // styles/<name>/<name>.glsl, from dir/../src/ when dir lacks it: a checkout's shaders/).
    explicit ShaderLibrary(std::string dir = "") : dir_(std::move(dir)) {}
    // Sources given by name, in memory (for tests and fuzzers: the loader without files).
    explicit ShaderLibrary(std::map<std::string, std::string> sources) : sources_(std::move(sources)), in_memory_(true) {}
    // Throws std::runtime_error naming the missing file or include.
    std::string read(const std::string& name) const;
    AssembledShader assemble(const std::string& name, const std::vector<ShaderDefine>& defines) const;

private:
    std::string pathInDir(const std::string& name) const;
    void expand(const std::string& name, AssembledShader& out, std::vector<std::string>& stack,
                const std::vector<ShaderDefine>& defines) const;
    std::string dir_;
    std::map<std::string, std::string> sources_;
    bool in_memory_ = false;
};

// Rewrites driver log lines "N:L(...)" (Mesa) and "N(L)" (NVIDIA) to "file:L".
std::string annotateLog(const std::string& log, const std::vector<std::string>& files);

}  // namespace murmur::gl
