// Flag parsing (CLI11) and the order in which settings apply: defaults, then --preset, then
// each --set in order, then --boids/--dims/--seed, then --import (which fixes the boid count).
#include "app/cli.hpp"

#include "app/bench.hpp"
#include "app/options.hpp"
#include "app/run_headless.hpp"
#include "app/run_window.hpp"
#include "app/self_test.hpp"
#include "app/sweep.hpp"
#include "app/sweep_plot.hpp"
#include "render/flock_renderer.hpp"
#include "render/recorder.hpp"
#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "io/preset_json.hpp"
#include "io/state_csv.hpp"
#include "model/density.hpp"
#include "model/param_table.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

#ifndef MURMUR_VERSION
#define MURMUR_VERSION "0.0.0"
#endif
#ifndef MURMUR_REVISION
#define MURMUR_REVISION "unknown"
#endif

namespace murmur {
namespace {

namespace fs = std::filesystem;

void applySet(const std::string& assignment, Params& p, const std::string& flag) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos)
        throw InputError(flag + " " + assignment + ": expected key=value (keys: murmur --list-params)");
    const std::string key = assignment.substr(0, eq);
    const ParamInfo* info = findParam(key);
    if (!info) throw InputError(flag + " " + echo(assignment) + ": unknown key '" + echo(key) + "' (see murmur --list-params)");
    if (auto err = setFromText(*info, assignment.substr(eq + 1), p)) throw InputError(flag + " " + key + ": " + *err);
}

// One row per key; the columns are as wide as their longest entry, so no key breaks them.
void listParams(std::ostream& out) {
    const Params defaults;
    std::vector<std::array<std::string, 5>> rows{{"key", "default", "range", "unit", "meaning"}};
    for (const ParamInfo& info : paramTable())
        rows.push_back({info.key, formatValue(info, defaults), rangeText(info), info.unit, info.help});
    std::array<std::size_t, 4> width{};
    for (const auto& row : rows)
        for (std::size_t c = 0; c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());
    for (const auto& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < width.size(); ++c) line += row[c] + std::string(width[c] - row[c].size() + 2, ' ');
        out << line << row[4] << "\n";
    }
}

void listPresetsTo(std::ostream& out) {
    const auto presets = listPresets();
    if (presets.empty()) out << "no built-in presets found (looked in the presets/ folder beside the binary)\n";
    for (const auto& [name, desc] : presets) out << name << (desc.empty() ? "" : "  " + desc) << "\n";
}

// Every count flag reads numbers as --set does: decimal, an exponent allowed ("1e8"), no sign and
// no hex; the value must be whole and within [lo, hi].
std::uint64_t parseCount(const std::string& flag, const std::string& text, std::uint64_t lo, std::uint64_t hi) {
    const std::optional<double> v = parseNumber(text);
    if (!v || !(*v >= double(lo) && *v <= double(hi)) || *v != std::floor(*v))
        throw CLI::ValidationError(flag, "expected a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                             "], got '" + echo(text) + "'");
    return std::uint64_t(*v);
}

// A count flag: parsed by parseCount, shown in --help as "N" with its default.
template <class T>
CLI::Option* addCount(CLI::App& app, const std::string& flag, T& target, std::uint64_t lo, std::uint64_t hi,
                      const std::string& help) {
    return app
        .add_option_function<std::string>(
            flag, [&target, flag, lo, hi](const std::string& text) { target = T(parseCount(flag, text, lo, hi)); }, help)
        ->type_name("N")
        ->default_str(std::to_string(target));
}

std::size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diag = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diag = up;
        }
    }
    return row[b.size()];
}

// A flag murmur does not have, named with the nearest one it does ("--boid": did you mean
// --boids?); CLI11 alone reports the flag and its value as unexpected arguments.
std::optional<std::string> unknownFlag(const CLI::App& app, int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg.size() < 2 || arg[0] != '-' || (arg.size() > 1 && (std::isdigit(static_cast<unsigned char>(arg[1])) || arg[1] == '.'))) continue;
        const std::string name(arg.substr(0, arg.find('=')));
        const std::size_t letters = name.find_first_not_of('-');
        if (letters == std::string::npos) continue;  // "--", "-=..." are not flags
        const std::string bare = name.substr(letters);
        bool known = false;
        std::string best;
        std::size_t best_d = 3;  // suggest only within two edits
        for (const CLI::Option* o : app.get_options()) {
            for (const std::string& l : o->get_lnames()) {
                if (name == "--" + l) known = true;
                const std::size_t d = editDistance(bare, l);
                if (d < best_d) best_d = d, best = "--" + l;
            }
            for (const std::string& sn : o->get_snames())
                if (name == "-" + sn) known = true;
        }
        if (known) continue;
        return "unknown flag " + echo(name) + (best.empty() ? std::string(" (murmur --help lists the flags)") : "; did you mean " + best + "?");
    }
    return std::nullopt;
}

