// The shader loader on what a --shader-dir may hold: includes expanded (a line of spaces, an
// unterminated include of 200,000 characters, deep or circular includes, an oversized file each
// handled without a crash) and driver logs annotated with file and line.
#include "gl/program.hpp"
#include "gl/shader_blocks.hpp"
#include "gl/shader_source.hpp"
#include "model/styles.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

using namespace murmur;
namespace fs = std::filesystem;

namespace {
class ShaderDir : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("murmur_shaders_" + std::to_string(::getpid()));
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    void write(const std::string& name, const std::string& text) { std::ofstream(dir / name, std::ios::binary) << text; }
    gl::AssembledShader assemble(const std::string& name) { return gl::ShaderLibrary(dir.string()).assemble(name, {{"X", "1"}}); }
};
}  // namespace

TEST_F(ShaderDir, IncludesExpandWithLineDirectives) {
    write("a.comp", "#version 450\n  #  include \"b.glsl\"  \nvoid main() {}\n");
    write("b.glsl", "float f() { return 1.0; }\n");
    const gl::AssembledShader s = assemble("a.comp");
    EXPECT_EQ(s.files, (std::vector<std::string>{"a.comp", "b.glsl"}));
    EXPECT_NE(s.text.find("#define X 1\n"), std::string::npos) << s.text;
    EXPECT_NE(s.text.find("#line 1 1\nfloat f()"), std::string::npos) << s.text;
    EXPECT_NE(s.text.find("#line 3 0\nvoid main"), std::string::npos) << s.text;
}

// The variant's choice of file: #include MACRO takes the define's quoted value, from a folder too
// (shaders/styles/); a macro the variant does not define, or defines as no file name, is refused
// by name.
TEST_F(ShaderDir, AnIncludeByMacroTakesTheVariantsFile) {
    fs::create_directories(dir / "styles" / "mine");
    write("styles/mine/mine.glsl", "float mine() { return 2.0; }\n");
    write("a.comp", "#version 450\n#include STYLE_GLSL\nvoid main() {}\n");
    const gl::ShaderLibrary lib(dir.string());
    const gl::AssembledShader s = lib.assemble("a.comp", {{"STYLE_GLSL", "\"styles/mine/mine.glsl\""}});
    EXPECT_EQ(s.files, (std::vector<std::string>{"a.comp", "styles/mine/mine.glsl"}));
    EXPECT_NE(s.text.find("float mine()"), std::string::npos) << s.text;
    auto refusal = [&](const std::vector<gl::ShaderDefine>& defines) {
        try {
            lib.assemble("a.comp", defines);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal({{"X", "1"}}).find("#include STYLE_GLSL names no define"), std::string::npos) << refusal({{"X", "1"}});
    EXPECT_NE(refusal({{"STYLE_GLSL", "1"}}).find("not a quoted file name"), std::string::npos) << refusal({{"STYLE_GLSL", "1"}});
    EXPECT_NE(refusal({{"STYLE_GLSL", "\"styles/none/none.glsl\""}}).find("styles/none/none.glsl"), std::string::npos);
}

// A checkout's shaders/ as the --shader-dir: a style's shader it lacks is read from the style's
// folder beside it (../src/styles/<name>/), one the folder has from the folder; only style names.
TEST_F(ShaderDir, AStyleShaderIsReadFromItsFolderInACheckout) {
    fs::create_directories(dir / "shaders" / "styles" / "own");
    fs::create_directories(dir / "src" / "styles" / "mine");
    fs::create_directories(dir / "src" / "styles" / "own");
    std::ofstream(dir / "src" / "styles" / "mine" / "mine.glsl") << "float mine() { return 2.0; }\n";
    std::ofstream(dir / "src" / "styles" / "own" / "own.glsl") << "float beside() { return 3.0; }\n";
    std::ofstream(dir / "shaders" / "styles" / "own" / "own.glsl") << "float own() { return 4.0; }\n";
    std::ofstream(dir / "src" / "other.glsl") << "float other() { return 5.0; }\n";
    const gl::ShaderLibrary lib((dir / "shaders").string());
    EXPECT_EQ(lib.read("styles/mine/mine.glsl"), "float mine() { return 2.0; }\n");
    EXPECT_EQ(lib.read("styles/own/own.glsl"), "float own() { return 4.0; }\n");
    EXPECT_THROW(lib.read("other.glsl"), std::runtime_error);
    try {
        lib.read("styles/none/none.glsl");
        ADD_FAILURE() << "a style shader in neither place was read";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("styles/none/none.glsl not found in --shader-dir"), std::string::npos) << e.what();
    }
}

