// A run with no window: spawn or import, step, export, and print a summary.
#pragma once

#include "app/options.hpp"
#include "model/boid.hpp"

#include <ostream>

namespace murmur {

// imported: the starting flock, or null to spawn from params. Returns the exit code.
int runHeadless(const Options& opt, const Flock* imported, std::ostream& out, std::ostream& err);

}  // namespace murmur
