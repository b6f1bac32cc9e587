// State CSV and preset JSON: round trips, and every kind of bad file gets a message with its
// line number or key and the valid range. Saving is atomic.
#include "cpu/cpu_simulation.hpp"
#include "io/atomic_file.hpp"
#include "io/env_switch.hpp"
#include "io/input_error.hpp"
#include "io/preset_json.hpp"
#include "io/state_csv.hpp"
#include "model/param_table.hpp"
#include "model/styles.hpp"
#include "model/spawn.hpp"
#include "render/recorder.hpp"
#include "resume_case.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <csignal>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <string>

using namespace murmur;
namespace fs = std::filesystem;

namespace {
// The InputError message from parsing text, or "" if it parsed.
std::string csvError(const std::string& text, const Params& p = Params{}) {
    try {
        parseStateCsv(text, p, "f.csv");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}
std::string presetError(const std::string& text) {
    try {
        parsePreset(text, Params{}, "p.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}
const std::string kHeader = "id,species,x,y,z,vx,vy,vz\n";

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("murmur_test_" + std::to_string(::getpid()));
    TempDir() { fs::create_directories(path); }
    ~TempDir() { fs::remove_all(path); }
};
}  // namespace

TEST(StateCsv, RoundTripIsExact) {
    Params p;
    p.dims = 3;
    p.boids = 200;
    const Flock f = spawn(p);
    const Flock back = parseStateCsv(formatStateCsv(f), p, "mem");
    ASSERT_EQ(back.size(), f.size());
    for (std::size_t i = 0; i < f.size(); ++i) {
        EXPECT_EQ(back[i].id, f[i].id);
        EXPECT_EQ(back[i].p, f[i].p);  // %.9g round-trips floats exactly
        EXPECT_EQ(back[i].v, f[i].v);
    }
}

// A state file names the world it was written in (exactly: a resume must run in the same one);
// a bad world line is refused with its line number; files without one still read.
TEST(StateCsv, TheWorldLineRoundTripsAndIsChecked) {
    Params p;
    p.boids = 20;
    p.world_size = 42.1696129f;
    const std::string text = formatStateCsv(spawn(p), 7, p.world_size);
    EXPECT_EQ(text.rfind("# step 7\n# world 42.1696129\n", 0), 0u) << text.substr(0, 40);
    std::uint32_t step = 0;
    EXPECT_EQ(parseStateCsv(text, p, "mem", &step).size(), 20u);
    EXPECT_EQ(step, 7u);
    const std::string path = (std::filesystem::temp_directory_path() / ("murmur_world_" + std::to_string(::getpid()) + ".csv")).string();
    writeStateCsv(path, spawn(p), 7, p.world_size);
    EXPECT_EQ(readStateWorld(path), p.world_size);
    writeStateCsv(path, spawn(p), 7);
    EXPECT_EQ(readStateWorld(path), 0.0f) << "no world given: none written";
    std::filesystem::remove(path);
    EXPECT_NE(csvError("# step 1\n# world -3\n" + kHeader).find("f.csv:2: '# world -3': the world must be a number in [1, 100000]"),
              std::string::npos);
    for (const char* bad : {"1e40", "1e-50", "0.5", "1e6", "inf", "nan", "abc", "150 "})
        EXPECT_NE(csvError("# world " + std::string(bad) + "\n" + kHeader).find("f.csv:1: '# world "), std::string::npos) << bad;
    EXPECT_NE(csvError("# world 150\n# world 150\n" + kHeader).find("f.csv:2: a second world line"), std::string::npos);
    EXPECT_EQ(csvError("# world 300\n" + kHeader), "");
}

// A restart file holds every parameter (the preset's JSON on "# params " lines: every key, the
// seed, the obstacles) and each boid's images: both read back equal, and a params line that is
// not a valid preset, or an image that cannot be, is refused by name.
TEST(StateCsv, ARestartFileHoldsEveryParameterAndTheImages) {
    Params p;
    p.boids = 30;
    p.dims = 3;
    p.seed = 9007199254740991ull;  // the largest seed
    p.dt = 0.0123f;
    p.style = Style::Couzin;
    p.species_count = 2;
    p.obstacles = {{{10.5f, 20.25f, 30.0f}, 4.5f}, {{1.0f, 2.0f, 3.0f}, 1.0f}};
    Flock flock = spawn(p);
    flock[7].image = {3, -2, 1};
    TempDir dir;
    const std::string path = (dir.path / "restart.csv").string();
    writeStateCsv(path, flock, 12, p.world_size, &p);
    const std::optional<Params> back = readStateParams(path);
    ASSERT_TRUE(back.has_value());
    EXPECT_TRUE(*back == p) << "every parameter, exactly";
    std::uint32_t step = 0;
    const Flock read = readStateCsv(path, *back, &step);
    EXPECT_EQ(step, 12u);
    EXPECT_EQ(read[7].image, glm::ivec3(3, -2, 1));
    EXPECT_EQ(read[8].image, glm::ivec3(0));
    Params wider = *back;
    wider.world_size *= 2.0f;
    EXPECT_EQ(readStateCsv(path, wider)[7].image, glm::ivec3(0)) << "read into another box: the counts start again";
    writeStateCsv(path, flock, 12, p.world_size);
    EXPECT_FALSE(readStateParams(path).has_value()) << "a state file without its parameters";
    std::ofstream(path) << "# params {\"dt\": 7}\n" << kHeader;
    try {
        (void)readStateParams(path);
        ADD_FAILURE() << "dt 7 read";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("dt"), std::string::npos) << e.what();
    }
    const std::string cols = "id,species,x,y,z,vx,vy,vz,ix,iy,iz\n";
    EXPECT_NE(csvError(cols + "0,0,1,1,0,0,0,0,1.5,0,0\n").find("ix: 1.5 is not a whole number"), std::string::npos);
    EXPECT_NE(csvError(cols + "0,0,1,1,0,0,0,0,0,0,1\n").find("iz must be 0 when dims is 2"), std::string::npos);
    Params soft;
    soft.bounds = Bounds::Soft;
    EXPECT_EQ(parseStateCsv(cols + "0,0,1,1,0,0,0,0,2,0,0\n", soft, "f.csv")[0].image, glm::ivec3(0)) << "another box: from 0";
    EXPECT_EQ(csvError(cols + "0,0,1,1,0,0,0,0,-4,7,0\n"), "");
}

TEST(StateCsv, ColumnsInAnyOrderAndCrlf) {
    Params two;
    two.species_count = 2;
    const Flock f = parseStateCsv("vz,vy,vx,z,y,x,species,id\r\n0,2,1,0,20,10,0,1\r\n0,0,0,0,5,5,1,0\r\n", two, "m");
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[1].p, glm::vec3(10, 20, 0));
    EXPECT_EQ(f[1].v, glm::vec3(1, 2, 0));
    EXPECT_EQ(f[0].species, 1u);
}

TEST(StateCsv, BadFilesNameLineAndProblem) {
    EXPECT_NE(csvError(""), "");
    EXPECT_NE(csvError("id,species,x,y,z,vx,vy\n").find("f.csv:1: missing column 'vz'"), std::string::npos);
    EXPECT_NE(csvError("id,species,x,y,z,vx,vy,vz,w\n").find("unknown column 'w'"), std::string::npos);
    EXPECT_NE(csvError(kHeader + "0,0,1,1,0,0,0,0\n1,0,abc,1,0,0,0,0\n").find("f.csv:3: x: 'abc' is not a number"),
              std::string::npos);
    EXPECT_NE(csvError(kHeader + "0,0,1,1,0,0,0\n").find("f.csv:2: expected 8 fields, found 7"), std::string::npos);
    EXPECT_NE(csvError(kHeader + "0,0,nan,1,0,0,0,0\n").find("f.csv:2: x: 'nan' is not a finite number"), std::string::npos);
    EXPECT_NE(csvError(kHeader + "0,0,1,1,0,inf,0,0\n").find("not a finite number"), std::string::npos);
    EXPECT_NE(csvError(kHeader + "0,0,1,1,0,0,0,0\n0,0,2,2,0,0,0,0\n").find("f.csv:3: duplicate id 0 (first on line 2)"),
              std::string::npos);
    EXPECT_NE(csvError(kHeader + "0,0,1,1,0,0,0,0\n5,0,2,2,0,0,0,0\n").find("id 5 is out of range [0, 1]"), std::string::npos);
    // World 300: allowed positions [-300, 600].
    EXPECT_NE(csvError(kHeader + "0,0,1000,1,0,0,0,0\n").find("x = 1000 is far outside the world [0, 300); allowed range [-300, 600]"),
              std::string::npos);
    // Read line by line: a line of 10,000 bytes is refused, not held.
    EXPECT_NE(csvError(kHeader + std::string(10000, '1') + "\n").find("f.csv:2: a line longer than 4096 bytes"), std::string::npos);
    // Soft walls only turn boids back: a flock murmur exported far out reads back (it was refused).
    Params soft;
    soft.bounds = Bounds::Soft;
    EXPECT_EQ(csvError(kHeader + "0,0,5000,-2000,0,0,0,0\n", soft), "");
    EXPECT_NE(csvError(kHeader + "0,0,2e9,1,0,0,0,0\n", soft).find("allowed range [-1e+09, 1e+09] (soft bounds)"), std::string::npos)
        << csvError(kHeader + "0,0,2e9,1,0,0,0,0\n", soft);
    EXPECT_NE(csvError(kHeader + "0,0,1,1,3,0,0,0\n").find("must be 0 when dims is 2"), std::string::npos);
    EXPECT_NE(csvError(kHeader + "0,1,1,1,0,0,0,0\n").find("species: 1 is out of range [0, 0] (species_count 1)"), std::string::npos);
    Params four;
    four.species_count = 4;
    EXPECT_NE(csvError(kHeader + "0,9,1,1,0,0,0,0\n", four).find("species: 9 is out of range [0, 3]"), std::string::npos);
    EXPECT_EQ(csvError(kHeader + "0,3,1,1,0,0,0,0\n", four), "");
    EXPECT_NE(csvError(kHeader + "0,0,1,1,0,1e9,0,0\n").find("vx = 1e+09 is out of range"), std::string::npos);
    EXPECT_EQ(csvError(kHeader + "0,0,-50,250,0,1,0,0\n"), "");  // outside the box, but near: allowed
}

TEST(Preset, NestedKeysApply) {
    const Params p = parsePreset(R"({"separation": {"radius": 3, "weight": 2}, "style": "offset", "dims": 3,
                                     "boids": 10, "description": "x"})",
                                 Params{}, "p");
    EXPECT_EQ(p.species[0].separation.radius, 3.0f);
    EXPECT_EQ(p.species[0].separation.weight, 2.0f);
    EXPECT_EQ(p.style, Style::Offset);
    EXPECT_EQ(p.dims, 3);
    EXPECT_EQ(p.boids, 10u);
    EXPECT_EQ(p.species[0].alignment.radius, Params{}.species[0].alignment.radius);  // untouched keys keep the base
}

