// murmur --bench: the fixed benchmark scenario (3D, wrap, steering, 1 boid per unit^3, largest
// radius 2: ~33 neighbours at spawn) at a list of sizes, right after spawn and after the flock
// has clumped. Reports, never asserts. See docs/performance.md for the method.
#pragma once

#include "app/options.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace murmur {

// --bench-ab VAR=A,B: the GPU's two paths of one variable (MURMUR_GPU_READS textures|storage,
// MURMUR_GPU_WALK rows|tiles), measured in `rounds` rounds, A then B each round.
struct BenchAb {
    std::string var, a, b;
    std::uint32_t rounds = 3;
};
// "VAR=A,B" checked (InputError naming the variables and their values).
BenchAb parseBenchAb(const std::string& text);

struct BenchOptions {
    std::vector<std::uint64_t> sizes{10000, 100000, 1000000, 10000000};
    std::uint32_t steps = 100;         // measured steps per phase (median taken)
    std::uint32_t clump_steps = 1000;  // steps between the spawn and the clumped measurements
    std::string out_path;              // JSON; empty: table only
    std::string compare_path;          // an earlier --bench-out JSON to print ratios against
    Style style = Style::Steering;     // steering (the fixed scenario) or graded (its spacing: docs/performance.md)
    std::vector<std::uint32_t> flocks;  // --bench-flocks: ensembles of each count of each size (bench_ensemble.cpp)
    // --set key=value over the scenario (each checked by the command line before), e.g.
    // neighbour_cap=7, topological.count=6.5, bounds=open; boids stays each size's.
    std::vector<std::string> sets;
    std::optional<BenchAb> ab;  // --bench-ab: an interleaved A/B of two GPU paths (bench_ab.cpp)
};

// The benchmark scenario's parameters for n boids, in the steering style or, with the same
// radii, weights and speeds, the graded one.
// With `sets`, each key=value applied over it (InputError when the result is invalid).
Params benchParams(std::uint64_t n, Style style = Style::Steering, const std::vector<std::string>& sets = {});

// The median (of an even count, the mean of the middle two), as every benchmark figure quotes it.
double median(std::vector<double> v);

int runBench(const Options& opt, const BenchOptions& bench, std::ostream& out, std::ostream& err);

// One size of the scenario: its spawn and clumped rows (and, on the GPU, the render's), printed
// and added to doc["runs"]; false when the GL driver reported errors.
bool benchSize(std::uint64_t n, const Options& opt, const BenchOptions& b, nlohmann::json& doc, std::ostream& out, std::ostream& err);

// The A/B (--bench-ab): every size in each round, A's rows then B's, each row tagged with its
// "round" and "ab" (the path); then each size and phase's median step over the rounds, a path
// each, and B's over A's (printed, and doc["ab"]). The environment is left as it is: the path is
// chosen through engine::overrideGpuPath.
bool benchAb(const Options& opt, const BenchOptions& b, nlohmann::json& doc, std::ostream& out, std::ostream& err);

// The ensemble benchmark (--bench --bench-flocks K,...): for each size N of --bench-sizes and each
// K, K flocks of N boids (the scenario, seeds 1..K) stepped together; the median step, boid-steps/s
// and flock-steps/s. Rows go to doc["runs"] with phase "ensemble".
bool benchEnsembles(const Options& opt, const BenchOptions& b, nlohmann::json& doc, std::ostream& out);

}  // namespace murmur
