// A run with no window: spawn or import, step, export, and print a summary.
#pragma once

#include "app/options.hpp"
#include "model/boid.hpp"

#include <memory>
#include <ostream>

#include "model/simulation.hpp"
#include "render/camera.hpp"
#include "render/flock_renderer.hpp"

namespace murmur::gl {
class HeadlessContext;
}

namespace murmur {

// The first boid whose position or velocity is not finite, or nullptr: no file is written from
// such a flock.
const Boid* firstNonFinite(const Flock& flock);

// The camera on sim's flock where it covers a small part of the world, else on the world
// (render::Camera::reset with the positions): the window's start, respawn and reset key, and the
// headless screenshot. Returns where the flock is, for the draw key's auto (render::extentOf).
render::FlockExtent frameFlock(render::Camera& camera, Simulation& sim, const Params& p);

// imported: the starting flock, or null to spawn from params. Returns the exit code.
int runHeadless(const Options& opt, const Flock* imported, std::ostream& out, std::ostream& err);

}  // namespace murmur