TEST(Preset, ErrorsNameKeyAndRange) {
    EXPECT_NE(presetError(R"({"color": 3})").find("color: unknown key"), std::string::npos);
    EXPECT_NE(presetError(R"({"separation": {"radios": 3}})").find("separation.radios: unknown key"), std::string::npos);
    EXPECT_NE(presetError(R"({"fov_deg": 720})").find("fov_deg: 720 is out of range [0, 360] degrees"), std::string::npos);
    EXPECT_NE(presetError(R"({"bounds": "bouncy"})").find("bounds: 'bouncy' is not one of wrap|soft"), std::string::npos);
    EXPECT_NE(presetError(R"({"dt": "fast"})").find("dt: expected a number in [0.0001, 1]"), std::string::npos);
    EXPECT_NE(presetError(R"({"world_size": 10, "cohesion": {"radius": 6}})").find("cohesion.radius: 6 exceeds half the world"),
              std::string::npos);
    EXPECT_NE(presetError("{\"dims\": 2,\n \"boids\": }").find("not valid JSON"), std::string::npos);
    EXPECT_NE(presetError("[1,2]").find("must be a JSON object"), std::string::npos);
    // Several problems are all reported.
    const std::string many = presetError(R"({"dims": 5, "max_speed": -1})");
    EXPECT_NE(many.find("dims"), std::string::npos);
    EXPECT_NE(many.find("max_speed"), std::string::npos);
}

