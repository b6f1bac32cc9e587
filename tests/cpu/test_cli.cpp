// The command line in-process: every kind of bad input exits 2 with a message on stderr and
// leaves no output file; a good run exits 0 and writes its export.
#include "app/cli.hpp"
#include "io/state_csv.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace murmur;
namespace fs = std::filesystem;

namespace {
struct Result {
    int code;
    std::string out, err;
};

Result run(std::vector<std::string> args) {
    args.insert(args.begin(), "murmur");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    const int code = runCli(int(argv.size()), argv.data(), out, err);
    return {code, out.str(), err.str()};
}

class Cli : public ::testing::Test {
protected:
    fs::path dir = fs::temp_directory_path() / ("murmur_cli_" + std::to_string(::getpid()));
    std::string out_csv = (dir / "out.csv").string();
    void SetUp() override { fs::create_directories(dir); }
    void TearDown() override { fs::remove_all(dir); }
    std::string write(const std::string& name, const std::string& text) {
        const std::string path = (dir / name).string();
        std::ofstream(path) << text;
        return path;
    }
    // Exit 2, stderr contains `want`, and no export file.
    void expectBadInput(const std::vector<std::string>& args, const std::string& want) {
        std::vector<std::string> a = args;
        a.insert(a.end(), {"--steps", "2", "--export", out_csv});
        const Result r = run(a);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(want), std::string::npos) << "stderr: " << r.err;
        EXPECT_FALSE(fs::exists(out_csv)) << "bad input left an output file";
    }
};
}  // namespace

TEST_F(Cli, HeadlessRunExportsAndSummarises) {
    const Result r = run({"--backend", "cpu", "--headless", "--steps", "5", "--boids", "100", "--export", out_csv});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("steps/s"), std::string::npos);
    EXPECT_NE(r.out.find("mean neighbours"), std::string::npos);
    EXPECT_NE(r.out.find("polarization"), std::string::npos);
    EXPECT_EQ(readStateCsv(out_csv, Params{}).size(), 100u);
}

TEST_F(Cli, ImportThenExportContinuesTheState) {
    ASSERT_EQ(run({"--backend", "cpu", "--headless", "--steps", "3", "--boids", "50", "--export", out_csv}).code, 0);
    const std::string second = (dir / "second.csv").string();
    const Result r = run({"--backend", "cpu", "--headless", "--import", out_csv, "--steps", "3", "--export", second});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("50 boids"), std::string::npos);
    EXPECT_EQ(readStateCsv(second, Params{}).size(), 50u);
}

