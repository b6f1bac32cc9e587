// Any bytes as a --shader-dir: the input is cut at NULs into main.comp and up to three files it
// may include (a.glsl, b.glsl, c.glsl; also as #include STYLE_GLSL, a define naming a.glsl, or
// #include BAD, a define naming no file), and assemble() either returns text that starts with the
// main file's #version line, or throws std::runtime_error naming the problem (a missing include,
// a cycle, nesting too deep, no #version); annotateLog on the same bytes returns. A crash (as
// std::regex's stack overflow was) or another exception is a finding.
#include "gl/shader_source.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    std::map<std::string, std::string> files;
    const char* names[] = {"main.comp", "a.glsl", "b.glsl", "c.glsl"};
    std::size_t start = 0;
    for (const char* name : names) {
        const std::size_t nul = bytes.find('\0', start);
        files[name] = bytes.substr(start, nul == std::string::npos ? std::string::npos : nul - start);
        if (nul == std::string::npos) break;
        start = nul + 1;
    }
    try {
        const murmur::gl::AssembledShader s = murmur::gl::ShaderLibrary(files).assemble("main.comp", {{"DIMS", "2"}, {"STYLE_GLSL", "\"a.glsl\""}, {"BAD", "1"}});
        if (!s.text.starts_with("#version")) std::abort();
    } catch (const std::runtime_error&) {
    }
    (void)murmur::gl::annotateLog(bytes, {"main.comp", "a.glsl"});
    return 0;
}
