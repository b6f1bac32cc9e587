// Compile and link with full error reporting, in batches, through the program cache.
#include "gl/program.hpp"

#include "gl/egl_context.hpp"
#include "gl/program_cache.hpp"
#include "gl/shader_blocks.hpp"

#include <chrono>
#include <map>

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

namespace {

// Asks a hardware driver to compile on as many threads as it likes. Not a software renderer:
// there the compile threads take the cores the flock's own shaders run on.
void allowParallelCompile() {
    if (isSoftwareRenderer(rendererString())) return;
    if (GLAD_GL_KHR_parallel_shader_compile) glMaxShaderCompilerThreadsKHR(0xFFFFFFFFu);
    else if (GLAD_GL_ARB_parallel_shader_compile) glMaxShaderCompilerThreadsARB(0xFFFFFFFFu);
}

std::string infoLog(GLuint id, bool shader) {
    GLint length = 0;
    if (shader) glGetShaderiv(id, GL_INFO_LOG_LENGTH, &length);
    else glGetProgramiv(id, GL_INFO_LOG_LENGTH, &length);
    std::string log(std::size_t(std::max(length, 1)), '\0');
    if (shader) glGetShaderInfoLog(id, GLsizei(log.size()), nullptr, log.data());
    else glGetProgramInfoLog(id, GLsizei(log.size()), nullptr, log.data());
    log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));
    return log;
}

// A program on its way: loaded from the cache, or compiled and linked without waiting.
struct Pending {
    const ProgramSource* source = nullptr;
    Handle<deleteProgram> program;
    std::vector<Handle<deleteShader>> shaders;
    std::string key;
    bool cached = false;
};

Pending start(const ProgramSource& source, ProgramCache& cache, int storage_block_limit) {
    Pending p;
    p.source = &source;
    p.program = Handle<deleteProgram>(glCreateProgram());
    if (cache.enabled()) {
        std::vector<std::pair<GLenum, const std::string*>> stages;
        for (const auto& [stage, shader] : source.stages) stages.emplace_back(stage, &shader.text);
        p.key = cache.keyOf(stages);
        if ((p.cached = cache.load(p.key, p.program.id()))) return p;
        p.program = Handle<deleteProgram>(glCreateProgram());  // not the one a refused binary was given
    }
    // Counted only for a program compiled here: a cached one linked on this very driver.
    if (const auto problem = storageBlockProblem(source, storage_block_limit)) throw ShaderError(*problem);
    for (const auto& [stage, shader] : source.stages) {
        Handle<deleteShader> s(glCreateShader(stage));
        const char* text = shader.text.c_str();
        glShaderSource(s.id(), 1, &text, nullptr);
        glCompileShader(s.id());
        glAttachShader(p.program.id(), s.id());
        p.shaders.push_back(std::move(s));
    }
    glProgramParameteri(p.program.id(), GL_PROGRAM_BINARY_RETRIEVABLE_HINT, GL_TRUE);
    glLinkProgram(p.program.id());
    return p;
}

// Waits for p, reports a compile or link error, keeps a fresh program in the cache.
Program finish(Pending& p, ProgramCache& cache) {
    const ProgramSource& source = *p.source;
    if (!p.cached) {
        for (std::size_t i = 0; i < p.shaders.size(); ++i) {
            GLint ok = GL_FALSE;
            glGetShaderiv(p.shaders[i].id(), GL_COMPILE_STATUS, &ok);
            if (ok) continue;
            const auto& [stage, shader] = source.stages[i];
            throw ShaderError(std::string("compile error in ") + stageName(stage) + " shader " + shader.files.front() + ":\n" +
                              annotateLog(infoLog(p.shaders[i].id(), true), shader.files));
        }
        GLint ok = GL_FALSE;
        glGetProgramiv(p.program.id(), GL_LINK_STATUS, &ok);
        if (!ok) throw ShaderError("link error in program " + source.label + ":\n" + infoLog(p.program.id(), false));
        for (const auto& s : p.shaders) glDetachShader(p.program.id(), s.id());
        cache.store(p.key, p.program.id());
    }
    countProgram(p.cached);
    glObjectLabel(GL_PROGRAM, p.program.id(), GLsizei(source.label.size()), source.label.c_str());
    return Program(std::move(p.program));
}

}  // namespace

std::optional<std::string> storageBlockProblem(const ProgramSource& source, int limit) {
    for (const auto& [stage, shader] : source.stages) {
        if (stage != GL_COMPUTE_SHADER) continue;
        const std::vector<StorageBlock> declared = storageBlocksOf(shader.text);
        std::map<long, std::string> bound;
        for (const StorageBlock& b : declared)
            if (b.binding >= 0 && !bound.emplace(b.binding, b.name).second)
                return "program " + source.label + " declares storage blocks " + bound[b.binding] + " and " + b.name + " both at binding " +
                       std::to_string(b.binding) + ": one buffer would be read as both (shaders/layout.glsl gives each block of a "
                       "program its own slot)";
        const int blocks = int(declared.size());
        if (blocks > limit)
            return "program " + source.label + " declares " + std::to_string(blocks) +
                   " storage blocks; this OpenGL implementation offers GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS = " + std::to_string(limit) +
                   ", so it would not link (MURMUR_GPU_READS=textures reads through buffer textures and needs fewer; or use "
                   "--backend cpu)";
    }
    return std::nullopt;
}

ProgramSource computeSource(const ShaderLibrary& lib, const std::string& file, const std::vector<ShaderDefine>& defines) {
    return {{{GL_COMPUTE_SHADER, lib.assemble(file, defines)}}, file};
}

std::vector<Program> buildPrograms(const std::vector<ProgramSource>& sources) {
    const auto began = std::chrono::steady_clock::now();
    allowParallelCompile();
    ProgramCache& cache = ProgramCache::forCurrentDriver();
    std::vector<Pending> pending;
    pending.reserve(sources.size());
    GLint storage_block_limit = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &storage_block_limit);
    for (const ProgramSource& s : sources) pending.push_back(start(s, cache, storage_block_limit));
    std::vector<Program> built;
    built.reserve(sources.size());
    try {
        for (Pending& p : pending) built.push_back(finish(p, cache));
    } catch (...) {
        addProgramBuildTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
        throw;
    }
    addProgramBuildTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    return built;
}

Program buildCompute(const ShaderLibrary& lib, const std::string& file, const std::vector<ShaderDefine>& defines) {
    return std::move(buildPrograms({computeSource(lib, file, defines)}).front());
}

std::vector<Program> buildComputes(const ShaderLibrary& lib, const std::vector<std::string>& files,
                                   const std::vector<ShaderDefine>& defines) {
    std::vector<ProgramSource> sources;
    for (const std::string& f : files) sources.push_back(computeSource(lib, f, defines));
    return buildPrograms(sources);
}

Program buildGraphics(const ShaderLibrary& lib, const std::string& vertex, const std::string& fragment,
                      const std::vector<ShaderDefine>& defines) {
    return std::move(buildPrograms({{{{GL_VERTEX_SHADER, lib.assemble(vertex, defines)},
                                      {GL_FRAGMENT_SHADER, lib.assemble(fragment, defines)}},
                                     vertex + "+" + fragment}})
                         .front());
}

GLint Program::uniform(const char* name) const {
    const auto found = locations_.find(name);
    if (found != locations_.end()) return found->second;
    const GLint location = glGetUniformLocation(id(), name);
    locations_.emplace(name, location);
    return location;
}

}  // namespace murmur::gl
