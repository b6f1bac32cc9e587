// The command line's dispatch: parse (cli_options.hpp), refuse flags the mode does not take
// (cli_modes.hpp), apply the settings in order (defaults, then --preset, then each --set in order,
// then --boids/--dims/--seed, then --import, which fixes the boid count) and run the mode.
#include "app/cli.hpp"
#include "app/renderer_defaults.hpp"

#include "app/cli_modes.hpp"
#include "app/cli_options.hpp"
#include "app/run_headless.hpp"
#include "app/run_window.hpp"
#include "engine/self_test.hpp"
#include "app/sweep_plot.hpp"
#include "gl/debug.hpp"
#include "io/atomic_file.hpp"
#include "io/env_switch.hpp"
#include "io/input_error.hpp"
#include "io/preset_json.hpp"
#include "io/state_csv.hpp"
#include "model/density.hpp"
#include "model/styles.hpp"
#include "model/param_table.hpp"
#include "io/trajectory.hpp"
#include "render/recorder.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <optional>

namespace murmur {
namespace {

namespace fs = std::filesystem;

// Everything murmur prints goes through this: a control byte (escape, bell, NUL, carriage return;
// not newline or tab) is shown as \xNN, so no path, name or value a user passed, or a file held,
// can drive the terminal, whichever message quotes it.
class EscapingBuf final : public std::streambuf {
public:
    explicit EscapingBuf(std::streambuf* to) : to_(to) {}

protected:
    int_type overflow(int_type c) override {
        if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
        const auto byte = static_cast<unsigned char>(traits_type::to_char_type(c));
        if (byte >= 0x20 && byte != 0x7f) return to_->sputc(char(byte));
        if (byte == '\n' || byte == '\t') return to_->sputc(char(byte));
        const std::string text = hexEscape(byte);
        return to_->sputn(text.data(), 4) == 4 ? c : traits_type::eof();
    }
    int sync() override { return to_->pubsync(); }

private:
    std::streambuf* to_;
};

// Text cut into lines of at most `width` characters at spaces.
std::vector<std::string> wrapText(const std::string& text, std::size_t width) {
    std::vector<std::string> lines{""};
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(start, end - start);
        if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) lines.emplace_back();
        lines.back() += (lines.back().empty() ? "" : " ") + word;
        start = end + 1;
    }
    return lines;
}

// `text` ("range a|b|c") in lines of at most `width`, broken after a bar.
std::vector<std::string> wrapChoices(const std::string& text, std::size_t width) {
    std::vector<std::string> lines{""};
    std::size_t from = 0;
    while (from < text.size()) {
        const std::size_t bar = text.find('|', from);
        const std::string piece = text.substr(from, bar == std::string::npos ? std::string::npos : bar - from + 1);
        if (!lines.back().empty() && lines.back().size() + piece.size() > width) lines.emplace_back();
        lines.back() += piece;
        from = bar == std::string::npos ? text.size() : bar + 1;
    }
    return lines;
}

// One key per entry: key, default, range and unit on a line, the meaning wrapped beneath it,
// indented, in lines of at most 100 characters. Only keys containing `filter` (all when empty).
int listParams(const std::string& filter, std::ostream& out, std::ostream& err) {
    const Params defaults;
    int shown = 0;
    for (const ParamInfo& info : paramTable()) {
        if (std::string_view(info.key).find(filter) == std::string_view::npos) continue;
        const std::string unit = *info.unit ? std::string("  unit ") + info.unit : std::string();
        const std::string head = std::string(info.key) + "  default " + formatValue(info, defaults);
        if (const std::string range = rangeText(info); head.size() + 8 + range.size() + unit.size() <= 100) {
            out << head << "  range " << range << unit << "\n";
        } else {  // a long list of choices (the styles): on lines of its own, broken at the bars
            out << head << unit << "\n";
            for (const std::string& line : wrapChoices("range " + range, 96)) out << "    " << line << "\n";
        }
        for (const std::string& line : wrapText(info.help, 96)) out << "    " << line << "\n";
        ++shown;
    }
    if (shown > 0) return 0;
    err << "murmur: --list-params " << echo(filter) << ": no key contains it (murmur --list-params lists every key)\n";
    return 2;
}

