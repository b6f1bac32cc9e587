// The command line on the GPU backend (the default): a run prints the renderer and per-pass GPU
// times; a flock the GPU cannot hold is bad input (exit 2) with the limit named, and no file.
#include "app/cli.hpp"
#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <filesystem>
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

TEST(CliGpu, TooManyBoidsExits2WithTheLimit) {
    MURMUR_REQUIRE_GL();
    const std::string path = (std::filesystem::temp_directory_path() / "murmur_too_many.csv").string();
    std::string out, err;
    // 1e8 boids need 1.6 GB in one storage block; llvmpipe allows 128 MiB.
    const int code = run({"--boids", "100000000", "--set", "world_size=100000", "--steps", "1", "--export", path.c_str()}, out, err);
    if (code == 0) GTEST_SKIP() << "this GPU holds 1e8 boids: " << out;
    EXPECT_EQ(code, 2) << err;
    EXPECT_NE(err.find("do not fit this GPU"), std::string::npos) << err;
    EXPECT_NE(err.find("valid range [0, "), std::string::npos) << err;
    EXPECT_FALSE(std::filesystem::exists(path));
}
