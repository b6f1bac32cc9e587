// A run with no window: spawn or import, step, export, and print a summary.
#pragma once

#include "app/options.hpp"
#include "model/boid.hpp"

#include <memory>
#include <ostream>

namespace murmur::gl {
class HeadlessContext;
}

namespace murmur {

// A current headless GL context with debug output on, or null after printing why none could be
// made (the caller exits 1).
std::unique_ptr<gl::HeadlessContext> openHeadlessContext(std::ostream& err);

// imported: the starting flock, or null to spawn from params. Returns the exit code.
int runHeadless(const Options& opt, const Flock* imported, std::ostream& out, std::ostream& err);

}  // namespace murmur
