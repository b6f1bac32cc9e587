// Sweeps, shards and merging; see sweep.hpp.
#include "engine/sweep.hpp"

#include "engine/run.hpp"

#include "cpu/cpu_simulation.hpp"
#include "gpu/gpu_simulation.hpp"
#include "gpu/gpu_ensemble.hpp"
#include "gl/egl_context.hpp"
#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "model/grid_spec.hpp"
#include "model/order_params.hpp"
#include "model/number_text.hpp"
#include "model/param_table.hpp"
#include "model/spawn.hpp"

#include <algorithm>
#include <span>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>

namespace murmur {
namespace {

double number(const std::string& text, const std::string& what) {
    const std::optional<double> v = parseNumber(text);
    if (!v || !std::isfinite(*v)) throw InputError(what + ": '" + echo(text) + "' is not a number");
    return *v;
}

// The order parameters a sweep reports, by column name (model/order_params.hpp's first eight).
using Measure = OrderFigure;
constexpr std::span<const OrderFigure> kMeasures{kOrderFigures, kSweptFigures};
constexpr std::size_t kPolarization = 0;  // kMeasures' first: its Binder cumulant has a column of its own

// A run's parameters: the base with the run's values and seed.
Params runParams(const Params& base, const SweepOptions& s, const SweepRun& run) {
    Params p = base;
    for (std::size_t a = 0; a < s.axes.size(); ++a)
        if (auto err = setFromNumber(*findParam(s.axes[a].key), run.values[a], p)) throw InputError("--sweep " + s.axes[a].key + ": " + *err);
    p.seed = base.seed + run.seed_index;
    return p;
}

std::string describeRun(const SweepOptions& s, const SweepRun& run, std::uint64_t seed) {
    std::string text;
    char v[64];
    for (std::size_t a = 0; a < s.axes.size(); ++a) {
        std::snprintf(v, sizeof v, "%s=%.6g, ", s.axes[a].key.c_str(), run.values[a]);
        text += v;
    }
    return text + "seed " + std::to_string(seed);
}

}  // namespace

double SweepAxis::value(std::uint32_t k) const {
    if (!list.empty()) return list[std::min<std::size_t>(k, list.size() - 1)];
    if (count <= 1) return from;
    const double t = double(k) / double(count - 1);
    if (!log) return from + (to - from) * t;
    return k + 1 == count ? to : from * std::pow(to / from, t);  // a log range ends at TO exactly
}

std::string SweepAxis::text() const {
    std::string out = key + "=";
    if (!list.empty()) {
        for (std::size_t k = 0; k < list.size(); ++k) out += (k ? "," : "") + shortestText(list[k]);
        return out;
    }
    return out + shortestText(from) + ":" + shortestText(to) + ":" + std::to_string(count) + (log ? ":log" : "");
}

namespace {

constexpr const char* kAxisForms = "expected KEY=FROM:TO:COUNT, KEY=FROM:TO:COUNT:log or KEY=V1,V2,...";

// The values of "V1,V2,..." (at least one; each a number).
std::vector<double> listedValues(const std::string& rest, const std::string& what) {
    std::vector<double> values;
    for (std::size_t at = 0; at <= rest.size();) {
        const std::size_t end = std::min(rest.find(',', at), rest.size());
        values.push_back(number(rest.substr(at, end - at), what + " value " + std::to_string(values.size() + 1)));
        at = end + 1;
    }
    if (values.size() > 10000) throw InputError(what + ": at most 10000 values");
    return values;
}

}  // namespace

SweepAxis parseSweepAxis(const std::string& text) {
    const std::string what = "--sweep " + echo(text);
    const auto eq = text.find('=');
    if (eq == std::string::npos) throw InputError(what + ": " + kAxisForms);
    SweepAxis axis;
    axis.key = text.substr(0, eq);
    const ParamInfo* info = findParam(axis.key);
    if (!info) throw InputError(what + ": unknown key '" + echo(axis.key) + "' (see murmur --list-params)");
    if (info->kind != ParamKind::Float && info->kind != ParamKind::Int)
        throw InputError(what + ": " + axis.key + " is not a number to sweep (" + rangeText(*info) + ")");
    const std::string rest = text.substr(eq + 1);
    const auto c1 = rest.find(':'), c2 = rest.find(':', c1 == std::string::npos ? 0 : c1 + 1);
    if (c1 == std::string::npos && c2 == std::string::npos) {  // a list (one value: a list of one)
        axis.list = listedValues(rest, what);
        axis.count = std::uint32_t(axis.list.size());
        axis.from = axis.list.front();
        axis.to = axis.list.back();
    } else {
        if (c1 == std::string::npos || c2 == std::string::npos) throw InputError(what + ": " + kAxisForms);
        const auto c3 = rest.find(':', c2 + 1);
        axis.from = number(rest.substr(0, c1), what + " FROM");
        axis.to = number(rest.substr(c1 + 1, c2 - c1 - 1), what + " TO");
        const double count = number(rest.substr(c2 + 1, c3 == std::string::npos ? std::string::npos : c3 - c2 - 1), what + " COUNT");
        if (!(count >= 1 && count <= 10000) || count != std::floor(count))
            throw InputError(what + ": COUNT must be a whole number in [1, 10000]");
        axis.count = std::uint32_t(count);
        if (c3 != std::string::npos) {
            if (rest.substr(c3 + 1) != "log") throw InputError(what + ": " + kAxisForms + " (after COUNT only ':log')");
            if (!(axis.from > 0.0 && axis.to > 0.0)) throw InputError(what + ": a log range's FROM and TO must both be above 0");
            axis.log = true;
        }
    }
    for (std::uint32_t k = 0; k < axis.count; ++k) {
        Params scratch;
        if (auto err = setFromNumber(*info, axis.value(k), scratch)) throw InputError(what + ": " + *err);
    }
    Params scratch;  // TO too, though a single value (COUNT 1) runs FROM only: a typo is a typo
    if (auto err = setFromNumber(*info, axis.to, scratch)) throw InputError(what + ": TO " + *err);
    return axis;
}

double parseSweepXi(const std::string& text) {
    const double r = number(text, "--sweep-xi");
    if (!(r >= 0.0)) throw InputError("--sweep-xi " + echo(text) + ": valid: R_MAX 0 or more (0: half the world)");
    return r;
}

void parseSweepShard(const std::string& text, SweepOptions& s) {
    const auto slash = text.find('/');
    const std::string what = "--sweep-shard " + echo(text);
    if (slash == std::string::npos) throw InputError(what + ": expected I/N (0 <= I < N)");
    const double i = number(text.substr(0, slash), what), n = number(text.substr(slash + 1), what);
    if (!(n >= 1 && n <= 100000) || n != std::floor(n) || !(i >= 0 && i < n) || i != std::floor(i))
        throw InputError(what + ": expected I/N with whole numbers, 0 <= I < N <= 100000");
    s.shard = std::uint32_t(i);
    s.shards = std::uint32_t(n);
}

SweepRun sweepRunAt(const SweepOptions& s, std::uint64_t index) {
    SweepRun run;
    run.index = index;
    std::uint64_t rest = index;
    run.seed_index = std::uint32_t(rest % s.seeds);
    rest /= s.seeds;
    run.values.resize(s.axes.size());
    for (std::size_t a = s.axes.size(); a-- > 0;) {
        run.values[a] = s.axes[a].value(std::uint32_t(rest % s.axes[a].count));
        rest /= s.axes[a].count;
    }
    return run;
}

std::vector<SweepRun> sweepRuns(const SweepOptions& s, bool this_shard_only) {
    const std::optional<std::uint64_t> total = sweepRunCount(s);
    if (!total) throw InputError("--sweep: more than " + std::to_string(kMaxSweepRuns) + " runs");
    std::vector<SweepRun> runs;
    for (std::uint64_t index = 0; index < *total; ++index) {
        const std::uint64_t seed_index = index % s.seeds;
        if (this_shard_only && (s.carry ? seed_index : index) % s.shards != s.shard) continue;
        runs.push_back(sweepRunAt(s, index));
    }
    return runs;
}

void checkSweepShape(const SweepOptions& s) {
    for (std::size_t a = 0; a < s.axes.size(); ++a)
        for (std::size_t b = 0; b < a; ++b)
            if (s.axes[a].key == s.axes[b].key)
                throw InputError("--sweep " + s.axes[a].key + " is given twice; sweep each key once (at most 3 keys)");
    if (!sweepRunCount(s)) {
        double runs = s.seeds;
        for (const SweepAxis& a : s.axes) runs *= a.count;
        char text[64];
        std::snprintf(text, sizeof text, "%.4g", runs);
        throw InputError(std::string("--sweep: ") + text + " runs (values of each key times --sweep-seeds); at most " +
                         std::to_string(kMaxSweepRuns) + " in one sweep: split it into several");
    }
}

void checkCarry(const SweepOptions& s) {
    if (!s.carry) return;
    if (s.axes.size() != 1)
        throw InputError("--sweep-carry: each seed's runs carry along one key; this sweep has " + std::to_string(s.axes.size()));
    const std::string& key = s.axes[0].key;
    for (const char* fixed : {"boids", "dims", "world_size", "species_count"})
        if (key == fixed)
            throw InputError("--sweep-carry: a carried flock keeps its " + key +
                             "; sweep a rule's key instead (boids, dims, world_size, species_count and spawn.* cannot carry)");
    if (key.starts_with("spawn.") || key.ends_with(".share"))
        throw InputError("--sweep-carry: " + key + " acts at the spawn only, and a carried run does not spawn: every row would be "
                         "the same flock; sweep it without --sweep-carry");
    if (s.shards > s.seeds)
        throw InputError("--sweep-shard " + std::to_string(s.shard) + "/" + std::to_string(s.shards) +
                         " with --sweep-carry: a carried sweep's shards split it by seed, and it has " + std::to_string(s.seeds) +
                         "; valid: N in [1, " + std::to_string(s.seeds) + "]");
}

std::string sweepHeader(const SweepOptions& s) {
    std::string h = "run";
    for (const SweepAxis& a : s.axes) h += "," + a.key;
    h += ",seed,samples";
    for (const Measure& m : kMeasures) h += std::string(",") + m.name + "_mean," + m.name + "_std";
    h += "," + std::string(kMeasures[kPolarization].name) + "_binder";
    return s.xi_reach ? h + ",xi_mean,xi_std,xi_found" : h;
}

bool isSweepMeasure(const std::string& name) {
    return std::any_of(std::begin(kMeasures), std::end(kMeasures), [&](const Measure& m) { return name == m.name; });
}

std::string sweepMeasureNames() {
    std::string names;
    for (const Measure& m : kMeasures) names += (names.empty() ? "" : ", ") + std::string(m.name);
    return names;
}

namespace {

// Every run of the whole sweep is checked before any runs: a bad corner fails now, not in hour 3.
// Opens the GL context a GPU sweep needs (hooks.open_gl); false when it cannot.
bool checkEveryRun(const SweepBase& base, const SweepOptions& s, const SweepHooks& hooks) {
    if (s.burn_in > base.steps)
        throw InputError("--sweep-burn-in " + std::to_string(s.burn_in) + " is more than --steps " + std::to_string(base.steps));
    checkSweepShape(s);
    checkCarry(s);
    const std::uint64_t total = *sweepRunCount(s);
    const auto everyRun = [&](const std::function<void(const SweepRun&, const Params&)>& check) {
        for (std::uint64_t index = 0; index < total; ++index) {  // made one at a time: a sweep is never all in memory
            const SweepRun run = sweepRunAt(s, index);
            check(run, runParams(base.params, s, run));
        }
    };
    everyRun([&](const SweepRun& run, const Params& p) {
        if (auto problems = validate(p); !problems.empty())
            throw InputError("--sweep: at " + describeRun(s, run, p.seed) + ": " + describe(problems));
        if (s.xi_reach)
            if (auto problem = correlationProblem(p, kSweepXiBins, *s.xi_reach))
                throw InputError("--sweep-xi: at " + describeRun(s, run, p.seed) + ": " + *problem);
        if (base.backend == Backend::Cpu)  // the count may be swept: the largest run is checked as --boids is
            if (auto problem = cpuMemoryProblem(p, availableMemoryBytes()))
                throw InputError("--sweep: at " + describeRun(s, run, p.seed) + ": " + *problem);
    });
    if (base.backend != Backend::Gpu) return true;
    if (hooks.open_gl && !hooks.open_gl()) return false;
    everyRun([](const SweepRun&, const Params& p) { gpu::checkCapacity(p); });  // a grid may grow with a radius
    return true;
}

using Samples = std::vector<std::vector<double>>;  // per measure, its samples (then xi's, with --sweep-xi)
using XiOf = std::function<double(std::size_t flock)>;  // a flock's xi now (NaN: C never falls to 0)

// The xi of a run's flock (parameters p) from the sums its backend measured.
double sweepXi(const PairSums& sums, const Params& p, const SweepOptions& s) { return correlationsOf(sums, p, p.boids, *s.xi_reach).xi; }

// Runs' samples of each measure: at the burn-in, every --sweep-every steps after it and at
// --steps, through the run loop (engine::Run: each sample but the last measured with the step
// after it). The target steps every run at once; stretches are at most 100 steps, the caller's
// check asked after each, so a long burn-in or interval stays interruptible. A flock that is no
// longer finite ends the sweep (no file is written with NaN in it).
std::vector<Samples> sampleRuns(std::size_t runs, engine::RunTarget target, const SweepBase& base, const SweepOptions& s,
                                const std::function<std::string(std::size_t)>& which, const XiOf& xi_of, const SweepHooks& hooks) {
    std::vector<Samples> samples(runs, Samples(std::size(kMeasures) + (s.xi_reach ? 1 : 0)));
    engine::Run run(std::move(target));
    if (s.xi_reach)  // at the samples' states, with the flock as it is then
        run.addWriter({s.every, s.burn_in, true}, [&](std::uint64_t) {
            for (std::size_t k = 0; k < runs; ++k) samples[k].back().push_back(xi_of(k));
        });
    run.addSampler({s.every, s.burn_in, true}, [&](const engine::Run::Sample& sample) {
        for (std::size_t k = 0; k < runs; ++k) {
            const OrderParams& o = sample.flocks.at(k);
            for (std::size_t m = 0; m < std::size(kMeasures); ++m) {
                const double x = kMeasures[m].get(o);
                if (!std::isfinite(x))
                    throw std::runtime_error("--sweep: at " + which(k) + ": the flock is not finite at step " + std::to_string(sample.state) +
                                             " (" + kMeasures[m].name + " " + std::to_string(x) + "); nothing was written");
                samples[k][m].push_back(x);
            }
        }
    });
    run.setStretchLimit([](std::uint64_t) { return std::uint64_t(100); });
    run.setAfterStretch([&] {
        if (hooks.check) hooks.check();
        return false;
    });
    run.advance(base.steps);
    return samples;
}

Samples sampleRun(Simulation& sim, const Params& p, const SweepBase& base, const SweepOptions& s, const std::string& which,
                  const SweepHooks& hooks) {
    const XiOf xi_of = [&](std::size_t) { return sweepXi(sim.pairSums(p, kSweepXiBins, *s.xi_reach), p, s); };
    return sampleRuns(1, engine::runTarget(sim), base, s, [&](std::size_t) { return which; }, xi_of, hooks)[0];
}

// The Binder cumulant 1 - <x^4> / (3 <x^2>^2) of a measure's samples (0 when every sample is 0).
double binderCumulant(const std::vector<double>& xs) {
    double m2 = 0.0, m4 = 0.0;
    for (double x : xs) {
        m2 += x * x;
        m4 += x * x * x * x;
    }
    m2 /= double(xs.size());
    m4 /= double(xs.size());
    return m2 > 0.0 ? 1.0 - m4 / (3.0 * m2 * m2) : 0.0;
}

// ",MEAN,STD" of the samples (%.6g; the std with n - 1, 0 for one sample; both 0 for none).
std::string meanAndStd(const std::vector<double>& xs) {
    double mean = 0, var = 0;
    for (double x : xs) mean += x;
    mean = xs.empty() ? 0.0 : mean / double(xs.size());
    for (double x : xs) var += (x - mean) * (x - mean);
    const double sd = xs.size() > 1 ? std::sqrt(var / double(xs.size() - 1)) : 0.0;
    char cell[64];
    std::snprintf(cell, sizeof cell, ",%.6g,%.6g", mean, sd);
    return cell;
}

// The CSV row of a run: index, values (the shortest text that reads back exactly), seed, samples,
// then each measure's mean and std, then the polarization's Binder cumulant, then (--sweep-xi)
// xi's mean and std over the samples where C fell to 0, and their count.
std::string sweepRow(const SweepRun& run, std::uint64_t seed, const std::vector<std::vector<double>>& samples) {
    char cell[64];
    std::string row = std::to_string(run.index);
    for (double v : run.values) row += "," + shortestText(v);
    row += "," + std::to_string(seed) + "," + std::to_string(samples[0].size());
    for (std::size_t m = 0; m < std::size(kMeasures); ++m) row += meanAndStd(samples[m]);
    std::snprintf(cell, sizeof cell, ",%.6g", binderCumulant(samples[kPolarization]));
    row += cell;
    if (samples.size() == std::size(kMeasures)) return row;
    std::vector<double> found;  // xi where C fell to 0 within r_max
    for (double xi : samples.back())
        if (std::isfinite(xi)) found.push_back(xi);
    return row + meanAndStd(found) + "," + std::to_string(found.size());
}

}  // namespace

namespace {

using Rows = std::map<std::uint64_t, std::string>;  // by run index: the CSV keeps the sweep's order

struct Progress {
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now(), last = t0;
    std::size_t done = 0, total = 0;
    // Within an ensemble's runs (`runs` of them, at step `step` of `steps`): a line at most every
    // 5 s, the time left from the share of the sweep's steps done.
    void during(const SweepHooks& hooks, std::size_t runs, std::uint64_t step, std::uint64_t steps) {
        const auto now = std::chrono::steady_clock::now();
        if (now - last < std::chrono::seconds(5) || steps == 0) return;
        last = now;
        const double elapsed = std::chrono::duration<double>(now - t0).count();
        const double share = (double(done) + double(runs) * double(step) / double(steps)) / double(total);
        char line[200];
        std::snprintf(line, sizeof line, "sweep: runs %zu-%zu/%zu (an ensemble of %zu) at step %llu/%llu; %.1f s elapsed, about %.0f s left\n",
                      done + 1, done + runs, total, runs, static_cast<unsigned long long>(step), static_cast<unsigned long long>(steps),
                      elapsed, share > 0.0 ? elapsed / share - elapsed : 0.0);
        if (hooks.progress) hooks.progress(line);
    }
    void report(const SweepHooks& hooks, const std::string& what, double polarization) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        char line[160];
        std::snprintf(line, sizeof line, "; %.1f s elapsed, about %.0f s left\n", elapsed,
                      elapsed / double(done) * double(total - done));
        std::ostringstream text;
        text << "sweep: " << what << ": polarization " << polarization << line;
        if (hooks.progress) hooks.progress(text.str());
    }
};

// Run by run, one simulation for every run: upload starts a run afresh (state, step counter),
// setParams carries one on (--sweep-carry: a run after the first of its chain changes the
// parameters of the flock as the last one left it), and the GPU rebuilds its programs only when
// a run's shader variant differs.
void runOneByOne(const SweepBase& base, const SweepOptions& s, const std::vector<SweepRun>& mine, Rows& rows, Progress& progress,
                 const SweepHooks& hooks) {
    const std::unique_ptr<Simulation> sim = engine::makeSimulation(base.backend, base.shader_dir);
    for (std::size_t k = 0; k < mine.size(); ++k) {
        const SweepRun& run = mine[k];
        const Params p = runParams(base.params, s, run);
        if (s.carry && k > 0 && mine[k - 1].seed_index == run.seed_index) sim->setParams(p);
        else sim->upload(spawn(p), p);
        if (hooks.check) hooks.check();
        const auto samples = sampleRun(*sim, p, base, s, describeRun(s, run, p.seed), hooks);
        rows[run.index] = sweepRow(run, p.seed, samples);
        ++progress.done;
        progress.report(hooks, "run " + std::to_string(progress.done) + "/" + std::to_string(progress.total) + " (" +
                                 describeRun(s, run, p.seed) + ")", samples[0].back());
    }
}

// Runs stepped together, one GPU ensemble a batch: `batches` lists each batch's runs (for
// --sweep-carry, each batch's chains: element v of each chain is one value along the key, and
// the chains change their flocks' parameters together before each value's samples).
void runBatch(gpu::GpuSimulation& gpu, const SweepBase& base, const SweepOptions& s, const std::vector<std::vector<SweepRun>>& chains,
              Rows& rows, Progress& progress, const SweepHooks& hooks) {
    const std::size_t values = chains[0].size();
    for (std::size_t v = 0; v < values; ++v) {
        std::vector<Params> params;
        std::vector<const SweepRun*> runs;
        for (const auto& chain : chains) {
            runs.push_back(&chain[v]);
            params.push_back(runParams(base.params, s, chain[v]));
        }
        if (v == 0) {
            std::vector<Flock> flocks;
            for (const Params& p : params) flocks.push_back(spawn(p));
            gpu.uploadEnsemble(flocks, params);
        } else {
            gpu.setEnsembleParams(params);
        }
        std::uint64_t at = 0;
        const auto step = [&](int piece) {  // each piece reported, so a long burn-in shows its progress
            gpu.step(piece);
            at += std::uint64_t(piece);
            progress.during(hooks, runs.size(), at, base.steps);
        };
        const engine::RunTarget target{step, [&] { return gpu.measureFlocks(); }, [&] { return gpu.requestSample(SampleWhen::WithNextStep); },
                                       [&](SampleTicket ticket) { return gpu.takeFlockSamples(ticket); }, false};
        const XiOf xi_of = [&](std::size_t k) { return sweepXi(gpu.flockPairSums(std::uint32_t(k), kSweepXiBins, *s.xi_reach), params[k], s); };
        const auto which = [&](std::size_t k) { return describeRun(s, *runs[k], params[k].seed); };
        const auto samples = sampleRuns(runs.size(), target, base, s, which, xi_of, hooks);
        for (std::size_t k = 0; k < runs.size(); ++k) rows[runs[k]->index] = sweepRow(*runs[k], params[k].seed, samples[k]);
        progress.done += runs.size();
        progress.report(hooks, "runs " + std::to_string(progress.done) + "/" + std::to_string(progress.total) + " (an ensemble of " +
                                 std::to_string(runs.size()) + ", " + describeRun(s, *runs[0], params[0].seed) + ", ...)",
                        samples[0][0].back());
    }
}

// The most boids one ensemble of flocks like p may hold on this GPU: its storage-block and
// buffer-texture limits, and three quarters of its free memory where the driver reports it; at
// most kSweepBatchBoids. A batch beyond it is split (one run alone always fits: checked first).
std::uint64_t ensembleBoidLimit(const Params& p) {
    const gpu::Capacity cap = gpu::queryCapacity(makeGridSpec(p));
    std::uint64_t limit = std::min(kSweepBatchBoids, cap.max_boids);
    if (cap.available_bytes > 0) limit = std::min(limit, cap.available_bytes / 4 * 3 / gpu::bytesPerBoid(p));
    return std::max<std::uint64_t>(limit, 1);
}

// The runs (or, with --sweep-carry, the seeds' chains) in batches for GPU ensembles: consecutive
// ones whose flocks share a shader variant, at most --sweep-batch (or kSweepBatchAuto) of them and
// as many boids as fit (ensembleBoidLimit). Empty when a run cannot be in an ensemble (the
// sequential order).
std::vector<std::vector<std::vector<SweepRun>>> ensembleBatches(const SweepBase& base, const SweepOptions& s,
                                                                const std::vector<SweepRun>& mine) {
    std::vector<std::vector<SweepRun>> chains;
    for (std::size_t k = 0; k < mine.size(); ++k)
        if (!s.carry || k == 0 || mine[k - 1].seed_index != mine[k].seed_index) chains.push_back({mine[k]});
        else chains.back().push_back(mine[k]);
    const std::uint32_t limit = s.batch == 0 ? kSweepBatchAuto : s.batch;
    std::vector<std::vector<std::vector<SweepRun>>> batches;
    std::string variant;
    std::uint64_t boids = 0, boid_limit = 0;
    for (const auto& chain : chains) {
        const Params p = runParams(base.params, s, chain[0]);
        if (p.update == UpdateOrder::Sequential) return {};
        const std::string v = gpu::variantOf(p, true);
        if (batches.empty() || v != variant) boid_limit = ensembleBoidLimit(p);
        if (batches.empty() || v != variant || batches.back().size() >= limit || boids + p.boids > boid_limit) {
            batches.emplace_back();
            variant = v;
            boids = 0;
        }
        batches.back().push_back(chain);
        boids += p.boids;
    }
    return batches;
}

}  // namespace