TEST(Preset, SaveLoadRoundTripAndAtomic) {
    TempDir dir;
    Params p;
    p.dims = 3;
    p.world_size = 77.5f;
    p.bounds = Bounds::Soft;
    p.seed = 123456789012345ull;
    const std::string path = (dir.path / "mine.json").string();
    savePresetFile(path, p);
    EXPECT_EQ(loadPresetFile(path, Params{}), p);
    // Saving over an existing file replaces it whole and leaves no temporary behind.
    p.boids = 42;
    savePresetFile(path, p);
    EXPECT_EQ(loadPresetFile(path, Params{}).boids, 42u);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
    // A target in a missing directory fails with a message and writes nothing.
    EXPECT_THROW(savePresetFile((dir.path / "nope" / "x.json").string(), p), std::runtime_error);
}

// A saved preset writes each float as the user typed it (dt 0.0333, not 0.03333333507180214) and
// still reads back to the very same floats, for every float key and an obstacle.
TEST(Preset, SavedFloatsReadAsTypedAndRoundTrip) {
    Params p;
    p.dt = 0.0333f;
    p.species[0].separation.radius = 1.1f;
    p.obstacles = {{{10.1f, 20.3f, 0}, 5.7f}};
    const std::string text = formatPreset(p);
    EXPECT_NE(text.find("\"dt\": 0.0333,"), std::string::npos) << text;
    EXPECT_NE(text.find("\"radius\": 5.7"), std::string::npos) << text;
    EXPECT_EQ(text.find("0.0333000"), std::string::npos) << text;
    EXPECT_EQ(text.find("1.10000"), std::string::npos) << text;
    EXPECT_EQ(parsePreset(text, Params{}, "t"), p);
    for (const ParamInfo& info : paramTable())
        if (info.kind == ParamKind::Float) {
            Params q;
            info.set(q, std::nextafter(float(info.get(q)), float(info.max)));  // a float no one types
            EXPECT_EQ(parsePreset(formatPreset(q), Params{}, "t"), q) << info.key;
        }
}

