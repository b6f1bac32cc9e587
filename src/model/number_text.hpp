// A number as murmur writes it in messages, state files and sweep files: "%.9g", enough digits
// that a float reads back to the same float. One formatter, so a value echoed in a message is the
// value a file holds.
#pragma once

#include <string>

namespace murmur {

std::string numberText(double v);
// The shortest text that reads back as exactly v (0.2, not 0.20000000000000001).
std::string shortestText(double v);

}  // namespace murmur
