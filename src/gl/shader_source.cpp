// Shader lookup, include expansion and log annotation; see shader_source.hpp.
#include "gl/shader_source.hpp"

#include "gl/embedded_shaders.hpp"

#include <algorithm>
#include <fstream>
#include <cctype>
#include <filesystem>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace murmur::gl {

namespace {

namespace fs = std::filesystem;
constexpr std::uintmax_t kMaxShaderBytes = 1u << 20;  // murmur's largest shader is ~40 KB
constexpr std::size_t kMaxIncludeDepth = 16;
constexpr std::size_t kMaxAssembledBytes = 4u << 20;

// `#include "name"` or `#include MACRO` on a line of its own (spaces allowed around): the name or
// the macro, else nothing. A plain scan, linear in the line's length (std::regex recursed per
// character and overflowed the stack on a line of 30,000 spaces).
struct Include {
    std::string text;
    bool macro = false;  // a define whose value is the quoted name (the variant's choice of file)
};
std::optional<Include> includedName(const std::string& line) {
    std::size_t i = line.find_first_not_of(" \t");
    if (i == std::string::npos || line[i] != '#') return std::nullopt;
    i = line.find_first_not_of(" \t", i + 1);
    if (i == std::string::npos || line.compare(i, 7, "include") != 0) return std::nullopt;
    i = line.find_first_not_of(" \t", i + 7);
    if (i == std::string::npos) return std::nullopt;
    if (line[i] != '"') {
        std::size_t end = i;
        while (end < line.size() && (std::isalnum(static_cast<unsigned char>(line[end])) || line[end] == '_')) ++end;
        if (end == i || line.find_first_not_of(" \t\r", end) != std::string::npos) return std::nullopt;
        return Include{line.substr(i, end - i), true};
    }
    const std::size_t close = line.find('"', i + 1);
    if (close == std::string::npos || close == i + 1) return std::nullopt;
    if (line.find_first_not_of(" \t\r", close + 1) != std::string::npos) return std::nullopt;
    return Include{line.substr(i + 1, close - i - 1), false};
}

// The file a `#include MACRO` names: the define's value, a quoted name.
std::string includedFile(const Include& inc, const std::vector<ShaderDefine>& defines, const std::string& from) {
    if (!inc.macro) return inc.text;
    for (const ShaderDefine& d : defines)
        if (d.name == inc.text) {
            if (d.value.size() > 2 && d.value.front() == '"' && d.value.back() == '"') return d.value.substr(1, d.value.size() - 2);
            throw std::runtime_error("shader " + from + ": #include " + inc.text + " is defined as " + d.value +
                                     ", not a quoted file name");
        }
    throw std::runtime_error("shader " + from + ": #include " + inc.text + " names no define of this variant");
}

// At `at`, digits then `sep`: the number and the position after sep.
std::optional<std::pair<std::string, std::size_t>> digitsThen(const std::string& text, std::size_t at, char sep) {
    std::size_t end = at;
    while (end < text.size() && end - at < 9 && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end == at || end >= text.size() || text[end] != sep) return std::nullopt;
    return std::make_pair(text.substr(at, end - at), end + 1);
}

// One log line's "0:12(5)" (Mesa) or "0(12)" (NVIDIA) prefix as "file:12", else the line as is.
std::string annotateLine(const std::string& line, const std::vector<std::string>& files) {
    const auto file = [&](const std::string& index) {
        const std::size_t k = std::stoul(index);
        return k < files.size() ? files[k] : "source " + index;
    };
    if (const auto f = digitsThen(line, 0, ':'))
        if (const auto l = digitsThen(line, f->second, '('))
            if (const auto c = digitsThen(line, l->second, ')')) return file(f->first) + ":" + l->first + line.substr(c->second);
    if (const auto f = digitsThen(line, 0, '('))
        if (const auto l = digitsThen(line, f->second, ')')) return file(f->first) + ":" + l->first + line.substr(l->second);
    return line;
}

}  // namespace

