// Density is the invariant: a new count or dims resizes the world (model/density.hpp), on the
// command line as in the panel (the panel's half is in test_session.cpp).
#include "app/cli.hpp"
#include "io/state_csv.hpp"
#include "model/density.hpp"
#include "model/spawn.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace murmur;

namespace {

Params preset2d() {
    Params p;
    p.dims = 2;
    p.world_size = 200.0f;
    p.boids = 2000;
    p.species[0].separation = {4.0f, 1.0f};
    p.species[0].alignment = {10.0f, 1.0f};
    p.species[0].cohesion = {10.0f, 1.0f};
    p.margin = 10.0f;
    return p;
}

std::string runCliOut(std::vector<std::string> args, int& code) {
    args.insert(args.begin(), "murmur");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    code = runCli(int(argv.size()), argv.data(), out, err);
    return out.str() + err.str();
}

}  // namespace

TEST(Density, FourTimesTheBoidsInTwiceTheWorldIn2D) {
    // 2000 -> 8000 boids: L x (8000/2000)^(1/2) = 400; everything placed in the world scales by 2
    // (the spawn ball and the starlings' roost too), rule radii stay.
    Params p = preset2d();
    p.attractor.at = {50.0f, 60.0f, 0.0f};
    p.obstacles = {Obstacle{{100.0f, 20.0f, 0.0f}, 7.0f}};
    p.perch_ground = 5.0f;
    p.spawn_radius = 30.0f;
    p.starling.roost_radius = 75.0f;
    const Rescaled r = keepDensity(p, 8000, 2);
    EXPECT_TRUE(r.kept);
    EXPECT_NEAR(r.params.world_size, 400.0f, 1e-3f);
    EXPECT_NEAR(r.params.margin, 20.0f, 1e-4f);
    EXPECT_NEAR(r.params.attractor.at.x, 100.0f, 1e-4f);
    EXPECT_NEAR(r.params.attractor.at.y, 120.0f, 1e-4f);
    EXPECT_NEAR(r.params.obstacles[0].at.x, 200.0f, 1e-3f);
    EXPECT_EQ(r.params.obstacles[0].radius, 7.0f);
    EXPECT_NEAR(r.params.perch_ground, 10.0f, 1e-5f);
    EXPECT_NEAR(r.params.spawn_radius, 60.0f, 1e-4f);  // the spawn ball keeps its density
    EXPECT_NEAR(r.params.starling.roost_radius, 150.0f, 1e-4f);
    EXPECT_EQ(r.params.species[0].separation.radius, 4.0f);
    EXPECT_EQ(r.params.boids, 8000u);
    EXPECT_NE(r.summary.find("400-unit"), std::string::npos) << r.summary;
}

TEST(Density, EightTimesTheBoidsInTwiceTheCube) {
    Params p = preset2d();
    p.dims = 3;
    p.world_size = 60.0f;
    p.boids = 5000;
    EXPECT_NEAR(keepDensity(p, 40000, 3).params.world_size, 120.0f, 1e-3f);
}

TEST(Density, ADimsChangeKeepsTheExpectedNeighbourCount) {
    // 2D: 2000 x pi 10^2 / 200^2 = 15.708 boids within the largest radius (10). In 3D the same count
    // needs 2000 x (4/3) pi 10^3 / L^3 = 15.708 -> L^3 = 2000 x 4188.79 / 15.708 = 533333 -> L = 81.10.
    const Params p3 = keepDensity(preset2d(), 2000, 3).params;
    EXPECT_EQ(p3.dims, 3);
    EXPECT_NEAR(p3.world_size, std::cbrt(2000.0 * (4.0 / 3.0) * M_PI * 1000.0 / (2000.0 * M_PI * 100.0 / 40000.0)), 1e-2);
    EXPECT_NEAR(p3.world_size, 81.10f, 0.01f);
}

TEST(Density, TooFewBoidsForTheRadiiHoldTheSmallestWorld) {
    // 5 boids would want 200 x sqrt(5/2000) = 10 units, less than twice the largest radius (20).
    const Rescaled r = keepDensity(preset2d(), 5, 2);
    EXPECT_FALSE(r.kept);
    EXPECT_EQ(r.params.world_size, 20.0f);
    EXPECT_NE(r.summary.find("not the preset's density"), std::string::npos);
    // and too many for the largest world (1e5 units): held there, and said.
    const Rescaled big = keepDensity(preset2d(), 100000000, 2);  // would want 44,721 units: fits
    EXPECT_TRUE(big.kept);
    Params sparse = preset2d();
    sparse.world_size = 20000.0f;  // 2000 boids in 20,000 units -> 1e8 boids want 4.5e6 units
    const Rescaled held = keepDensity(sparse, 100000000, 2);
    EXPECT_FALSE(held.kept);
    EXPECT_EQ(held.params.world_size, 100000.0f);
    EXPECT_TRUE(validate(held.params).empty()) << describe(validate(held.params));
}

