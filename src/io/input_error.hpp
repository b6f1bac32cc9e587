// The error type for bad user input (flags, presets, imported files): the app reports its
// message and exits with code 2, unlike runtime failures (exit 1).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace murmur {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// User text as echoed in a message: at most 60 characters, "..." after a cut (a multi-megabyte
// field must not become a multi-megabyte message).
inline std::string echo(std::string_view text) {
    constexpr std::size_t kMax = 60;
    return text.size() <= kMax ? std::string(text) : std::string(text.substr(0, kMax)) + "...";
}

}  // namespace murmur