TEST(Preset, BuiltInPresetsAreValid) {
    // MURMUR_PRESET_DIR points at the source presets/ (set by CTest).
    const auto presets = listPresets();
    ASSERT_FALSE(presets.empty());
    for (const auto& [name, desc] : presets) {
        EXPECT_FALSE(desc.empty()) << name << " has no description";
        EXPECT_NO_THROW(loadPresetFile(resolvePreset(name), Params{})) << name;
    }
    EXPECT_EQ(loadPresetFile(resolvePreset("default"), Params{}), Params{}) << "default.json must match Params{}";
    EXPECT_THROW(resolvePreset("no_such_preset"), InputError);
}

// Malformed input found by trying murmur as an attacker would: each a test that failed (or
// crashed) before its fix.
TEST(Preset, DeepNestingIsRefusedNotACrash) {
    // 100,000 levels crashed the reader (recursive flattening, SIGSEGV); now refused at 16.
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += "{\"a\":";
    deep += "1";
    for (int i = 0; i < 100000; ++i) deep += "}";
    EXPECT_NE(presetError(deep).find("p.json: nested deeper than 16 levels"), std::string::npos) << presetError(deep).substr(0, 200);
    // The deepest real preset keys (three levels) still read.
    EXPECT_EQ(presetError(R"({"species_count": 2, "species1": {"dc": {"accel_side": 5}}})"), "");
}

TEST(Preset, NumberOverflowIsAnInputErrorNamingTheFile) {
    // 1e999 escaped as nlohmann's out_of_range (exit 1, no file name).
    EXPECT_NE(presetError(R"({"dt": 1e999})").find("p.json: not valid JSON"), std::string::npos) << presetError(R"({"dt": 1e999})");
}

TEST(Preset, ARepeatedKeyAndAnObstacleWithoutRadiusAreRefused) {
    EXPECT_NE(presetError(R"({"dt": 0.1, "dt": 0.2})").find("key 'dt' appears twice"), std::string::npos);
    EXPECT_NE(presetError(R"({"separation": {"radius": 1, "radius": 2}})").find("key 'radius' appears twice"), std::string::npos);
    EXPECT_EQ(presetError(R"({"separation": {"radius": 1}, "alignment": {"radius": 2}})"), "") << "the same key in two objects is fine";
    EXPECT_NE(presetError(R"({"obstacles": [{"x": 10, "y": 20}]})").find("obstacles[0]: needs x, y and radius"), std::string::npos);
}

TEST(Params, TheDocumentedBoundsThemselvesAreValid) {
    // dt=0.0001 and dc.smoothing=0.99 were refused: the float stored was compared with the double bound.
    for (const ParamInfo& info : paramTable()) {
        if (info.kind != ParamKind::Float) continue;
        for (double bound : {info.min, info.max}) {
            Params p;
            EXPECT_EQ(setFromNumber(info, bound, p), std::nullopt) << info.key << " = " << bound;
            for (const ParamProblem& pr : validate(p))  // the key's own range (cross-field rules may still apply)
                EXPECT_FALSE(pr.field == info.key && pr.message.find("out of range") != std::string::npos)
                    << info.key << " = " << bound << ": " << pr.message;
        }
    }
}

