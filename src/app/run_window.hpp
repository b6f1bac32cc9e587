// The interactive run: a GLFW window, the flock drawn from the simulation's buffers, the ImGui
// panel, camera and keys. With no display it says so and falls back to a headless run that
// writes a screenshot.
#pragma once

#include "app/options.hpp"
#include "model/boid.hpp"

#include <ostream>

namespace murmur {

// imported: the starting flock, or null to spawn from opt.params. Returns the exit code.
int runWindow(const Options& opt, const Flock* imported, std::ostream& out, std::ostream& err);

}  // namespace murmur
