// GL wrappers: move-only ownership, buffer round trips, and shader errors that name stage, file
// and line with the driver's log; a broken shader reload keeps the last good programs.
#include "gl/buffer.hpp"
#include "gl/embedded_shaders.hpp"
#include "gl/program.hpp"
#include "gl_env.hpp"
#include "gpu/gpu_simulation.hpp"
#include "model/spawn.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace murmur;
namespace fs = std::filesystem;

TEST(GlObjects, ContextHasTheLimitsTheShadersUse) {
    // Context creation checks the version; these are what the passes themselves assume.
    MURMUR_REQUIRE_GL();
    std::printf("renderer: %s, OpenGL %s\n", gl::rendererString().c_str(), gl::glVersionString().c_str());
    GLint bindings = 0, compute_blocks = 0, shared_bytes = 0, invocations = 0, size_x = 0, groups_x = 0;
    glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
    glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &compute_blocks);
    glGetIntegerv(GL_MAX_COMPUTE_SHARED_MEMORY_SIZE, &shared_bytes);
    glGetIntegerv(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS, &invocations);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &size_x);
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_COUNT, 0, &groups_x);
    EXPECT_GE(bindings, BIND_COUNT) << "storage binding slots used";
    EXPECT_GE(compute_blocks, 11) << "grid_scatter.comp's storage blocks with perching and decarpentier";
    GLint units = 0;
    glGetIntegerv(GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS, &units);
    EXPECT_GE(units, TEX_COUNT) << "sorted_reads.glsl's buffer textures";
    EXPECT_GE(gl::maxBufferTexels(), 65536u) << "GL 4.5's least GL_MAX_TEXTURE_BUFFER_SIZE";
    EXPECT_GE(invocations, STEP_GROUP_SIZE);
    EXPECT_GE(size_x, std::max(STEP_GROUP_SIZE, SCAN_GROUP_SIZE));
    EXPECT_GE(groups_x, GLint(MAX_DISPATCH_X)) << "dispatch rows assume this many groups per row";
    // flock_measure.comp: two vec4 and a uint per invocation plus the histogram; group_largest.comp:
    // LARGEST_GROUPS candidates of three uints per invocation.
    EXPECT_GE(shared_bytes, STEP_GROUP_SIZE * 32 + (NN_BINS + 1) * 4);
    EXPECT_GE(shared_bytes, STEP_GROUP_SIZE * LARGEST_GROUPS * 12);
    EXPECT_NO_GL_ERRORS();
}

TEST(GlObjects, BufferMoveTransfersOwnershipAndDestructorDeletes) {
    MURMUR_REQUIRE_GL();
    const std::uint32_t data[4] = {1, 2, 3, 4};
    gl::Buffer a(sizeof data, data);
    const GLuint id = a.id();
    ASSERT_NE(id, 0u);
    gl::Buffer b(std::move(a));
    EXPECT_EQ(a.id(), 0u);  // NOLINT(bugprone-use-after-move): the move must zero the source
    EXPECT_EQ(b.id(), id);
    EXPECT_EQ(b.read<std::uint32_t>(4), std::vector<std::uint32_t>({1, 2, 3, 4}));
    {
        gl::Buffer c = std::move(b);
        EXPECT_TRUE(glIsBuffer(id));
    }
    EXPECT_FALSE(glIsBuffer(id)) << "destructor must delete the buffer";
    gl::Buffer z(64);
    EXPECT_EQ(z.read<std::uint32_t>(16), std::vector<std::uint32_t>(16, 0u)) << "new storage is zeroed";
    EXPECT_NO_GL_ERRORS();
}

TEST(GlObjects, IncludesAndDefinesAreExpanded) {
    MURMUR_REQUIRE_GL();
    const gl::ShaderLibrary lib;
    const gl::AssembledShader s = lib.assemble("grid_count.comp", {{"DIMS", "3"}, {"BOUNDS_WRAP", "1"}, {"BOUNDS_OPEN", "0"}, {"STYLE_OFFSET", "0"}});
    EXPECT_EQ(s.text.rfind("#version 430\n#define DIMS 3\n", 0), 0u);
    EXPECT_NE(s.text.find("struct SimParams"), std::string::npos);  // from layout.glsl via common.glsl
    EXPECT_EQ(s.files, (std::vector<std::string>{"grid_count.comp", "common.glsl", "layout.glsl", "grid_bin.glsl"}));
    EXPECT_NO_THROW(gl::buildCompute(lib, "grid_count.comp", {{"DIMS", "3"}, {"BOUNDS_WRAP", "1"}, {"BOUNDS_OPEN", "0"}, {"STYLE_OFFSET", "0"}}));
    EXPECT_NO_GL_ERRORS();
}

class ShaderDir : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("murmur_shaders_" + std::to_string(::getpid()));
    void SetUp() override {
        fs::create_directories(dir);
        for (const auto& e : gl::embeddedShaders()) {
            fs::create_directories((dir / e.name).parent_path());  // styles/
            std::ofstream(dir / e.name) << e.text;
        }
    }
    void TearDown() override { fs::remove_all(dir); }
};

