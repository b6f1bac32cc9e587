// Preset reading, writing and lookup via nlohmann-json; see preset_json.hpp.
#include "io/preset_json.hpp"

#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "model/param_table.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace murmur {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Presets nest three levels (species1.dc.accel_side); anything far deeper is not a preset, and
// an unbounded depth would exhaust the stack.
constexpr int kMaxPresetDepth = 16;

struct TooDeep {};

// Parses JSON text of a preset: refuses nesting deeper than kMaxPresetDepth and a key repeated
// within one object, and turns every parser error (syntax, a number out of range) into an
// InputError naming the source.
json parsePresetJson(const std::string& text, const std::string& source) {
    std::vector<std::vector<std::string>> keys;  // the keys seen in each open object
    std::string repeated;
    auto check = [&](int depth, json::parse_event_t event, json& parsed) {
        if (depth > kMaxPresetDepth) throw TooDeep{};
        if (event == json::parse_event_t::object_start) keys.emplace_back();
        if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
        if (event == json::parse_event_t::key && !keys.empty()) {
            const std::string key = parsed.get<std::string>();
            if (std::find(keys.back().begin(), keys.back().end(), key) != keys.back().end() && repeated.empty()) repeated = key;
            keys.back().push_back(key);
        }
        return true;
    };
    json j;
    try {
        j = json::parse(text, check);
    } catch (const TooDeep&) {
        throw InputError(source + ": nested deeper than " + std::to_string(kMaxPresetDepth) +
                         " levels; a preset nests at most 3 (species1.dc.accel_side)");
    } catch (const json::exception& e) {
        throw InputError(source + ": not valid JSON: " + e.what());
    }
    if (!repeated.empty()) throw InputError(source + ": key '" + echo(repeated) + "' appears twice in one object");
    return j;
}

// Dotted key -> value for every leaf of the object (arrays are leaves, and are errors later).
void flatten(const json& j, const std::string& prefix, std::vector<std::pair<std::string, const json*>>& out) {
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it->is_object()) flatten(*it, key, out);
        else out.emplace_back(key, &*it);
    }
}

// "obstacles": [{"x": 10, "y": 20, "z": 0, "radius": 5}, ...]; problems named by index and key.
std::vector<Obstacle> parseObstacles(const json& value, std::vector<std::string>& problems) {
    std::vector<Obstacle> out;
    if (!value.is_array()) {
        problems.push_back("obstacles: expected an array of {\"x\", \"y\", \"z\", \"radius\"} objects");
        return out;
    }
    for (std::size_t k = 0; k < value.size(); ++k) {
        const json& o = value[k];
        const std::string where = "obstacles[" + std::to_string(k) + "]";
        if (!o.is_object()) {
            problems.push_back(where + ": expected an object {\"x\", \"y\", \"z\", \"radius\"}");
            continue;
        }
        Obstacle ob;
        if (!o.contains("x") || !o.contains("y") || !o.contains("radius"))
            problems.push_back(where + ": needs x, y and radius (z too in 3D)");
        for (auto it = o.begin(); it != o.end(); ++it) {
            float* field = it.key() == "x" ? &ob.at.x : it.key() == "y" ? &ob.at.y : it.key() == "z" ? &ob.at.z
                         : it.key() == "radius" ? &ob.radius : nullptr;
            if (!field) problems.push_back(where + "." + echo(it.key()) + ": unknown key (x, y, z, radius)");
            else if (!it->is_number()) problems.push_back(where + "." + it.key() + ": expected a number");
            else *field = it->get<float>();
        }
        out.push_back(ob);
    }
    return out;
}

// murmur's own programs' folder (the command line, its tests), where presets lie beside them; none
// for another program (Python, an embedding application): its folder holds no murmur presets, and
// a message listing /usr/bin/presets would mislead. The public library adds its own place.
fs::path executableDir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (ec || !exe.filename().string().starts_with("murmur")) return {};
    return exe.parent_path();
}

}  // namespace

Params parsePreset(const std::string& json_text, const Params& base, const std::string& source) {
    const json j = parsePresetJson(json_text, source);
    if (!j.is_object()) throw InputError(source + ": a preset must be a JSON object of parameter keys");
    std::vector<std::pair<std::string, const json*>> leaves;
    flatten(j, "", leaves);
    Params p = base;
    std::vector<std::string> problems;
    for (const auto& [key, value] : leaves) {
        if (key == "description") {
            if (!value->is_string()) problems.push_back("description: expected a string");
            continue;
        }
        if (key == "obstacles") {
            p.obstacles = parseObstacles(*value, problems);
            continue;
        }
        const ParamInfo* info = findParam(key);
        if (!info) {
            problems.push_back(echo(key) + ": unknown key (see murmur --list-params)");
            continue;
        }
        std::optional<std::string> err;
        if (info->kind == ParamKind::Choice) {
            if (value->is_string()) err = setFromText(*info, value->get<std::string>(), p);
            else err = "expected one of " + rangeText(*info);
        } else if (value->is_number()) {
            err = setFromNumber(*info, value->get<double>(), p);
        } else {
            err = "expected a number in " + rangeText(*info);
        }
        if (err) problems.push_back(key + ": " + *err);
    }
    if (problems.empty())
        for (const ParamProblem& pr : validate(p)) problems.push_back(pr.field + ": " + pr.message);
    if (!problems.empty()) {
        std::string msg = source + ": invalid preset:";
        for (const std::string& s : problems) msg += "\n  " + s;
        throw InputError(msg);
    }
    return p;
}

