// The table of which flags each mode takes (cli_modes.hpp). A flag missing here cannot be given
// at all (tests check that every declared flag has a row).
#include "app/cli_modes.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace murmur {
namespace {

using Modes = std::uint32_t;
constexpr Modes bit(Mode m) { return Modes(1) << unsigned(m); }
constexpr Modes W = bit(Mode::Window), H = bit(Mode::Headless), B = bit(Mode::Bench), S = bit(Mode::Sweep),
                M = bit(Mode::SweepMerge), T = bit(Mode::SelfTest), LP = bit(Mode::ListParams),
                LS = bit(Mode::ListPresets);
constexpr Modes kRun = W | H;  // a single flock, window or headless

struct FlagRow {
    std::string_view flag;
    Modes modes;
    std::string_view needs = {};  // another flag this one refines ("--record-every" needs "--record")
};

// clang-format off
constexpr std::array kFlags{
    FlagRow{"--boids", kRun | S},          FlagRow{"--dims", kRun | S},
    FlagRow{"--preset", kRun | S},         FlagRow{"--set", kRun | S | B},
    FlagRow{"--seed", kRun | S},           FlagRow{"--backend", kRun | B | S},
    FlagRow{"--shader-dir", kRun | B | S | T},     FlagRow{"--gl-debug", kRun | B | S | T},
    FlagRow{"--headless", H | B | S | M | T | LP | LS},  // cluster scripts pass it everywhere
    FlagRow{"--steps", kRun | S},
    FlagRow{"--screenshot", kRun},         FlagRow{"--width", kRun},
    FlagRow{"--height", kRun},             FlagRow{"--colour", kRun},             FlagRow{"--camera", kRun},
    FlagRow{"--frames", W},                FlagRow{"--body", H},                FlagRow{"--no-vsync", W},
    FlagRow{"--record", kRun},             FlagRow{"--record-every", kRun, "--record"},
    FlagRow{"--record-fps", kRun, "--record"},
    FlagRow{"--trajectory", H},            FlagRow{"--trajectory-every", H, "--trajectory"},
    FlagRow{"--trajectory-deflate", H, "--trajectory"}, FlagRow{"--trajectory-author", H, "--trajectory"},
    FlagRow{"--trajectory-unwrapped", H, "--trajectory"}, FlagRow{"--trajectory-3d", H, "--trajectory"},
    FlagRow{"--import", kRun},             FlagRow{"--export", kRun},
    FlagRow{"--resume", kRun},             FlagRow{"--resume-override", kRun, "--resume"},
    FlagRow{"--stats-out", kRun},          FlagRow{"--stats-every", kRun, "--stats-out"},
    FlagRow{"--bench", B},                 FlagRow{"--bench-sizes", B},
    FlagRow{"--bench-steps", B},           FlagRow{"--bench-clump-steps", B},
    FlagRow{"--bench-style", B},           FlagRow{"--bench-out", B},
    FlagRow{"--bench-compare", B},         FlagRow{"--bench-flocks", B},
    FlagRow{"--bench-ab", B},              FlagRow{"--bench-rounds", B, "--bench-ab"},
    FlagRow{"--sweep", S},                 FlagRow{"--sweep-seeds", S},
    FlagRow{"--sweep-burn-in", S},         FlagRow{"--sweep-every", S},
    FlagRow{"--sweep-out", S},             FlagRow{"--sweep-shard", S},
    FlagRow{"--sweep-carry", S},           FlagRow{"--sweep-batch", S},           FlagRow{"--sweep-xi", S},           FlagRow{"--sweep-plot", S | M},
    FlagRow{"--sweep-plot-of", S | M, "--sweep-plot"},
    FlagRow{"--sweep-merge", M},           FlagRow{"--self-test", T},
    FlagRow{"--list-params", LP},          FlagRow{"--list-presets", LS},
};
// clang-format on

// The flags that choose a mode, strongest first; --headless is the default mode's variant.
constexpr std::array<std::pair<std::string_view, Mode>, 6> kModeFlags{{{"--list-params", Mode::ListParams},
                                                                       {"--list-presets", Mode::ListPresets},
                                                                       {"--self-test", Mode::SelfTest},
                                                                       {"--sweep-merge", Mode::SweepMerge},
                                                                       {"--bench", Mode::Bench},
                                                                       {"--sweep", Mode::Sweep}}};

// "the window", "the window or --headless", "--bench, --sweep or --self-test"
std::string modeList(Modes modes) {
    std::vector<std::string_view> names;
    for (unsigned m = 0; m <= unsigned(Mode::ListPresets); ++m)
        if (modes & (Modes(1) << m)) names.push_back(modeName(Mode(m)));
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text += std::string(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
    return text;
}

}  // namespace

std::string_view modeName(Mode m) {
    constexpr std::array<std::string_view, 8> names{"the window", "--headless",   "--bench",       "--sweep",
                                                    "--sweep-merge", "--self-test", "--list-params", "--list-presets"};
    return names[std::size_t(m)];
}

ModeChoice chooseMode(const std::function<bool(std::string_view)>& given) {
    ModeChoice choice;
    std::string_view first;
    for (const auto& [flag, mode] : kModeFlags) {
        if (!given(flag)) continue;
        if (first.empty()) {
            first = flag;
            choice.mode = mode;
        } else if (!choice.problem) {
            choice.problem = std::string(first) + " and " + std::string(flag) + " are two different modes; give one";
        }
    }
    if (first.empty() && given("--headless")) choice.mode = Mode::Headless;
    return choice;
}

std::optional<std::string> flagOutsideMode(Mode mode, const std::function<bool(std::string_view)>& given) {
    for (const FlagRow& row : kFlags) {
        if (!given(row.flag)) continue;
        if (!(row.modes & bit(mode)))
            return std::string(row.flag) + " does not apply to " + std::string(modeName(mode)) + ": it applies to " +
                   modeList(row.modes) + " only";
        if (!row.needs.empty() && !given(row.needs))
            return std::string(row.flag) + " applies to " + std::string(row.needs) + " only; " + std::string(row.needs) +
                   " was not given";
    }
    return std::nullopt;
}

std::vector<std::string_view> tabledFlags() {
    std::vector<std::string_view> flags;
    for (const FlagRow& row : kFlags) flags.push_back(row.flag);
    return flags;
}

}  // namespace murmur