TEST(Params, RangeMessagesPrintValueAndLimitApart) {
    // "9.00719925e+15 is out of range [0, 9.00719925e+15]" said nothing; whole numbers print in full.
    Params p;
    const auto err = setFromNumber(*findParam("seed"), 9007199254740992.0, p);
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("9007199254740992 is out of range [0, 9007199254740991]"), std::string::npos) << *err;
}

TEST(StateCsv, AByteOrderMarkIsSkipped) {
    // Spreadsheets write a UTF-8 BOM: it read as "unknown column 'id'".
    EXPECT_EQ(csvError("\xEF\xBB\xBF" + kHeader + "0,0,1,1,0,0,0,0\n"), "");
}

TEST(Files, ADirectoryIsNamedAsOne) {
    // A directory given as a preset or CSV read as "empty file" or "no such file".
    TempDir dir;
    try {
        readFile(dir.path.string());
        ADD_FAILURE() << "reading a directory succeeded";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("it is a directory"), std::string::npos) << e.what();
    }
}

TEST(Files, AWriteReplacesTheFileNotWhatPointsAtIt) {
    // The temp-and-rename write turned a symlink, a FIFO or a device into a regular file, replaced
    // read-only files and reset a 0600 file to 0644.
    TempDir dir;
    const fs::path real = dir.path / "real.csv", link = dir.path / "link.csv";
    writeFileAtomic(real.string(), "old\n");
    fs::permissions(real, fs::perms::owner_read | fs::perms::owner_write);  // 0600
    fs::create_symlink(real.filename(), link);  // relative, as users make them
    writeFileAtomic(link.string(), "new\n");
    EXPECT_TRUE(fs::is_symlink(link)) << "the link stays a link";
    EXPECT_EQ(readFile(real.string()), "new\n") << "the file it points to is replaced";
    EXPECT_EQ(fs::status(real).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write) << "0600 kept";

    const fs::path fifo = dir.path / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_THROW(writeFileAtomic(fifo.string(), "x"), std::runtime_error);
    EXPECT_TRUE(fs::is_fifo(fifo)) << "a FIFO stays a FIFO";

    const fs::path ro = dir.path / "ro.csv";
    writeFileAtomic(ro.string(), "keep\n");
    fs::permissions(ro, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);  // 0444
    EXPECT_THROW(writeFileAtomic(ro.string(), "x"), std::runtime_error);
    EXPECT_EQ(readFile(ro.string()), "keep\n") << "a read-only file is left alone (even for root)";
    EXPECT_EQ(targetProblem("/dev/null").value_or(""), "is not a regular file (a device, FIFO or socket): murmur writes regular files only");
    for (const auto& e : fs::directory_iterator(dir.path))
        EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << "temp file left: " << e.path();
}

TEST(CpuMemory, AFlockThatCannotFitIsRefusedWithTheFigures) {
    // --backend cpu --boids 100000000 ran for minutes and died of std::bad_alloc.
    Params p;
    p.boids = 100000000;
    const auto problem = cpuMemoryProblem(p, std::uint64_t(8) << 30);  // 8 GiB available
    ASSERT_TRUE(problem);
    EXPECT_NE(problem->find("100000000 boids need about"), std::string::npos) << *problem;
    EXPECT_NE(problem->find("8192 MiB available"), std::string::npos) << *problem;
    p.boids = 10000;
    EXPECT_FALSE(cpuMemoryProblem(p, std::uint64_t(8) << 30));
    EXPECT_FALSE(cpuMemoryProblem(p, 0)) << "unknown memory: no refusal";
    EXPECT_GT(availableMemoryBytes(), 0u) << "this Linux reports MemAvailable";
}