TEST(Density, CandidatePairsFollowTheGrid) {
    // 200 units / cells of >= 10/2 units -> 39 x 39 = 1521 cells; each boid searches 25 of them:
    // 2000^2 x 25 / 1521 = 65746 pairs.
    EXPECT_NEAR(candidatePairsPerStep(preset2d()), 2000.0 * 2000.0 * 25.0 / 1521.0, 1e-6);
    Params huge = preset2d();
    huge.boids = 300000;  // the world kept: 9e10 x 25 / 1521 = 1.5e9
    EXPECT_GT(candidatePairsPerStep(huge), kMaxCandidatePairs);
    EXPECT_LT(candidatePairsPerStep(keepDensity(preset2d(), 300000, 2).params), 2e7);
}

namespace {
// The largest coordinate of a state file: how big the world it was spawned in is.
// (The export's "# step" line, then its header id,species,x,...: x is the third field.)
float largestX(const std::string& csv) {
    std::ifstream in(csv);
    std::string line;
    while (std::getline(in, line) && line.starts_with("#")) {
    }
    float most = 0.0f;
    while (std::getline(in, line)) {
        const std::size_t a = line.find(','), b = line.find(',', a + 1), c = line.find(',', b + 1);
        most = std::max(most, std::stof(line.substr(b + 1, c - b - 1)));
    }
    return most;
}
}  // namespace

TEST(Density, TheCommandLineKeepsThePresetsDensity) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("murmur_density_cli_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string csv = (dir / "out.csv").string();
    // default preset: 2000 boids in 300 units -> 8000 boids in 600 units (spawned across it).
    int code = 0;
    std::string out = runCliOut(
        {"--backend", "cpu", "--headless", "--steps", "0", "--preset", "default", "--boids", "8000", "--export", csv}, code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_NE(out.find("8000 boids in a 600-unit world"), std::string::npos) << out;
    EXPECT_GT(largestX(csv), 590.0f);
    // An explicit world wins: 8000 boids in 350 units.
    out = runCliOut({"--backend", "cpu", "--headless", "--steps", "0", "--preset", "default", "--boids", "8000", "--set",
                     "world_size=350", "--export", csv},
                    code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_EQ(out.find("density of the preset kept"), std::string::npos) << out;
    EXPECT_GT(largestX(csv), 340.0f);
    EXPECT_LT(largestX(csv), 350.0f);
    fs::remove_all(dir);
}

TEST(Density, ImportKeepsTheFilesBoidsAndThePresetsWorld) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("murmur_density_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    Params p;
    p.boids = 100;
    p.world_size = 300.0f;
    const std::string in = (dir / "in.csv").string(), out_csv = (dir / "out.csv").string();
    writeStateCsv(in, spawn(p));
    int code = 0;
    // --boids agrees with the file; the preset's 300-unit world stays (the file's positions are in
    // it: a 67-unit world would refuse those beyond 134).
    const std::string out = runCliOut({"--backend", "cpu", "--headless", "--steps", "0", "--preset", "default", "--boids",
                                       "100", "--import", in, "--export", out_csv},
                                      code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_EQ(out.find("density of the preset kept"), std::string::npos) << out;
    EXPECT_NE(out.find("100 boids"), std::string::npos) << out;
    EXPECT_GT(largestX(out_csv), 200.0f);
    fs::remove_all(dir);
}

// An obstacle's radius stays when the world shrinks with the boid count: one too large for the new
// world is refused, as --set world_size refuses it (it was shrunk to half the world, and filled it).
TEST(Density, AnObstacleTooLargeForTheShrunkWorldIsRefusedNotShrunk) {
    Params p = preset2d();
    p.world_size = 300.0f;
    p.obstacles = {Obstacle{{250.0f, 250.0f, 0.0f}, 40.0f}};
    const Params small = keepDensity(p, std::max(1u, p.boids / 200), 2).params;
    ASSERT_LT(small.world_size, 80.0f);
    EXPECT_EQ(small.obstacles[0].radius, 40.0f);
    EXPECT_NEAR(small.obstacles[0].at.x, 250.0f * small.world_size / 300.0f, 1e-3f);
    const auto problems = validate(small);
    ASSERT_FALSE(problems.empty());
    EXPECT_EQ(problems.front().field, "obstacles[0].radius");
}