int listPresetsTo(std::ostream& out) {
    const auto presets = listPresets();
    if (presets.empty()) out << "no built-in presets found (looked in the presets/ folder beside the binary)\n";
    for (const auto& [name, desc] : presets) out << name << (desc.empty() ? "" : "  " + desc) << "\n";
    return 0;
}

// The items of a comma-separated list, in order (an empty item included: its parser refuses it).
std::vector<std::string> listItems(const std::string& list) {
    std::vector<std::string> items;
    for (std::size_t start = 0; start <= list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        items.push_back(list.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

// "10000,1e6" -> sizes; each in [64, 1e8] (the scenario needs a world of at least 4 units).
std::vector<std::uint64_t> parseSizes(const std::string& list) {
    std::vector<std::uint64_t> sizes;
    for (const std::string& item : listItems(list)) {
        Params scratch;
        if (auto e = setFromText(*findParam("boids"), item, scratch); e || scratch.boids < 64)
            throw InputError("--bench-sizes: '" + echo(item) + "' is not a boid count in [64, 100000000]");
        sizes.push_back(scratch.boids);
    }
    return sizes;
}

// --bench-flocks: counts in [1, 65536].
std::vector<std::uint32_t> parseFlockCounts(const std::string& list) {
    std::vector<std::uint32_t> counts;
    for (const std::string& item : listItems(list)) {
        // Digits only (from_chars takes no sign, space or base prefix), the whole item.
        std::uint32_t k = 0;
        const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), k);
        if (item.empty() || ec != std::errc() || end != item.data() + item.size() || k < 1 || k > 65536)
            throw InputError("--bench-flocks: '" + echo(item) + "' is not a flock count in [1, 65536]");
        counts.push_back(std::uint32_t(k));
    }
    return counts;
}

// Two outputs of one run naming the same file (one would replace the other), or a merge writing
// over one of its parts.
std::optional<std::string> sameFileProblem(const CliValues& v) {
    std::vector<std::pair<std::string, std::string>> files;  // flag, path
    const auto add = [&](const char* flag, const std::string& path) {
        if (!path.empty() && !path.ends_with("/")) files.emplace_back(flag, path);
    };
    add("--export", v.opt.export_path);
    add("--stats-out", v.opt.stats_out);
    add("--screenshot", v.opt.screenshot);
    add("--record", v.opt.record);
    add("--trajectory", v.opt.trajectory);
    add("--bench-out", v.bench_opt.out_path);
    add("--sweep-out", v.sweep_opt.out);
    add("--sweep-plot", v.sweep_plot);
    for (std::size_t k = 0; k < v.merge_args.size(); ++k) add(k == 0 ? "--sweep-merge OUT" : "--sweep-merge PART", v.merge_args[k]);
    const auto key = [](const std::string& path) {
        std::error_code ec;
        const fs::path p = fs::weakly_canonical(fs::absolute(fs::path(resolvedTarget(path)), ec), ec);
        return ec ? path : p.string();
    };
    for (std::size_t a = 0; a < files.size(); ++a)
        for (std::size_t b = a + 1; b < files.size(); ++b) {
            const bool both_inputs = files[a].first.ends_with("PART") && files[b].first.ends_with("PART");
            if (!both_inputs && key(files[a].second) == key(files[b].second))
                return files[a].first + " and " + files[b].first + " name the same file, " + echo(files[a].second) +
                       ": give each its own";
        }
    return std::nullopt;
}

// The checks no table can say: empty file names, one file named twice, and what a sweep's plot
// can draw.
std::optional<std::string> crossFlagProblem(const CLI::App& app, const CliValues& v) {
    for (const char* flag : {"--export", "--import", "--preset", "--stats-out", "--screenshot", "--bench-out", "--bench-sizes",
                             "--bench-flocks", "--record", "--trajectory", "--bench-compare", "--sweep-out", "--sweep-plot"})
        if (app.count(flag) > 0 && app.get_option(flag)->as<std::string>().empty())
            return std::string(flag) + ": an empty value; give a file (or, for --bench-sizes and --bench-flocks, counts)";
    if (auto same = sameFileProblem(v)) return same;
    if (v.sweep_plot.empty()) return std::nullopt;
    if (!v.sweep_plot.ends_with(".png")) return "--sweep-plot " + echo(v.sweep_plot) + ": the plot is a PNG; name it FILE.png";
    if (!isSweepMeasure(v.sweep_plot_of))
        return "--sweep-plot-of " + echo(v.sweep_plot_of) + ": not an order parameter of a sweep; valid: " + sweepMeasureNames();
    if (v.sweeps.size() > 2)
        return "--sweep-plot draws one key (a curve) or two (a phase diagram); this sweep has " + std::to_string(v.sweeps.size());
    if (app.count("--sweep-shard") > 0)
        return "--sweep-plot: a shard holds part of the sweep; plot the merged file (--sweep-merge OUT PARTS --sweep-plot FILE.png)";
    return std::nullopt;
}

// The run's backend; the GPU's read path and walk (MURMUR_GPU_READS, MURMUR_GPU_WALK) checked with
// it, as any input is (on one line, whatever the variable held).
Backend backendOf(const CliValues& v) {
    if (v.backend != "gpu") return Backend::Cpu;
    if (auto problem = engine::gpuPathProblem()) throw InputError(escapeControls(*problem));
    return Backend::Gpu;
}

int runMerge(const CliValues& v, std::ostream& out, std::ostream& err) {
    checkWritableTarget(v.merge_args[0], "--sweep-merge");
    if (!v.sweep_plot.empty()) checkWritableTarget(v.sweep_plot, "--sweep-plot");
    const int merged = mergeSweeps(v.merge_args[0], std::vector<std::string>(v.merge_args.begin() + 1, v.merge_args.end()), out);
    if (merged != 0 || v.sweep_plot.empty()) return merged;
    return plotSweep(v.merge_args[0], v.sweep_plot, v.sweep_plot_of, out, err);
}

int runBenchMode(CliValues& v, std::ostream& out, std::ostream& err) {
    v.opt.backend = backendOf(v);
    if (!v.bench_sizes.empty()) v.bench_opt.sizes = parseSizes(v.bench_sizes);
    if (!v.bench_flocks.empty()) v.bench_opt.flocks = parseFlockCounts(v.bench_flocks);
    if (v.bench_ab) {
        if (v.opt.backend != Backend::Gpu) throw InputError("--bench-ab compares the GPU's paths: not with --backend cpu (valid: --backend gpu)");
        if (!v.bench_opt.flocks.empty()) throw InputError("--bench-ab measures single flocks: not with --bench-flocks (give one of the two)");
        if (!v.bench_opt.compare_path.empty()) throw InputError("--bench-ab compares its own two paths: not with --bench-compare (give one of the two)");
        v.bench_opt.ab = parseBenchAb(*v.bench_ab);
        v.bench_opt.ab->rounds = v.bench_rounds;
    }
    v.bench_opt.style = findStyle(v.bench_style)->style;  // --bench-style checks the name
    v.bench_opt.sets = v.sets;
    for (std::uint64_t n : v.bench_opt.sizes) (void)benchParams(n, v.bench_opt.style, v.bench_opt.sets);  // the whole scenario, checked up front
    if (!v.bench_opt.out_path.empty()) checkWritableTarget(v.bench_opt.out_path, "--bench-out");
    return runBench(v.opt, v.bench_opt, out, err);
}

bool setsKey(const CliValues& v, std::string_view key) {
    return std::any_of(v.sets.begin(), v.sets.end(), [&](const std::string& s) { return s.starts_with(std::string(key) + "="); });
}

// The parameters of a run or sweep: defaults, --preset, each --set, then --boids/--dims (the world
// resized so the density is the preset's, unless world_size was set), --seed and --colour.
void applySettings(CliValues& v, std::ostream& out, bool check = true) {
    Params& p = v.opt.params;
    if (!v.preset.empty()) p = loadPresetFile(resolvePreset(v.preset), p);
    for (const std::string& s : v.sets) applySet(s, p, "--set");
    const Params before_count = p;
    if (v.boids) applySet("boids=" + *v.boids, p, "--boids");
    if (v.dims) applySet("dims=" + *v.dims, p, "--dims");
    v.opt.world_size_set = setsKey(v, "world_size");
    if ((v.boids || v.dims) && !v.opt.world_size_set && v.opt.import_path.empty() &&
        (p.boids != before_count.boids || p.dims != before_count.dims)) {
        // Density is the invariant: the preset's world and count say how crowded the flock is.
        const Rescaled r = keepDensity(before_count, p.boids, p.dims);
        p = r.params;
        out << "murmur: " << r.summary << "; --set world_size=L to choose\n";
    }
    if (v.seed) applySet("seed=" + *v.seed, p, "--seed");
    if (v.colour_by_given) applySet("colour=" + v.colour_by, p, "--colour");  // else the preset's (default heading)
    if (v.camera_given) applySet("camera=" + v.camera, p, "--camera");  // else the preset's (default auto)
    if (!check) return;
    if (auto problems = validate(p); !problems.empty()) throw InputError("invalid parameters:\n" + describe(problems));
}

int runSweepMode(CliValues& v, std::ostream& out, std::ostream& err) {
    if (v.sweep_opt.out.empty()) throw InputError("--sweep needs --sweep-out FILE.csv");
    if (v.sweeps.size() > 3) throw InputError("--sweep: at most 3 keys (a grid of 3 dimensions)");
    applySettings(v, out);
    for (const std::string& text : v.sweeps) v.sweep_opt.axes.push_back(parseSweepAxis(text));
    if (!v.sweep_shard.empty()) parseSweepShard(v.sweep_shard, v.sweep_opt);
    if (!v.sweep_xi.empty()) v.sweep_opt.xi_reach = parseSweepXi(v.sweep_xi);
    checkWritableTarget(v.sweep_opt.out, "--sweep-out");
    if (!v.sweep_plot.empty()) checkWritableTarget(v.sweep_plot, "--sweep-plot");
    v.opt.backend = backendOf(v);
    const SweepBase base{v.opt.params, v.opt.backend, v.opt.steps, v.opt.shader_dir};
    const int swept = runSweep(base, v.sweep_opt, out, err);
    if (swept != 0 || v.sweep_plot.empty()) return swept;
    return plotSweep(v.sweep_opt.out, v.sweep_plot, v.sweep_plot_of, out, err);
}

// The files a single run writes, each checked before the run starts.
void checkRunTargets(const Options& opt) {
    if (!opt.export_path.empty()) checkWritableTarget(opt.export_path, "--export");
    if (!opt.stats_out.empty()) checkWritableTarget(opt.stats_out, "--stats-out");
    if (!opt.screenshot.empty()) {
        if (!opt.screenshot.ends_with(".png")) throw InputError("--screenshot " + echo(opt.screenshot) + ": the file name must end in .png");
        checkWritableTarget(opt.screenshot, "--screenshot");
    }
    if (!opt.record.empty()) render::checkRecordTarget(opt.record);
    if (!opt.trajectory.empty()) {
        const std::string& t = opt.trajectory;
        if (const auto problem = trajectoryNameProblem(t)) throw InputError("--trajectory " + echo(t) + ": " + *problem);
        checkWritableTarget(t, "--trajectory");
        if (const auto problem = opt.trajectory_3d ? trajectoryAs3dProblem(opt.params.dims) : std::nullopt)
            throw InputError("--trajectory-3d: " + *problem);
    }
}

// A state file written by murmur names its world: --import runs there (a resume continues in the
// world it ran in, whatever --boids made of the preset's), unless --set world_size chose one. The
// parameters are checked in the world the run will have.
void adoptStateWorld(CliValues& v, std::ostream& out) {
    Params& p = v.opt.params;
    const float world = readStateWorld(v.opt.import_path);
    const bool adopted = world > 0.0f && !v.opt.world_size_set && world != p.world_size;
    const std::string text = floatText(world);  // exact: --set world_size=L gives the same world
    if (adopted) {
        p.world_size = world;
        out << "murmur: " << v.opt.import_path << " was written in a world of " << text << " units; --set world_size=L to choose\n";
    }
    if (auto problems = validate(p); !problems.empty())
        throw InputError(adopted ? "--import " + echo(v.opt.import_path) + " was written in a world of " + text +
                                       " units, which does not suit the parameters:\n" + describe(problems)
                                 : "invalid parameters:\n" + describe(problems));
}

// --boids' text as the count every count flag reads (parseNumber: 1e5 too), or 0 where it is not
// a whole number in range (applySet then says why).
std::uint64_t countOr0(const std::string& text) {
    const std::optional<double> v = parseNumber(text);
    return v && *v >= 0.0 && *v <= 1e15 && *v == std::floor(*v) ? std::uint64_t(*v) : 0;
}

// --resume FILE: the run's parameters are the file's (the base the command line's settings then
// apply to), and the state and step its own (read as --import reads them). Returns the file's
// parameters.
Params resumeFrom(CliValues& v) {
    const std::string& path = v.resume;
    if (!v.preset.empty()) throw InputError("--resume takes the run's parameters from " + echo(path) + "; --preset cannot go with it");
    if (!v.opt.import_path.empty()) throw InputError("--resume and --import both give the starting state: use one");
    const std::optional<Params> saved = readStateParams(path);
    if (!saved)
        throw InputError("--resume " + echo(path) + ": the file holds no parameters (a state file of an earlier murmur, or not "
                         "murmur's): use --import with the run's --preset and --set");
    v.opt.params = *saved;
    v.opt.import_path = path;
    return *saved;
}

// A change the command line made to a resumed run's parameter that moves the flock: refused,
// naming each, unless --resume-override; the view's keys may change freely.
void requireResumedAsSaved(const CliValues& v, const Params& saved, std::ostream& out) {
    const std::string& path = v.resume;
    const std::vector<std::string> changes = motionChanges(saved, v.opt.params);
    if (changes.empty()) return;
    std::string list;
    for (const std::string& c : changes) list += "\n  " + c;
    if (!v.resume_override)
        throw InputError("--resume " + echo(path) + ": the command line changes the run's parameters:" + list +
                         "\nadd --resume-override to continue with these changes (the run is then not the file's run continued)");
    out << "murmur: resuming " << path << " with changed parameters:" << list << "\n";
}

// One flock, in the window or headless.
int runFlock(CliValues& v, std::ostream& out, std::ostream& err) {
    Options& opt = v.opt;
    const std::optional<Params> resumed = v.resume.empty() ? std::nullopt : std::optional<Params>(resumeFrom(v));
    // The window picks the count (and so the world) for this machine when none is given: the
    // parameters are checked once that world is known (a radius fine there may not be in the
    // preset's smaller world).
    opt.auto_boids = !opt.headless && !v.boids && !setsKey(v, "boids") && v.preset.empty() && opt.import_path.empty();
    opt.plain_launch = v.preset.empty() && v.sets.empty() && !v.dims && opt.import_path.empty();
    if (v.seed) opt.kept_over_preset.push_back("seed=" + *v.seed);
    if (v.colour_by_given) opt.kept_over_preset.push_back("colour=" + v.colour_by);
    if (v.camera_given) opt.kept_over_preset.push_back("camera=" + v.camera);
    if (opt.plain_launch && v.boids && opensTheMurmuration(true, countOr0(*v.boids))) {
        v.preset = "murmuration";
        out << murmurationLine(countOr0(*v.boids));
    }
    applySettings(v, out, !opt.auto_boids && opt.import_path.empty());  // an import's world first
    if (resumed) requireResumedAsSaved(v, *resumed, out);
    Params& p = opt.params;
    Flock imported;
    if (!opt.import_path.empty()) {
        adoptStateWorld(v, out);
        imported = readStateCsv(opt.import_path, p, &opt.import_step);
        if (v.boids && std::uint32_t(imported.size()) != p.boids)
            throw InputError("--boids " + echo(*v.boids) + " conflicts with --import " + echo(opt.import_path) + ", which holds " +
                             std::to_string(imported.size()) + " boids");
        p.boids = std::uint32_t(imported.size());
        // The step counter is 32 bits (the shaders' phases and noise hash it): a run may not pass its end.
        if (opt.headless && std::uint64_t(opt.import_step) + opt.steps > 0xFFFFFFFFull)
            throw InputError("--import " + echo(opt.import_path) + " is at step " + std::to_string(opt.import_step) + ", and --steps " +
                             std::to_string(opt.steps) + " would pass step 4294967295, the last a run counts; valid --steps: [0, " +
                             std::to_string(0xFFFFFFFFull - opt.import_step) + "]");
    }
    checkRunTargets(opt);
    if (!opt.headless && !opt.record.empty() && opt.frames == 1)
        throw InputError("--record with --frames 1: the window records from its second frame (the first lays out the panel); "
                         "give --frames 2 or more");
    opt.backend = backendOf(v);
    opt.vsync = !v.no_vsync;
    opt.preset_name = v.preset;
    const Flock* start = opt.import_path.empty() ? nullptr : &imported;
    return opt.headless ? runHeadless(opt, start, out, err) : runWindow(opt, start, out, err);
}

int runMode(Mode mode, CliValues& v, std::ostream& out, std::ostream& err) {
    switch (mode) {
        case Mode::ListParams: return listParams(v.list_params_filter, out, err);
        case Mode::ListPresets: return listPresetsTo(out);
        case Mode::SelfTest: return (void)backendOf(v), engine::runSelfTest(v.opt.shader_dir, out, err);
        case Mode::SweepMerge: return runMerge(v, out, err);
        case Mode::Bench: return runBenchMode(v, out, err);
        case Mode::Sweep: return runSweepMode(v, out, err);
        case Mode::Window:
        case Mode::Headless: return runFlock(v, out, err);
    }
    return 1;
}

// Runs the mode, turning input errors into exit 2 and anything else into exit 1. murmur's on/off
// environment variables (MURMUR_PROGRAM_CACHE, MURMUR_GL_DEBUG) are checked first, in every mode.
int runGuarded(Mode mode, CliValues& v, std::ostream& out, std::ostream& err) {
    if (v.gl_debug) gl::setVerboseDebugOutput(true);
    try {
        checkEnvSwitches();
        return runMode(mode, v, out, err);
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

}  // namespace

void applySet(const std::string& assignment, Params& p, const std::string& flag) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos)
        throw InputError(flag + " " + echo(assignment) + ": expected key=value (keys: murmur --list-params)");
    const std::string key = assignment.substr(0, eq);
    const ParamInfo* info = findParam(key);
    if (!info) {
        const ParamInfo* near = nearestParam(key);
        throw InputError(flag + " " + echo(assignment) + ": unknown key '" + echo(key) + "'" +
                         (near ? std::string("; did you mean ") + near->key + "?" : std::string(" (see murmur --list-params)")));
    }
    if (auto err = setFromText(*info, assignment.substr(eq + 1), p)) throw InputError(flag + " " + key + ": " + *err);
}