std::string formatPreset(const Params& params, const std::string& description) {
    json j = json::object();
    if (!description.empty()) j["description"] = description;
    for (const ParamInfo& info : paramTable()) {
        json* node = &j;
        std::string key = info.key;
        for (std::size_t dot; (dot = key.find('.')) != std::string::npos; key = key.substr(dot + 1))
            node = &(*node)[key.substr(0, dot)];
        const double v = info.get(params);
        if (info.kind == ParamKind::Choice) (*node)[key] = info.choices.at(std::size_t(v));
        else if (info.kind == ParamKind::Float) (*node)[key] = asTyped(float(v));
        else (*node)[key] = std::uint64_t(v);
    }
    for (const Obstacle& o : params.obstacles)
        j["obstacles"].push_back({{"x", asTyped(o.at.x)}, {"y", asTyped(o.at.y)}, {"z", asTyped(o.at.z)}, {"radius", asTyped(o.radius)}});
    return j.dump(2) + "\n";
}

namespace {

// A preset is a few kilobytes; a file much larger is not one, and is not read whole.
constexpr std::uintmax_t kMaxPresetBytes = 1u << 20;

std::string readPresetText(const std::string& path) {
    try {
        return readFile(path, kMaxPresetBytes, "a preset");
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
}

}  // namespace

Params loadPresetFile(const std::string& path, const Params& base) { return parsePreset(readPresetText(path), base, path); }

void savePresetFile(const std::string& path, const Params& params) { writeFileAtomic(path, formatPreset(params)); }

namespace {
std::vector<std::string>& addedPresetDirs() {
    static std::vector<std::string> dirs;
    return dirs;
}
}  // namespace

void addPresetDir(const std::string& dir) {
    auto& dirs = addedPresetDirs();
    if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) dirs.push_back(dir);
}

std::vector<std::string> presetDirs() {
    std::vector<std::string> dirs;
    if (const char* env = std::getenv("MURMUR_PRESET_DIR"); env && *env) dirs.emplace_back(env);
    const fs::path exe = executableDir();
    if (!exe.empty()) {
        dirs.push_back((exe / "presets").string());
        dirs.push_back((exe / ".." / "share" / "murmur" / "presets").lexically_normal().string());
    }
    for (const std::string& d : addedPresetDirs()) dirs.push_back(d);
    return dirs;
}

std::string resolvePreset(const std::string& name_or_path) {
    const bool looks_like_path = name_or_path.find('/') != std::string::npos ||
                                 (name_or_path.size() > 5 && name_or_path.ends_with(".json"));
    if (looks_like_path) {
        if (fs::exists(name_or_path) && !fs::is_regular_file(name_or_path))
            throw InputError("--preset " + echo(name_or_path) + ": not a regular file (a preset is a JSON file)");
        if (!fs::is_regular_file(name_or_path)) throw InputError("--preset: no such file: " + echo(name_or_path));
        return name_or_path;
    }
    std::string tried;
    for (const std::string& dir : presetDirs()) {
        const fs::path f = fs::path(dir) / (name_or_path + ".json");
        if (fs::is_regular_file(f)) return f.string();
        tried += "\n  " + f.string();
    }
    std::string names;
    for (const auto& [name, desc] : listPresets()) names += (names.empty() ? "" : ", ") + name;
    throw InputError("--preset: no built-in preset '" + name_or_path + "' (known: " +
                     (names.empty() ? "none found" : names) + "); looked for:" + tried);
}

std::vector<std::pair<std::string, std::string>> listPresets() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& dir : presetDirs()) {
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(dir, ec)) {
            if (entry.path().extension() != ".json") continue;
            const std::string name = entry.path().stem().string();
            if (std::any_of(out.begin(), out.end(), [&](const auto& e) { return e.first == name; })) continue;
            std::string desc;
            try {
                const json j = parsePresetJson(readPresetText(entry.path().string()), entry.path().string());
                desc = j.is_object() ? j.value("description", "") : "(not a preset)";
            } catch (const std::exception&) {
                desc = "(unreadable)";
            }
            out.emplace_back(name, desc);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace murmur
