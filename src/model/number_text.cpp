#include "model/number_text.hpp"

#include <charconv>
#include <cstdio>

namespace murmur {

std::string numberText(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

std::string shortestText(double v) {
    char buf[64];
    const auto result = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, result.ptr);
}

}  // namespace murmur
