// The command line in-process: every kind of bad input exits 2 with a message on stderr and
// leaves no output file; a good run exits 0 and writes its export.
#include "app/cli.hpp"
#include "no_gl/cli_run.hpp"
#include "no_gl/resume_cli_case.hpp"
#include "engine/sweep.hpp"
#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "io/state_csv.hpp"
#include "io/trajectory.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace murmur;
namespace fs = std::filesystem;

namespace {
using Result = test::CliResult;
Result run(std::vector<std::string> args) { return test::runMurmur(std::move(args)); }

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

// A launch that chose nothing but a count of at least 50,000 (written 50000 or 5e4) opens the
// murmuration (one flock at any count) and says so; under it, or with a preset, a --set or --dims, the default flock stays.
TEST_F(Cli, ALargeCountWithNoPresetOpensTheMurmuration) {
    const auto style = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"--backend", "cpu", "--headless", "--steps", "0"});
        const Result r = run(args);
        EXPECT_EQ(r.code, 0) << r.err;
        const bool said = r.out.find("the murmuration (--preset default for the classic flock)") != std::string::npos;
        const bool starlings = r.out.find("starling style") != std::string::npos;
        EXPECT_EQ(said, starlings) << r.out;
        return starlings;
    };
    EXPECT_TRUE(style({"--boids", "50000"}));
    EXPECT_TRUE(style({"--boids", "5e4"})) << "a count as every count flag reads it";
    EXPECT_FALSE(style({"--boids", "49999"}));
    EXPECT_FALSE(style({"--boids", "50000", "--preset", "default"}));
    EXPECT_FALSE(style({"--boids", "50000", "--set", "seed=2"}));
    EXPECT_FALSE(style({"--boids", "50000", "--dims", "2"}));
}

// A headless run's summary warns (stderr, exit 0) when a boid moves farther in a step than the
// mean nearest-neighbour distance: 50 boids spawned in a ball of radius 0.01 at 2 to 10 units/s.
TEST_F(Cli, AStepTooCoarseForTheFlocksSpacingIsWarnedOf) {
    Result r = run({"--backend", "cpu", "--headless", "--steps", "0", "--boids", "50", "--set", "spawn.radius=0.01"});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("murmur: warning: the step may not resolve the motion"), std::string::npos) << r.err;
    r = run({"--backend", "cpu", "--headless", "--steps", "0", "--boids", "50"});
    EXPECT_EQ(r.err.find("may not resolve"), std::string::npos) << r.err;
}

// --export writes a restart file; --resume continues its run to the bit (tests/no_gl/resume_cli_case.hpp).
TEST_F(Cli, AResumedRunIsTheRunContinued) { test::expectResumeContinuesTheRun("cpu", dir); }

TEST_F(Cli, AResumeWithoutItsParametersOrWithAPresetIsRefused) {
    const std::string saved = (dir / "saved.csv").string();
    ASSERT_EQ(run({"--backend", "cpu", "--headless", "--steps", "1", "--boids", "20", "--export", saved}).code, 0);
    const std::string bare = write("bare.csv", "id,species,x,y,z,vx,vy,vz\n0,0,1,1,0,0,0,0\n");
    expectBadInput({"--backend", "cpu", "--headless", "--resume", bare}, "the file holds no parameters");
    expectBadInput({"--backend", "cpu", "--headless", "--resume", saved, "--preset", "default"}, "--preset cannot go with it");
    expectBadInput({"--backend", "cpu", "--headless", "--resume", saved, "--import", saved}, "use one");
    expectBadInput({"--backend", "cpu", "--headless", "--resume-override"}, "--resume-override applies to --resume only");
    expectBadInput({"--backend", "cpu", "--headless", "--resume", saved, "--boids", "30", "--resume-override"},
                   "conflicts with --import");
}

TEST_F(Cli, ImportThenExportContinuesTheState) {
    ASSERT_EQ(run({"--backend", "cpu", "--headless", "--steps", "3", "--boids", "50", "--export", out_csv}).code, 0);
    const std::string second = (dir / "second.csv").string();
    const Result r = run({"--backend", "cpu", "--headless", "--import", out_csv, "--steps", "3", "--export", second});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("50 boids"), std::string::npos);
    EXPECT_EQ(readStateCsv(second, Params{}).size(), 50u);
}

