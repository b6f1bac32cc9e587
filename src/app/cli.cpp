// Flag parsing (CLI11) and the order in which settings apply: defaults, then --preset, then
// each --set in order, then --boids/--dims/--seed, then --import (which fixes the boid count).
#include "app/cli.hpp"

#include "app/options.hpp"
#include "app/run_headless.hpp"
#include "io/input_error.hpp"
#include "io/preset_json.hpp"
#include "io/state_csv.hpp"
#include "model/param_table.hpp"

#include <CLI/CLI.hpp>

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
    if (!info) throw InputError(flag + " " + assignment + ": unknown key '" + key + "' (see murmur --list-params)");
    if (auto err = setFromText(*info, assignment.substr(eq + 1), p)) throw InputError(flag + " " + key + ": " + *err);
}

void listParams(std::ostream& out) {
    const Params defaults;
    char line[512];
    std::snprintf(line, sizeof line, "%-19s %-10s %-22s %-10s %s\n", "key", "default", "range", "unit", "meaning");
    out << line;
    for (const ParamInfo& info : paramTable()) {
        std::snprintf(line, sizeof line, "%-19s %-10s %-22s %-10s %s\n", info.key, formatValue(info, defaults).c_str(),
                      rangeText(info).c_str(), info.unit, info.help);
        out << line;
    }
}

void listPresetsTo(std::ostream& out) {
    const auto presets = listPresets();
    if (presets.empty()) out << "no built-in presets found (looked in the presets/ folder beside the binary)\n";
    for (const auto& [name, desc] : presets) out << name << (desc.empty() ? "" : "  " + desc) << "\n";
}

// An --export target must be in an existing, writable directory: checked before any work.
void checkWritableTarget(const std::string& path) {
    fs::path dir = fs::path(path).parent_path();
    if (dir.empty()) dir = ".";
    if (fs::is_directory(path)) throw InputError("--export " + path + ": is a directory");
    if (!fs::is_directory(dir)) throw InputError("--export " + path + ": directory " + dir.string() + " does not exist");
    if (::access(dir.c_str(), W_OK) != 0) throw InputError("--export " + path + ": directory " + dir.string() + " is not writable");
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
    app.add_option("--boids", boids, "number of boids [0, 100000000]");
    app.add_option("--dims", dims, "2 or 3");
    app.add_option("--preset", preset, "built-in preset NAME or a preset FILE.json");
    app.add_option("--set", sets, "key=value, any key of --list-params; repeatable");
    app.add_option("--seed", seed, "spawn seed [0, 2^53-1]");
    app.add_option("--backend", backend, "simulation backend: gpu (compute shaders, default) or cpu (the reference)")
        ->check(CLI::IsMember({"cpu", "gpu"}));
    app.add_option("--shader-dir", opt.shader_dir, "read shaders from this folder instead of the embedded copies")
        ->check(CLI::ExistingDirectory);
    app.add_flag("--headless", opt.headless, "run without a window and print a summary");
    app.add_option("--steps", opt.steps, "steps to run headless [0, 1000000000]")->check(CLI::Range(std::uint64_t(0), std::uint64_t(1000000000)));
    app.add_option("--import", opt.import_path, "start from a state CSV (id,species,x,y,z,vx,vy,vz)");
    app.add_option("--export", opt.export_path, "write the final state as CSV");
    app.add_flag("--list-presets", list_presets, "list the built-in presets");
    app.add_flag("--list-params", list_params, "list every parameter key with default, range and unit");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e, out, err);
        return code == 0 ? 0 : 2;
    }
    if (list_params) {
        listParams(out);
        return 0;
    }
    if (list_presets) {
        listPresetsTo(out);
        return 0;
    }
    try {
        Params& p = opt.params;
        if (!preset.empty()) p = loadPresetFile(resolvePreset(preset), p);
        for (const std::string& s : sets) applySet(s, p, "--set");
        if (boids) applySet("boids=" + *boids, p, "--boids");
        if (dims) applySet("dims=" + *dims, p, "--dims");
        if (seed) applySet("seed=" + *seed, p, "--seed");
        if (auto problems = validate(p); !problems.empty()) throw InputError("invalid parameters:\n" + describe(problems));
        Flock imported;
        if (!opt.import_path.empty()) {
            imported = readStateCsv(opt.import_path, p);
            if (boids && std::uint32_t(imported.size()) != p.boids)
                throw InputError("--boids " + *boids + " conflicts with --import " + opt.import_path + ", which holds " +
                                 std::to_string(imported.size()) + " boids");
            p.boids = std::uint32_t(imported.size());
        }
        if (!opt.export_path.empty()) checkWritableTarget(opt.export_path);
        opt.backend = backend == "gpu" ? Backend::Gpu : Backend::Cpu;
        return runHeadless(opt, opt.import_path.empty() ? nullptr : &imported, out, err);
    } catch (const InputError& e) {
        err << "murmur: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        err << "murmur: error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace murmur