TEST(StateCsv, AResumedRunIsBitForBitTheUninterruptedOne) {
    // The export omitted perch timers, the stored steering and the step counter: 100 steps, export,
    // import, 100 steps differed from 200 steps (300 of 300 boids for decarpentier).
    for (const StyleInfo& info : styles()) {  // every style; the ones that keep steering matter most
        const Style style = info.style;
        const Params p = test::resumeParams(style);
        CpuSimulation straight, first, resumed;
        const test::ResumeOutcome o = test::resumeAgainstStraight(straight, first, resumed, p);
        EXPECT_EQ(o.step_read, 100u);
        EXPECT_EQ(o.differ, 0u) << info.name << ": boids that differ after the resume";
        // The styles that keep steering, and the default, land in this case (the constant-speed
        // models need not reach the ground in 200 steps).
        if (info.traits.keeps_steer || style == Params{}.style) {
            EXPECT_GT(o.perched, 0u) << info.name << ": boids on the ground";
        }
    }
    // An 8-column file still reads, the rest at 0.
    std::uint32_t step = 7;
    const Flock old = parseStateCsv(kHeader + "0,0,1,1,0,0,0,0\n", Params{}, "old.csv", &step);
    EXPECT_EQ(step, 0u);
    EXPECT_EQ(old[0].perch, 0.0f);
}

TEST(Files, AnInterruptedWriteLeavesNoTemporaryFile) {
    // SIGTERM or SIGINT during an export left a 16-94 MB *.tmp.XXXXXX beside the target.
    TempDir dir;
    const std::string target = (dir.path / "big.csv").string();
    for (int sig : {SIGTERM, SIGINT}) {
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            const std::string big(std::size_t(768) << 20, 'x');  // long enough to be caught mid-write
            writeFileAtomic(target, big);
            std::_Exit(0);
        }
        bool caught = false;  // wait for the temporary file, then signal the writer
        for (int tries = 0; tries < 20000 && !caught; ++tries) {
            for (const auto& e : fs::directory_iterator(dir.path))
                if (e.path().string().find(".tmp.") != std::string::npos) caught = true;
            if (!caught) ::usleep(500);
        }
        ASSERT_TRUE(caught) << "the write was never seen in progress";
        ::kill(child, sig);
        int status = 0;
        ::waitpid(child, &status, 0);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "the writer ends by the signal, as it would have";
        for (const auto& e : fs::directory_iterator(dir.path))
            EXPECT_EQ(e.path().string().find(".tmp."), std::string::npos) << "left behind: " << e.path();
    }
}

TEST(Preset, MessagesEchoAtMost60CharactersOfUserText) {
    // A multi-megabyte key or field came back whole in the message.
    const std::string huge(1 << 20, 'k');
    const std::string msg = presetError("{\"" + huge + "\": 1}");
    EXPECT_LT(msg.size(), 400u) << msg.substr(0, 200);
    EXPECT_NE(msg.find("kkk...: unknown key"), std::string::npos) << msg.substr(0, 200);
    EXPECT_LT(csvError(kHeader + "0,0," + huge + ",1,0,0,0,0\n").size(), 400u);
}

TEST(Files, ADeviceIsNotReadAsAFile) {
    // --import /dev/zero read until memory ran out.
    try {
        readFile("/dev/zero");
        ADD_FAILURE() << "reading /dev/zero succeeded";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
    }
}

// Recording through a real ffmpeg: the video has every frame at the constant rate asked for,
// odd sizes are padded to even, and nothing is left beside it. (scripts/setup.sh installs
// ffmpeg; without it this test fails rather than skip.)
TEST(Recorder, AVideoThroughFfmpegHoldsEveryFrame) {
    ASSERT_FALSE(render::findOnPath("ffmpeg").empty()) << "ffmpeg is not on PATH (apt-get install ffmpeg)";
    ASSERT_FALSE(render::findOnPath("ffprobe").empty()) << "ffprobe is not on PATH (apt-get install ffmpeg)";
    TempDir dir;
    const std::string path = (dir.path / "flock.mp4").string();
    {
        render::Recorder rec(path, 33, 21, 25);
        for (int k = 0; k < 17; ++k) rec.add(std::vector<std::uint8_t>(33 * 21 * 4, std::uint8_t(k * 10)));
        EXPECT_EQ(rec.finish(), path + " (17 frames at 25 fps)");
    }
    const std::string probe = "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
                              "stream=codec_name,width,height,r_frame_rate,nb_read_frames -of csv=p=0 '" + path + "'";
    FILE* pipe = ::popen(probe.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    char line[256] = {};
    ASSERT_NE(std::fgets(line, sizeof line, pipe), nullptr);
    ::pclose(pipe);
    EXPECT_EQ(std::string(line), "h264,34,22,25/1,17\n");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1) << "a temporary file was left";
}