// The same command line with --import added resumes the run it exported: --boids resized the
// preset's world, and the state file names that world ("# world L"), so 10 + 10 steps write the
// same state as 20. (Its parameters are the command line's, whose margin and roost --boids does
// not resize beside an --import: --resume takes the file's own.)
TEST_F(Cli, ImportWithTheSameBoidsResumesInTheSameWorld) {
    const std::vector<std::string> base = {"--backend", "cpu", "--headless", "--preset", "default3d", "--boids", "300"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> a = base;
        a.insert(a.end(), extra.begin(), extra.end());
        return run(a);
    };
    const std::string straight = (dir / "straight.csv").string(), half = (dir / "half.csv").string();
    const Result a = with({"--steps", "20", "--export", straight});
    ASSERT_EQ(a.code, 0) << a.err;
    ASSERT_EQ(with({"--steps", "10", "--export", half}).code, 0);
    const Result b = with({"--steps", "10", "--import", half, "--export", out_csv});
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_NE(b.out.find("world"), std::string::npos) << "the resized world is printed: " << b.out;
    auto state = [](const std::string& path) {  // the file less its "# params " lines
        std::ifstream in(path);
        std::string text;
        for (std::string line; std::getline(in, line);)
            if (!line.starts_with("# params ")) text += line + "\n";
        return text;
    };
    EXPECT_EQ(state(out_csv), state(straight));
    // The parameters are checked in the file's world, not the preset's: a radius of 160 fits the
    // 355-unit world --boids 2800 makes, not the default preset's 300.
    const std::vector<std::string> wide = {"--backend", "cpu", "--headless", "--preset", "default", "--boids", "2800",
                                           "--set", "alignment.radius=160", "--steps", "1"};
    std::vector<std::string> first = wide, again = wide;
    first.insert(first.end(), {"--export", half});
    again.insert(again.end(), {"--import", half, "--export", out_csv});
    ASSERT_EQ(run(first).code, 0);
    const Result c = run(again);
    EXPECT_EQ(c.code, 0) << c.err;
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
    auto expectRefused = [&](const std::vector<std::string>& args, const std::string& want) {
        const Result r = run(args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(want), std::string::npos) << "stderr: " << r.err;
    };
    for (const char* k : {"0", "x", "1,,2", "65537", "-1", "+3", " 4", "4 ", "0x10", "99999999999999999999"})
        expectRefused({"--bench", "--backend", "cpu", "--bench-flocks", k}, "is not a flock count in [1, 65536]");
    expectRefused({"--bench", "--backend", "cpu", "--bench-flocks", ""}, "--bench-flocks: an empty value");
    for (const char* ab : {"X", "MURMUR_GPU_WALK=rows,rows", "MURMUR_GPU_READS=rows,tiles", "MURMUR_GPU_WALK=rows", "PATH=a,b", ""})
        expectRefused({"--bench", "--bench-ab", ab}, "give VAR=A,B, VAR MURMUR_GPU_READS (textures, storage) or MURMUR_GPU_WALK (rows, tiles)");
    expectRefused({"--bench", "--backend", "cpu", "--bench-ab", "MURMUR_GPU_WALK=rows,tiles"}, "not with --backend cpu");
    expectRefused({"--bench", "--bench-ab", "MURMUR_GPU_WALK=rows,tiles", "--bench-flocks", "2"}, "not with --bench-flocks");
    expectRefused({"--bench", "--bench-ab", "MURMUR_GPU_WALK=rows,tiles", "--bench-compare", "old.json"}, "not with --bench-compare");
    expectRefused({"--bench", "--bench-rounds", "2"}, "--bench-rounds applies to --bench-ab only");
    expectRefused({"--sweep", "vicsek.noise=0:1:2", "--sweep-out", out_csv, "--sweep-batch", "70000"}, "[0, 65536]");
    EXPECT_FALSE(fs::exists(out_csv));
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
    // --color is --colour: the same flag, refused as --colour is when headless has no picture.
    const Result r = run({"--backend", "cpu", "--headless", "--boids", "20", "--steps", "1", "--color", "speed"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("--colour applies to --headless only"), std::string::npos) << r.err;
}

TEST_F(Cli, HelpShowsTypesAndDefaults) {
    const Result r = run({"--help"});
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("--boids N "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--steps N=300"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--stats-every N=10"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("TEXT"), std::string::npos) << r.out;
}

// --list-params: one entry per key (key, default, range, unit on its line, the meaning indented
// beneath), no line over 100 characters, floats as typed; a filter keeps the keys containing it.
TEST_F(Cli, ListParamsFitsAHundredColumnsAndFilters) {
    const Result r = run({"--list-params"});
    ASSERT_EQ(r.code, 0);
    std::istringstream in(r.out);
    std::string line, key_line;
    int keys = 0;
    bool ranged = true;  // the last key's range was given, on its line or on the next
    while (std::getline(in, line)) {
        EXPECT_LE(line.size(), 100u) << line;
        if (line.starts_with(" ")) {
            if (!ranged && line.starts_with("    range ")) ranged = true;  // a long list of choices, on its own line
            continue;
        }
        EXPECT_TRUE(ranged) << key_line;
        ++keys;
        key_line = line;
        EXPECT_NE(line.find("  default "), std::string::npos) << line;
        ranged = line.find("  range ") != std::string::npos;
    }
    EXPECT_TRUE(ranged) << key_line;
    EXPECT_GT(keys, 50);
    EXPECT_NE(r.out.find("dt  default 0.033333335 "), std::string::npos) << "dt's default, 1/30 as a float, in its shortest form";
    EXPECT_EQ(r.out.find("0.0333333351"), std::string::npos) << "a float printed with its binary noise";

    const Result some = run({"--list-params", "separation"});
    ASSERT_EQ(some.code, 0) << some.err;
    EXPECT_NE(some.out.find("separation.weight  default"), std::string::npos) << some.out;
    EXPECT_EQ(some.out.find("alignment.weight"), std::string::npos) << some.out;
    const Result none = run({"--list-params", "zzz"});
    EXPECT_EQ(none.code, 2);
    EXPECT_NE(none.err.find("no key contains it"), std::string::npos) << none.err;
}

// --bench-compare with valid JSON of the wrong types is refused before the benchmark runs.
TEST_F(Cli, ABenchCompareFileOfWrongTypesIsRefusedUpFront) {
    for (const std::string& text : {std::string(R"({"runs":[1,2]})"), std::string(R"({"runs":[{"boids":10,"phase":"spawn","step_ms":"fast"}]})"),
                                    std::string(R"({"runs":[],"scenario":null})")}) {
        const std::string path = write("old.json", text);
        const Result r = run({"--bench", "--backend", "cpu", "--bench-sizes", "64", "--bench-compare", path});
        EXPECT_EQ(r.code, 2) << text << ": " << r.err;
        EXPECT_NE(r.err.find("--bench-compare"), std::string::npos) << r.err;
        EXPECT_EQ(r.out.find("murmur bench"), std::string::npos) << "the benchmark ran first: " << r.out;
    }
}

// The step counter is 32 bits: a resumed run may not pass its last value (it wrapped to 4).
TEST_F(Cli, AResumedRunMayNotPassTheLastStep) {
    const std::string state = write("late.csv", "# step 4294967295\nid,species,x,y,z,vx,vy,vz\n0,0,1,1,0,1,0,0\n");
    expectBadInput({"--backend", "cpu", "--headless", "--import", state}, "would pass step 4294967295");
    const Result ok = run({"--backend", "cpu", "--headless", "--import", state, "--steps", "0", "--export", out_csv});
    EXPECT_EQ(ok.code, 0) << ok.err;
    EXPECT_EQ(readFile(out_csv).substr(0, 18), "# step 4294967295\n");
}

// A mistyped key is named with the nearest real one, as a mistyped flag is.
TEST_F(Cli, AMistypedKeyGetsASuggestion) {
    expectBadInput({"--headless", "--set", "seperation.weight=2"}, "did you mean separation.weight?");
    expectBadInput({"--headless", "--set", "zzzzzzzzzzzz=2"}, "see murmur --list-params");
}

// Input is echoed with its control bytes escaped: a header cannot retitle the terminal, through
// any message (a preset name, a folder, a flag's value, CLI11's own messages).
TEST_F(Cli, MessagesEscapeControlBytes) {
    const std::string esc = "\x1b]0;pwned\a";
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--headless", "--set", esc + "=1"}, {"--preset", esc}, {"--headless", "--export", esc + "/a.csv"},
          {"--headless", "--record", "x" + esc + ".avi"}, {"--headless", "--import", esc + ".csv"}, {"--backend", esc},
          {"--colour", esc}, {"--shader-dir", esc}}) {
        const Result r = run(args);
        EXPECT_EQ(r.code, 2) << args[1];
        EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << args[1] << ": " << r.err;
        EXPECT_EQ(r.err.find('\a'), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("\\x1b]0;pwned\\x07"), std::string::npos) << r.err;
    }
}