TEST_F(ShaderDir, CompileErrorNamesStageFileAndLine) {
    MURMUR_REQUIRE_GL();
    // Break line 3 of common.glsl, an included file.
    std::ofstream(dir / "broken.comp") << "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { undefined_thing = 1; }\n";
    try {
        gl::buildCompute(gl::ShaderLibrary(dir.string()), "broken.comp", {});
        FAIL() << "a broken shader must throw";
    } catch (const gl::ShaderError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find("compile error in compute shader broken.comp"), std::string::npos) << msg;
        EXPECT_NE(msg.find("broken.comp:3"), std::string::npos) << msg;
        EXPECT_NE(msg.find("undefined_thing"), std::string::npos) << "the driver's log: " << msg;
    }
    std::ofstream(dir / "common.glsl", std::ios::app) << "\nthis is not glsl\n";
    try {
        gl::buildCompute(gl::ShaderLibrary(dir.string()), "grid_count.comp", {{"DIMS", "2"}, {"BOUNDS_WRAP", "1"}, {"BOUNDS_OPEN", "0"}, {"STYLE_OFFSET", "0"}});
        FAIL() << "a broken include must throw";
    } catch (const gl::ShaderError& e) {
        EXPECT_NE(std::string(e.what()).find("common.glsl:"), std::string::npos) << e.what();
    }
    EXPECT_THROW(gl::ShaderLibrary(dir.string()).read("missing.comp"), std::runtime_error);
    gl::takeErrorCount();
}

TEST_F(ShaderDir, BrokenReloadKeepsTheLastGoodPrograms) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 200;
    gpu::GpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step(2);
    std::ofstream(dir / "flock_steer.comp") << "#version 430\nvoid main() { nope; }\n";
    EXPECT_THROW(sim.reloadShaders(gl::ShaderLibrary(dir.string())), gl::ShaderError);
    gl::takeErrorCount();
    sim.step(2);  // still the embedded, working programs
    const Flock f = sim.download();
    ASSERT_EQ(f.size(), 200u);
    for (const Boid& b : f) ASSERT_TRUE(std::isfinite(b.p.x) && std::isfinite(b.v.x));
    EXPECT_NO_GL_ERRORS();
}

// The same for the steps in work groups, built when a small flock first took them: a reload whose
// flock_steps.comp does not build is refused, and the flock goes on in work groups.
TEST_F(ShaderDir, ABrokenStepsInGroupsShaderIsRefusedAtReload) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.style = Style::Couzin;
    p.boids = 100;
    p.world_size = 2.4f * p.largestRadius();
    gpu::GpuSimulation sim;
    sim.upload(spawn(p), p);
    sim.step(3);
    ASSERT_EQ(sim.stepsInGroups(), 3u);
    std::ofstream(dir / "flock_steps.comp") << "#version 430\nvoid main() { nope; }\n";
    EXPECT_THROW(sim.reloadShaders(gl::ShaderLibrary(dir.string())), gl::ShaderError);
    gl::takeErrorCount();
    sim.step(3);  // still the embedded, working programs
    EXPECT_EQ(sim.stepsInGroups(), 6u);
    for (const Boid& b : sim.download()) ASSERT_TRUE(std::isfinite(b.p.x) && std::isfinite(b.v.x));
    EXPECT_NO_GL_ERRORS();
}

// A client that saves the current program and restores it around its own drawing (Dear ImGui's
// OpenGL backend, in the window) must not be left restoring a program the engine deleted when
// its variant changed: the deleted program stayed current, its name was freed when the client
// used its own, and restoring it was GL_INVALID_VALUE (the window then exited 1). Found under load
// by window_smoke's panel run (a style chosen in the panel), about 2 runs in 3.
TEST(GlObjects, NoDeletedProgramStaysCurrentWhenTheVariantChanges) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.boids = 500;
    gpu::GpuSimulation sim;
    sim.upload(spawn(p), p);
    const auto restoreAroundADraw = [] {
        GLint saved = 0;
        glGetIntegerv(GL_CURRENT_PROGRAM, &saved);
        glUseProgram(0);  // the client's own program, drawing
        glUseProgram(GLuint(saved));
        return glGetError();
    };
    sim.step(1);  // the steer pass's program is current
    EXPECT_EQ(restoreAroundADraw(), GLenum(GL_NO_ERROR)) << "programs still alive";
    Params vicsek = p;
    vicsek.style = Style::Vicsek;  // other programs: the old set is deleted
    sim.setParams(vicsek);
    EXPECT_EQ(restoreAroundADraw(), GLenum(GL_NO_ERROR)) << "after a change of variant";
    sim.step(1);
    sim.reloadShaders(gl::ShaderLibrary{});
    EXPECT_EQ(restoreAroundADraw(), GLenum(GL_NO_ERROR)) << "after a reload of the shaders";
    EXPECT_NO_GL_ERRORS();
}