// A name's file in the --shader-dir: DIR/name; a style's shader (styles/<name>/<name>.glsl) that
// DIR lacks is looked for where the source tree keeps it, DIR/../src/styles/, so that
// `--shader-dir shaders` in a checkout reads the styles' shaders from their folders.
std::string ShaderLibrary::pathInDir(const std::string& name) const {
    const std::string path = dir_ + "/" + name;
    std::error_code ec;
    if (name.rfind("styles/", 0) != 0 || fs::exists(path, ec)) return path;
    const std::string beside = dir_ + "/../src/" + name;
    return fs::exists(beside, ec) ? beside : path;
}

std::string ShaderLibrary::read(const std::string& name) const {
    if (in_memory_) {
        const auto it = sources_.find(name);
        if (it == sources_.end()) throw std::runtime_error("shader " + name + " not found");
        if (it->second.size() > kMaxShaderBytes) throw std::runtime_error("shader " + name + ": a shader holds at most 1 MiB");
        return it->second;
    }
    if (!dir_.empty()) {
        const std::string path = pathInDir(name);
        std::error_code ec;
        if (fs::exists(path, ec) && !fs::is_regular_file(path, ec))  // /dev/zero or a FIFO would be read forever
            throw std::runtime_error("shader " + name + " in --shader-dir " + dir_ + " is not a regular file");
        if (const std::uintmax_t size = fs::file_size(path, ec); !ec && size > kMaxShaderBytes)
            throw std::runtime_error("shader " + name + " in --shader-dir " + dir_ + " is " + std::to_string(size) +
                                     " bytes; a shader holds at most " + std::to_string(kMaxShaderBytes));
        std::ifstream in(path, std::ios::binary);
        if (!in) throw std::runtime_error("shader " + name + " not found in --shader-dir " + dir_);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }
    for (const EmbeddedShader& e : embeddedShaders())
        if (name == e.name) return e.text;
    throw std::runtime_error("shader " + name + " is not embedded in this binary");
}

void ShaderLibrary::expand(const std::string& name, AssembledShader& out, std::vector<std::string>& stack,
                           const std::vector<ShaderDefine>& defines) const {
    if (std::find(stack.begin(), stack.end(), name) != stack.end())
        throw std::runtime_error("shader " + name + " includes itself (through " + stack.back() + ")");
    if (stack.size() >= kMaxIncludeDepth)
        throw std::runtime_error("shader " + name + ": includes nested more than " + std::to_string(kMaxIncludeDepth) + " deep");
    stack.push_back(name);
    const int index = int(out.files.size());
    out.files.push_back(name);
    if (index > 0) out.text += "#line 1 " + std::to_string(index) + "\n";
    std::istringstream in(read(name));
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (out.text.size() > kMaxAssembledBytes)  // a file included many times over, level after level, grows exponentially
            throw std::runtime_error("shader " + stack.front() + ": more than " + std::to_string(kMaxAssembledBytes) +
                                     " bytes with its includes expanded");
        if (const std::optional<Include> included = includedName(line)) {
            expand(includedFile(*included, defines, name), out, stack, defines);
            out.text += "#line " + std::to_string(number + 1) + " " + std::to_string(index) + "\n";
        } else {
            out.text += line + "\n";
        }
    }
    stack.pop_back();
}

AssembledShader ShaderLibrary::assemble(const std::string& name, const std::vector<ShaderDefine>& defines) const {
    AssembledShader body;
    std::vector<std::string> stack;
    expand(name, body, stack, defines);
    // #version must stay first: take it off the body, then defines, then the rest.
    const auto eol = body.text.find('\n');
    const std::string first = body.text.substr(0, eol);
    if (first.rfind("#version", 0) != 0) throw std::runtime_error("shader " + name + " must begin with #version");
    AssembledShader out;
    out.files = body.files;
    out.text = first + "\n";
    for (const ShaderDefine& d : defines) out.text += "#define " + d.name + " " + d.value + "\n";
    out.text += "#line 2 0\n" + body.text.substr(eol + 1);
    return out;
}

std::string annotateLog(const std::string& log, const std::vector<std::string>& files) {
    std::string out;
    std::size_t start = 0;
    while (start < log.size()) {
        const std::size_t end = std::min(log.find('\n', start), log.size());
        out += annotateLine(log.substr(start, end - start), files);
        if (end < log.size()) out += '\n';
        start = end + 1;
    }
    return out;
}

}  // namespace murmur::gl