TEST_F(Cli, RecordFlagsAreCheckedUpFront) {
    expectBadInput({"--headless", "--record-every", "5"}, "--record-every applies to --record only");
    expectBadInput({"--headless", "--record-fps", "5"}, "--record-fps applies to --record only");
    expectBadInput({"--headless", "--record", (dir / "x.avi").string()}, "give FILE.mp4 or FILE.mkv");
    expectBadInput({"--headless", "--record", (dir / "no" / "x.mp4").string()}, "does not exist");
    expectBadInput({"--headless", "--record", (dir / "x.mp4").string(), "--record-fps", "500"}, "[1, 240]");
    expectBadInput({"--bench", "--record", (dir / "x.mp4").string()}, "does not apply");
    // The window records from its second frame: --frames 1 wrote nothing and said nothing.
    const Result one = run({"--frames", "1", "--record", (dir / "x.mp4").string()});
    EXPECT_EQ(one.code, 2);
    EXPECT_NE(one.err.find("give --frames 2 or more"), std::string::npos) << one.err;
    EXPECT_FALSE(fs::exists(dir / "x.mp4"));
}

// An environment variable set for one test and put back as it was after it.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const char* value) : name_(name) {
        if (const char* was = std::getenv(name)) was_ = was;
        ::setenv(name, value, 1);
    }
    ~ScopedEnv() {
        if (was_) ::setenv(name_, was_->c_str(), 1);
        else ::unsetenv(name_);
    }
    ScopedEnv(const ScopedEnv&) = delete;
    ScopedEnv& operator=(const ScopedEnv&) = delete;

private:
    const char* name_;
    std::optional<std::string> was_;
};

// A GPU path variable holding a newline is echoed escaped, on the one line of its message: the
// value cannot add a line of its own (a forged "murmur:" line) to the output.
TEST_F(Cli, AGpuPathVariableIsEchoedOnOneLine) {
    for (const char* var : {"MURMUR_GPU_READS", "MURMUR_GPU_WALK"}) {
        const ScopedEnv env(var, "fast\nmurmur: all is well\r");
        const Result r = run({"--headless", "--steps", "1", "--boids", "100"});
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_EQ(r.err.find("\nmurmur: all is well"), std::string::npos) << var << ": " << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_NE(r.err.find(std::string(var) + "='fast\\x0amurmur: all is well\\x0d'"), std::string::npos) << r.err;
    }
}

// murmur's on/off environment variables take 1/0, on/off, true/false, yes/no in any case (unset
// or empty: the default) and refuse anything else, naming the variable and the valid words, in
// every mode.
TEST_F(Cli, OnOffEnvironmentVariablesTakeTheirWordsAndRefuseOthers) {
    const std::vector<std::string> cpu_run = {"--backend", "cpu", "--headless", "--steps", "1", "--boids", "20"};
    for (const char* var : {"MURMUR_PROGRAM_CACHE", "MURMUR_GL_DEBUG"}) {
        for (const char* good : {"0", "1", "off", "ON", "No", "yes", "true", "FALSE", ""}) {
            const ScopedEnv env(var, good);
            const Result r = run(cpu_run);
            EXPECT_EQ(r.code, 0) << var << "=" << good << ": " << r.err;
        }
        for (const char* bad : {"2", "maybe", "offf", " on", "yes\n"}) {
            const ScopedEnv env(var, bad);
            for (const std::vector<std::string>& args : {cpu_run, std::vector<std::string>{"--list-presets"}}) {
                const Result r = run(args);
                EXPECT_EQ(r.code, 2) << var << "=" << bad;
                EXPECT_NE(r.err.find(std::string("murmur: ") + var + "='"), std::string::npos) << r.err;
                EXPECT_NE(r.err.find("valid: 1, on, true or yes (on); 0, off, false or no (off); in any case"), std::string::npos) << r.err;
                EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
            }
        }
    }
}

// The author is an H5MD attribute, UTF-8: bytes that are not UTF-8 are refused, as a control byte is.
TEST_F(Cli, ATrajectoryAuthorThatIsNotUtf8IsRefused) {
    const std::string h5 = (dir / "t.h5").string();
    for (const std::string bad : {"\xff\xfe", "Ad\xe9le", "\xc3", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"}) {
        const Result r = run({"--backend", "cpu", "--headless", "--steps", "1", "--boids", "20", "--trajectory", h5,
                              "--trajectory-author", bad});
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find("the author is not UTF-8 text"), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(h5));
    }
    for (const std::string good : {"Ad\xc3\xa9le", "\xe6\x9d\x8e", "\xf0\x9f\x90\xa6 murmur", "\xf4\x8f\xbf\xbf"})
        EXPECT_EQ(trajectoryAuthorProblem(good), std::nullopt) << good;
}

// A file name that is only an extension (".csv", "dir/.png") would be written as a hidden file:
// every output refuses it, with one message, before anything runs.
TEST_F(Cli, AFileNameThatIsOnlyAnExtensionIsRefusedOnEveryOutput) {
    const std::string d = dir.string() + "/";
    const std::vector<std::string> cpu_run = {"--backend", "cpu", "--headless", "--steps", "1", "--boids", "20"};
    const std::vector<std::vector<std::string>> outputs = {
        {"--export", d + ".csv"}, {"--stats-out", d + ".csv"}, {"--screenshot", d + ".png"}, {"--record", d + ".mp4"},
        {"--trajectory", d + ".h5"}, {"--export", d + "..csv"}, {"--export", d + ".bashrc"}};
    for (const auto& output : outputs) {
        std::vector<std::string> args = cpu_run;
        args.insert(args.end(), output.begin(), output.end());
        const Result r = run(args);
        EXPECT_EQ(r.code, 2) << output[0] << " " << output[1] << ": " << r.err;
        EXPECT_NE(r.err.find(output[0] + " " + output[1] + ": the file needs a name before ."), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("not a hidden file"), std::string::npos) << r.err;
    }
    const Result sweep = run({"--backend", "cpu", "--boids", "20", "--steps", "2", "--sweep", "dt=0.01:0.02:2", "--sweep-out", d + ".csv"});
    EXPECT_EQ(sweep.code, 2) << sweep.err;
    EXPECT_NE(sweep.err.find("--sweep-out " + d + ".csv: the file needs a name before .csv (FILE.csv)"), std::string::npos) << sweep.err;
    const Result bench = run({"--bench", "--backend", "cpu", "--bench-sizes", "64", "--bench-out", d + ".json"});
    EXPECT_EQ(bench.code, 2) << bench.err;
    EXPECT_NE(bench.err.find("needs a name before .json"), std::string::npos) << bench.err;
    EXPECT_TRUE(fs::is_empty(dir)) << "a refused output left a file";
    // A hidden file with a name of its own, and the current folder's files, are written as before.
    for (const std::string name : {".run.csv", "run.csv"}) {
        std::vector<std::string> args = cpu_run;
        args.insert(args.end(), {"--export", d + name});
        EXPECT_EQ(run(args).code, 0) << name;
        EXPECT_TRUE(fs::exists(d + name)) << name;
    }
    for (const std::string ok : {"a.csv", "dir/a.csv", ".run.csv", "a/", ".", "..", "dir/.."})
        EXPECT_EQ(extensionOnlyNameProblem(ok), std::nullopt) << ok;
    for (const std::string bad : {".csv", "dir/.png", "..h5", "/x/y/.mp4", ".bashrc"})
        EXPECT_NE(extensionOnlyNameProblem(bad), std::nullopt) << bad;
}

