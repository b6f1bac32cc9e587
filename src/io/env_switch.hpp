// murmur's on/off environment variables (MURMUR_PROGRAM_CACHE, MURMUR_GL_DEBUG): one reading of
// their values for every layer. Header-only, so that the GL layer (which links no other murmur
// library) reads them as the command line and the library check them.
#pragma once

#include "io/input_error.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace murmur {

// The switches envSwitch reads: the command line and the library check every one up front
// (checkEnvSwitches), so that a bad value is refused before a run, not where the GL layer reads it.
inline constexpr const char* kEnvSwitches[] = {"MURMUR_PROGRAM_CACHE", "MURMUR_GL_DEBUG"};

namespace env_detail {

// The value as a message shows it: at most 40 bytes, a control byte (newline included) as \xNN.
inline std::string envValueShown(std::string_view value) {
    constexpr char kHex[] = "0123456789abcdef";
    std::string shown;
    for (const char c : value.substr(0, 40)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) shown += c;
        else shown += {'\\', 'x', kHex[byte >> 4], kHex[byte & 15]};
    }
    return value.size() <= 40 ? shown : shown + "...";
}

inline bool envWordIs(std::string_view value, std::initializer_list<std::string_view> words) {
    return std::any_of(words.begin(), words.end(), [&](std::string_view w) {
        return value.size() == w.size() && std::equal(value.begin(), value.end(), w.begin(), [](char a, char b) {
                   return std::tolower(static_cast<unsigned char>(a)) == b;
               });
    });
}

}  // namespace env_detail

// The environment's switch `name`: true for 1, on, true or yes; false for 0, off, false or no (in
// any case); nullopt when unset or empty (the caller's default). Any other value throws InputError
// naming the variable, the value (escaped) and the valid values.
inline std::optional<bool> envSwitch(const char* name) {
    const char* raw = std::getenv(name);
    if (!raw || !*raw) return std::nullopt;
    const std::string_view value(raw);
    if (env_detail::envWordIs(value, {"1", "on", "true", "yes"})) return true;
    if (env_detail::envWordIs(value, {"0", "off", "false", "no"})) return false;
    throw InputError(std::string(name) + "='" + env_detail::envValueShown(value) +
                     "': valid: 1, on, true or yes (on); 0, off, false or no (off); in any case; unset or empty: the default");
}

// InputError for the first of kEnvSwitches whose value envSwitch refuses.
inline void checkEnvSwitches() {
    for (const char* name : kEnvSwitches) (void)envSwitch(name);
}

}  // namespace murmur
