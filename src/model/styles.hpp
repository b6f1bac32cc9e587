// The style registry: one row per rule set (style), from which everything that lists styles is
// derived: the style key's names and help, the keys that apply in each style, the GPU shader that
// holds its rules, its values for the GPU, the self-test's and the tests' lists. Each row is its
// style's model module's (src/styles/<name>/params.cpp); its rules live in
// src/styles/<name>/cpu.{hpp,cpp} and src/styles/<name>/<name>.glsl (docs/model.md, "Adding a style").
#pragma once

#include "model/param_table.hpp"
#include "model/params.hpp"

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace murmur {

// A style's own value in the GPU's parameter block (layout.glsl's SimParams::style, four vec4),
// declared once, in its registry row: slot k is component k % 4 of vec4 k / 4. The shader reads it
// by `name`, a define the GPU backend makes from this table (variant.cpp), so the packing and the
// shader cannot disagree; `value` is what goes in.
struct StyleSlot {
    const char* name;
    float (*value)(const Params&);
};
inline constexpr std::size_t kMaxStyleSlots = 16;

// A switch of the style's shader, compiled in or out (a define of 0 or 1): options that would
// otherwise be tested per neighbour pair.
struct ShaderSwitch {
    const char* name;
    bool on;
};
using ShaderSwitches = std::vector<ShaderSwitch>;

// What the shared step does around a style's rules.
struct StyleTraits {
    bool velocity_cone = true;      // the field of view is a cone about the velocity (else the style sees for itself)
    bool keeps_steer = false;       // Boid::steer carries the last acceleration from step to step
    bool leaves_reach = false;      // keeps_steer in x, y, z only: w is the adaptive radius' (topological.*)
    bool own_search = false;        // a neighbour search of its own beside the sums (two sweeps)
    bool amortised_steering = false;  // a boid steers every stepsPerSteer() steps and coasts between
    bool offsets_per_step = false;  // the rules' weights are velocity offsets per step, not accelerations
    bool reformulable = true;       // update order, integrator and speed limit apply (not a model of its own)
    bool wings_flap = false;        // drawn with flapping wings
    bool banks = false;             // keeps_steer: steer.x is the bank angle (radians); else steer.xyz the last acceleration
    bool trap_turns = false;        // the harmonic trap turns the velocity at the style's speed (no acceleration is integrated)
    // keeps_steer: what it keeps in the per-boid slot (Boid::steer), a name for each component
    // (nullptr: unused), as H5MD trajectories and the library name them.
    std::array<const char*, 4> kept_state{};
    // Is the per-boid slot's w free for the adaptive topological radius (topological.*)?
    bool takesAdaptiveRadius() const { return !keeps_steer || leaves_reach; }
};

struct StyleInfo {
    Style style;
    const char* name;     // in presets, --set style=NAME and the panel
    const char* summary;  // its part of the style key's help
    const char* glsl;     // its shader under shaders/, included by flock_steer.comp
    const char* prefix;   // its own keys start with this; they apply in this style only
    StyleTraits traits;
    std::vector<ParamInfo> keys;             // its own keys, listed after "style"
    std::vector<std::string> ignored_keys;   // shared keys it does not read (the panel greys them)
    std::vector<StyleSlot> slots;            // its values in the GPU's block, in slot order (at most kMaxStyleSlots)
    // Optional (nullptr: none): its own reach, a cut-off within which every pair interacts in
    // place of the species' three rule radii (which it then ignores: Params::rulesOf gives them
    // as 0, and SpeciesRules::reach this); the radii a species looks within when they are not its
    // own keys; cross-field rules of its keys; the order parameters' group radius (given the
    // default).
    float (*reach)(const Params&) = nullptr;
    const char* reach_key = nullptr;  // with reach: the key that sets it (the window's +/- keys nudge it)
    void (*adjust_rules)(const Params&, SpeciesRules&) = nullptr;
    void (*check)(const Params&, std::vector<ParamProblem>&) = nullptr;
    float (*group_radius)(const Params&, float nn_radius, float group_radius) = nullptr;
    ShaderSwitches (*switches)(const Params&) = nullptr;  // its shader's switches for these parameters
};

// Each style's registry row, defined by its model module (src/styles/<name>/params.cpp) and
// declared here for every style of the one list (MURMUR_STYLES).
template <Style S>
StyleInfo styleRowOf();
#define MURMUR_STYLE_ROW(name, value, member) \
    template <>                               \
    StyleInfo styleRowOf<Style::name>();
MURMUR_STYLES(MURMUR_STYLE_ROW)
#undef MURMUR_STYLE_ROW

// Whether a flock with these parameters keeps a per-boid state from step to step in Boid::steer:
// its style's (keeps_steer), or the adaptive topological radius'.
bool keepsState(const Params& p);

// The names of the per-boid slot's components (Boid::steer) that a flock with these parameters
// keeps from step to step, "unused" where none: the style's (keeps_steer), or the adaptive
// topological radius' (w: "search_radius"); empty when it keeps none.
std::vector<std::string> keptStateNames(const Params& p);

// Every style, in the order of the Style enum.
std::span<const StyleInfo> styles();
const StyleInfo& styleInfo(Style s);
// The style called name, or nullptr.
const StyleInfo* findStyle(std::string_view name);

}  // namespace murmur
