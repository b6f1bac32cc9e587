// The public C++ API (include/murmur/murmur.hpp) as a client sees it: the same seed gives the
// state the command line exports, on both backends; a setting takes effect; errors are
// murmur::api::Error with the command line's messages. The GPU flock runs in this process's
// current context (gl_loader), as a program with its own window would.
#include "murmur/murmur.hpp"

#include "app/cli.hpp"
#include "gl_env.hpp"

#include <glad/egl.h>  // the EGL loader the test context was made with
#include <gtest/gtest.h>

#include <filesystem>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

murmur::api::FlockOptions options(const std::string& backend) {
    murmur::api::FlockOptions o;
    o.preset = "default";
    o.boids = 300;
    o.seed = 5;
    o.backend = backend;
    o.gl_loader = eglGetProcAddress;
    return o;
}

}  // namespace

// The flocks first (in this test's context), then the command line in-process (whose GPU run
// makes and ends a context of its own, and hands this one back).
TEST(PublicApi, TheSameSeedGivesTheStateTheCommandLineExports) {
    MURMUR_REQUIRE_GL();
    const fs::path dir = fs::temp_directory_path() / ("murmur_api_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const char* backend : {"cpu", "gpu"}) {
        SCOPED_TRACE(backend);
        murmur::api::Flock flock(options(backend));
        flock.step(20);
        EXPECT_EQ(flock.stepCount(), 20u);
        flock.exportState((dir / (std::string("api-") + backend + ".csv")).string());
        const std::vector<float> xyz = flock.positions();
        ASSERT_EQ(xyz.size(), 900u);
        EXPECT_EQ(flock.ids().front(), 0u);
        EXPECT_EQ(flock.ids().back(), 299u);
        EXPECT_GT(flock.orderParameters().at("mean_speed"), 0.0);
        if (std::string(backend) == "gpu") {
            EXPECT_NE(flock.glBuffers().positions, 0u);
            EXPECT_EQ(flock.glBuffers().count, 300u);
            EXPECT_NO_GL_ERRORS();
        } else {
            EXPECT_EQ(flock.glBuffers().positions, 0u) << "the CPU backend has no GL buffers";
        }
    }
    for (const char* backend : {"cpu", "gpu"}) {
        const fs::path cli = dir / (std::string("cli-") + backend + ".csv");
        std::vector<const char*> args = {"murmur", "--headless", "--backend", backend, "--preset", "default", "--boids", "300",
                                         "--seed", "5", "--steps", "20", "--export", cli.c_str()};
        std::ostringstream out, err;
        ASSERT_EQ(murmur::runCli(int(args.size()), args.data(), out, err), 0) << err.str();
        EXPECT_EQ(slurp(dir / (std::string("api-") + backend + ".csv")), slurp(cli))
            << backend << ": the API's export against --export, byte for byte";
    }
    fs::remove_all(dir);
}

TEST(PublicApi, ASettingTakesEffectAndBadInputThrowsTheCliMessage) {
    MURMUR_REQUIRE_GL();
    murmur::api::Flock a(options("cpu")), b(options("cpu"));
    b.set("alignment.weight", "3");
    EXPECT_EQ(b.get("alignment.weight"), "3");
    a.step(10);
    b.step(10);
    EXPECT_NE(a.velocities(), b.velocities()) << "the weight changed the flight";
    auto message = [&](auto&& f) {
        try {
            f();
        } catch (const murmur::api::Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message([&] { a.set("seperation.weight", "1"); }).find("did you mean separation.weight"), std::string::npos);
    EXPECT_NE(message([&] { a.set("fov_deg", "500"); }).find("fov_deg: 500 is out of range [0, 360]"), std::string::npos);
    EXPECT_NE(message([&] { a.set("boids", "5"); }).find("make a new Flock"), std::string::npos);
    // A flock the GPU cannot hold: 1e8 boids need 1.6 GB in one storage block (llvmpipe allows
    // 128 MiB). Asked only where the queried limit refuses it: a GPU that holds them would build
    // a 1e8 flock here.
    GLint64 block = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block);
    if (block < GLint64(100000000) * 16) {
        murmur::api::FlockOptions huge = options("gpu");
        huge.boids = 100000000;
        EXPECT_NE(message([&] { murmur::api::Flock f(huge); }).find("do not fit this GPU"), std::string::npos);
    } else {
        std::printf("[ note     ] this GPU's storage blocks (%lld B) may hold 1e8 boids: the refusal is not asked\n",
                    static_cast<long long>(block));
    }
    murmur::api::FlockOptions unknown = options("cpu");
    unknown.preset = "no-such-preset";
    EXPECT_NE(message([&] { murmur::api::Flock f(unknown); }).find("no built-in preset 'no-such-preset'"), std::string::npos);
    EXPECT_FALSE(murmur::api::presets().empty());
    EXPECT_GT(murmur::api::params().size(), 50u);
}