// These crashed (std::regex overflowed the stack); now they are plain text for the driver to judge.
TEST_F(ShaderDir, LongLinesAndUnterminatedIncludesAreText) {
    write("spaces.comp", "#version 450\n" + std::string(30000, ' ') + "\nvoid main() {}\n");
    EXPECT_NE(assemble("spaces.comp").text.find(std::string(30000, ' ')), std::string::npos);
    write("open.comp", "#version 450\n#include \"" + std::string(200000, 'x') + "\nvoid main() {}\n");
    EXPECT_NE(assemble("open.comp").text.find("#include \"xxx"), std::string::npos);
    write("digits.comp", "#version 450\n#include \"" + std::string(200000, '"') + "\n");
    EXPECT_NO_THROW(assemble("digits.comp"));
}

TEST_F(ShaderDir, CircularDeepAndOversizedShadersAreRefusedByName) {
    write("self.comp", "#version 450\n#include \"self.comp\"\n");
    EXPECT_THROW(assemble("self.comp"), std::runtime_error);
    for (int k = 0; k < 20; ++k) write("d" + std::to_string(k) + ".glsl", "#include \"d" + std::to_string(k + 1) + ".glsl\"\n");
    write("d20.glsl", "\n");
    write("deep.comp", "#version 450\n#include \"d0.glsl\"\n");
    try {
        assemble("deep.comp");
        ADD_FAILURE() << "20 nested includes accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("nested more than 16 deep"), std::string::npos) << e.what();
    }
    write("big.comp", "#version 450\n" + std::string(2 << 20, '/'));
    try {
        assemble("big.comp");
        ADD_FAILURE() << "a 2 MB shader accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("a shader holds at most"), std::string::npos) << e.what();
    }
}

// A shader that is a device or a FIFO would be read forever (/dev/zero took 4 GB in 5 s).
TEST_F(ShaderDir, ADeviceOrFifoIsNotAShader) {
    write("a.comp", "#version 450\n#include \"zero.glsl\"\n");
    fs::create_symlink("/dev/zero", dir / "zero.glsl");
    try {
        assemble("a.comp");
        ADD_FAILURE() << "/dev/zero read as a shader";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("zero.glsl in --shader-dir"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("is not a regular file"), std::string::npos) << e.what();
    }
}

TEST(ShaderLog, MesaAndNvidiaLinesNameTheFileAndLine) {
    const std::vector<std::string> files{"flock_steer.comp", "common.glsl"};
    EXPECT_EQ(gl::annotateLog("0:12(5): error: x\n1:3(1): warning: y", files),
              "flock_steer.comp:12: error: x\ncommon.glsl:3: warning: y");
    EXPECT_EQ(gl::annotateLog("1(7) : error C1008: z", files), "common.glsl:7 : error C1008: z");
    EXPECT_EQ(gl::annotateLog("9:1(1): far", files), "source 9:1: far");
    const std::string digits(100000, '7');
    EXPECT_EQ(gl::annotateLog(digits, files), digits) << "a run of digits is no prefix";
}

