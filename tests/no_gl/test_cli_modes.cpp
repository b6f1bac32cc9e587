// The table of which flags each mode takes (src/app/cli_modes.hpp): every declared flag has a
// row, and a flag a mode would ignore is refused (exit 2) before anything runs or is written.
#include "app/cli.hpp"
#include "app/cli_modes.hpp"
#include "app/cli_options.hpp"
#include "no_gl/cli_run.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

using namespace murmur;
namespace fs = std::filesystem;

namespace {
using Refusal = test::CliResult;
Refusal run(std::vector<std::string> args) { return test::runMurmur(std::move(args)); }
}  // namespace

TEST(CliModes, EveryDeclaredFlagHasARowAndNoRowIsStale) {
    CLI::App app;
    CliValues values;
    declareOptions(app, values);
    const std::vector<std::string_view> tabled = tabledFlags();
    std::vector<std::string> declared;
    for (const CLI::Option* o : app.get_options()) {
        const std::string name = "--" + o->get_lnames().front();
        if (name == "--help" || name == "--version") continue;
        declared.push_back(name);
        EXPECT_NE(std::find(tabled.begin(), tabled.end(), name), tabled.end()) << name << " has no row in cli_modes.cpp";
    }
    for (std::string_view flag : tabled)
        EXPECT_NE(std::find(declared.begin(), declared.end(), flag), declared.end()) << flag << " is tabled but not declared";
}

// Two outputs of one run may not name the same file (both "wrote" lines printed, one file lost).
TEST(CliModes, TwoOutputsNamingOneFileAreRefused) {
    const fs::path dir = fs::temp_directory_path() / ("murmur_same_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string csv = (dir / "same.csv").string(), png = (dir / "o.png").string();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--headless", "--stats-out", csv, "--export", csv}, "--export and --stats-out name the same file"},
        {{"--headless", "--stats-out", csv, "--export", (dir / "." / "same.csv").string()}, "name the same file"},
        {{"--sweep", "dt=0.01:0.02:2", "--sweep-out", png, "--sweep-plot", png}, "--sweep-out and --sweep-plot name the same file"},
        {{"--sweep-merge", png, csv, "--sweep-plot", png}, "--sweep-plot and --sweep-merge OUT name the same file"},
        {{"--sweep-merge", csv, csv}, "--sweep-merge OUT and --sweep-merge PART name the same file"},
    };
    for (const auto& [args, want] : cases) {
        const Refusal r = run(args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(csv));
    EXPECT_FALSE(fs::exists(png));
    fs::remove_all(dir);
}

TEST(CliModes, TwoModesAtOnceAreRefused) {
    const Refusal r = run({"--bench", "--sweep", "dt=0.01:0.02:2"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--bench and --sweep are two different modes"), std::string::npos) << r.err;
}

// Each mode given a flag it would have ignored: refused, naming the flag, the mode and where the
// flag applies; nothing written.
TEST(CliModes, EachModeRefusesTheFlagsItWouldIgnore) {
    const fs::path dir = fs::temp_directory_path() / ("murmur_modes_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string e = (dir / "e.csv").string(), s = (dir / "s.csv").string(), part = (dir / "p.csv").string();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
        {{"--sweep-merge", s, part, "--export", e}, "--export does not apply to --sweep-merge"},
        {{"--sweep-merge", s, part, "--preset", "nosuch"}, "--preset does not apply to --sweep-merge"},
        {{"--sweep-merge", s, part, "--import", "nothere.csv"}, "--import does not apply to --sweep-merge"},
        {{"--sweep-merge", s, part, "--boids", "5"}, "--boids does not apply to --sweep-merge"},
        {{"--self-test", "--boids", "5"}, "--boids does not apply to --self-test"},
        {{"--self-test", "--set", "dt=0.1"}, "--set does not apply to --self-test"},
        {{"--self-test", "--export", e}, "--export does not apply to --self-test"},
        {{"--list-params", "--export", e}, "--export does not apply to --list-params"},
        {{"--list-presets", "--boids", "5"}, "--boids does not apply to --list-presets"},
        {{"--sweep", "dt=0.01:0.02:2", "--sweep-out", s, "--width", "100"}, "--width does not apply to --sweep"},
        {{"--sweep", "dt=0.01:0.02:2", "--sweep-out", s, "--colour", "speed"}, "--colour does not apply to --sweep"},
        {{"--sweep", "dt=0.01:0.02:2", "--sweep-out", s, "--no-vsync"}, "--no-vsync does not apply to --sweep"},
        {{"--headless", "--stats-every", "5"}, "--stats-every applies to --stats-out only"},
        {{"--bench", "--steps", "5"}, "--steps does not apply to --bench: it applies to the window, --headless or --sweep only"},
    };
    for (const auto& [args, want] : cases) {
        const Refusal r = run(args);
        EXPECT_EQ(r.code, 2) << args[0] << " " << args[1] << ": " << r.err;
        EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    }
    EXPECT_FALSE(fs::exists(e));
    EXPECT_FALSE(fs::exists(s));
    fs::remove_all(dir);
}