int runCliEscaped(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

int runCli(int argc, const char* const* argv, std::ostream& raw_out, std::ostream& raw_err) {
    EscapingBuf out_buf(raw_out.rdbuf()), err_buf(raw_err.rdbuf());
    std::ostream out(&out_buf), err(&err_buf);
    const int code = runCliEscaped(argc, argv, out, err);
    out.flush();
    err.flush();
    if (!out) raw_out.setstate(std::ios::badbit);  // a failed write (a full disk, /dev/full) is the caller's to report
    return code;
}

int runCliEscaped(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    CLI::App app{"murmur: Reynolds' boids on the GPU, with a CPU reference", "murmur"};
    CliValues v;
    declareOptions(app, v);
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
    const auto given = [&](std::string_view flag) { return app.count(std::string(flag)) > 0; };
    const ModeChoice choice = chooseMode(given);
    std::optional<std::string> problem = choice.problem;
    if (!problem) problem = flagOutsideMode(choice.mode, given);
    if (!problem) problem = crossFlagProblem(app, v);
    if (!problem && choice.mode == Mode::Headless && v.opt.screenshot.empty() && v.opt.record.empty())
        for (const char* flag : {"--width", "--height", "--colour", "--camera"})  // headless, they size, colour and aim a picture only
            if (!problem && given(flag))
                problem = std::string(flag) + " applies to --headless only with --screenshot or --record (a picture to draw)";
    if (problem) {
        err << "murmur: " << *problem << "\n";
        return 2;
    }
    v.colour_by_given = given("--colour");
    v.camera_given = given("--camera");
    return runGuarded(choice.mode, v, out, err);
}

}  // namespace murmur