// The storage blocks a source declares, read as the preprocessor reads it: a block in a branch
// not taken does not count, one in a taken #elif or #else does; macros are compared by value.
TEST(ShaderBlocks, OnlyTheBlocksOfLiveBranchesCount) {
    const std::string source = R"(#version 430
#define READS 2
#define PERCH 1
layout(std430, binding = 0) buffer A { uint a[]; };
#if READS == 1
layout(std430, binding = 1) buffer B { uint b[]; };
#elif READS == 2 && defined(PERCH)
layout(std430, binding = 2) readonly buffer C { uint c[]; };  // counted
#ifdef NOT_DEFINED
layout(std430, binding = 3) buffer D { uint d[]; };
#else
layout(std430, binding = 4) coherent volatile buffer E { uint e[]; };  // counted
#endif
#else
layout(std430, binding = 5) buffer F { uint f[]; };
#endif
#if !PERCH || (READS % 2 != 0)
layout(std430, binding = 6) buffer G { uint g[]; };
#endif
// buffer H { commented out
void main() {}
)";
    EXPECT_EQ(gl::storageBlocksIn(source), 3);
}

// The steer pass's fullest variant (storage reads, an ensemble, perching, stored steering, a
// measured step) declares 16 storage blocks: llvmpipe's and NVIDIA's limit (it declared 17, an
// unread cell-count block among them, and failed to link). Where a driver offers fewer, the
// program is refused before it is compiled, naming the limit.
TEST(ShaderBlocks, TheFullestSteerVariantFitsSixteenAndIsRefusedUnderFewer) {
    const std::vector<gl::ShaderDefine> defines{
        {"DIMS", "3"}, {"BOUNDS_WRAP", "1"}, {"BOUNDS_OPEN", "0"}, {"STYLE_GLSL", std::string("\"") + styleInfo(Style::Decarpentier).glsl + "\""}, {"STORED_STEER", "1"},
        {"OWN_SEARCH", "1"}, {"AMORTISED_STEERING", "1"}, {"NEIGHBOUR_CAP", "0"}, {"PERCHING", "1"}, {"MULTI_SPECIES", "1"},
        {"UPDATE_SEQUENTIAL", "0"}, {"INTEGRATE_EXPLICIT", "0"}, {"SPEED_LIMIT", "1"}, {"VIEW_CONE", "1"}, {"OBSTACLES", "0"},
        {"ENSEMBLE", "1"}, {"STORAGE_READS", "1"}, {"TILED_WALK", "0"}, {"MEASURE_IN_STEER", "1"}};
    const gl::ProgramSource steer = gl::computeSource(gl::ShaderLibrary{}, "flock_steer.comp", defines);
    EXPECT_EQ(gl::storageBlocksIn(steer.stages.front().second.text), 16);
    EXPECT_EQ(gl::storageBlockProblem(steer, 16), std::nullopt);
    const auto refused = gl::storageBlockProblem(steer, 15);
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->find("flock_steer.comp declares 16 storage blocks; this OpenGL implementation offers "
                            "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS = 15"),
              std::string::npos)
        << *refused;
}

// Two storage blocks of one program at one binding would read one buffer as both: refused before
// compiling, naming both and the slot, the binding read through the macros as the preprocessor
// leaves them (a block in a branch not taken does not count).
TEST(ShaderBlocks, TwoBlocksAtOneBindingAreRefused) {
    const std::string text = "#version 430\n#define SLOT_A 3\n#define SLOT_B (1 + 2)\n"
                             "layout(std430, binding = SLOT_A) buffer A { uint a[]; };\n"
                             "#if FEATURE\nlayout(std430, binding = SLOT_B) readonly buffer B { uint b[]; };\n#endif\n"
                             "layout(std430, binding = 4) buffer C { uint c[]; };\nvoid main() {}\n";
    const auto blocks = gl::storageBlocksOf(text);
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0].binding, 3);
    EXPECT_EQ(blocks[1].binding, 4);
    const auto source = [](const std::string& t) { return gl::ProgramSource{{{GL_COMPUTE_SHADER, gl::AssembledShader{t, {"x.comp"}}}}, "x.comp"}; };
    EXPECT_EQ(gl::storageBlockProblem(source(text), 16), std::nullopt);
    const std::string clash = "#define FEATURE 1\n" + text;
    const auto refused = gl::storageBlockProblem(source(clash), 16);
    ASSERT_TRUE(refused);
    EXPECT_NE(refused->find("declares storage blocks A and B both at binding 3"), std::string::npos) << *refused;
}