// An ensemble of flocks with different parameters, sizes and worlds: flock k is, bit for bit,
// the Flock made alone with the same options, on each backend; set() reaches only flock k.
TEST(PublicApi, AnEnsembleFlockIsTheFlockAlone) {
    MURMUR_REQUIRE_GL();
    for (const char* backend : {"cpu", "gpu"}) {
        SCOPED_TRACE(backend);
        std::vector<murmur::api::FlockOptions> opts;
        for (std::uint32_t k = 0; k < 3; ++k) {
            murmur::api::FlockOptions o = options(backend);
            o.boids = 100 + 70 * k;
            o.seed = 11 + k;
            o.settings = {{"alignment.weight", std::to_string(0.5 + 0.5 * k)}};
            opts.push_back(o);
        }
        murmur::api::Ensemble ensemble(opts);
        ASSERT_EQ(ensemble.flocks(), 3u);
        ensemble.step(15);
        ensemble.set(1, "cohesion.weight", "2");
        ensemble.step(10);
        EXPECT_EQ(ensemble.stepCount(), 25u);
        for (std::uint32_t k = 0; k < 3; ++k) {
            SCOPED_TRACE(k);
            murmur::api::Flock alone(opts[k]);
            alone.step(15);
            if (k == 1) alone.set("cohesion.weight", "2");
            alone.step(10);
            EXPECT_EQ(ensemble.size(k), alone.size());
            EXPECT_EQ(ensemble.positions(k), alone.positions());  // bit for bit
            EXPECT_EQ(ensemble.velocities(k), alone.velocities());
            EXPECT_EQ(ensemble.get(k, "cohesion.weight"), alone.get("cohesion.weight"));
            EXPECT_EQ(ensemble.orderParameters(k).at("polarization"), alone.orderParameters().at("polarization"));
        }
        EXPECT_NE(ensemble.positions(0).size(), ensemble.positions(2).size());
        EXPECT_THROW(ensemble.positions(3), murmur::api::Error);
    }
    EXPECT_NO_GL_ERRORS();
}

TEST(PublicApi, AnEnsembleRefusesWhatItCannotStep) {
    MURMUR_REQUIRE_GL();
    auto a = options("gpu"), b = options("gpu");
    b.settings = {{"dims", "3"}};  // another shader variant
    try {
        murmur::api::Ensemble e({a, b});
        FAIL() << "an ensemble of 2D and 3D flocks was made";
    } catch (const murmur::api::Error& e) {
        EXPECT_NE(std::string(e.what()).find("flock 1"), std::string::npos) << e.what();
    }
    b = options("cpu");
    b.settings = {{"separation.radius", "-1"}};
    try {
        murmur::api::Ensemble e({options("cpu"), b});
        FAIL() << "a bad setting was taken";
    } catch (const murmur::api::Error& e) {
        EXPECT_NE(std::string(e.what()).find("flock 1: separation.radius"), std::string::npos) << e.what();
    }
    EXPECT_THROW(murmur::api::Ensemble({}), murmur::api::Error);
    b = options("cpu");
    b.resume = "anything.csv";  // a restart file continues one Flock; an ensemble spawns
    try {
        murmur::api::Ensemble e({options("cpu"), b});
        FAIL() << "an ensemble took a resume and spawned";
    } catch (const murmur::api::Error& e) {
        EXPECT_NE(std::string(e.what()).find("flock 1: resume continues one Flock"), std::string::npos) << e.what();
    }
    murmur::api::Ensemble one({options("cpu")});
    EXPECT_THROW(one.set(0, "dims", "3"), murmur::api::Error);
    EXPECT_THROW(one.step(-1), murmur::api::Error);
}

// api::runSweep is the engine's sweep: the CSV murmur --sweep-out writes, byte for byte, on both
// backends (the GPU's runs as one ensemble in this test's context); progress lines as they come;
// a stop check that says true ends it with nothing written; bad input names the range.
TEST(PublicApi, ASweepWritesTheCommandLinesBytesAndStopsWhenAsked) {
    MURMUR_REQUIRE_GL();
    const fs::path dir = fs::temp_directory_path() / ("murmur_api_sweep_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const char* backend : {"cpu", "gpu"}) {
        SCOPED_TRACE(backend);
        murmur::api::Sweep sweep;
        sweep.flock = options(backend);
        sweep.flock.preset = "vicsek";
        sweep.axes = {"vicsek.noise=0.2:1:3"};
        sweep.seeds = 2;
        sweep.steps = 30;
        sweep.burn_in = 10;
        sweep.every = 5;
        std::vector<std::string> lines;
        const fs::path api = dir / (std::string("api-") + backend + ".csv");
        EXPECT_EQ(murmur::api::runSweep(sweep, api.string(), [&](const std::string& line) { lines.push_back(line); }), 6u);
        ASSERT_FALSE(lines.empty());
        EXPECT_EQ(lines.back().rfind("sweep: run", 0), 0u) << lines.back();
        const fs::path cli = dir / (std::string("cli-") + backend + ".csv");
        std::vector<const char*> args = {"murmur", "--headless", "--backend", backend, "--preset", "vicsek", "--boids", "300",
                                         "--seed", "5", "--steps", "30", "--sweep", "vicsek.noise=0.2:1:3", "--sweep-seeds", "2",
                                         "--sweep-burn-in", "10", "--sweep-every", "5", "--sweep-out", cli.c_str()};
        std::ostringstream out, err;
        ASSERT_EQ(murmur::runCli(int(args.size()), args.data(), out, err), 0) << err.str();
        EXPECT_EQ(slurp(api), slurp(cli)) << "api::runSweep against --sweep-out, byte for byte";
        const fs::path stopped = dir / (std::string("stopped-") + backend + ".csv");
        int asked = 0;
        EXPECT_THROW(murmur::api::runSweep(sweep, stopped.string(), {}, [&] { return ++asked == 2; }), murmur::api::Error);
        EXPECT_EQ(asked, 2);
        EXPECT_FALSE(fs::exists(stopped)) << "a stopped sweep writes nothing";
    }
    murmur::api::Sweep bad;
    bad.flock = options("cpu");
    bad.axes = {"vicsek.noise=0:1:2"};
    bad.seeds = 0;
    try {
        murmur::api::runSweep(bad, (dir / "bad.csv").string());
        ADD_FAILURE() << "seeds 0 was taken";
    } catch (const murmur::api::Error& e) {
        EXPECT_NE(std::string(e.what()).find("[1, 10000]"), std::string::npos) << e.what();
    }
    fs::remove_all(dir);
}
