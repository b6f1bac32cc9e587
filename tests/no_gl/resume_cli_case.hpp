// The restart file through the command line, shared by the CPU test (tests/no_gl/test_cli.cpp) and
// the GPU test (tests/gl/test_cli_gpu.cpp): 200 steps straight against 100 steps, --export, then
// --resume and 100 more, on the same backend. A flock with every piece of state that outlives a
// step: the gloss style's stored acceleration, perch timers, wander phased by the step, and wrap
// bounds (image counts).
#pragma once

#include "no_gl/cli_run.hpp"
#include "io/atomic_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace murmur::test {

inline std::string fileText(const std::string& path) { return readFile(path, std::uintmax_t(1) << 30, "a state file"); }

inline void expectResumeContinuesTheRun(const std::string& backend, const std::filesystem::path& dir) {
    const std::vector<std::string> flock = {"--backend", backend, "--headless", "--preset", "default", "--boids", "300", "--seed", "5",
                                            "--set", "style=gloss", "--set", "world_size=60", "--set", "perch.enabled=on",
                                            "--set", "perch.ground=20", "--set", "perch.min_time=0.05", "--set", "perch.max_time=0.4"};
    const auto run = [&](std::vector<std::string> head, const std::vector<std::string>& tail) {
        head.insert(head.end(), tail.begin(), tail.end());
        const CliResult r = runMurmur(head);
        EXPECT_EQ(r.code, 0) << r.err;
        return r;
    };
    const std::string straight = (dir / "straight.csv").string(), mid = (dir / "mid.csv").string(),
                      resumed = (dir / "resumed.csv").string();
    run(flock, {"--steps", "200", "--export", straight});
    run(flock, {"--steps", "100", "--export", mid});
    const std::vector<std::string> resume = {"--backend", backend, "--headless", "--resume", mid};
    run(resume, {"--steps", "100", "--export", resumed});
    EXPECT_EQ(fileText(resumed), fileText(straight)) << "the resumed run is the run, to the bit (every column and parameter)";
    EXPECT_NE(fileText(resumed).find("\n199,0,"), std::string::npos) << "300 boids";
    // A change that moves the flock is refused, naming it; the view's keys may change; an
    // override continues with the change.
    CliResult r = runMurmur({"--backend", backend, "--headless", "--resume", mid, "--seed", "9", "--set", "dt=0.02", "--steps", "1"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("seed from 5 to 9"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("dt from 0.033333335 to 0.02"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("add --resume-override"), std::string::npos) << r.err;
    run(resume, {"--set", "colour=species", "--steps", "1"});
    r = run(resume, {"--seed", "9", "--resume-override", "--steps", "1"});
    EXPECT_NE(r.out.find("with changed parameters:\n  seed from 5 to 9"), std::string::npos) << r.out;
}

}  // namespace murmur::test
