// What the command line asks for, after parsing and validation (see cli.cpp).
#pragma once

#include "model/params.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace murmur {

enum class Backend { Cpu, Gpu };

struct Options {
    Params params;
    Backend backend = Backend::Gpu;
    bool headless = false;
    std::uint64_t steps = 300;
    std::string import_path;
    std::string export_path;
    std::string shader_dir;  // empty: shaders embedded in the binary
};

}  // namespace murmur
