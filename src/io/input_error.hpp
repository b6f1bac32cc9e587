// The error type for bad user input (flags, presets, imported files): the app reports its
// message and exits with code 2, unlike runtime failures (exit 1).
#pragma once

#include <stdexcept>
#include <string>

namespace murmur {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace murmur