TEST_F(Cli, ListsParamsAndPresets) {
    Result r = run({"--list-params"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("separation.radius"), std::string::npos);
    EXPECT_NE(r.out.find("[0, 360]"), std::string::npos);
    r = run({"--list-presets"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("default"), std::string::npos);
    r = run({"--version"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("murmur"), std::string::npos);
}

TEST_F(Cli, BadFlagsExit2) {
    expectBadInput({"--frobnicate"}, "frobnicate");
    expectBadInput({"--boids", "-5"}, "[0, 100000000]");
    expectBadInput({"--boids", "lots"}, "not a number");
    expectBadInput({"--boids", "200000000"}, "[0, 100000000]");
    expectBadInput({"--dims", "4"}, "2|3");
    expectBadInput({"--seed", "-1"}, "seed");
    expectBadInput({"--set", "fov_deg=500"}, "fov_deg: 500 is out of range [0, 360]");
    expectBadInput({"--set", "nonsense=1"}, "unknown key 'nonsense'");
    expectBadInput({"--set", "dt"}, "expected key=value");
    expectBadInput({"--set", "world_size=10", "--set", "cohesion.radius=8"}, "half the world");
    expectBadInput({"--backend", "quantum"}, "backend");
    expectBadInput({"--steps", "-3"}, "steps");
    expectBadInput({"--preset", "no_such"}, "no built-in preset 'no_such'");
}

TEST_F(Cli, BadFilesExit2) {
    expectBadInput({"--import", (dir / "missing.csv").string()}, "cannot open");
    expectBadInput({"--import", write("bad.csv", "id,species,x,y,z,vx,vy,vz\n0,0,1,1,0,zz,0,0\n")}, "bad.csv:2: vx");
    expectBadInput({"--preset", write("bad.json", R"({"separation": {"weight": 500}})")},
                   "separation.weight: 500 is out of range [0, 100]");
    const std::string ok_csv = write("ok.csv", "id,species,x,y,z,vx,vy,vz\n0,0,1,1,0,1,0,0\n1,0,2,2,0,1,0,0\n");
    expectBadInput({"--import", ok_csv, "--boids", "7"}, "conflicts");
    // Export into a missing directory is refused before any work.
    const Result r = run({"--steps", "1", "--export", (dir / "no" / "x.csv").string()});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("does not exist"), std::string::npos);
}

TEST_F(Cli, BadExportKeepsExistingFile) {
    write("out.csv", "precious\n");
    const Result r = run({"--steps", "1", "--set", "dims=9", "--export", out_csv});
    EXPECT_EQ(r.code, 2);
    std::ifstream in(out_csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "precious");
}

// Every count flag reads a number as --set does: "1e3" is a thousand; a sign or hex is refused
// with the valid range, whichever flag it is given to.
TEST_F(Cli, CountFlagsReadNumbersAsSetDoes) {
    const Result r = run({"--backend", "cpu", "--headless", "--boids", "20", "--steps", "1e1", "--stats-every", "5e0",
                          "--stats-out", (dir / "s.csv").string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("ran 10 steps"), std::string::npos) << r.out;
    for (const char* flag : {"--steps", "--stats-every", "--width", "--height"})
        for (const char* bad : {"0x10", "+5", "1.5", "1e99", ""}) {
            SCOPED_TRACE(std::string(flag) + " " + bad);
            const Result bad_run = run({"--headless", flag, bad, "--export", out_csv});
            EXPECT_EQ(bad_run.code, 2);
            EXPECT_NE(bad_run.err.find(std::string(flag) + ": expected a whole number in ["), std::string::npos) << bad_run.err;
            EXPECT_FALSE(fs::exists(out_csv));
        }
    expectBadInput({"--frames", "0x10"}, "--frames: expected a whole number in [0, 1000000000], got '0x10'");
    expectBadInput({"--bench", "--bench-steps", "+5"}, "--bench-steps: expected a whole number in [1, 100000]");
    expectBadInput({"--boids", "0x10"}, "not a number");
    expectBadInput({"--boids", "+5"}, "not a number");
}

TEST_F(Cli, OneStepIsSingular) {
    const Result r = run({"--backend", "cpu", "--headless", "--boids", "20", "--steps", "1"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("ran 1 step in"), std::string::npos) << r.out;
}

TEST_F(Cli, MistypedFlagNamesTheNearest) {
    Result r = run({"--boid", "5000"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown flag --boid; did you mean --boids?"), std::string::npos) << r.err;
    r = run({"--stat-out=x.csv"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("did you mean --stats-out?"), std::string::npos) << r.err;
    r = run({"--zzzzzzzzz"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown flag --zzzzzzzzz (murmur --help lists the flags)"), std::string::npos) << r.err;
    // A negative number is a value, not a flag: its message is the range.
    expectBadInput({"--boids", "-5"}, "[0, 100000000]");
}

TEST_F(Cli, ColorIsAnAliasOfColour) {
    expectBadInput({"--headless", "--color", "plaid"}, "plaid");
    const Result r = run({"--backend", "cpu", "--headless", "--boids", "20", "--steps", "1", "--color", "speed"});
    EXPECT_EQ(r.code, 0) << r.err;
}

TEST_F(Cli, HelpShowsTypesAndDefaults) {
    const Result r = run({"--help"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("--boids N "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--steps N=300"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--stats-every N=10"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("TEXT"), std::string::npos) << r.out;
}

// The columns of --list-params start where the header's do on every row, and floats read as typed.
TEST_F(Cli, ListParamsColumnsLineUp) {
    const Result r = run({"--list-params"});
    ASSERT_EQ(r.code, 0);
    std::istringstream in(r.out);
    std::string header, line;
    std::getline(in, header);
    const std::size_t at_default = header.find("default"), at_range = header.find("range");
    int rows = 0;
    while (std::getline(in, line)) {
        ++rows;
        ASSERT_GT(line.size(), at_range) << line;
        EXPECT_EQ(line[at_default - 1], ' ') << line;
        EXPECT_NE(line[at_default], ' ') << line;
        EXPECT_EQ(line[at_range - 1], ' ') << line;
        EXPECT_NE(line[at_range], ' ') << line;
    }
    EXPECT_GT(rows, 50);
    EXPECT_NE(r.out.find(" 0.033333335 "), std::string::npos) << "dt's default, 1/30 as a float, in its shortest form";
    EXPECT_EQ(r.out.find("0.0333333351"), std::string::npos) << "a float printed with its binary noise";
}

TEST_F(Cli, RecordFlagsAreCheckedUpFront) {
    expectBadInput({"--headless", "--record-every", "5"}, "--record-every applies to --record only");
    expectBadInput({"--headless", "--record-fps", "5"}, "--record-fps applies to --record only");
    expectBadInput({"--headless", "--record", (dir / "x.avi").string()}, "give FILE.mp4 or FILE.mkv");
    expectBadInput({"--headless", "--record", (dir / "no" / "x.mp4").string()}, "does not exist");
    expectBadInput({"--headless", "--record", (dir / "x.mp4").string(), "--record-fps", "500"}, "[1, 240]");
    expectBadInput({"--bench", "--record", (dir / "x.mp4").string()}, "does not apply");
    EXPECT_FALSE(fs::exists(dir / "x.mp4"));
}

// --colour applies after the preset (which may carry its own colouring) and is checked like --set.
TEST_F(Cli, ColourFlagIsCheckedAndAppliedAfterThePreset) {
    const std::string preset = write("mine.json", R"({"colour": "speed"})");
    expectBadInput({"--preset", preset, "--colour", "plaid"}, "plaid");
    const Result r = run({"--backend", "cpu", "--headless", "--boids", "10", "--steps", "1", "--preset", preset, "--colour", "species"});
    EXPECT_EQ(r.code, 0) << r.err;
}