// A recording that ends without frames, or is abandoned, leaves nothing under the target's name
// (an existing file there is kept), and no temporary file.
TEST(Recorder, AFailedOrAbandonedVideoLeavesNothing) {
    TempDir dir;
    const std::string path = (dir.path / "keep.mp4").string();
    std::ofstream(path) << "precious";
    {
        render::Recorder rec(path, 16, 16, 30);
        EXPECT_THROW(rec.finish(), std::runtime_error);
    }
    {
        render::Recorder rec(path, 16, 16, 30);
        rec.add(std::vector<std::uint8_t>(16 * 16 * 4, 0));
    }  // abandoned: the destructor stops ffmpeg
    EXPECT_EQ(readFile(path), "precious");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 1);
}

TEST(Recorder, PngFramesGoToANumberedSequence) {
    TempDir dir;
    const std::string folder = (dir.path / "frames").string() + "/";
    render::Recorder rec(folder, 8, 4, 30);
    for (int k = 0; k < 3; ++k) rec.add(std::vector<std::uint8_t>(8 * 4 * 4, 255));
    EXPECT_EQ(rec.finish(), folder + " (3 PNG frames)");
    EXPECT_TRUE(fs::exists(folder + "frame_000000.png"));
    EXPECT_TRUE(fs::exists(folder + "frame_000002.png"));
    EXPECT_FALSE(fs::exists(folder + "frame_000003.png"));
}

// A frame folder is empty or murmur's own: a second run into it replaces the first run's frames
// (it left frames 2..N of the old run after the new run's, one sequence to ffmpeg); a folder of
// the user's files is refused before anything is written.
TEST(Recorder, AFrameFolderIsEmptyOrMurmursOwn) {
    TempDir dir;
    const std::string folder = (dir.path / "frames").string() + "/";
    {
        render::Recorder rec(folder, 8, 4, 30);
        for (int k = 0; k < 5; ++k) rec.add(std::vector<std::uint8_t>(8 * 4 * 4, 255));
        rec.finish();
    }
    EXPECT_NO_THROW(render::checkRecordTarget(folder)) << "murmur's own folder";
    {
        render::Recorder rec(folder, 8, 4, 30);
        for (int k = 0; k < 2; ++k) rec.add(std::vector<std::uint8_t>(8 * 4 * 4, 255));
        rec.finish();
    }
    EXPECT_TRUE(fs::exists(folder + "frame_000001.png"));
    EXPECT_FALSE(fs::exists(folder + "frame_000002.png")) << "an old run's frame left behind the new run's";
    const std::string mine = (dir.path / "mine").string() + "/";
    fs::create_directories(mine);
    std::ofstream(mine + "frame_000000.png") << "the user's own";
    try {
        render::checkRecordTarget(mine);
        ADD_FAILURE() << "a folder of the user's files accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("files murmur did not write"), std::string::npos) << e.what();
    }
    EXPECT_THROW(render::Recorder(mine, 8, 4, 30), InputError);
    EXPECT_EQ(readFile(mine + "frame_000000.png"), "the user's own");
}

// A target murmur cannot record to is refused up front with what is valid; a missing ffmpeg is
// named with the package to install and the PNG alternative.
TEST(Recorder, BadTargetsAreRefusedUpFront) {
    TempDir dir;
    EXPECT_THROW(render::checkRecordTarget((dir.path / "x.avi").string()), InputError);
    EXPECT_THROW(render::checkRecordTarget((dir.path / "no" / "x.mp4").string()), InputError);
    EXPECT_THROW(render::checkRecordTarget((dir.path / "no" / "deeper" / "frames/").string()), InputError);
    EXPECT_NO_THROW(render::checkRecordTarget((dir.path / "frames/").string()));
    const std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", dir.path.c_str(), 1);
    try {
        render::checkRecordTarget((dir.path / "x.mp4").string());
        ADD_FAILURE() << "no ffmpeg on PATH, yet accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("apt-get install ffmpeg"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("--record DIR/"), std::string::npos) << e.what();
    }
    ::setenv("PATH", saved.c_str(), 1);
}

