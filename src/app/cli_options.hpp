// The command line's flags as declared to CLI11 and the values they parse into (CliValues). Which
// flags each mode takes is cli_modes.hpp's table; what runs is cli.cpp's dispatch.
#pragma once

#include "app/bench.hpp"
#include "app/options.hpp"
#include "engine/sweep.hpp"

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace murmur {

// Every flag's value, as parsed (before the settings are applied in order).
struct CliValues {
    Options opt;
    std::optional<std::string> boids, dims, seed;
    std::string preset, backend = "gpu", colour_by = "heading", camera = "auto";
    std::vector<std::string> sets;
    bool no_vsync = false, colour_by_given = false, camera_given = false;
    std::string list_params_filter;  // --list-params [FILTER]: only keys containing it
    bool list_presets = false, self_test = false, bench = false, gl_debug = false;
    BenchOptions bench_opt;
    std::string bench_sizes, bench_style = "steering", bench_flocks;
    std::optional<std::string> bench_ab;  // --bench-ab, given (perhaps empty) or not
    std::uint32_t bench_rounds = 3;
    std::vector<std::string> sweeps, merge_args;
    std::string sweep_shard, sweep_plot, sweep_plot_of = "polarization", sweep_xi;
    SweepOptions sweep_opt;
    std::string resume;            // --resume FILE: a restart file's parameters and state
    bool resume_override = false;  // --resume-override: the command line may change its parameters
};

// Declares every flag of murmur on `app`, parsing into `v` (which must outlive `app`).
void declareOptions(CLI::App& app, CliValues& v);

// Every count flag reads numbers as --set does: decimal, an exponent allowed ("1e8"), no sign and
// no hex; the value must be whole and within [lo, hi]. Throws CLI::ValidationError.
std::uint64_t parseCount(const std::string& flag, const std::string& text, std::uint64_t lo, std::uint64_t hi);

// A flag murmur does not have, named with the nearest one it does ("--boid": did you mean
// --boids?); CLI11 alone reports the flag and its value as unexpected arguments.
std::optional<std::string> unknownFlag(const CLI::App& app, int argc, const char* const* argv);

}  // namespace murmur