// --colour applies after the preset (which may carry its own colouring) and is checked like --set.
TEST_F(Cli, ColourFlagIsCheckedAndAppliedAfterThePreset) {
    const std::string preset = write("mine.json", R"({"colour": "speed"})");
    expectBadInput({"--preset", preset, "--colour", "plaid"}, "plaid");
    // Headless with no picture to draw, a colouring would be ignored: refused.
    const Result r = run({"--backend", "cpu", "--headless", "--boids", "10", "--steps", "1", "--preset", preset, "--colour", "species"});
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("--colour applies to --headless only with --screenshot or --record"), std::string::npos) << r.err;
}

// Sweeps on the CPU backend: the axes' values and the runs' order, the CSV, shards that merged
// give the whole sweep byte for byte, and every kind of bad input refused with what is valid.
namespace {
class SweepCli : public Cli {
protected:
    std::string file(const std::string& name) const { return (dir / name).string(); }
    // A small Vicsek sweep: 3 noises x 2 seeds, 60 steps, samples from step 30 every 10.
    std::vector<std::string> sweepArgs(const std::string& out) const {
        return {"--backend", "cpu", "--preset", "vicsek", "--boids", "100", "--set", "world_size=5", "--steps", "60",
                "--sweep", "vicsek.noise=0.5:4.5:3", "--sweep-seeds", "2", "--sweep-burn-in", "30", "--sweep-every", "10",
                "--sweep-out", out};
    }
};
}  // namespace

TEST(SweepAxes, ValuesRunsAndShards) {
    const SweepAxis a = parseSweepAxis("vicsek.noise=0.5:4.5:5");
    EXPECT_EQ(a.key, "vicsek.noise");
    EXPECT_EQ(a.count, 5u);
    EXPECT_DOUBLE_EQ(a.value(0), 0.5);
    EXPECT_DOUBLE_EQ(a.value(2), 2.5);
    EXPECT_DOUBLE_EQ(a.value(4), 4.5);
    EXPECT_DOUBLE_EQ(parseSweepAxis("dt=0.05:0.05:1").value(0), 0.05);
    SweepOptions s;
    s.axes = {parseSweepAxis("alignment.radius=2:4:2"), parseSweepAxis("cohesion.radius=1:3:3")};
    s.seeds = 2;
    const auto runs = sweepRuns(s, false);
    ASSERT_EQ(runs.size(), 12u);
    EXPECT_EQ(runs[0].values, (std::vector<double>{2, 1}));
    EXPECT_EQ(runs[1].seed_index, 1u) << "seeds vary fastest";
    EXPECT_EQ(runs[2].values, (std::vector<double>{2, 2}));
    EXPECT_EQ(runs[6].values, (std::vector<double>{4, 1})) << "the first key varies slowest";
    parseSweepShard("1/5", s);
    EXPECT_EQ(sweepRuns(s, true).size(), 3u);  // runs 1, 6 and 11 of 12
    EXPECT_EQ(sweepRuns(s, true)[1].values, (std::vector<double>{4, 1}));
    EXPECT_EQ(sweepHeader(s).substr(0, 50), "run,alignment.radius,cohesion.radius,seed,samples,");
    s.carry = true;  // a carried sweep's shards split by seed: shard 1 of 2 holds seed 1's chain
    parseSweepShard("1/2", s);
    const auto chain = sweepRuns(s, true);
    ASSERT_EQ(chain.size(), 6u);
    for (const SweepRun& run : chain) EXPECT_EQ(run.seed_index, 1u) << "run " << run.index;
}

// Lists and log ranges: "KEY=1,2,5,10" runs those values in that order; "KEY=FROM:TO:COUNT:log"
// evenly in log (0.01 to 10 in 4: 0.01, 0.1, 1, 10 within 1e-12 relative, the last exactly); each
// axis writes itself back shortest-exact (0.2, not 0.20000000000000001), and reads back the same.
TEST(SweepAxes, ListsAndLogRangesAndTheirShortestText) {
    const SweepAxis list = parseSweepAxis("dt=0.2,0.05,0.01");
    ASSERT_EQ(list.count, 3u);
    EXPECT_EQ(list.value(0), 0.2);
    EXPECT_EQ(list.value(1), 0.05);
    EXPECT_EQ(list.value(2), 0.01);
    EXPECT_EQ(list.text(), "dt=0.2,0.05,0.01");
    const SweepAxis log = parseSweepAxis("cohesion.weight=0.01:10:4:log");
    ASSERT_EQ(log.count, 4u);
    for (std::uint32_t k = 0; k < 4; ++k) EXPECT_NEAR(log.value(k), 0.01 * std::pow(10.0, k), 1e-12 * std::pow(10.0, k)) << k;
    EXPECT_EQ(log.value(3), 10.0);
    EXPECT_EQ(log.text(), "cohesion.weight=0.01:10:4:log");
    EXPECT_EQ(parseSweepAxis("vicsek.noise=0.2:0.7:3").text(), "vicsek.noise=0.2:0.7:3");
    for (const SweepAxis& a : {list, log}) {
        const SweepAxis again = parseSweepAxis(a.text());
        for (std::uint32_t k = 0; k < a.count; ++k) EXPECT_EQ(again.value(k), a.value(k)) << a.text();
    }
}

