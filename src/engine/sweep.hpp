// Parameter sweeps for research (headless): every combination of up to three keys' values, each
// with several seeds, one CSV row per (values, seed) holding each order parameter's mean and
// standard deviation over the samples after a burn-in. A sweep splits into disjoint shards (a
// Slurm job array, GNU parallel) whose files --sweep-merge joins. The engine's: murmur --sweep,
// murmur::api::sweep and Python's murmur.sweep all run this code and write the same bytes.
#pragma once

#include "engine/engine.hpp"
#include "model/params.hpp"

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace murmur {

// A swept key's values: COUNT evenly spaced from FROM to TO, or evenly spaced in log (both ends
// > 0: FROM x (TO/FROM)^(k/(COUNT-1))), or a list in the order given.
struct SweepAxis {
    std::string key;
    double from = 0, to = 0;
    std::uint32_t count = 1;
    bool log = false;
    std::vector<double> list;  // when not empty: the values, count of them
    double value(std::uint32_t k) const;
    // As parseSweepAxis reads it, each number written shortest-exact (0.2, not 0.20000000000000001).
    std::string text() const;
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
    // GPU backend: runs stepped together as one ensemble, at most this many (0: as many as fit,
    // kSweepBatchAuto flocks and kSweepBatchBoids boids; 1: one run at a time).
    std::uint32_t batch = 0;
    // The velocity correlation length xi at each sample (model/correlations.hpp: over the pairs
    // within this r_max, 0 half the world, kSweepXiBins bins): columns xi_mean, xi_std (over the
    // samples where C falls to 0 within r_max) and xi_found (those samples). Off when empty.
    std::optional<double> xi_reach;
};
inline constexpr std::uint32_t kSweepXiBins = 100;
inline constexpr std::uint32_t kSweepBatchAuto = 1024;
inline constexpr std::uint64_t kSweepBatchBoids = std::uint64_t(1) << 24;

// What a sweep's runs share: the base parameters (each run sets its values and seed on them), the
// backend, the steps of a run and the shaders (empty: those built in).
struct SweepBase {
    Params params;
    Backend backend = Backend::Gpu;
    std::uint64_t steps = 300;
    std::string shader_dir;
};

// What a sweep tells its caller and asks of it as it goes.
struct SweepHooks {
    // Makes the GL context a GPU sweep needs current, after every run is checked (before that,
    // bad input is reported without one); false when it cannot (reported by the hook).
    std::function<bool()> open_gl;
    // Each progress line ("sweep: run 3/17 (...): polarization ...; 12.0 s elapsed, about 58 s left\n").
    std::function<void(const std::string&)> progress;
    // Asked between runs, samples and pieces of at most 100 steps: a throw ends the sweep there,
    // nothing written (a caller's Ctrl-C).
    std::function<void()> check;
};

// "KEY=FROM:TO:COUNT", "KEY=FROM:TO:COUNT:log" or "KEY=V1,V2,..." -> an axis; a numeric key of
// --list-params, every value in its range, COUNT (or the list's length) in [1, 10000], a log
// range's ends above 0. Throws InputError naming the problem.
SweepAxis parseSweepAxis(const std::string& text);
// --sweep-xi's R_MAX: a number, 0 or more (0: half the world). Throws InputError.
double parseSweepXi(const std::string& text);
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
// Run `index` of the whole sweep, made on its own (a sweep is never built whole to check it).
SweepRun sweepRunAt(const SweepOptions& s, std::uint64_t index);
// Each key swept once, and at most kMaxSweepRuns runs. Throws InputError naming the problem.
void checkSweepShape(const SweepOptions& s);
// --sweep-carry's conditions: one key, and not one that a carried flock cannot take (its count,
// dimensions, world, species, or where it spawned). Throws InputError naming the problem.
void checkCarry(const SweepOptions& s);

// The order parameters a sweep's CSV holds (its NAME_mean columns), for --sweep-plot-of.
bool isSweepMeasure(const std::string& name);
std::string sweepMeasureNames();  // "polarization, group_polarization, ..."

// The CSV header: the keys, seed, samples, then mean and std of each order parameter, then the
// polarization's Binder cumulant over the samples (polarization_binder).
std::string sweepHeader(const SweepOptions& s);

// Runs this shard's runs and writes s.out (atomically, once every run is done): the runs written.
// Throws InputError on a bad sweep (before any runs: every run is checked first), and
// std::runtime_error on a flock that is no longer finite (nothing written).
std::size_t runSweep(const SweepBase& base, const SweepOptions& s, const SweepHooks& hooks);
// The command line's: its own headless context, progress on err, "wrote ..." on out; the exit code.
int runSweep(const SweepBase& base, const SweepOptions& s, std::ostream& out, std::ostream& err);

// The first line of a sweep's CSV, "# murmur sweep: ...": what makes runs one sweep (the keys
// and their ranges, seeds, steps, sampling, carry, backend, the whole sweep's run count and a hash
// of every base parameter), then "; shard I/N" for a shard. --sweep-merge joins only parts whose
// lines agree but for the shard.
std::string sweepIdentity(const SweepBase& base, const SweepOptions& s);

// The number of runs of the whole sweep (values of every key times seeds), or nullopt when it is
// over kMaxSweepRuns.
inline constexpr std::uint64_t kMaxSweepRuns = 1000000;
std::optional<std::uint64_t> sweepRunCount(const SweepOptions& s);

// Joins the parts of one sweep into out_path: the identity line (without a shard), the header,
// and every run once, in the sweep's order. Throws InputError (nothing written) on a part of
// another sweep, a damaged row (wrong field count, not a number, no final newline, a run index
// outside the sweep), a run that differs between parts, or runs missing, naming them.
int mergeSweeps(const std::string& out_path, const std::vector<std::string>& parts, std::ostream& out);
// The same on texts in memory (name, contents): the merged CSV, or InputError (for the fuzzer).
std::string mergeSweepTexts(const std::vector<std::pair<std::string, std::string>>& named_parts);

}  // namespace murmur