// The temporaries that Ctrl-C and SIGTERM remove: handlers installed while any is held and the
// earlier ones restored after the last; a signal the process ignored stays ignored; one made and
// never kept is removed when it goes (a constructor that throws halfway leaves none).
TEST(SignalSafeTempFile, HandlersComeAndGoWithTheFilesAndIgnoredSignalsStayIgnored) {
    TempDir dir;
    struct sigaction before {}, during {}, after {};
    ::sigaction(SIGTERM, nullptr, &before);
    std::string made;
    {
        SignalSafeTempFile a((dir.path / "a.tmp.XXXXXX").string());
        {
            SignalSafeTempFile b((dir.path / "b.tmp.XXXXXX").string());
            ASSERT_GE(b.create(), 0);
            made = b.path();
            EXPECT_TRUE(fs::exists(made));
        }
        EXPECT_FALSE(fs::exists(made)) << "a temporary made and never kept was left";
        ::sigaction(SIGTERM, nullptr, &during);
        EXPECT_NE(during.sa_handler, before.sa_handler) << "no handler while a temporary is held";
    }
    ::sigaction(SIGTERM, nullptr, &after);
    EXPECT_EQ(after.sa_handler, before.sa_handler) << "the earlier handler not restored";
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGINT, &ignore, &before);
    {
        SignalSafeTempFile c((dir.path / "c.tmp.XXXXXX").string());
        ::sigaction(SIGINT, nullptr, &during);
        EXPECT_EQ(during.sa_handler, SIG_IGN) << "an ignored SIGINT was taken over";
    }
    ::sigaction(SIGINT, &before, nullptr);
}

// A state from arrays is checked as a state file's line is, and the first bad boid is named by
// its index; a good one comes back in id order, floats as given.
TEST(StateArrays, EachBoidIsCheckedAsAFileLineAndTheFirstBadOneIsNamed) {
    Params p;
    p.dims = 3;
    p.world_size = 100.0f;
    p.bounds = Bounds::Wrap;
    const std::vector<float> pos = {1, 2, 3, 40, 50, 60}, vel = {1, 0, 0, 0, 1, 0};
    const Flock f = stateFromArrays(pos.data(), vel.data(), nullptr, 2, p);
    ASSERT_EQ(f.size(), 2u);
    EXPECT_EQ(f[1].id, 1u);
    EXPECT_EQ(f[1].species, 0u);
    EXPECT_EQ(f[1].p, glm::vec3(40, 50, 60));
    EXPECT_EQ(f[0].v, glm::vec3(1, 0, 0));
    auto message = [&](std::vector<float> xyz, std::vector<float> v, std::vector<std::uint32_t> species) {
        try {
            stateFromArrays(xyz.data(), v.data(), species.empty() ? nullptr : species.data(), xyz.size() / 3, p);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message({1, 2, 3, 40, 350, 60}, vel, {}),
              "boid 1: y = 350 is far outside the world [0, 100); allowed range [-100, 200] (wrap bounds)");
    EXPECT_EQ(message({1, 2, 3, 40, NAN, 60}, vel, {}), "boid 1: y: 'nan' is not a finite number");
    EXPECT_EQ(message(pos, {2e6f, 0, 0, 0, 1, 0}, {}), "boid 0: vx = 2000000 is out of range [-1e6, 1e6] units/s");
    EXPECT_EQ(message(pos, vel, {0, 1}), "boid 1: species: 1 is out of range [0, 0] (species_count 1)");
    p.dims = 2;
    EXPECT_EQ(message(pos, vel, {}), "boid 0: z and vz must be 0 when dims is 2");
}

// An on/off environment variable (io/env_switch.hpp): its words in any case, nothing for unset or
// empty, and InputError naming it, its value escaped and the valid words for anything else.
TEST(EnvSwitch, TakesItsWordsInAnyCaseAndRefusesOthers) {
    const char* name = "MURMUR_TEST_SWITCH";
    ::unsetenv(name);
    EXPECT_EQ(envSwitch(name), std::nullopt);
    for (const auto& [value, want] : std::vector<std::pair<const char*, std::optional<bool>>>{
             {"", std::nullopt}, {"1", true}, {"on", true}, {"True", true}, {"YES", true},
             {"0", false}, {"Off", false}, {"false", false}, {"no", false}}) {
        ::setenv(name, value, 1);
        EXPECT_EQ(envSwitch(name), want) << value;
    }
    ::setenv(name, "of\nf", 1);
    try {
        (void)envSwitch(name);
        ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "MURMUR_TEST_SWITCH='of\\x0af': valid: 1, on, true or yes (on); 0, off, false or no (off); "
                                         "in any case; unset or empty: the default");
    }
    ::unsetenv(name);
}