TEST(SweepAxes, BadAxesAndShardsAreRefusedWithWhatIsValid) {
    const auto refused = [](const std::string& text, const std::string& want) {
        try {
            parseSweepAxis(text);
            ADD_FAILURE() << text << " accepted";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find(want), std::string::npos) << e.what();
        }
    };
    refused("nokey=1:2:3", "unknown key 'nokey'");
    refused("style=0:1:2", "not a number to sweep");
    refused("vicsek.noise=1:2", "expected KEY=FROM:TO:COUNT");
    refused("vicsek.noise=1:2:0", "COUNT must be a whole number in [1, 10000]");
    refused("vicsek.noise=1:x:3", "'x' is not a number");
    refused("vicsek.noise=0:9:3", "out of range [0, 6.2831853]");
    refused("neighbour_cap=0:5:4", "not a whole number");
    refused("vicsek.noise=0:1:3:lin", "after COUNT only ':log'");
    refused("vicsek.noise=0:1:3:log", "a log range's FROM and TO must both be above 0");
    refused("vicsek.noise=1,x,3", "value 2");
    refused("vicsek.noise=1,,3", "value 2");
    refused("vicsek.noise=1,9", "out of range [0, 6.2831853]");
    SweepOptions s;
    for (const char* bad : {"3/3", "1", "-1/2", "a/b", "1/0"}) EXPECT_THROW(parseSweepShard(bad, s), InputError) << bad;
}

TEST_F(SweepCli, ARunWritesOneRowPerValueAndSeed) {
    const Result r = run(sweepArgs(file("all.csv")));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("(6 of 6 runs)"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("sweep: run 6/6 (vicsek.noise=4.5, seed 2)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("s left"), std::string::npos) << r.err;
    std::istringstream in(readFile(file("all.csv")));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line.substr(0, 59), "# murmur sweep: vicsek.noise=0.5:4.5:3; seeds 2; steps 60; ") << "the sweep's identity first";
    EXPECT_NE(line.find("; runs 6; seed 1; base "), std::string::npos) << line;
    std::getline(in, line);
    EXPECT_EQ(line.substr(0, 69), "run,vicsek.noise,seed,samples,polarization_mean,polarization_std,grou");
    std::vector<double> polarization;
    while (std::getline(in, line)) {
        std::istringstream row(line);
        std::string f[6];
        for (auto& x : f) std::getline(row, x, ',');
        EXPECT_EQ(f[3], "4") << "samples at steps 30, 40, 50, 60";
        polarization.push_back(std::stod(f[4]));
    }
    ASSERT_EQ(polarization.size(), 6u);
    EXPECT_GT(polarization[0], polarization[4]) << "low noise orders more than high";
}

// A Vicsek flock whose boids see no one (alignment radius 0) and feel
// no noise keeps its headings, so every polarization sample is the same x: the Binder cumulant
// 1 - x^4 / (3 x^4) is 2/3, written "0.666667" (%.6g). The swept values of a log range are written
// as the shortest text that reads back exactly: 1:10:4:log's second is 10^(1/3), 2.154434690031884.
TEST_F(SweepCli, TheBinderColumnAndExactValues) {
    auto args = sweepArgs(file("steady.csv"));
    args[std::find(args.begin(), args.end(), "vicsek.noise=0.5:4.5:3") - args.begin()] = "vicsek.noise=0";
    args.insert(args.end(), {"--set", "alignment.radius=0", "--sweep", "max_speed=1:10:4:log", "--sweep-seeds", "1"});
    args.erase(std::find(args.begin(), args.end(), "--sweep-seeds"), std::find(args.begin(), args.end(), "--sweep-seeds") + 2);
    const Result r = run(args);
    ASSERT_EQ(r.code, 0) << r.err;
    std::istringstream in(readFile(file("steady.csv")));
    std::string line;
    std::getline(in, line);
    std::getline(in, line);
    ASSERT_GE(line.size(), 20u);
    EXPECT_EQ(line.substr(line.size() - 20), ",polarization_binder") << line;
    std::vector<std::string> rows;
    while (std::getline(in, line)) rows.push_back(line);
    ASSERT_EQ(rows.size(), 4u);
    for (const std::string& row : rows) EXPECT_EQ(row.substr(row.rfind(',') + 1), "0.666667") << row;
    EXPECT_EQ(rows[1].substr(0, 24), "1,0,2.154434690031884,1,") << "run, vicsek.noise, max_speed, seed";
    EXPECT_EQ(std::stod("2.154434690031884"), 1.0 * std::pow(10.0, 1.0 / 3.0));
}

// --sweep-xi: the identity line says it ("; xi 2"), three columns follow the Binder cumulant (an
// ordered Vicsek flock's C falls to 0 within 2 at every sample: xi_found 4, xi_mean within
// (0, 2)), shards of it merge into the whole sweep, and a reach past half the world (2.5 here) or
// below 0 is refused before any run, naming the valid range.
TEST_F(SweepCli, XiAtEachSampleAndItsShardsMerge) {
    auto args = sweepArgs(file("xi.csv"));
    args.insert(args.end(), {"--sweep-xi", "2"});
    ASSERT_EQ(run(args).code, 0);
    const std::string text = readFile(file("xi.csv"));
    EXPECT_NE(text.find("; base "), std::string::npos);
    EXPECT_NE(text.find("; xi 2\n"), std::string::npos) << text.substr(0, 200);
    EXPECT_NE(text.find(",polarization_binder,xi_mean,xi_std,xi_found\n"), std::string::npos);
    const std::size_t row = text.find("\n0,0.5,");
    ASSERT_NE(row, std::string::npos) << text;
    const std::string first = text.substr(row + 1, text.find('\n', row + 1) - row - 1);
    const std::size_t found = first.rfind(','), std = first.rfind(',', found - 1), mean = first.rfind(',', std - 1);
    EXPECT_EQ(first.substr(found + 1), "4") << first;
    const double xi = std::stod(first.substr(mean + 1, std - mean - 1));
    EXPECT_GT(xi, 0.0) << first;
    EXPECT_LT(xi, 2.0) << first;
    std::vector<std::string> merge = {"--sweep-merge", file("xi_merged.csv")};
    for (int i = 0; i < 2; ++i) {
        auto part = args;
        part[std::find(part.begin(), part.end(), file("xi.csv")) - part.begin()] = file("xi" + std::to_string(i) + ".csv");
        part.insert(part.end(), {"--sweep-shard", std::to_string(i) + "/2"});
        ASSERT_EQ(run(part).code, 0);
        merge.push_back(file("xi" + std::to_string(i) + ".csv"));
    }
    const Result m = run(merge);
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_EQ(readFile(file("xi_merged.csv")), text);
    for (const char* bad : {"2.6", "-1", "x"}) {
        auto refused = args;
        refused.back() = bad;
        const Result r = run(refused);
        EXPECT_EQ(r.code, 2) << bad;
        EXPECT_NE(r.err.find("--sweep-xi"), std::string::npos) << r.err;
    }
    EXPECT_NE(run({"--sweep-xi", "1"}).err.find("--sweep-xi"), std::string::npos) << "only with --sweep";
}

// Shards run apart and merged (in any order) are the whole sweep byte for byte; a part from
// another sweep, or a run that disagrees, is refused.
TEST_F(SweepCli, ShardsMergeIntoTheWholeSweep) {
    ASSERT_EQ(run(sweepArgs(file("all.csv"))).code, 0);
    std::vector<std::string> parts;
    for (int i = 0; i < 4; ++i) {
        auto args = sweepArgs(file("part" + std::to_string(i) + ".csv"));
        args.insert(args.end(), {"--sweep-shard", std::to_string(i) + "/4"});
        const Result r = run(args);
        ASSERT_EQ(r.code, 0) << r.err;
        parts.insert(parts.begin(), file("part" + std::to_string(i) + ".csv"));
    }
    std::vector<std::string> merge = {"--sweep-merge", file("merged.csv")};
    merge.insert(merge.end(), parts.begin(), parts.end());
    const Result m = run(merge);
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_EQ(readFile(file("merged.csv")), readFile(file("all.csv")));
    std::ofstream(file("other.csv")) << "run,dt,seed\n0,1,1\n";
    Result bad = run({"--sweep-merge", file("x.csv"), parts[0], file("other.csv")});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("not a --sweep-out file"), std::string::npos) << bad.err;
    std::string changed = readFile(parts[0]);
    changed[changed.size() - 2] = changed[changed.size() - 2] == '1' ? '2' : '1';
    std::ofstream(file("changed.csv")) << changed;
    bad = run({"--sweep-merge", file("x.csv"), parts[0], file("changed.csv")});
    EXPECT_EQ(bad.code, 2);
    EXPECT_NE(bad.err.find("differs from the same run"), std::string::npos) << bad.err;
    EXPECT_FALSE(fs::exists(file("x.csv")));
}

