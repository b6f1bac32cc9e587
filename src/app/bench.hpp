// murmur --bench: the fixed benchmark scenario (3D, wrap, steering, 1 boid per unit^3, largest
// radius 2: ~33 neighbours at spawn) at a list of sizes, right after spawn and after the flock
// has clumped. Reports, never asserts. See docs/performance.md for the method.
#pragma once

#include "app/options.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace murmur {

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
};

// The benchmark scenario's parameters for n boids, in the steering style or, with the same
// radii, weights and speeds, the graded one.
// With `sets`, each key=value applied over it (InputError when the result is invalid).
Params benchParams(std::uint64_t n, Style style = Style::Steering, const std::vector<std::string>& sets = {});

// The median (of an even count, the mean of the middle two), as every benchmark figure quotes it.
double median(std::vector<double> v);

int runBench(const Options& opt, const BenchOptions& bench, std::ostream& out, std::ostream& err);

// The ensemble benchmark (--bench --bench-flocks K,...): for each size N of --bench-sizes and each
// K, K flocks of N boids (the scenario, seeds 1..K) stepped together; the median step, boid-steps/s
// and flock-steps/s. Rows go to doc["runs"] with phase "ensemble".
bool benchEnsembles(const Options& opt, const BenchOptions& b, nlohmann::json& doc, std::ostream& out);

}  // namespace murmur