// "10000,1e6" -> sizes; each in [64, 1e8] (the scenario needs a world of at least 4 units).
std::vector<std::uint64_t> parseSizes(const std::string& list) {
    std::vector<std::uint64_t> sizes;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string item = list.substr(start, comma - start);
        Params scratch;
        if (auto e = setFromText(*findParam("boids"), item, scratch); e || scratch.boids < 64)
            throw InputError("--bench-sizes: '" + item + "' is not a boid count in [64, 100000000]");
        sizes.push_back(scratch.boids);
        start = comma + 1;
    }
    return sizes;
}

}  // namespace

int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    CLI::App app{"murmur: Reynolds' boids on the GPU, with a CPU reference", "murmur"};
    app.set_version_flag("--version", std::string("murmur ") + MURMUR_VERSION + " (" + MURMUR_REVISION + ")");
    std::optional<std::string> boids, dims, seed;
    std::string preset, backend = "gpu";
    std::vector<std::string> sets;
    bool list_presets = false, list_params = false;
    Options opt;
    app.add_option("--boids", boids, "number of boids [0, 100000000] (default: the preset's; the window picks one for this machine)")->type_name("N");
    app.add_option("--dims", dims, "2 or 3 (default: the preset's)")->type_name("2|3");
    app.add_option("--preset", preset, "built-in preset NAME (murmur --list-presets) or a preset FILE.json")->type_name("NAME|FILE");
    app.add_option("--set", sets, "key=value, any key of --list-params; repeatable")->type_name("KEY=VALUE");
    app.add_option("--seed", seed, "spawn seed [0, 2^53-1] (default: the preset's)")->type_name("N");
    app.add_option("--backend", backend, "simulation backend: gpu (compute shaders, default) or cpu (the reference)")
        ->check(CLI::IsMember({"cpu", "gpu"}).description(""))
        ->type_name("gpu|cpu")
        ->default_str("gpu");
    app.add_option("--shader-dir", opt.shader_dir, "read shaders from this folder instead of the embedded copies")
        ->check(CLI::Validator(CLI::ExistingDirectory).description(""))
        ->type_name("DIR");
    app.add_flag("--headless", opt.headless, "run without a window and print a summary");
    app.add_option("--screenshot", opt.screenshot, "write the last frame as PNG (headless: rendered offscreen)")->type_name("FILE.png");
    addCount(app, "--frames", opt.frames, 0, 1000000000, "window: close after N frames [0 = run until closed, 1000000000]");
    addCount(app, "--width", opt.width, 16, 16384, "window / screenshot width in pixels [16, 16384]");
    addCount(app, "--height", opt.height, 16, 16384, "window / screenshot height in pixels [16, 16384]");
    std::string colour_by = "heading";
    app.add_option("--colour,--color", colour_by, "colour boids by species, heading, speed or neighbours (window and screenshots)")
        ->check(CLI::IsMember({"species", "heading", "speed", "neighbours"}).description(""))
        ->type_name("MODE")
        ->default_str("the preset's, else heading");
    bool no_vsync = false;
    app.add_flag("--no-vsync", no_vsync, "window: do not wait for the display's refresh (the panel toggles it too)");
    addCount(app, "--steps", opt.steps, 0, 1000000000, "steps to run headless [0, 1000000000]");
    app.add_option("--record", opt.record, "record a video through ffmpeg (FILE.mp4 or FILE.mkv) or PNG frames (DIR/); "
                                           "headless: a frame at the start and every --record-every steps")
        ->type_name("FILE|DIR/");
    addCount(app, "--record-every", opt.record_every, 1, 1000000, "steps between recorded frames [1, 1000000]");
    addCount(app, "--record-fps", opt.record_fps, 1, 240, "the recorded video's frame rate [1, 240]");
    app.add_option("--import", opt.import_path, "start from a state CSV written by --export (old id,species,x,y,z,vx,vy,vz files too)")->type_name("FILE.csv");
    app.add_option("--export", opt.export_path, "write the final state as CSV")->type_name("FILE.csv");
    app.add_option("--stats-out", opt.stats_out, "write the order parameters as CSV (step,time,...) every --stats-every steps")->type_name("FILE.csv");
    addCount(app, "--stats-every", opt.stats_every, 1, 1000000000, "steps between rows of --stats-out [1, 1000000000]");
    bool bench = false;
    BenchOptions bench_opt;
    std::string bench_sizes;
    app.add_flag("--bench", bench, "run the benchmark (docs/performance.md) and print a table");
    app.add_option("--bench-sizes", bench_sizes, "comma-separated boid counts, each in [64, 100000000]")
        ->type_name("N,N,...")
        ->default_str("10000,100000,1000000,10000000");
    addCount(app, "--bench-steps", bench_opt.steps, 1, 100000, "measured steps per phase [1, 100000] (median taken)");
    addCount(app, "--bench-clump-steps", bench_opt.clump_steps, 0, 1000000, "steps between the spawn and clumped phases [0, 1000000]");
    std::string bench_style = "steering";
    app.add_option("--bench-style", bench_style, "the scenario's style: steering (default, the fixed scenario) or graded (the same radii, with the default style's spacing)")
        ->check(CLI::IsMember({"steering", "graded"}).description(""))
        ->type_name("steering|graded")
        ->default_str("steering");
    app.add_option("--bench-out", bench_opt.out_path, "also write the results as JSON to this file")->type_name("FILE.json");
    app.add_option("--bench-compare", bench_opt.compare_path, "print each row's time beside an earlier --bench-out file's, with the ratio")
        ->type_name("OLD.json");
    std::vector<std::string> sweeps, merge_args;
    std::string sweep_shard;
    SweepOptions sweep_opt;
    app.add_option("--sweep", sweeps, "sweep a numeric key over COUNT values from FROM to TO, headless; repeat for a grid (at most 3)")
        ->type_name("KEY=FROM:TO:COUNT")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    addCount(app, "--sweep-seeds", sweep_opt.seeds, 1, 10000, "seeds per sweep point: the base seed, +1, ... [1, 10000]");
    addCount(app, "--sweep-burn-in", sweep_opt.burn_in, 0, 1000000000, "steps before a run's samples start [0, --steps]");
    addCount(app, "--sweep-every", sweep_opt.every, 1, 1000000000, "steps between a run's samples [1, 1000000000]");
    app.add_option("--sweep-out", sweep_opt.out, "the sweep's CSV: one row per run (values, seed), each order parameter's mean and std")
        ->type_name("FILE.csv");
    app.add_option("--sweep-shard", sweep_shard, "run only shard I of N (runs whose index % N == I; with --sweep-carry, seeds whose "
                                                 "index % N == I): Slurm arrays, GNU parallel")
        ->type_name("I/N");
    app.add_flag("--sweep-carry", sweep_opt.carry, "each seed's runs continue from the previous value's final state (one key): "
                                                   "collective memory, hysteresis; sweep FROM > TO for the way back");
    std::string sweep_plot, sweep_plot_of = "polarization";
    app.add_option("--sweep-plot", sweep_plot, "after --sweep or --sweep-merge, draw FILE.png: a curve (one key) or a phase diagram "
                                               "(two keys) of --sweep-plot-of, through python3-matplotlib")
        ->type_name("FILE.png");
    app.add_option("--sweep-plot-of", sweep_plot_of, "the order parameter --sweep-plot draws")->type_name("NAME=polarization");
    app.add_option("--sweep-merge", merge_args, "join shard files into OUT.csv (runs in order, each once)")
        ->type_name("OUT.csv PART.csv...")
        ->expected(2, 1000000);
    app.add_flag("--list-presets", list_presets, "list the built-in presets");
    bool self_test = false;
    app.add_flag("--self-test", self_test, "check this GPU: limits, every shader variant against the CPU reference, a split scan, a render; exit 0 if all pass");
    app.add_flag("--list-params", list_params, "list every parameter key with default, range and unit");

    if (const auto problem = unknownFlag(app, argc, argv)) {
        err << "murmur: " << *problem << "\n";
        return 2;
    }
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e, out, err);
        return code == 0 ? 0 : 2;
    }
    // Flags that would be silently ignored are refused (exit 2), naming what they apply to.
    auto given = [&](const char* flag) { return app.count(flag) > 0; };
    auto refuse = [&](const std::string& what) {
        err << "murmur: " << what << "\n";
        return 2;
    };
    for (const char* flag : {"--export", "--import", "--preset", "--stats-out", "--screenshot", "--bench-out", "--bench-sizes", "--record", "--bench-compare", "--sweep-out", "--sweep-plot"})
        if (given(flag) && app.get_option(flag)->as<std::string>().empty()) return refuse(std::string(flag) + ": an empty value; give a file (or, for --bench-sizes, counts)");
    if (bench) {
        for (const char* flag : {"--import", "--export", "--preset", "--boids", "--dims", "--set", "--seed", "--steps", "--stats-out",
                                 "--stats-every", "--screenshot", "--frames", "--width", "--height", "--colour", "--no-vsync",
                                 "--record", "--record-every", "--record-fps"})
            if (given(flag))
                return refuse(std::string("--bench runs its own scenario (docs/performance.md); ") + flag +
                              " does not apply to it (--backend and --shader-dir do)");
    } else {
        for (const char* flag : {"--bench-sizes", "--bench-steps", "--bench-clump-steps", "--bench-out", "--bench-compare", "--bench-style"})
            if (given(flag)) return refuse(std::string(flag) + " applies to --bench only");
    }
    if (given("--sweep-plot-of") && !given("--sweep-plot")) return refuse("--sweep-plot-of applies to --sweep-plot only");
    if (given("--sweep-plot")) {
        if (sweeps.empty() && merge_args.empty()) return refuse("--sweep-plot applies to --sweep or --sweep-merge only");
        if (!sweep_plot.ends_with(".png")) return refuse("--sweep-plot " + sweep_plot + ": the plot is a PNG; name it FILE.png");
        if (!isSweepMeasure(sweep_plot_of))
            return refuse("--sweep-plot-of " + sweep_plot_of + ": not an order parameter of a sweep; valid: " + sweepMeasureNames());
        if (sweeps.size() > 2)
            return refuse("--sweep-plot draws one key (a curve) or two (a phase diagram); this sweep has " + std::to_string(sweeps.size()));
        if (given("--sweep-shard"))
            return refuse("--sweep-plot: a shard holds part of the sweep; plot the merged file (--sweep-merge OUT PARTS --sweep-plot FILE.png)");
    }
    if (sweeps.empty()) {
        for (const char* flag : {"--sweep-seeds", "--sweep-burn-in", "--sweep-every", "--sweep-out", "--sweep-shard", "--sweep-carry"})
            if (given(flag)) return refuse(std::string(flag) + " applies to --sweep only");
    } else {
        for (const char* flag : {"--import", "--export", "--screenshot", "--record", "--stats-out", "--frames", "--bench", "--sweep-merge"})
            if (given(flag)) return refuse(std::string("--sweep runs headless and writes --sweep-out only; ") + flag + " does not apply to it");
        if (!given("--sweep-out")) return refuse("--sweep needs --sweep-out FILE.csv");
        if (sweeps.size() > 3) return refuse("--sweep: at most 3 keys (a grid of 3 dimensions)");
    }
    if (!merge_args.empty()) {
        try {
            checkWritableTarget(merge_args[0], "--sweep-merge");
            if (!sweep_plot.empty()) checkWritableTarget(sweep_plot, "--sweep-plot");
            const int merged = mergeSweeps(merge_args[0], std::vector<std::string>(merge_args.begin() + 1, merge_args.end()), out);
            if (merged != 0 || sweep_plot.empty()) return merged;
            return plotSweep(merge_args[0], sweep_plot, sweep_plot_of, out, err);
        } catch (const InputError& e) {
            err << "murmur: " << e.what() << "\n";
            return 2;
        }
    }
    if (opt.record.empty())
        for (const char* flag : {"--record-every", "--record-fps"})
            if (given(flag)) return refuse(std::string(flag) + " applies to --record only");
    if (opt.headless)
        for (const char* flag : {"--frames", "--no-vsync"})
            if (given(flag)) return refuse(std::string(flag) + " applies to the window only, not to --headless (which runs --steps)");
    if (list_params) {
        listParams(out);
        return 0;
    }
    if (list_presets) {
        listPresetsTo(out);
        return 0;
    }
    if (self_test) {
        return runSelfTest(opt, out, err);
    }
    try {
        if (bench) {
            opt.backend = backend == "gpu" ? Backend::Gpu : Backend::Cpu;
            if (!bench_sizes.empty()) bench_opt.sizes = parseSizes(bench_sizes);
            bench_opt.style = bench_style == "graded" ? Style::Graded : Style::Steering;
            if (!bench_opt.out_path.empty()) checkWritableTarget(bench_opt.out_path, "--bench-out");
            return runBench(opt, bench_opt, out, err);
        }
        Params& p = opt.params;
        if (!preset.empty()) p = loadPresetFile(resolvePreset(preset), p);
        for (const std::string& s : sets) applySet(s, p, "--set");
        const Params before_count = p;
        if (boids) applySet("boids=" + *boids, p, "--boids");
        if (dims) applySet("dims=" + *dims, p, "--dims");
        const bool world_set = std::any_of(sets.begin(), sets.end(), [](const std::string& s) { return s.starts_with("world_size="); });
        opt.world_size_set = world_set;
        if ((boids || dims) && !world_set && opt.import_path.empty() &&
            (p.boids != before_count.boids || p.dims != before_count.dims)) {
            // Density is the invariant: the preset's world and count say how crowded the flock is.
            const Rescaled r = keepDensity(before_count, p.boids, p.dims);
            p = r.params;
            out << "murmur: " << r.summary << "; --set world_size=L to choose\n";
        }
        if (seed) applySet("seed=" + *seed, p, "--seed");
        if (given("--colour")) applySet("colour=" + colour_by, p, "--colour");  // else the preset's (default heading)
        if (auto problems = validate(p); !problems.empty()) throw InputError("invalid parameters:\n" + describe(problems));
        if (!sweeps.empty()) {
            for (const std::string& text : sweeps) sweep_opt.axes.push_back(parseSweepAxis(text));
            if (!sweep_shard.empty()) parseSweepShard(sweep_shard, sweep_opt);
            checkWritableTarget(sweep_opt.out, "--sweep-out");
            if (!sweep_plot.empty()) checkWritableTarget(sweep_plot, "--sweep-plot");
            opt.backend = backend == "gpu" ? Backend::Gpu : Backend::Cpu;
            const int swept = runSweep(opt, sweep_opt, out, err);
            if (swept != 0 || sweep_plot.empty()) return swept;
            return plotSweep(sweep_opt.out, sweep_plot, sweep_plot_of, out, err);
        }
        Flock imported;
        if (!opt.import_path.empty()) {
            imported = readStateCsv(opt.import_path, p, &opt.import_step);
            if (boids && std::uint32_t(imported.size()) != p.boids)
                throw InputError("--boids " + *boids + " conflicts with --import " + opt.import_path + ", which holds " +
                                 std::to_string(imported.size()) + " boids");
            p.boids = std::uint32_t(imported.size());
        }
        if (!opt.export_path.empty()) checkWritableTarget(opt.export_path, "--export");
        if (!opt.stats_out.empty()) checkWritableTarget(opt.stats_out, "--stats-out");
        if (!opt.screenshot.empty()) {
            if (!opt.screenshot.ends_with(".png")) throw InputError("--screenshot " + opt.screenshot + ": the file name must end in .png");
            checkWritableTarget(opt.screenshot, "--screenshot");
        }
        if (!opt.record.empty()) render::checkRecordTarget(opt.record);
        opt.backend = backend == "gpu" ? Backend::Gpu : Backend::Cpu;
        opt.vsync = !no_vsync;
        const bool boids_set = std::any_of(sets.begin(), sets.end(), [](const std::string& s) { return s.starts_with("boids="); });
        opt.auto_boids = !opt.headless && !boids && !boids_set && preset.empty() && opt.import_path.empty();
        const Flock* start = opt.import_path.empty() ? nullptr : &imported;
        return opt.headless ? runHeadless(opt, start, out, err) : runWindow(opt, start, out, err);
    } catch (const InputError& e) {
        err << "murmur: " << e.what() << "\n";
        return 2;
    } catch (const fs::filesystem_error& e) {  // a path the system refuses (a name over 255 bytes, ...)
        err << "murmur: " << echo(e.path1().string()) << ": " << e.code().message() << "\n";
        return 2;
    } catch (const std::exception& e) {
        err << "murmur: error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace murmur