// The merge joins the parts of one sweep, whole, or nothing: a part of another sweep (other
// values, steps, preset), a damaged row, a missing shard or a run index outside the sweep is
// refused, naming it, and no file is written.
// A part written before identity lines were shortest-exact (a range's ends with 17 significant
// digits: 0.2 as 0.20000000000000001) still merges with parts written now, into the whole sweep.
TEST_F(SweepCli, APartWithTheOlderIdentityLineStillMerges) {
    const auto args = [&](const std::string& out, const char* shard) {
        std::vector<std::string> a = {"--backend", "cpu", "--preset", "vicsek", "--boids", "60", "--set", "world_size=5", "--steps", "20",
                                      "--sweep", "vicsek.noise=0.2:0.6:2", "--sweep-every", "10", "--sweep-out", out};
        if (shard) a.insert(a.end(), {"--sweep-shard", shard});
        return a;
    };
    ASSERT_EQ(run(args(file("whole.csv"), nullptr)).code, 0);
    ASSERT_EQ(run(args(file("p0.csv"), "0/2")).code, 0);
    ASSERT_EQ(run(args(file("p1.csv"), "1/2")).code, 0);
    std::string older = readFile(file("p0.csv"));
    const std::string now = "vicsek.noise=0.2:0.6:2;", then = "vicsek.noise=0.20000000000000001:0.59999999999999998:2;";
    ASSERT_NE(older.find(now), std::string::npos) << older.substr(0, 120);
    older.replace(older.find(now), now.size(), then);
    std::ofstream(file("older.csv")) << older;
    const Result m = run({"--sweep-merge", file("merged.csv"), file("older.csv"), file("p1.csv")});
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_EQ(readFile(file("merged.csv")), readFile(file("whole.csv")));
}

TEST_F(SweepCli, TheMergeRefusesWhatIsNotOneWholeSweep) {
    const auto part = [&](const std::string& name, int i, std::vector<std::string> more) {
        auto args = sweepArgs(file(name));
        args.insert(args.end(), {"--sweep-shard", std::to_string(i) + "/2"});
        args.insert(args.end(), more.begin(), more.end());
        const Result r = run(args);
        EXPECT_EQ(r.code, 0) << r.err;
        return file(name);
    };
    const std::string p0 = part("p0.csv", 0, {}), p1 = part("p1.csv", 1, {});
    ASSERT_EQ(run({"--sweep-merge", file("ok.csv"), p0, p1}).code, 0);
    const auto refused = [&](std::vector<std::string> inputs, const std::string& want) {
        std::vector<std::string> args{"--sweep-merge", file("x.csv")};
        args.insert(args.end(), inputs.begin(), inputs.end());
        const Result r = run(args);
        EXPECT_EQ(r.code, 2) << want << ": " << r.err;
        EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
        EXPECT_FALSE(fs::exists(file("x.csv")));
    };
    refused({p0, part("q1.csv", 1, {"--set", "separation.weight=2"})}, "a part of another sweep");
    auto fewer_steps = sweepArgs(file("r1.csv"));
    *std::find(fewer_steps.begin(), fewer_steps.end(), "60") = "50";
    fewer_steps.insert(fewer_steps.end(), {"--sweep-shard", "1/2"});
    ASSERT_EQ(run(fewer_steps).code, 0);
    refused({p0, file("r1.csv")}, "a part of another sweep");
    refused({p0}, "runs are in no part: run 1, 3, 5");
    const std::string text = readFile(p1);
    std::ofstream(file("cut.csv")) << text.substr(0, text.size() - 3);
    refused({p0, file("cut.csv")}, "ends without a newline");
    std::ofstream(file("bare.csv")) << text << "7\n";
    refused({p0, file("bare.csv")}, "a damaged row (1 fields");
    const std::string head = text.substr(0, text.find('\n', text.find('\n') + 1) + 1);
    const std::string tail = text.substr(head.size());
    for (const char* index : {"18446744073709551616", "1e300", "6", "-1", "0.5"}) {
        std::ofstream(file("big.csv")) << head << index << tail.substr(tail.find(','));
        refused({p0, file("big.csv")}, "is not a run of this sweep");
    }
    std::ofstream(file("nan.csv")) << head << tail.substr(0, tail.find(',') + 1) << "nan" << tail.substr(tail.find(',', tail.find(',') + 1));
    refused({p0, file("nan.csv")}, "is not a finite number");
    // A row edited by hand: its value, seed or sample count is not its run's, or its index is not
    // written as murmur writes it.
    const auto withField = [&](std::size_t k, const std::string& value) {
        std::vector<std::string> fields;
        std::string row = tail.substr(0, tail.find('\n')), rest = tail.substr(tail.find('\n'));
        for (std::size_t at = 0;;) {
            const std::size_t comma = row.find(',', at);
            fields.push_back(row.substr(at, comma - at));
            if (comma == std::string::npos) break;
            at = comma + 1;
        }
        fields[k] = value;
        std::string edited;
        for (const std::string& f : fields) edited += (edited.empty() ? "" : ",") + f;
        std::ofstream(file("edited.csv")) << head << edited << rest;
        return file("edited.csv");
    };
    refused({p0, withField(1, "99")}, "is not the sweep's run 1 (its vicsek.noise is 99");
    refused({p0, withField(2, "5")}, "(its seed is 5, the sweep's is 2)");
    refused({p0, withField(3, "999")}, "(its samples is 999");
    refused({p0, withField(0, "1.0")}, "run index 1.0 is not a run of this sweep");
    refused({p0, withField(0, "0")}, "is not the sweep's run 0");
    // The identity line edited in every part alike: not a line murmur writes, or rows that are not
    // its runs.
    const auto edited = [&](const std::string& path, const std::string& from, const std::string& to, const std::string& name) {
        std::string changed = readFile(path);
        changed.replace(changed.find(from), from.size(), to);
        std::ofstream(file(name)) << changed;
        return file(name);
    };
    refused({edited(p0, "4.5:3", "4:3", "e0.csv"), edited(p1, "4.5:3", "4:3", "e1.csv")}, "is not the sweep's run");
    refused({edited(p0, "; steps 60", "; steps 99", "e0.csv"), edited(p1, "; steps 60", "; steps 99", "e1.csv")}, "(its samples is 4");
    refused({edited(p0, "; base ", "; bass ", "e0.csv"), edited(p1, "; base ", "; bass ", "e1.csv")}, "is not one murmur writes");
    refused({p0, edited(p1, "shard 1/2", "shard 0/2", "e1.csv")}, "is not in shard 0/2");
}

