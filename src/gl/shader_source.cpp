// Shader lookup, include expansion and log annotation; see shader_source.hpp.
#include "gl/shader_source.hpp"

#include "gl/embedded_shaders.hpp"

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace murmur::gl {

std::string ShaderLibrary::read(const std::string& name) const {
    if (!dir_.empty()) {
        std::ifstream in(dir_ + "/" + name, std::ios::binary);
        if (!in) throw std::runtime_error("shader " + name + " not found in --shader-dir " + dir_);
        std::ostringstream s;
        s << in.rdbuf();
        return s.str();
    }
    for (const EmbeddedShader& e : embeddedShaders())
        if (name == e.name) return e.text;
    throw std::runtime_error("shader " + name + " is not embedded in this binary");
}

void ShaderLibrary::expand(const std::string& name, AssembledShader& out, std::vector<std::string>& stack) const {
    if (std::find(stack.begin(), stack.end(), name) != stack.end())
        throw std::runtime_error("shader " + name + " includes itself (through " + stack.back() + ")");
    stack.push_back(name);
    const int index = int(out.files.size());
    out.files.push_back(name);
    if (index > 0) out.text += "#line 1 " + std::to_string(index) + "\n";
    std::istringstream in(read(name));
    std::string line;
    int number = 0;
    static const std::regex include_re(R"(^\s*#\s*include\s+\"([^\"]+)\"\s*$)");
    while (std::getline(in, line)) {
        ++number;
        std::smatch m;
        if (std::regex_match(line, m, include_re)) {
            expand(m[1].str(), out, stack);
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
    expand(name, body, stack);
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
    static const std::regex mesa(R"((^|\n)(\d+):(\d+)\(\d+\))");  // 0:12(5): error: ...
    static const std::regex nvidia(R"((^|\n)(\d+)\((\d+)\))");    // 0(12) : error ...
    auto rewrite = [&](const std::string& text, const std::regex& re) {
        std::string out;
        auto begin = std::sregex_iterator(text.begin(), text.end(), re);
        std::size_t last = 0;
        for (auto it = begin; it != std::sregex_iterator(); ++it) {
            const auto& m = *it;
            const std::size_t file = std::stoul(m[2].str());
            out += text.substr(last, std::size_t(m.position(0)) - last) + m[1].str();
            out += (file < files.size() ? files[file] : "source " + m[2].str()) + ":" + m[3].str();
            last = std::size_t(m.position(0) + m.length(0));
        }
        return out + text.substr(last);
    };
    return rewrite(rewrite(log, mesa), nvidia);
}

}  // namespace murmur::gl