std::size_t runSweep(const SweepBase& base, const SweepOptions& s, const SweepHooks& hooks) {
    if (!checkEveryRun(base, s, hooks)) throw std::runtime_error("--sweep: no GL context for the GPU backend");
    std::vector<SweepRun> mine = sweepRuns(s, true);
    // --sweep-carry runs each seed's chain in turn, the chain's values in the sweep's order.
    if (s.carry) std::stable_sort(mine.begin(), mine.end(), [](const SweepRun& a, const SweepRun& b) { return a.seed_index < b.seed_index; });
    Rows rows;
    Progress progress;
    progress.total = mine.size();
    const auto batches = base.backend == Backend::Gpu && s.batch != 1 ? ensembleBatches(base, s, mine)
                                                                        : std::vector<std::vector<std::vector<SweepRun>>>{};
    if (batches.empty()) {
        runOneByOne(base, s, mine, rows, progress, hooks);
    } else {
        gpu::GpuSimulation gpu(gl::ShaderLibrary(base.shader_dir));
        for (const auto& batch : batches) runBatch(gpu, base, s, batch, rows, progress, hooks);
    }
    std::string csv = sweepIdentity(base, s) + "\n" + sweepHeader(s) + "\n";
    for (const auto& [index, row] : rows) csv += row + "\n";
    writeFileAtomic(s.out, csv);
    return mine.size();
}

int runSweep(const SweepBase& base, const SweepOptions& s, std::ostream& out, std::ostream& err) {
    std::unique_ptr<gl::HeadlessContext> context;
    bool opened = true;
    SweepHooks hooks;
    hooks.open_gl = [&] { return opened = (context = engine::openHeadlessContext(err)) != nullptr; };
    hooks.progress = [&](const std::string& line) { err << line << std::flush; };
    std::size_t written = 0;
    try {
        written = runSweep(base, s, hooks);
    } catch (const std::runtime_error&) {
        if (!opened) return 1;  // reported by openHeadlessContext
        throw;
    }
    out << "wrote " << s.out << " (" << written << " of " << *sweepRunCount(s) << " runs"
        << (s.shards > 1 ? ", shard " + std::to_string(s.shard) + "/" + std::to_string(s.shards) : std::string()) << ")\n";
    return 0;
}

}  // namespace murmur