// A sweep whose flock goes non-finite stops with exit 1 naming the run, and writes nothing (it
// wrote -nan rows with exit 0).
TEST_F(SweepCli, ASweepOfANonFiniteFlockWritesNothing) {
    const Result r = run({"--backend", "cpu", "--preset", "flockrb", "--set", "speed_limit=off", "--steps", "100", "--sweep",
                          "alignment.weight=0:1:3", "--sweep-out", file("nan.csv")});
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("the flock is not finite at step"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(file("nan.csv")));
}

// Sweeps that would run but mean nothing are refused up front: a key swept twice, a TO out of
// range though COUNT is 1, a carried sweep of a key that acts only at the spawn, more than a
// million runs.
TEST_F(SweepCli, SweepsThatWouldMeanNothingAreRefused) {
    const auto refused = [&](std::vector<std::string> sweep, const std::string& want) {
        std::vector<std::string> args{"--backend", "cpu", "--boids", "20", "--steps", "2", "--sweep-out", file("s.csv")};
        args.insert(args.end(), sweep.begin(), sweep.end());
        const Result r = run(args);
        EXPECT_EQ(r.code, 2) << want << ": " << r.err;
        EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    };
    refused({"--sweep", "dt=0.01:0.02:2", "--sweep", "dt=0.03:0.04:2"}, "dt is given twice");
    refused({"--sweep", "dt=0.01:50:1"}, "TO 50 is out of range");
    refused({"--sweep", "species1.share=0.1:0.5:2", "--sweep-carry", "--set", "species_count=2"}, "acts at the spawn only");
    refused({"--sweep", "dt=0.01:0.02:10000", "--sweep", "separation.weight=0:1:10000", "--sweep-seeds", "10000"},
            "1e+12 runs (values of each key times --sweep-seeds); at most 1000000");
    EXPECT_FALSE(fs::exists(file("s.csv")));
}

namespace {
// A CSV's rows from `first` on, each without its first two fields (run index and swept value).
std::vector<std::string> rowTails(const std::string& csv, std::size_t first) {
    std::istringstream in(csv);
    std::vector<std::string> tails;
    std::string line;
    for (std::size_t k = 0; std::getline(in, line); ++k) {
        if (k < first + 2) continue;  // the identity line and the header, then rows before `first`
        tails.push_back(line.substr(line.find(',', line.find(',') + 1) + 1));
    }
    return tails;
}
}  // namespace

// --sweep-carry: a seed's second run starts where its first ended (state and step count), so it
// measures what one run twice as long measures after the first half; shards split by seed and
// merge into the whole.
TEST_F(SweepCli, ACarriedRunContinuesThePreviousOne) {
    const std::vector<std::string> base = {"--backend", "cpu", "--preset", "vicsek", "--boids", "100", "--set", "world_size=5",
                                           "--sweep-seeds", "2", "--sweep-every", "10"};
    auto with = [&](std::vector<std::string> more) {
        more.insert(more.begin(), base.begin(), base.end());
        return more;
    };
    Result r = run(with({"--steps", "40", "--sweep", "vicsek.noise=1:1:2", "--sweep-carry", "--sweep-out", file("carried.csv")}));
    ASSERT_EQ(r.code, 0) << r.err;
    r = run(with({"--steps", "80", "--sweep-burn-in", "40", "--sweep", "vicsek.noise=1:1:1", "--sweep-out", file("long.csv")}));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto carried = rowTails(readFile(file("carried.csv")), 2), long_runs = rowTails(readFile(file("long.csv")), 0);
    ASSERT_EQ(carried.size(), 2u);
    ASSERT_EQ(long_runs.size(), 2u);
    // Seed, sample count and every measure's mean and std, as printed (the CPU reference is exact).
    EXPECT_EQ(carried[0], long_runs[0]);
    EXPECT_EQ(carried[1], long_runs[1]);
    // Without the carry the second value starts afresh: its row is the first value's again.
    r = run(with({"--steps", "40", "--sweep", "vicsek.noise=1:1:2", "--sweep-out", file("fresh.csv")}));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto fresh = rowTails(readFile(file("fresh.csv")), 0);
    ASSERT_EQ(fresh.size(), 4u);
    EXPECT_EQ(fresh[2], fresh[0]);
    EXPECT_EQ(fresh[3], fresh[1]);
    EXPECT_NE(fresh[2], carried[0]) << "the carried run differs from a fresh one";
    // A carried change of value takes effect: noise 1 then 2 differs from 1 then 1 (same state
    // carried) and from 2 fresh (same value).
    r = run(with({"--steps", "40", "--sweep", "vicsek.noise=1:2:2", "--sweep-carry", "--sweep-out", file("changed.csv")}));
    ASSERT_EQ(r.code, 0) << r.err;
    r = run(with({"--steps", "40", "--sweep", "vicsek.noise=2:2:1", "--sweep-out", file("fresh2.csv")}));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto changed = rowTails(readFile(file("changed.csv")), 2), fresh2 = rowTails(readFile(file("fresh2.csv")), 0);
    ASSERT_EQ(changed.size(), 2u);
    EXPECT_NE(changed[0], carried[0]);
    EXPECT_NE(changed[0], fresh2[0]);
    // Two shards, one seed each, merge into the carried sweep byte for byte.
    for (int i = 0; i < 2; ++i) {
        r = run(with({"--steps", "40", "--sweep", "vicsek.noise=1:1:2", "--sweep-carry", "--sweep-shard", std::to_string(i) + "/2",
                      "--sweep-out", file("part" + std::to_string(i) + ".csv")}));
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_NE(r.out.find("(2 of 4 runs, shard " + std::to_string(i) + "/2)"), std::string::npos) << r.out;
    }
    r = run({"--sweep-merge", file("merged.csv"), file("part1.csv"), file("part0.csv")});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(readFile(file("merged.csv")), readFile(file("carried.csv")));
}

