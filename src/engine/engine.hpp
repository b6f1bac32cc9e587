// The engine's front door for murmur's own clients (the window, headless runs, the benchmark,
// sweeps, the self-test, the library's murmur::api): a simulation or an ensemble made by backend,
// and what a client asks of one beyond model/simulation.hpp (the GPU's limits, its pass timings,
// a step's counts). Nothing here names a backend's types: src/cpu and src/gpu stay behind it
// (tests/engine_shape.py checks that src/app includes neither).
#pragma once

#include "model/ensemble.hpp"
#include "model/params.hpp"
#include "model/simulation.hpp"

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace murmur::gl {
class HeadlessContext;
}

namespace murmur {

enum class Backend { Cpu, Gpu };

namespace engine {

// The simulation for `backend`. GPU: the shaders of shader_dir (empty: those built in), per-pass
// timing on where `timed` (passTimes), and a current GL context needed for its whole life.
std::unique_ptr<Simulation> makeSimulation(Backend backend, const std::string& shader_dir = {}, bool timed = false);
// Many flocks stepped together (model/ensemble.hpp): one set of GPU buffers, or each in turn on the CPU.
std::unique_ptr<Ensemble> makeEnsemble(Backend backend, const std::string& shader_dir = {});

// A current headless GL context with debug output on, or null after printing why none could be
// made (naming --backend cpu) on err.
std::unique_ptr<gl::HeadlessContext> openHeadlessContext(std::ostream& err);

// The current state as a trajectory frame, by id: positions and velocities, 3 floats a boid (one
// pass and two reads on the GPU); a flock that keeps a per-boid state (keepsState) is read whole,
// and `kept` holds that state, 4 floats a boid (else empty); in wrap bounds `images` holds the
// periodic images each boid crossed, 3 ints a boid (else empty). What --trajectory and the
// library's recordings write.
struct TrajectoryFrame {
    std::vector<float> pos, vel, kept;
    std::vector<std::int32_t> images;
};
TrajectoryFrame trajectoryFrame(Simulation& sim, const Params& p);

// Whether a flock with these parameters fits before it is spawned: on the GPU the current
// context's limits and memory, on the CPU this machine's memory. The problem, naming the limit,
// or nothing.
std::optional<std::string> capacityProblem(Backend backend, const Params& p);
// GPU: a warning when the flock fits but takes most of the card's free memory.
std::optional<std::string> memoryWarning(const Params& p);
// GPU: the most boids like p the current context holds (its storage-block and texel limits).
std::uint64_t gpuMaxBoids(const Params& p);

// Each boid's nearest distance (infinity beyond the nn radius) and group (its first id; -1 outside
// groups of 5 or more), in id order: the CPU reference's measure of a state.
struct BoidLabels {
    std::vector<float> nearest;
    std::vector<std::int64_t> group;
};
BoidLabels boidLabels(const Flock& flock, const Params& p);

// How the GPU's passes after the binning read the sorted flock, from MURMUR_GPU_READS: "textures"
// (buffer textures, the default) or "storage" (storage buffers, opt-in for hardware GPUs until
// measured there). How its steer pass walks the cells, from MURMUR_GPU_WALK: "rows" (the default)
// or "tiles" (work groups of 64 boids that stage their rows in shared memory, opt-in likewise). gpuPathProblem: either
// variable's value is not one of its two, naming them, or MURMUR_EGL_DEVICE is not an index or a PCI
// bus id (gl/egl_devices.hpp), or MURMUR_GPU_TIMEOUT is not seconds (gl/fence.hpp).
std::string gpuReads();
std::string gpuWalk();
// Either variable's value for the GPU flocks made from now on, in place of the environment's
// (gpu::overridePath; empty: the environment's again): the benchmark's A/B.
void overrideGpuPath(const std::string& var, const std::string& value);
// The two variables and their two values each, the first the default (gpu::pathChoices).
struct GpuPathChoice {
    std::string var, a, b;
};
std::vector<GpuPathChoice> gpuPathChoices();
std::optional<std::string> gpuPathProblem();

// The GPU's timer queries, pass by pass, over the steps since restartPassTimes (each step's
// passes timed on the GPU's clock). Empty names on the CPU backend.
struct PassTimes {
    std::vector<std::string> names;
    std::vector<std::vector<double>> samples;  // [pass][step] milliseconds
    std::vector<double> mean_ms;               // per pass
    std::uint64_t steps_in_groups = 0;         // steps of small flocks in work groups (not timed by pass)
    std::uint64_t steps() const { return samples.empty() ? 0 : samples[0].size(); }
};
PassTimes passTimes(Simulation& sim);  // waits for the steps in flight
// The read path and walk a GPU flock's programs were built with ("textures" or "storage", "rows"
// or "tiles"); empty for the CPU.
struct GpuPaths {
    std::string reads, walk;
};
GpuPaths builtPaths(Simulation& sim);
void restartPassTimes(Simulation& sim);

// One step taken and counted (the benchmark's columns): the boids each boid examined and the
// cells it walked for them, its neighbours, the step's dispatches and compulsory bytes by count,
// the memory a boid takes. GPU: the candidates are counted from the state the step starts from.
struct StepCounts {
    double neighbours = 0, candidates = 0;
    double cells_walked = 0;      // GPU: cells the steer pass walks per boid (after culling)
    double ranges_walked = 0;     // GPU: ranges of the sorted copy it walks per boid (a row's x cells each)
    // GPU: candidates, cells and ranges per boid on a grid of whole-radius cells instead (3x3x3
    // cells walked, culled alike): the other cell size, by count, not run
    struct Walked {
        double candidates = 0, cells = 0, ranges = 0;
    } whole_cells;
    double block_candidates = 0;  // GPU: boids in the whole 5x5x5 block
    // GPU: the tiled walk's (MURMUR_GPU_WALK=tiles) positions staged in shared memory, and the
    // candidates read from them, per boid; counted when the tiles run (else 0)
    double tile_loads = 0, tile_candidates = 0;
    std::uint64_t bytes = 0;      // GPU: compulsory traffic of a step, by count (docs/performance.md)
    std::uint64_t dispatches = 0;
    double memory_per_boid = 0;   // GPU: bytes allocated per boid, the grid's share included
};
StepCounts countedStep(Simulation& sim, const Params& p);

}  // namespace engine
}  // namespace murmur
