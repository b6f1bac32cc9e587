// The table of every parameter key (as used by presets, --set and --list-params): its type,
// default, valid range, unit and help text, and how to read and write it in a Params.
#pragma once

#include "model/params.hpp"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace murmur {

enum class ParamKind { Float, Int, Choice, Seed };

struct ParamInfo {
    const char* key;
    ParamKind kind;
    const char* unit;
    double min;                            // Float/Int/Seed: inclusive bounds
    double max;
    std::vector<const char*> choices;      // Choice: names, index = stored value
    const char* help;
    double (*get)(const Params&);
    void (*set)(Params&, double);
};

std::span<const ParamInfo> paramTable();
const ParamInfo* findParam(std::string_view key);

// Text form of a key's value in p ("0.5", "wrap", "3").
std::string formatValue(const ParamInfo& info, const Params& p);
// Whether a key changes how the flock moves: every key but the view's ("view only: ..." in its
// help: colour, draw, camera, boid_length) and the measures' (group_radius).
bool movesTheFlock(const ParamInfo& info);
// What changes from `from` to `to` among the keys that move the flock (and the obstacles), one
// "key from A to B" each, in the table's order: a resume names them.
std::vector<std::string> motionChanges(const Params& from, const Params& to);
// "[0, 100]" or "wrap|soft".
std::string rangeText(const ParamInfo& info);
// The shortest text that reads back as the same float ("0.0333", not "0.0333333351"), and that
// text's double: what a saved preset writes, so it shows what the user typed.
std::string floatText(float v);
double asTyped(float v);
// User text as echoed in a message: at most 60 characters, "..." after a cut (a multi-megabyte
// field must not become a multi-megabyte message).
// Control bytes are shown as \xNN, so input can never drive the terminal.
std::string echo(std::string_view text);
// The whole text with every control byte (newline included) as \xNN: a message built around a
// value the user gave, kept on one line whatever the value held.
std::string escapeControls(std::string_view text);
// One byte as the four characters "\xNN" (how echo and murmur's output show a control byte).
std::string hexEscape(unsigned char byte);

// "key=value" for every key whose value differs between a and b (b's value), in table order: what
// --set would take to turn a into b.
std::vector<std::string> changedSettings(const Params& a, const Params& b);
// Those settings as flags that start a run so: " --set key=value" each, but the count and the
// dimensions as " --boids N" and " --dims D" (the command line applies --boids and --dims after
// every --set, so a --set of either would lose to the flags the run was started with).
std::string startAgainFlags(const std::vector<std::string>& settings);

// Levenshtein distance (insertions, deletions, substitutions), for "did you mean" suggestions.
std::size_t editDistance(std::string_view a, std::string_view b);
// The key nearest a mistyped one ("seperation.weight" -> separation.weight), or nullptr when no
// key is within a slip of it.
const ParamInfo* nearestParam(std::string_view key);

// A number as every numeric input reads it (--set, presets' CLI counterparts, count flags,
// sweeps): the whole text, decimal, an exponent allowed ("1e8"); no '+', no hex. Inf and NaN
// parse (callers check ranges). Empty optional if the text is not such a number.
std::optional<double> parseNumber(std::string_view text);

// Parses text for info (a number or a choice name) and stores it in p. Checks the key's own
// range; returns the problem text on failure. Cross-field rules are checked by validate().
std::optional<std::string> setFromText(const ParamInfo& info, std::string_view text, Params& p);
std::optional<std::string> setFromNumber(const ParamInfo& info, double value, Params& p);

}  // namespace murmur