TEST_F(SweepCli, CarryNeedsOneKeyThatAFlockCanTake) {
    auto refused = [&](std::vector<std::string> sweep, const std::string& want) {
        std::vector<std::string> args = {"--backend", "cpu", "--preset", "vicsek", "--boids", "50", "--steps", "10", "--sweep-carry",
                                         "--sweep-out", file("c.csv")};
        args.insert(args.end(), sweep.begin(), sweep.end());
        const Result r = run(args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    };
    refused({"--sweep", "vicsek.noise=0:1:2", "--sweep", "dt=0.5:1:2"}, "carry along one key; this sweep has 2");
    refused({"--sweep", "boids=50:60:2"}, "a carried flock keeps its boids");
    refused({"--sweep", "world_size=5:6:2"}, "a carried flock keeps its world_size");
    refused({"--sweep", "spawn.radius=1:2:2"}, "acts at the spawn only");
    refused({"--sweep", "vicsek.noise=0:1:2", "--sweep-seeds", "2", "--sweep-shard", "0/3"}, "split it by seed, and it has 2");
    EXPECT_FALSE(fs::exists(file("c.csv")));
    const Result r = run({"--sweep-carry"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--sweep-carry does not apply to the window: it applies to --sweep only"), std::string::npos) << r.err;
}

TEST_F(SweepCli, FlagsThatDoNotApplyAreRefused) {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"--sweep-seeds", "3"}, {"--sweep", "dt=0.01:0.02:2"},
          {"--sweep", "dt=0.01:0.02:2", "--sweep-out", file("s.csv"), "--export", file("e.csv")},
          {"--sweep", "dt=0.01:0.02:2", "--sweep-out", file("s.csv"), "--steps", "10", "--sweep-burn-in", "20"},
          {"--sweep", "dt=0.01:0.02:2", "--sweep-out", file("s.csv"), "--set", "world_size=10", "--sweep", "alignment.radius=1:8:2"}}) {
        const Result r = run(args);
        EXPECT_EQ(r.code, 2) << args[0] << " " << args[1] << ": " << r.err;
        EXPECT_FALSE(r.err.empty());
    }
    EXPECT_FALSE(fs::exists(file("s.csv")));
}

// --sweep-plot: a curve after a one-key sweep and a phase diagram after a merge of a two-key
// one, written as PNG through python3-matplotlib (scripts/setup.sh installs it: a missing one
// fails here, not skips); everything that cannot be drawn refused before anything runs.
TEST_F(SweepCli, APlotIsAPngOfTheChosenMeasure) {
    auto args = sweepArgs(file("curve.csv"));
    args.insert(args.end(), {"--sweep-plot", file("curve.png"), "--sweep-plot-of", "milling"});
    const Result r = run(args);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("curve.png (milling)"), std::string::npos) << r.out;
    const std::string png = readFile(file("curve.png"));
    ASSERT_GT(png.size(), 1000u);
    EXPECT_EQ(png.substr(1, 3), "PNG");
    auto grid = sweepArgs(file("part.csv"));
    grid.insert(grid.end(), {"--sweep", "alignment.radius=0.5:1:2"});
    ASSERT_EQ(run(grid).code, 0);
    const Result m = run({"--sweep-merge", file("grid.csv"), file("part.csv"), "--sweep-plot", file("grid.png")});
    ASSERT_EQ(m.code, 0) << m.err;
    EXPECT_EQ(readFile(file("grid.png")).substr(1, 3), "PNG");
}

// A plot is written as every output is: through a symlink to the file it points to (the link
// stays), a new file with the usual mode (it was 0600), nothing left beside it.
TEST_F(SweepCli, APlotReplacesALinksFileAndHasTheUsualMode) {
    ASSERT_EQ(run(sweepArgs(file("s.csv"))).code, 0);
    std::ofstream(file("real.png")) << "old";
    fs::permissions(file("real.png"), fs::perms(0640));
    fs::create_symlink(file("real.png"), file("link.png"));
    Result r = run({"--sweep-merge", file("m.csv"), file("s.csv"), "--sweep-plot", file("link.png")});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(file("link.png")));
    EXPECT_EQ(readFile(file("real.png")).substr(1, 3), "PNG");
    EXPECT_EQ(fs::status(file("real.png")).permissions() & fs::perms::all, fs::perms(0640));
    r = run({"--sweep-merge", file("m2.csv"), file("s.csv"), "--sweep-plot", file("new.png")});
    ASSERT_EQ(r.code, 0) << r.err;
    const mode_t mask = ::umask(0);
    ::umask(mask);
    EXPECT_EQ(fs::status(file("new.png")).permissions() & fs::perms::all, fs::perms(0666 & ~mask));
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << e.path();
}

TEST_F(SweepCli, PlotsThatCannotBeDrawnAreRefused) {
    const auto refusal = [&](std::vector<std::string> extra, const std::string& want) {
        auto args = sweepArgs(file("s.csv"));
        args.insert(args.end(), extra.begin(), extra.end());
        const Result r = run(args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(want), std::string::npos) << r.err;
    };
    refusal({"--sweep-plot", file("p.jpg")}, "name it FILE.png");
    refusal({"--sweep-plot", file("p.png"), "--sweep-plot-of", "speed"}, "valid: polarization, group_polarization, milling");
    refusal({"--sweep-plot", file("p.png"), "--sweep", "dt=0.01:0.02:2", "--sweep", "alignment.radius=0.5:1:2"},
            "one key (a curve) or two (a phase diagram); this sweep has 3");
    refusal({"--sweep-plot", file("p.png"), "--sweep-shard", "0/2"}, "plot the merged file");
    refusal({"--sweep-plot-of", "milling"}, "--sweep-plot-of applies to --sweep-plot only");
    const Result alone = run({"--sweep-plot", file("p.png")});
    EXPECT_EQ(alone.code, 2);
    EXPECT_NE(alone.err.find("applies to --sweep or --sweep-merge only"), std::string::npos) << alone.err;
    EXPECT_FALSE(fs::exists(file("s.csv")));
    EXPECT_FALSE(fs::exists(file("p.png")));
}
