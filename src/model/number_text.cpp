#include "model/number_text.hpp"

#include <cstdio>

namespace murmur {

std::string numberText(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

}  // namespace murmur
