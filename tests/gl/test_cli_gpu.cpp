// The command line on the GPU backend (the default): a run prints the renderer and per-pass GPU
// times; a flock the GPU cannot hold is bad input (exit 2) with the limit named, and no file.
#include "app/cli.hpp"
#include "app/renderer_defaults.hpp"
#include "gl/egl_context.hpp"
#include "gl_env.hpp"
#include "gpu/gpu_simulation.hpp"
#include "no_gl/resume_cli_case.hpp"

#include <gtest/gtest.h>

#include <iterator>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <unistd.h>
#include <fstream>
#include <sstream>

using namespace murmur;

namespace {
int run(std::vector<const char*> args, std::string& out, std::string& err) {
    args.insert(args.begin(), "murmur");
    std::ostringstream o, e;
    const int code = runCli(int(args.size()), args.data(), o, e);
    out = o.str();
    err = e.str();
    return code;
}

// A copy of the checkout's shaders as a --shader-dir: top/shaders, with the styles' shaders in
// top/src/styles/ where a checkout keeps them. Returns top/shaders.
std::filesystem::path copyShaderSources(const std::filesystem::path& top) {
    namespace fs = std::filesystem;
    fs::remove_all(top);
    fs::create_directories(top / "src");
    fs::copy(MURMUR_SHADER_SOURCE_DIR, top / "shaders", fs::copy_options::recursive);
    fs::copy(fs::path(MURMUR_SHADER_SOURCE_DIR) / ".." / "src" / "styles", top / "src" / "styles", fs::copy_options::recursive);
    return top / "shaders";
}
}  // namespace

TEST(CliGpu, DefaultBackendIsGpuAndReportsPassTimes) {
    MURMUR_REQUIRE_GL();
    std::string out, err;
    ASSERT_EQ(run({"--headless", "--steps", "3", "--boids", "300"}, out, err), 0) << err;
    EXPECT_NE(out.find("renderer"), std::string::npos) << out;
    EXPECT_NE(out.find("backend gpu"), std::string::npos) << out;
    EXPECT_NE(out.find("gpu ms per step"), std::string::npos) << out;
    EXPECT_NE(out.find("steer"), std::string::npos) << out;
}

