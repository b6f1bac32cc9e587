// murmur's flags declared to CLI11, grouped as the modes use them (cli_options.hpp).
#include "app/cli_options.hpp"

#include "io/input_error.hpp"
#include "io/trajectory.hpp"
#include "model/param_table.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#ifndef MURMUR_VERSION
#define MURMUR_VERSION "0.0.0"
#endif
#ifndef MURMUR_REVISION
#define MURMUR_REVISION "unknown"
#endif

namespace murmur {
namespace {

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

// The flock: what it is and where it starts.
void declareFlock(CLI::App& app, CliValues& v) {
    app.add_option("--boids", v.boids, "number of boids [0, 100000000] (default: the preset's; the window picks one for this machine)")
        ->type_name("N");
    app.add_option("--dims", v.dims, "2 or 3 (default: the preset's)")->type_name("2|3");
    app.add_option("--preset", v.preset, "built-in preset NAME (murmur --list-presets) or a preset FILE.json")->type_name("NAME|FILE");
    app.add_option("--set", v.sets, "key=value, any key of --list-params; repeatable")->type_name("KEY=VALUE");
    app.add_option("--seed", v.seed, "spawn seed [0, 2^53-1] (default: the preset's)")->type_name("N");
    app.add_option("--backend", v.backend, "simulation backend: gpu (compute shaders, default) or cpu (the reference)")
        ->check(CLI::IsMember({"cpu", "gpu"}).description(""))
        ->type_name("gpu|cpu")
        ->default_str("gpu");
    app.add_option("--shader-dir", v.opt.shader_dir, "read shaders from this folder instead of the embedded copies")
        ->check(CLI::Validator(CLI::ExistingDirectory).description(""))
        ->type_name("DIR");
    app.add_option("--import", v.opt.import_path, "start from a state CSV written by --export (old id,species,x,y,z,vx,vy,vz files too)")
        ->type_name("FILE.csv");
    app.add_option("--resume", v.resume,
                   "continue the run --export wrote FILE from: its parameters (every key, the seed), state and step, as if "
                   "never stopped; a --set, --seed, --boids or --dims that changes a parameter is refused unless --resume-override")
        ->type_name("FILE.csv");
    app.add_flag("--resume-override", v.resume_override, "--resume with the command line's changes to the file's parameters");
}

// A single run, in the window or headless, and the files it writes.
void declareRun(CLI::App& app, CliValues& v) {
    Options& opt = v.opt;
    app.add_flag("--headless", opt.headless, "run without a window and print a summary");
    addCount(app, "--steps", opt.steps, 0, 1000000000, "steps to run headless [0, 1000000000]");
    app.add_option("--screenshot", opt.screenshot, "write the last frame as PNG (headless: rendered offscreen)")->type_name("FILE.png");
    addCount(app, "--frames", opt.frames, 0, 1000000000, "window: close after N frames [0 = run until closed, 1000000000]");
    addCount(app, "--width", opt.width, 16, 16384, "window / screenshot width in pixels [16, 16384]");
    addCount(app, "--height", opt.height, 16, 16384, "window / screenshot height in pixels [16, 16384]");
    app.add_option("--colour,--color", v.colour_by, "colour boids by species, heading, speed or neighbours, or dusk (dark birds on a dusk sky) (window and screenshots)")
        ->check(CLI::IsMember(std::vector<std::string>(findParam("colour")->choices.begin(), findParam("colour")->choices.end()))
                    .description(""))
        ->type_name("MODE")
        ->default_str("the preset's, else heading");
    app.add_option("--camera", v.camera, "where the view looks: world, follow (the flock), ground (looking up at it), auto "
                                         "(follow in open sky); window, screenshots and --record")
        ->check(CLI::IsMember(std::vector<std::string>(findParam("camera")->choices.begin(), findParam("camera")->choices.end()))
                    .description(""))
        ->type_name("MODE")
        ->default_str("the preset's, else auto");
    app.add_flag("--body", v.opt.body, "headless: print the flock's body measures after the run (principal axes, r1, border)");
    app.add_flag("--no-vsync", v.no_vsync, "window: do not wait for the display's refresh (the panel toggles it too)");
    app.add_option("--record", opt.record, "record a video through ffmpeg (FILE.mp4 or FILE.mkv) or PNG frames (DIR/); "
                                           "headless: a frame at the start and every --record-every steps")
        ->type_name("FILE|DIR/");
    addCount(app, "--record-every", opt.record_every, 1, 1000000, "steps between recorded frames [1, 1000000]");
    addCount(app, "--record-fps", opt.record_fps, 1, 240, "the recorded video's frame rate [1, 240]");
    app.add_option("--trajectory", opt.trajectory, "headless: write positions and velocities over time as H5MD (HDF5), "
                                                   "a frame at the start and every --trajectory-every steps; "
                                                   "Ctrl-C or SIGTERM ends the run with the frames so far")
        ->type_name("FILE.h5");
    addCount(app, "--trajectory-every", opt.trajectory_every, 1, 1000000000, "steps between trajectory frames [1, 1000000000]");
    addCount(app, "--trajectory-deflate", opt.trajectory_deflate, 0, 9,
             "the trajectory's compression: 0 none (fastest), 1 .. 9 zlib's levels (smaller, slower) [0, 9]");
    app.add_option("--trajectory-author", opt.trajectory_author, "the trajectory's author (/h5md/author; default murmur)")
        ->type_name("NAME")
        ->check([](const std::string& name) { return trajectoryAuthorProblem(name).value_or(""); });
    app.add_flag("--trajectory-unwrapped", opt.trajectory_unwrapped,
                 "write the trajectory's positions unwrapped (held + image x world_size) and no image element: "
                 "what a mean squared displacement reads (MDAnalysis' EinsteinMSD)");
    app.add_flag("--trajectory-3d", opt.trajectory_3d, "write a 2D flock's trajectory with dimension 3 (z 0): MDAnalysis reads only 3D boxes");
    app.add_option("--export", opt.export_path, "write the final state as CSV")->type_name("FILE.csv");
    app.add_option("--stats-out", opt.stats_out, "write the order parameters as CSV (step,time,...) every --stats-every steps")
        ->type_name("FILE.csv");
    addCount(app, "--stats-every", opt.stats_every, 1, 1000000000, "steps between rows of --stats-out [1, 1000000000]");
}

void declareBench(CLI::App& app, CliValues& v) {
    app.add_flag("--bench", v.bench, "run the benchmark (docs/performance.md) and print a table");
    app.add_option("--bench-flocks", v.bench_flocks,
                   "ensembles: comma-separated flock counts, each in [1, 65536]; K flocks of each --bench-sizes size stepped together")
        ->type_name("K,...");
    app.add_option("--bench-sizes", v.bench_sizes, "comma-separated boid counts, each in [64, 100000000]")
        ->type_name("N,N,...")
        ->default_str("10000,100000,1000000,10000000");
    addCount(app, "--bench-steps", v.bench_opt.steps, 1, 100000, "measured steps per phase [1, 100000] (median taken)");
    addCount(app, "--bench-clump-steps", v.bench_opt.clump_steps, 0, 1000000, "steps between the spawn and clumped phases [0, 1000000]");
    app.add_option("--bench-style", v.bench_style,
                   "the scenario's style: steering (default, the fixed scenario) or graded (the same radii, with the default style's spacing)")
        ->check(CLI::IsMember({"steering", "graded"}).description(""))
        ->type_name("steering|graded")
        ->default_str("steering");
    app.add_option("--bench-out", v.bench_opt.out_path, "also write the results as JSON to this file")->type_name("FILE.json");
    app.add_option("--bench-compare", v.bench_opt.compare_path, "print each row's time beside an earlier --bench-out file's, with the ratio")
        ->type_name("OLD.json");
    app.add_option("--bench-ab", v.bench_ab,
                   "an interleaved A/B of the GPU's two paths of one variable, MURMUR_GPU_READS=textures,storage or "
                   "MURMUR_GPU_WALK=rows,tiles: every size in each round, A then B, and the median of the rounds for each")
        ->type_name("VAR=A,B");
    addCount(app, "--bench-rounds", v.bench_rounds, 1, 100, "rounds of --bench-ab [1, 100]");
}

void declareSweep(CLI::App& app, CliValues& v) {
    SweepOptions& s = v.sweep_opt;
    app.add_option("--sweep", v.sweeps, "sweep a numeric key over COUNT values from FROM to TO (:log: evenly in log), or over a list of values, "
                   "headless; repeat for a grid (at most 3)")
        ->type_name("KEY=FROM:TO:COUNT[:log]|KEY=V1,V2,...")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    addCount(app, "--sweep-seeds", s.seeds, 1, 10000, "seeds per sweep point: the base seed, +1, ... [1, 10000]");
    addCount(app, "--sweep-burn-in", s.burn_in, 0, 1000000000, "steps before a run's samples start [0, --steps]");
    addCount(app, "--sweep-every", s.every, 1, 1000000000, "steps between a run's samples [1, 1000000000]");
    addCount(app, "--sweep-batch", s.batch, 0, 65536,
             "GPU: runs stepped together as one ensemble [0 = as many as fit, 1 = one at a time, 65536]");
    app.add_option("--sweep-xi", v.sweep_xi, "measure the velocity correlation length xi at each sample, over the pairs within R_MAX "
                   "(0: half the world): columns xi_mean, xi_std, xi_found")
        ->type_name("R_MAX");
    app.add_option("--sweep-out", s.out, "the sweep's CSV: one row per run (values, seed), each order parameter's mean and std")
        ->type_name("FILE.csv");
    app.add_option("--sweep-shard", v.sweep_shard, "run only shard I of N (runs whose index % N == I; with --sweep-carry, seeds whose "
                                                   "index % N == I): Slurm arrays, GNU parallel")
        ->type_name("I/N");
    app.add_flag("--sweep-carry", s.carry, "each seed's runs continue from the previous value's final state (one key): "
                                           "collective memory, hysteresis; sweep FROM > TO for the way back");
    app.add_option("--sweep-plot", v.sweep_plot, "after --sweep or --sweep-merge, draw FILE.png: a curve (one key) or a phase diagram "
                                                 "(two keys) of --sweep-plot-of, through python3-matplotlib")
        ->type_name("FILE.png");
    app.add_option("--sweep-plot-of", v.sweep_plot_of, "the order parameter --sweep-plot draws")->type_name("NAME=polarization");
    app.add_option("--sweep-merge", v.merge_args, "join shard files into OUT.csv (runs in order, each once)")
        ->type_name("OUT.csv PART.csv...")
        ->expected(2, 1000000);
}

void declareInfo(CLI::App& app, CliValues& v) {
    app.set_version_flag("--version", std::string("murmur ") + MURMUR_VERSION + " (" + MURMUR_REVISION + ")");
    app.add_flag("--list-presets", v.list_presets, "list the built-in presets");
    app.add_flag("--gl-debug", v.gl_debug,
                 "print the driver's performance and other debug messages too (errors are always printed; also MURMUR_GL_DEBUG=1)");
    app.add_flag("--self-test", v.self_test,
                 "check this GPU: limits, every shader variant against the CPU reference, a split scan, a render; exit 0 if all pass");
    app.add_option("--list-params", v.list_params_filter,
                   "list every parameter key with default, range and unit; with FILTER, the keys containing it")
        ->type_name("[FILTER]")
        ->expected(0, 1);
}

bool looksLikeFlag(std::string_view arg) {
    return arg.size() >= 2 && arg[0] == '-' && !std::isdigit(static_cast<unsigned char>(arg[1])) && arg[1] != '.';
}

}  // namespace

void declareOptions(CLI::App& app, CliValues& v) {
    declareFlock(app, v);
    declareRun(app, v);
    declareBench(app, v);
    declareSweep(app, v);
    declareInfo(app, v);
}

std::uint64_t parseCount(const std::string& flag, const std::string& text, std::uint64_t lo, std::uint64_t hi) {
    const std::optional<double> v = parseNumber(text);
    if (!v || !(*v >= double(lo) && *v <= double(hi)) || *v != std::floor(*v))
        throw CLI::ValidationError(flag, "expected a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                             "], got '" + echo(text) + "'");
    return std::uint64_t(*v);
}

std::optional<std::string> unknownFlag(const CLI::App& app, int argc, const char* const* argv) {
    for (int i = 1; i < argc; ++i) {
        if (!looksLikeFlag(argv[i])) continue;
        const std::string_view arg = argv[i];
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

}  // namespace murmur
