// What each run mode of the command line takes: one table of flags and the modes they apply to,
// from which every "does not apply" refusal is generated, so that no flag is ever silently
// ignored. Kept apart from CLI11: it sees only which flags were given.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace murmur {

enum class Mode { Window, Headless, Bench, Sweep, SweepMerge, SelfTest, ListParams, ListPresets };

// How a mode is named to the user: "the window", "--bench", ...
std::string_view modeName(Mode m);

// The mode the given flags ask for, or a refusal when two of them name different modes.
// `given(flag)` says whether the flag was on the command line.
struct ModeChoice {
    Mode mode = Mode::Window;
    std::optional<std::string> problem;
};
ModeChoice chooseMode(const std::function<bool(std::string_view)>& given);

// The first flag that does not belong to `mode` (or that needs another flag not given), as a
// refusal naming what it applies to; nullopt when every given flag belongs.
std::optional<std::string> flagOutsideMode(Mode mode, const std::function<bool(std::string_view)>& given);

// Every flag of the table (for tests: each flag murmur declares is in it, and no other).
std::vector<std::string_view> tabledFlags();

}  // namespace murmur