// --export writes a restart file; --resume continues its run to the bit on the GPU too.
TEST(CliGpu, AResumedRunIsTheRunContinued) {
    MURMUR_REQUIRE_GL();
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("murmur_resume_gpu_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    test::expectResumeContinuesTheRun("gpu", dir);
    fs::remove_all(dir);
}

TEST(CliGpu, TooManyBoidsExits2WithTheLimit) {
    MURMUR_REQUIRE_GL();
    const std::string path = (std::filesystem::temp_directory_path() / "murmur_too_many.csv").string();
    std::string out, err;
    // 1e8 boids need 1.6 GB in one storage block; llvmpipe allows 128 MiB (a GPU that holds them
    // skips this test, saying so).
    const int code = run({"--boids", "100000000", "--set", "world_size=100000", "--steps", "1", "--export", path.c_str()}, out, err);
    if (code == 0) GTEST_SKIP() << "this GPU holds 1e8 boids: " << out;
    EXPECT_EQ(code, 2) << err;
    EXPECT_NE(err.find("do not fit this GPU"), std::string::npos) << err;
    EXPECT_NE(err.find("valid range [0, "), std::string::npos) << err;
    EXPECT_FALSE(std::filesystem::exists(path));
}

// A benchmark that measured nothing is not a success: every size skipped exits 1 and says so.
TEST(CliGpu, BenchWithEverySizeSkippedFails) {
    MURMUR_REQUIRE_GL();
    Params big;
    big.boids = 100000000;
    big.world_size = 100000;
    try {
        gpu::checkCapacity(big);
        GTEST_SKIP() << "this GPU holds 1e8 boids, so no size can be skipped here";
    } catch (const gpu::CapacityError&) {
    }
    std::string out, err;
    EXPECT_EQ(run({"--bench", "--bench-sizes", "100000000", "--bench-steps", "1", "--bench-clump-steps", "0"}, out, err), 1);
    EXPECT_NE(out.find("skipped 100000000 boids"), std::string::npos) << out;
    EXPECT_NE(err.find("every --bench-sizes size was skipped"), std::string::npos) << err;
}

TEST(CliGpu, BenchRunsAtATinySizeAndWritesItsJson) {
    MURMUR_REQUIRE_GL();
    const std::string path = (std::filesystem::temp_directory_path() / "murmur_bench_test.json").string();
    std::string out, err;
    ASSERT_EQ(run({"--bench", "--bench-sizes", "500", "--bench-steps", "5", "--bench-clump-steps", "5", "--bench-out",
                   path.c_str()},
                  out, err),
              0)
        << err;
    const auto doc = nlohmann::json::parse(std::ifstream(path));
    std::filesystem::remove(path);
    EXPECT_FALSE(doc.at("renderer").get<std::string>().empty());
    ASSERT_EQ(doc.at("runs").size(), 3u);  // spawn, clumped, render
    const auto render = doc.at("runs")[2];
    EXPECT_EQ(render.at("phase"), "render");
    EXPECT_GT(render.at("frame_ms").get<double>(), 0.0);
    EXPECT_EQ(render.at("resolution"), "1920x1080");
    // Its counts: 500 3D darts of 12 vertices as meshes (3 as flat darts, a point each as points or
    // splats), and an estimate of the fragments, the largest boid's area times the flock.
    const bool points = render.at("mode") == "points" || render.at("mode") == "splats";
    const bool flat = render.at("mode") == "flat";
    EXPECT_TRUE(points || flat || render.at("mode") == "meshes") << render.at("mode");
    EXPECT_EQ(render.at("vertices").get<std::uint64_t>(), points ? 500u : flat ? 1500u : 6000u);
    EXPECT_GT(render.at("fragments_estimate").get<double>(), 0.0);
    for (const auto& r : {doc.at("runs")[0], doc.at("runs")[1]}) {
        EXPECT_EQ(r.at("path"), "passes");
        EXPECT_TRUE(r.at("reads") == "textures" || r.at("reads") == "storage") << r.at("reads");
        // 25 rows of up to 5 cells, fewer where the culling skips them; the H100 floor is the traffic at 3.35 TB/s.
        EXPECT_GT(r.at("cells_walked_per_boid").get<double>(), 5.0);
        EXPECT_LE(r.at("cells_walked_per_boid").get<double>(), 125.0);
        EXPECT_NEAR(r.at("h100_floor_ms").get<double>(), r.at("bytes_per_step").get<double>() / 3.35e9, 1e-12);
        EXPECT_TRUE(r.at("walk") == "rows" || r.at("walk") == "tiles") << r.at("walk");
        // Ranges: a row's x cells each (two across the wrap), at most 50 and at most the cells;
        // whole-radius cells (3 an axis here, so every cell listed): one range of 27 cells at most.
        EXPECT_GE(r.at("ranges_walked_per_boid").get<double>(), 1.0);
        EXPECT_LE(r.at("ranges_walked_per_boid").get<double>(), std::min(50.0, r.at("cells_walked_per_boid").get<double>()));
        const auto whole = r.at("whole_radius_cells");
        EXPECT_EQ(whole.at("ranges_walked_per_boid").get<double>(), 1.0);
        EXPECT_LE(whole.at("cells_walked_per_boid").get<double>(), 27.0);
        EXPECT_GE(whole.at("candidates_per_boid").get<double>(), r.at("mean_neighbours").get<double>());
        // The tiled walk's counts, when it runs (7 cells an axis, so it stages rows): some of the
        // candidates; 0 otherwise.
        const bool tiles = r.at("walk") == "tiles";
        EXPECT_EQ(r.at("tile_candidates_per_boid").get<double>() > 0.0, tiles);
        EXPECT_LE(r.at("tile_candidates_per_boid").get<double>(), r.at("mean_candidates").get<double>());
        EXPECT_EQ(r.at("tile_loads_per_boid").get<double>() > 0.0, tiles);
        EXPECT_EQ(r.at("boids").get<int>(), 500);
        EXPECT_GT(r.at("step_ms").get<double>(), 0.0);
        // 1 boid per unit^3 within 2 units: 4/3 pi 2^3 = 33.5 at spawn; the clumped flock has more.
        EXPECT_GT(r.at("mean_neighbours").get<double>(), 25.0);
        EXPECT_LT(r.at("mean_neighbours").get<double>(), 200.0);
        EXPECT_GE(r.at("mean_candidates").get<double>(), r.at("mean_neighbours").get<double>());
        EXPECT_EQ(r.at("passes").size(), 4u);
        EXPECT_GT(r.at("bytes_per_step").get<double>(), 0.0);
    }
    EXPECT_EQ(doc.at("runs")[0].at("phase"), "spawn");
    EXPECT_EQ(doc.at("runs")[1].at("phase"), "clumped");
    // Bad sizes are bad input.
    EXPECT_EQ(run({"--bench", "--bench-sizes", "10,abc"}, out, err), 2);
    EXPECT_NE(err.find("[64, 100000000]"), std::string::npos) << err;
}

// --headless --screenshot renders the last frame offscreen (EGL + framebuffer) into a PNG of the
// asked size, on either backend.
TEST(CliGpu, HeadlessScreenshotWritesThePngOfTheLastFrame) {
    MURMUR_REQUIRE_GL();
    for (const char* backend : {"gpu", "cpu"}) {
        const std::string path = (std::filesystem::temp_directory_path() / (std::string("murmur_shot_") + backend + ".png")).string();
        std::filesystem::remove(path);
        std::string out, err;
        ASSERT_EQ(run({"--headless", "--backend", backend, "--steps", "3", "--boids", "400", "--width", "320", "--height",
                       "200", "--screenshot", path.c_str()},
                      out, err),
                  0)
            << err;
        EXPECT_NE(out.find("wrote screenshot"), std::string::npos) << out;
        std::ifstream in(path, std::ios::binary);
        std::string png((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ASSERT_GT(png.size(), 24u) << backend;
        EXPECT_EQ(png.substr(1, 3), "PNG");
        // IHDR: width and height, big-endian, at bytes 16..23.
        auto be32 = [&](std::size_t at) {
            return (unsigned(std::uint8_t(png[at])) << 24) | (unsigned(std::uint8_t(png[at + 1])) << 16) |
                   (unsigned(std::uint8_t(png[at + 2])) << 8) | unsigned(std::uint8_t(png[at + 3]));
        };
        EXPECT_EQ(be32(16), 320u);
        EXPECT_EQ(be32(20), 200u);
        std::filesystem::remove(path);
    }
}

TEST(CliGpu, SelfTestChecksEveryVariantAndPasses) {
    MURMUR_REQUIRE_GL();
    std::string out, err;
    ASSERT_EQ(run({"--self-test"}, out, err), 0) << out << err;
    EXPECT_NE(out.find("renderer "), std::string::npos) << out;
    EXPECT_NE(out.find("3D soft decarpentier + cap, obstacles, species, predators, perching, wind"), std::string::npos) << out;
    EXPECT_NE(out.find("render of a known flock"), std::string::npos) << out;
    EXPECT_NE(out.find("two steps in work groups, CPU parity: 3D wrap couzin"), std::string::npos) << out;
    EXPECT_NE(out.find("ok   fullest programs build: dorsogna"), std::string::npos) << out;
    EXPECT_NE(out.find(" 0 failed"), std::string::npos) << out;
    EXPECT_EQ(out.find("FAIL"), std::string::npos) << out;
}

// The self-test builds the fullest variant of each program family: shaders whose fullest steer
// variant (storage reads, an ensemble, perching, a measured step) declares one storage block
// more than the driver offers fail it there, naming the limit, though no parity case uses that
// variant (a sweep of such flocks was the first to meet it).
TEST(CliGpu, SelfTestBuildsTheFullestVariantOfEachFamily) {
    MURMUR_REQUIRE_GL();
    namespace fs = std::filesystem;
    const fs::path top = fs::temp_directory_path() / ("murmur_fullshaders_" + std::to_string(::getpid()));
    const fs::path dir = copyShaderSources(top);
    std::ifstream in(dir / "flock_steer.comp");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string include = "#include \"common.glsl\"\n";
    ASSERT_NE(text.find(include), std::string::npos);
    GLint blocks = 0;
    glGetIntegerv(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, &blocks);
    text.insert(text.find(include) + include.size(), "#if STORAGE_READS && ENSEMBLE && PERCHING && MEASURE_IN_STEER\n"
                                                     "layout(std430, binding = 30) readonly buffer Extra { uint extra[]; };\n#endif\n");
    std::ofstream(dir / "flock_steer.comp") << text;
    std::string out, err;
    EXPECT_EQ(run({"--self-test", "--shader-dir", dir.c_str()}, out, err), 1) << out << err;
    EXPECT_NE(out.find("FAIL fullest programs build: decarpentier"), std::string::npos) << out;
    EXPECT_NE(out.find("GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS = " + std::to_string(blocks)), std::string::npos) << out;
    EXPECT_EQ(out.find("FAIL one step"), std::string::npos) << "only the fullest build has the extra block: " << out;
    fs::remove_all(top);
}

TEST(CliGpu, AGpuThatFailsTheStartUpCheckIsRefused) {
    // Shaders whose step differs from the CPU reference by 1 % of dv: the start-up parity check
    // refuses the GPU backend, naming --self-test and --backend cpu; --self-test says FAIL.
    MURMUR_REQUIRE_GL();
    namespace fs = std::filesystem;
    const fs::path top = fs::temp_directory_path() / ("murmur_badshaders_" + std::to_string(::getpid()));
    const fs::path dir = copyShaderSources(top);
    std::ifstream in(dir / "flock_rules.glsl");  // steeredVelocity: the default (graded) style's update
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string good = "return limitSpeed(S, v + dv);";
    ASSERT_NE(text.find(good), std::string::npos);
    text.replace(text.find(good), good.size(), "return limitSpeed(S, v + 1.01 * dv);");
    std::ofstream(dir / "flock_rules.glsl") << text;
    std::string out, err;
    EXPECT_EQ(run({"--headless", "--steps", "2", "--boids", "200", "--shader-dir", dir.c_str()}, out, err), 1) << out << err;
    EXPECT_NE(err.find("start-up check"), std::string::npos) << err;
    EXPECT_NE(err.find("--self-test"), std::string::npos) << err;
    EXPECT_NE(err.find("--backend cpu"), std::string::npos) << err;
    EXPECT_EQ(run({"--self-test", "--shader-dir", dir.c_str()}, out, err), 1) << out;
    EXPECT_NE(out.find("FAIL one step, CPU parity"), std::string::npos) << out;
    EXPECT_NE(out.find("the shaders of --shader-dir"), std::string::npos) << "the user's shaders, not the GPU, are blamed: " << out;
    EXPECT_EQ(out.find("please report"), std::string::npos) << out;
    fs::remove_all(top);
}

// --record headless: a frame at the start and every --record-every steps, through a real ffmpeg,
// checked with ffprobe (frame count, size, rate).
TEST(CliGpu, HeadlessRecordWritesAVideoWithAFramePerKSteps) {
    MURMUR_REQUIRE_GL();
    const auto dir = std::filesystem::temp_directory_path() / ("murmur_record_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "flock.mp4").string();
    std::string out, err;
    ASSERT_EQ(run({"--headless", "--boids", "300", "--steps", "20", "--record", path.c_str(), "--record-every", "4",
                   "--record-fps", "24", "--width", "160", "--height", "90"},
                  out, err),
              0)
        << err;
    EXPECT_NE(out.find("wrote " + path + " (6 frames at 24 fps)"), std::string::npos) << out;
    FILE* pipe = ::popen(("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=width,height,r_frame_rate,nb_read_frames "
                          "-of csv=p=0 '" + path + "'").c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char line[128] = {};
    ASSERT_NE(std::fgets(line, sizeof line, pipe), nullptr);
    ::pclose(pipe);
    EXPECT_EQ(std::string(line), "160,90,24/1,6\n");
    std::filesystem::remove_all(dir);
}

// --bench-compare prints each row beside an earlier run's with the ratio; a file that is not a
// --bench-out JSON is bad input.
TEST(CliGpu, BenchCompareSetsRunsSideBySide) {
    MURMUR_REQUIRE_GL();
    const auto dir = std::filesystem::temp_directory_path() / ("murmur_compare_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string old_json = (dir / "old.json").string(), bad = (dir / "bad.json").string();
    std::ofstream(old_json) << R"({"revision": "abc", "renderer": "x", "runs": [{"boids": 500, "phase": "spawn", "step_ms": 1000.0}]})";
    std::ofstream(bad) << R"({"rows": 3})";
    std::string out, err;
    ASSERT_EQ(run({"--bench", "--bench-sizes", "500", "--bench-steps", "2", "--bench-clump-steps", "0", "--bench-compare", old_json.c_str()}, out, err), 0) << err;
    EXPECT_NE(out.find("compared with " + old_json + " (abc, x)"), std::string::npos) << out;
    EXPECT_NE(out.find("       500 spawn       1000.000"), std::string::npos) << out;
    EXPECT_EQ(run({"--bench", "--bench-sizes", "500", "--bench-compare", bad.c_str()}, out, err), 2);
    EXPECT_NE(err.find("not a --bench-out JSON file"), std::string::npos) << err;
    EXPECT_EQ(run({"--bench", "--bench-sizes", "500", "--bench-compare", (dir / "none.json").string().c_str()}, out, err), 2);
    std::filesystem::remove_all(dir);
}

// --bench-ab: the two read paths interleaved, A then B each round, each row run on the path it
// is tagged with (its "reads": the path its programs were built with), the medians of the rounds a path each (of two rounds,
// their mean; tolerance 1e-9 relative), and the variable as it was after (unset).
TEST(CliGpu, BenchAbInterleavesTwoPathsAndTakesTheirMedians) {
    MURMUR_REQUIRE_GL();
    ASSERT_EQ(std::getenv("MURMUR_GPU_READS"), nullptr);
    const std::string path = (std::filesystem::temp_directory_path() / ("murmur_ab_" + std::to_string(::getpid()) + ".json")).string();
    std::string out, err;
    ASSERT_EQ(run({"--bench", "--bench-sizes", "500", "--bench-steps", "2", "--bench-clump-steps", "0", "--bench-ab",
                   "MURMUR_GPU_READS=textures,storage", "--bench-rounds", "2", "--bench-out", path.c_str()},
                  out, err),
              0)
        << err;
    EXPECT_EQ(std::getenv("MURMUR_GPU_READS"), nullptr) << "the variable is as it was";
    EXPECT_NE(out.find("A/B MURMUR_GPU_READS textures|storage, 2 rounds interleaved"), std::string::npos) << out;
    const auto doc = nlohmann::json::parse(std::ifstream(path));
    std::vector<std::string> order;
    std::vector<double> spawn_ms[2];
    for (const auto& r : doc["runs"]) {
        if (r["phase"] != "spawn") continue;
        order.push_back(r["ab"].get<std::string>() + std::to_string(r["round"].get<int>()));
        EXPECT_EQ(r["reads"], r["ab"]) << "the row ran on the path it is tagged with";
        spawn_ms[r["ab"] == "textures" ? 0 : 1].push_back(r["step_ms"].get<double>());
    }
    EXPECT_EQ(order, (std::vector<std::string>{"textures1", "storage1", "textures2", "storage2"}));
    const auto& rows = doc["ab"]["rows"];
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0]["phase"], "spawn");
    EXPECT_EQ(rows[1]["phase"], "clumped");
    ASSERT_EQ(spawn_ms[0].size(), 2u);
    ASSERT_EQ(spawn_ms[1].size(), 2u);
    const double a = (spawn_ms[0][0] + spawn_ms[0][1]) / 2, b = (spawn_ms[1][0] + spawn_ms[1][1]) / 2;
    EXPECT_NEAR(rows[0]["a_ms"].get<double>(), a, 1e-9 * a);
    EXPECT_NEAR(rows[0]["b_ms"].get<double>(), b, 1e-9 * b);
    EXPECT_NEAR(rows[0]["b_over_a"].get<double>(), b / a, 1e-9 * b / a);
    std::filesystem::remove(path);
}

// --bench-style graded runs the same scenario (density, radii, speeds) in the graded style and
// says so in its JSON; compared with a steering run, the comparison says it is not like for like.
TEST(CliGpu, BenchStyleGradedIsNamedAndComparedAsAnotherScenario) {
    MURMUR_REQUIRE_GL();
    const auto dir = std::filesystem::temp_directory_path() / ("murmur_bench_style_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string graded = (dir / "graded.json").string();
    std::string out, err;
    ASSERT_EQ(run({"--bench", "--bench-style", "graded", "--bench-sizes", "500", "--bench-steps", "2", "--bench-clump-steps", "0",
                   "--bench-out", graded.c_str()},
                  out, err),
              0)
        << err;
    const auto doc = nlohmann::json::parse(std::ifstream(graded));
    EXPECT_NE(doc.at("scenario").get<std::string>().find("graded"), std::string::npos) << doc.at("scenario");
    const double spawn_neighbours = doc.at("runs")[0].at("mean_neighbours").get<double>();
    EXPECT_GT(spawn_neighbours, 25.0);  // the same spawn as the steering scenario: ~33.5 within 2 units
    EXPECT_LT(spawn_neighbours, 45.0);
    ASSERT_EQ(run({"--bench", "--bench-sizes", "500", "--bench-steps", "2", "--bench-clump-steps", "0", "--bench-compare", graded.c_str()}, out, err), 0) << err;
    EXPECT_NE(out.find("not like for like: its scenario was 3D, wrap, graded"), std::string::npos) << out;
    EXPECT_EQ(run({"--bench", "--bench-style", "vicsek", "--bench-sizes", "500"}, out, err), 2);
    EXPECT_NE(err.find("not in {steering,graded}"), std::string::npos) << err;
    std::filesystem::remove_all(dir);
}

// A sweep on the GPU backend gives the rows the CPU reference gives: the same runs, seeds and
// samples, the polarization within 1e-3 (Vicsek, 30 steps; parity holds each step within 1e-4
// of v0), and with --sweep-xi the correlation length's mean within 0.01 (a 100-bin width is
// 0.025 here) over as many samples.
TEST(CliGpu, ASweepOnTheGpuMatchesTheCpuReference) {
    MURMUR_REQUIRE_GL();
    const auto dir = std::filesystem::temp_directory_path() / ("murmur_gpu_sweep_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::vector<std::string> keys[2];
    std::vector<double> polarization[2], xi[2];
    for (int k = 0; k < 2; ++k) {
        const std::string path = (dir / (k ? "gpu.csv" : "cpu.csv")).string();
        std::string out, err;
        ASSERT_EQ(run({"--backend", k ? "gpu" : "cpu", "--preset", "vicsek", "--boids", "100", "--set", "world_size=5", "--steps", "30",
                       "--sweep", "vicsek.noise=0.5:4.5:2", "--sweep-every", "15", "--sweep-xi", "0", "--sweep-out", path.c_str()},
                      out, err),
                  0)
            << err;
        std::ifstream in(path);
        std::string line;
        std::getline(in, line);  // "# murmur sweep: ...; backend cpu|gpu; ..."
        EXPECT_NE(line.find(k ? "; backend gpu;" : "; backend cpu;"), std::string::npos) << line;
        std::getline(in, line);  // the header
        while (std::getline(in, line)) {
            std::istringstream row(line);
            std::string f[5];
            for (auto& x : f) std::getline(row, x, ',');
            const std::size_t found = line.rfind(','), std = line.rfind(',', found - 1), mean = line.rfind(',', std - 1);
            keys[k].push_back(f[0] + "," + f[1] + "," + f[2] + "," + f[3] + ", xi found " + line.substr(found + 1));
            polarization[k].push_back(std::stod(f[4]));
            xi[k].push_back(std::stod(line.substr(mean + 1, std - mean - 1)));
        }
    }
    ASSERT_EQ(keys[1], keys[0]) << "run, noise, seed, samples and xi's";
    ASSERT_EQ(polarization[0].size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_NEAR(polarization[1][i], polarization[0][i], 1e-3) << keys[0][i];
        EXPECT_NEAR(xi[1][i], xi[0][i], 0.01) << keys[0][i];
    }
    std::filesystem::remove_all(dir);
}

// The window's own count grows the world (10,000 boids on a software renderer, a 671-unit world):
// a radius is judged against that world, not the preset's 300 units (alignment.radius=230 was
// refused as "exceeds half the world (150)"). With no display the window runs headless, as here.
// On the GPU a sweep steps its runs together as ensembles (--sweep-batch 0, the default: as many as
// fit); the CSV is byte for byte the run-by-run sweep's (--sweep-batch 1): every flock steps and
// measures as it does alone. Runs of other sizes and worlds (with xi: each flock's correlations
// from its own slots in its own world), chains of --sweep-carry, and batches of two (several
// ensembles, the last one short).
TEST(CliGpu, ASweepInEnsemblesWritesTheRunByRunSweepsBytes) {
    MURMUR_REQUIRE_GL();
    const auto dir = std::filesystem::temp_directory_path() / ("murmur_gpu_batches_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::vector<std::vector<const char*>> sweeps = {
        {"--preset", "couzin-torus", "--steps", "60", "--sweep", "couzin.orientation_width=0:8:3", "--sweep-seeds", "2",
         "--sweep-burn-in", "20", "--sweep-every", "20"},
        {"--preset", "couzin-torus", "--steps", "60", "--sweep", "couzin.orientation_width=8:0:3", "--sweep-seeds", "3",
         "--sweep-every", "30", "--sweep-carry"},
        {"--steps", "40", "--sweep", "boids=100:500:3", "--sweep", "world_size=60:90:2", "--sweep-every", "20", "--sweep-xi", "25"},
        {"--steps", "40", "--sweep", "separation.radius=2:6:3", "--sweep-seeds", "2", "--sweep-every", "20", "--sweep-carry"}};
    for (std::size_t k = 0; k < sweeps.size(); ++k) {
        std::string csv[3];
        const char* batches[3] = {"1", "0", "2"};
        for (int b = 0; b < 3; ++b) {
            const std::string path = (dir / ("s" + std::to_string(k) + "_" + batches[b] + ".csv")).string();
            std::vector<const char*> args = sweeps[k];
            for (const char* a : {"--sweep-batch", batches[b], "--sweep-out", path.c_str()}) args.push_back(a);
            std::string out, err;
            ASSERT_EQ(run(args, out, err), 0) << err;
            if (b > 0) {
                EXPECT_NE(err.find("an ensemble of"), std::string::npos) << err;
            }
            std::ifstream in(path);
            csv[b].assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        EXPECT_GT(csv[0].size(), 200u);
        EXPECT_EQ(csv[1], csv[0]) << "sweep " << k << ": one ensemble against run by run";
        EXPECT_EQ(csv[2], csv[0]) << "sweep " << k << ": ensembles of two against run by run";
    }
    std::filesystem::remove_all(dir);
}

// Runs whose flocks together exceed what one set of buffers holds on this GPU (on llvmpipe's and
// lavapipe's 128 MiB storage blocks, 8,388,608 boids; the expectation follows the queried limit) are split into several ensembles, never
// refused: three runs of 3,000,000 boids.
TEST(CliGpu, ASweepTooLargeForOneEnsembleIsSplit) {
    MURMUR_REQUIRE_GL();
    GLint block = 0;
    glGetIntegerv(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    const std::string path = (std::filesystem::temp_directory_path() / ("murmur_split_" + std::to_string(::getpid()) + ".csv")).string();
    std::string out, err;
    ASSERT_EQ(run({"--sweep", "separation.weight=1:2:3", "--boids", "3000000", "--steps", "1", "--sweep-burn-in", "1",
                   "--sweep-every", "1", "--sweep-out", path.c_str()},
                  out, err),
              0)
        << err;
    std::ifstream in(path);
    std::string line;
    int rows = 0;
    while (std::getline(in, line)) rows += line.rfind("#", 0) != 0 && line.rfind("run,", 0) != 0 ? 1 : 0;
    EXPECT_EQ(rows, 3);
    if (std::uint64_t(block) / 16 < 9000000u) {  // the three cannot share one set of buffers here
        EXPECT_NE(err.find("an ensemble of 1"), std::string::npos) << err;
    }
    std::filesystem::remove(path);
}

TEST(CliGpu, ARadiusIsCheckedAgainstTheWorldTheWindowsCountChooses) {
    MURMUR_REQUIRE_GL();
    const std::string shot = (std::filesystem::temp_directory_path() / ("murmur_radius_" + std::to_string(::getpid()) + ".png")).string();
    const char* display = std::getenv("DISPLAY");
    const std::string saved = display ? display : "";
    ::unsetenv("DISPLAY");
    // The count this renderer gets (10,000 in a 671-unit world on a software renderer, 1,000,000
    // in a 6,708-unit one on a hardware GPU), from the renderer class and the queried limits: a
    // radius of 230 is too large for the 300-unit world of the defaults, not for either of these.
    std::string why;
    const Params chosen = rendererDefaults(Params{}, gl::isSoftwareRenderer(gl::rendererString()),
                                           gpu::queryCapacity(makeGridSpec(Params{})).max_boids, why);
    char expected[96];
    std::snprintf(expected, sizeof expected, "%u boids in a %.0f-unit world", chosen.boids, double(chosen.world_size));
    std::string out, err;
    const int code = run({"--frames", "1", "--set", "alignment.radius=230", "--screenshot", shot.c_str()}, out, err);
    if (!saved.empty()) ::setenv("DISPLAY", saved.c_str(), 1);
    std::filesystem::remove(shot);
    EXPECT_EQ(code, 0) << err;
    EXPECT_GT(chosen.world_size, 460.0f) << "the radius would be too large in the world chosen";
    EXPECT_NE(out.find(expected), std::string::npos) << out << "\nexpected: " << expected;
    // Parameters invalid in any world are still refused, naming the field, before anything runs.
    ::unsetenv("DISPLAY");
    const int bad = run({"--frames", "1", "--set", "min_speed=20", "--set", "max_speed=10", "--screenshot", shot.c_str()}, out, err);
    if (!saved.empty()) ::setenv("DISPLAY", saved.c_str(), 1);
    EXPECT_EQ(bad, 2);
    EXPECT_NE(err.find("min_speed"), std::string::npos) << err;
    EXPECT_FALSE(std::filesystem::exists(shot));
}

// The start-up check's tolerance follows the fastest boid, not species 0's speed: valid flocks
// with a fast second species, or unlimited speeds, were refused as "this GPU failed".
TEST(CliGpu, TheStartUpCheckAcceptsFastSpeciesAndUnlimitedSpeeds) {
    MURMUR_REQUIRE_GL();
    for (const std::vector<const char*>& args :
         {std::vector<const char*>{"--dims", "3", "--set", "species_count=2", "--set", "species1.max_speed=10000", "--set",
                                   "species1.min_speed=10000", "--set", "dt=1", "--boids", "300"},
          {"--dims", "3", "--set", "speed_limit=off", "--set", "wander=100000", "--set", "dt=1", "--boids", "300"}}) {
        std::vector<const char*> all{"--headless", "--steps", "1"};
        all.insert(all.end(), args.begin(), args.end());
        std::string out, err;
        EXPECT_EQ(run(all, out, err), 0) << args[1] << " " << args[3] << ": " << err;
        EXPECT_EQ(err.find("start-up check"), std::string::npos) << err;
    }
}

// A zero-boid flock's steps pass on both backends alike (the GPU's step count stood still).
TEST(CliGpu, AnEmptyFlockCountsItsStepsOnBothBackends) {
    MURMUR_REQUIRE_GL();
    const auto dir = std::filesystem::temp_directory_path() / ("murmur_empty_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string in = (dir / "in.csv").string();
    std::ofstream(in) << "# step 10\nid,species,x,y,z,vx,vy,vz\n";
    for (const char* backend : {"cpu", "gpu"}) {
        const std::string out_csv = (dir / (std::string(backend) + ".csv")).string();
        std::string out, err;
        ASSERT_EQ(run({"--backend", backend, "--headless", "--import", in.c_str(), "--steps", "5", "--export", out_csv.c_str()}, out, err), 0)
            << backend << ": " << err;
        std::ifstream f(out_csv);
        std::string first;
        std::getline(f, first);
        EXPECT_EQ(first, "# step 15") << backend;
    }
    std::filesystem::remove_all(dir);
}

// The steer pass's fullest variant: storage-buffer reads, an ensemble, perching, stored steering
// and a measured step. It declared 17 storage blocks (grid_cells.glsl's unread counts among them)
// where llvmpipe and NVIDIA allow 16, and failed to link.
TEST(CliGpu, TheFullestSteerVariantLinksAndRuns) {
    MURMUR_REQUIRE_GL();
    const char* before = std::getenv("MURMUR_GPU_READS");
    const std::string saved = before ? before : "";
    ::setenv("MURMUR_GPU_READS", "storage", 1);
    const std::string csv = (std::filesystem::temp_directory_path() / ("murmur_fullest_" + std::to_string(::getpid()) + ".csv")).string();
    std::string out, err;
    EXPECT_EQ(run({"--preset", "decarpentier", "--set", "perch.enabled=on", "--boids", "200", "--steps", "10", "--sweep",
                   "separation.weight=1:2:2", "--sweep-seeds", "2", "--sweep-burn-in", "5", "--sweep-every", "5", "--sweep-batch",
                   "4", "--sweep-out", csv.c_str()},
                  out, err),
              0)
        << out << err;
    EXPECT_NE((out + err).find("(4 of 4 runs)"), std::string::npos) << out << err;
    std::filesystem::remove(csv);
    if (saved.empty()) ::unsetenv("MURMUR_GPU_READS");
    else ::setenv("MURMUR_GPU_READS", saved.c_str(), 1);
}

// MURMUR_EGL_DEVICE picks the EGL device by its index (Mesa lists its software device as 0 here):
// the summary names the device used; one that is not there is an error listing those there are;
// a value that is neither an index nor a PCI bus id is bad input.
TEST(CliGpu, MurmurEglDeviceChoosesTheDeviceAndTheSummaryNamesIt) {
    MURMUR_REQUIRE_GL();
    const char* before = std::getenv("MURMUR_EGL_DEVICE");
    const std::string saved = before ? before : "";
    std::string out, err;
    ::setenv("MURMUR_EGL_DEVICE", "0", 1);
    EXPECT_EQ(run({"--headless", "--steps", "1", "--boids", "100"}, out, err), 0) << err;
    EXPECT_NE(out.find("(EGL device 0 ("), std::string::npos) << out;
    ::setenv("MURMUR_EGL_DEVICE", "17", 1);
    EXPECT_EQ(run({"--headless", "--steps", "1", "--boids", "100"}, out, err), 1) << err;
    EXPECT_NE(err.find("MURMUR_EGL_DEVICE=17 names no device here; the devices are: EGL device 0 ("), std::string::npos) << err;
    ::setenv("MURMUR_EGL_DEVICE", "first\nmurmur: ok", 1);
    EXPECT_EQ(run({"--headless", "--steps", "1", "--boids", "100"}, out, err), 2) << err;
    EXPECT_NE(err.find("MURMUR_EGL_DEVICE='first?murmur: ok': valid: a device's index"), std::string::npos) << err;
    if (saved.empty()) ::unsetenv("MURMUR_EGL_DEVICE");
    else ::setenv("MURMUR_EGL_DEVICE", saved.c_str(), 1);
}

// MURMUR_GPU_TIMEOUT (the longest wait for the GPU's work) that is not seconds is refused before
// the run (it failed with exit 1 at the first wait, the run's steps already taken).
TEST(CliGpu, AGpuTimeoutThatIsNotSecondsIsRefusedUpFront) {
    MURMUR_REQUIRE_GL();
    std::string out, err;
    ::setenv("MURMUR_GPU_TIMEOUT", "ten\nmurmur: ok", 1);
    EXPECT_EQ(run({"--headless", "--steps", "1", "--boids", "100"}, out, err), 2) << err;
    EXPECT_NE(err.find("MURMUR_GPU_TIMEOUT='ten\\x0amurmur: ok': valid: seconds, 0 or more"), std::string::npos) << err;
    EXPECT_EQ(out.find("ran 1 step"), std::string::npos) << out;
    ::setenv("MURMUR_GPU_TIMEOUT", "0", 1);
    EXPECT_EQ(run({"--headless", "--steps", "1", "--boids", "100"}, out, err), 0) << err;
    ::unsetenv("MURMUR_GPU_TIMEOUT");
}

// MURMUR_GPU_READS picks the passes' read path, MURMUR_GPU_WALK the steer pass's walk: a value that
// is neither of a variable's two is bad input (exit 2, naming both) for a GPU run and the
// self-test, and no concern of a CPU run.
void expectUnknownGpuPathRefused(const char* var, const char* value, const std::string& named) {
    const char* before = std::getenv(var);
    const std::string saved = before ? before : "";
    ::setenv(var, value, 1);
    std::string out, err;
    EXPECT_EQ(run({"--headless", "--steps", "1", "--boids", "100"}, out, err), 2);
    EXPECT_NE(err.find(std::string(var) + "='" + value + "': valid: " + named), std::string::npos) << err;
    EXPECT_EQ(run({"--self-test"}, out, err), 2);
    EXPECT_EQ(run({"--headless", "--backend", "cpu", "--steps", "1", "--boids", "100"}, out, err), 0) << err;
    if (saved.empty()) ::unsetenv(var);
    else ::setenv(var, saved.c_str(), 1);
}

TEST(CliGpu, AnUnknownGpuReadPathIsRefusedNamingBoth) {
    MURMUR_REQUIRE_GL();
    expectUnknownGpuPathRefused("MURMUR_GPU_READS", "fast", "textures (buffer textures, the default) or storage");
}

TEST(CliGpu, AnUnknownGpuWalkIsRefusedNamingBoth) {
    MURMUR_REQUIRE_GL();
    expectUnknownGpuPathRefused("MURMUR_GPU_WALK", "blocks", "rows (each boid its rows, the default) or tiles");
}
