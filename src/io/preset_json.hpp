// Presets: Params as JSON with nested keys ({"separation": {"radius": 4}} is separation.radius).
// Unknown keys and out-of-range values are errors naming the key and its valid range.
#pragma once

#include "model/params.hpp"

#include <string>
#include <vector>

namespace murmur {

// Applies the preset's keys on top of base. Throws InputError listing every problem.
Params parsePreset(const std::string& json_text, const Params& base, const std::string& source);
std::string formatPreset(const Params& params, const std::string& description = "");

Params loadPresetFile(const std::string& path, const Params& base);
void savePresetFile(const std::string& path, const Params& params);  // atomic

// Built-in presets: directories searched for NAME.json, in order: MURMUR_PRESET_DIR, beside the
// binary, ../share/murmur/presets from it (for murmur's own programs only), then any added (the
// public library adds where it is installed).
std::vector<std::string> presetDirs();
void addPresetDir(const std::string& dir);
// NAME of a built-in preset or a path to a .json file. Throws InputError naming what was tried.
std::string resolvePreset(const std::string& name_or_path);
// Names (without .json) of every built-in preset, sorted, with their "description" fields.
std::vector<std::pair<std::string, std::string>> listPresets();

}  // namespace murmur
