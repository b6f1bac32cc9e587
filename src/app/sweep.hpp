// Parameter sweeps for research (headless): every combination of up to three keys' values, each
// with several seeds, one CSV row per (values, seed) holding each order parameter's mean and
// standard deviation over the samples after a burn-in. A sweep splits into disjoint shards (a
// Slurm job array, GNU parallel) whose files --sweep-merge joins.
#pragma once

#include "app/options.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace murmur {

struct SweepAxis {
    std::string key;
    double from = 0, to = 0;
    std::uint32_t count = 1;
    double value(std::uint32_t k) const { return count <= 1 ? from : from + (to - from) * double(k) / double(count - 1); }
};

struct SweepOptions {
    std::vector<SweepAxis> axes;   // the first varies slowest
    std::uint32_t seeds = 1;       // seeds base, base+1, ... at each point
    std::uint64_t steps = 300;     // steps per run
    std::uint64_t burn_in = 0;     // steps before sampling starts
    std::uint64_t every = 10;      // steps between samples
    std::string out;               // CSV
    std::uint32_t shard = 0, shards = 1;  // this run does the runs whose index % shards == shard
    // Each seed's runs continue one another along the one key (collective memory, hysteresis):
    // a run changes the previous value's flock to its own value and steps on, instead of
    // spawning; shards split the sweep by seed (seed index % shards == shard) so a chain stays whole.
    bool carry = false;
};

// "KEY=FROM:TO:COUNT" -> an axis; a numeric key of --list-params, both ends in its range, COUNT in
// [1, 10000]. Throws InputError naming the problem.
SweepAxis parseSweepAxis(const std::string& text);
// "I/N" with 0 <= I < N <= 100000 -> shard I of N. Throws InputError.
void parseSweepShard(const std::string& text, SweepOptions& s);

// One run of the sweep: its values (one per axis) and seed index.
struct SweepRun {
    std::uint64_t index = 0;  // in the whole sweep (the CSV's run column)
    std::vector<double> values;
    std::uint32_t seed_index = 0;
};
// Every run in order (axes slowest first, then seeds), or this shard's share of them.
std::vector<SweepRun> sweepRuns(const SweepOptions& s, bool this_shard_only);
// --sweep-carry's conditions: one key, and not one that a carried flock cannot take (its count,
// dimensions, world, species, or where it spawned). Throws InputError naming the problem.
void checkCarry(const SweepOptions& s);

// The order parameters a sweep's CSV holds (its NAME_mean columns), for --sweep-plot-of.
bool isSweepMeasure(const std::string& name);
std::string sweepMeasureNames();  // "polarization, group_polarization, ..."

// The CSV header: the keys, seed, samples, then mean and std of each order parameter.
std::string sweepHeader(const SweepOptions& s);

// Runs this shard's runs on opt's backend from opt.params and writes s.out; progress on err.
int runSweep(const Options& opt, const SweepOptions& s, std::ostream& out, std::ostream& err);

// Joins shard files with one header into out (rows sorted as the full sweep orders them, a
// repeated row once). Throws InputError on a missing file or mismatched headers.
int mergeSweeps(const std::string& out_path, const std::vector<std::string>& parts, std::ostream& out);

}  // namespace murmur