// The buffer textures' limit, as a GPU with small ones would report it (no GL needed).
TEST(GlObjects, ABufferTextureLimitBoundsTheBoidsAndTheGrid) {
    gpu::Capacity cap;
    cap.max_block_bytes = std::uint64_t(1) << 30;
    cap.max_texels = 70000;
    cap.max_boids = 70000;  // queryCapacity's min(blocks / 16, texels)
    Params p;
    p.dims = 3;
    p.boids = 70001;
    auto why = gpu::capacityProblem(p, cap);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("valid range [0, 70000]"), std::string::npos) << *why;
    EXPECT_NE(why->find("buffer textures up to 70000 texels"), std::string::npos) << *why;
    // A wide world: the grid takes its cap of twice the boids, and its cell starts (a few texels
    // more than cells) must fit one buffer texture too.
    p.boids = 30000;
    p.world_size = 1000.0f;
    const std::uint32_t cells = makeGridSpec(p).total();
    ASSERT_GT(cells, 50000u) << "the grid's cap of twice the boids";
    cap.max_texels = gpu::GridScan::outCount(cells) - 1;
    why = gpu::capacityProblem(p, cap);
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("30000 boids do not fit this GPU in a world of 1000: their grid of " + std::to_string(cells) + " cells"),
              std::string::npos)
        << *why;
    // The valid range it names is the largest count whose grid fits in this world.
    const auto at = why->find("valid range [0, ");
    ASSERT_NE(at, std::string::npos) << *why;
    const std::uint32_t most = std::uint32_t(std::stoul(why->substr(at + 16)));
    Params q = p;
    q.boids = most;
    EXPECT_FALSE(gpu::capacityProblem(q, cap).has_value()) << most << " boids, as the range says";
    q.boids = most + 1;
    EXPECT_TRUE(gpu::capacityProblem(q, cap).has_value()) << most + 1 << " boids";
    cap.max_texels = gpu::GridScan::outCount(cells);
    why = gpu::capacityProblem(p, cap);
    EXPECT_FALSE(why.has_value()) << *why;
}

// 10^8 boids at density 1 with the rules' radii at 1 (the benchmark's flock, radii halved): their
// grid would be 2x10^8 cells at two a boid, past a GPU's 2^27 texels of cell starts, but the grid
// is capped at kMaxGridCells and grows its cells instead, so a GPU whose storage blocks hold the
// state (2 GiB blocks, 2^27 texels: an NVIDIA H100's or H200's limits) takes them. No GL needed.
TEST(GlObjects, AHundredMillionBoidsAreNotRefusedForTheirGrid) {
    gpu::Capacity cap;
    cap.max_block_bytes = std::uint64_t(1) << 31;
    cap.max_texels = std::uint64_t(1) << 27;
    cap.max_boids = std::min(cap.max_block_bytes / 16, cap.max_texels);
    Params p;
    p.dims = 3;
    p.boids = 100000000;
    p.world_size = float(std::cbrt(double(p.boids)));
    p.species[0].separation.radius = p.species[0].alignment.radius = p.species[0].cohesion.radius = 1.0f;
    const GridSpec g = makeGridSpec(p);
    EXPECT_EQ(g.cells.x, 406u) << "928 an axis uncapped; 406^3 is the most within 2^26";
    EXPECT_LE(g.total(), kMaxGridCells);
    EXPECT_LE(gpu::GridScan::outCount(g.total()), cap.max_texels);
    const auto why = gpu::capacityProblem(p, cap);
    EXPECT_FALSE(why.has_value()) << *why;
    // Its storage: 92 bytes a boid in wrap bounds (76, and 16 for the image counts) and 12 a cell,
    // 10.0 GB: within an 80 GB card many times over.
    EXPECT_LT(double(p.boids) * double(gpu::bytesPerBoid(p)) + 12.0 * g.total(), 1.01e10);
}

TEST(GlObjects, TooManyBoidsIsACapacityErrorNamingTheLimit) {
    MURMUR_REQUIRE_GL();
    Params p;
    p.world_size = 100000.0f;
    p.boids = 100000000;
    const gpu::Capacity cap = gpu::queryCapacity(makeGridSpec(p));
    ASSERT_GT(cap.max_boids, 0u);
    if (cap.max_boids >= p.boids) GTEST_SKIP() << "this GPU holds 1e8 boids; nothing to refuse";
    gpu::GpuSimulation sim;
    // A flock one over the limit: checked before any allocation.
    Flock big(cap.max_boids + 1);
    try {
        sim.upload(big, p);
        FAIL() << "expected a CapacityError";
    } catch (const gpu::CapacityError& e) {
        EXPECT_NE(std::string(e.what()).find(std::to_string(cap.max_boids)), std::string::npos) << e.what();
    }
    EXPECT_NO_GL_ERRORS();
}
