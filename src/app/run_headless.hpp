// A run with no window: spawn or import, step, export, and print a summary.
#pragma once

#include "app/options.hpp"
#include "model/boid.hpp"

#include <memory>
#include <ostream>

#include "model/simulation.hpp"
#include "render/camera.hpp"

namespace murmur::gl {
class HeadlessContext;
}
namespace murmur::gpu {
class GpuSimulation;
}

namespace murmur {

// A current headless GL context with debug output on, or null after printing why none could be
// made (the caller exits 1).
std::unique_ptr<gl::HeadlessContext> openHeadlessContext(std::ostream& err);

// The first boid whose position or velocity is not finite, or nullptr: no file is written from
// such a flock.
const Boid* firstNonFinite(const Flock& flock);

// The camera on sim's flock where it covers a small part of the world, else on the world
// (render::Camera::reset with the positions): the window's start, respawn and reset key, and the
// headless screenshot.
void frameFlock(render::Camera& camera, Simulation& sim, const Params& p);

// The simulation for opt.backend (GPU: per-pass timing on; needs a current context). *gpu is
// set to the GPU pipeline, or null for the CPU reference.
std::unique_ptr<Simulation> makeSimulation(const Options& opt, gpu::GpuSimulation** gpu);
std::unique_ptr<Simulation> makeSimulation(const Options& opt);

// imported: the starting flock, or null to spawn from params. Returns the exit code.
int runHeadless(const Options& opt, const Flock* imported, std::ostream& out, std::ostream& err);

}  // namespace murmur
