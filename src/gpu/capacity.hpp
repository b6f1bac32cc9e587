// What fits a GPU: the flock's bytes per boid, the storage block and buffer texture limits it
// meets, the GL limits the passes need, and how the sequential order splits its dispatches.
#pragma once

#include "model/grid_spec.hpp"
#include "model/params.hpp"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace murmur::gpu {

// The flock does not fit the GPU: the message names N and the limit.
class CapacityError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The GL implementation lacks a limit the passes need: the message names the limit, what this
// driver offers and what murmur needs.
class LimitError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Checks the limits the passes use for this variant (storage blocks per compute shader, bindings,
// texture units, work group size and invocations, shared memory); throws LimitError.
void checkGlLimits(const Params& params);

struct Capacity {
    std::uint64_t max_block_bytes = 0;      // GL_MAX_SHADER_STORAGE_BLOCK_SIZE
    std::uint64_t max_texels = 0;           // GL_MAX_TEXTURE_BUFFER_SIZE (sorted_reads.glsl reads through them)
    std::uint64_t available_bytes = 0;      // free video memory where the driver says; 0 = unknown (a warning only)
    std::uint64_t max_boids = 0;            // what the storage block size and buffer textures allow
    std::uint64_t fixed_bytes = 0;          // the grid's buffers, whatever the count
};

// Bytes of GPU storage per boid for these parameters: state and its sorted copy, cell, rank and
// neighbour count (76); perch times and their sorted copy only when perching (8); the stored
// steering and its sorted copy only in the styles that keep it, decarpentier and gloss (32); the
// image counts only in wrap bounds (16).
std::uint64_t bytesPerBoid(const Params& p);
bool keepsPerchTimes(const Params& p);
bool keepsSteering(const Params& p);
bool keepsSlotOfId(const Params& p);
bool keepsImages(const Params& p);  // the periodic images each boid crossed (wrap bounds)  // the sequential order's table of slots by id

// The sequential order steps its boids in runs of ids, one dispatch each, so that no invocation
// loops more than kLoopBudget times: llvmpipe ends every loop of an invocation silently after
// 65,535 iterations in all (LP_MAX_TGSI_LOOP_ITERATIONS), and short dispatches keep clear of a
// real GPU's watchdog too. The ids per dispatch for this flock (at least 1).
inline constexpr std::uint64_t kLoopBudget = 60000;
std::uint32_t sequentialRun(const Params& p, std::uint32_t boids);
// The sweeps over the candidates a boid's gather makes (flock_gather.glsl): two with a neighbour
// cap or a style's own search (the first finds, the second sums), else one.
std::uint32_t neighbourSweeps(const Params& p);

Capacity queryCapacity(const GridSpec& grid);
// Why these parameters do not fit a GPU of this capacity (naming N, the limit it meets, the grid's
// cells where those are the problem, and the valid range of N), or nothing if they do.
std::optional<std::string> capacityProblem(const Params& params, const Capacity& cap);
// Throws CapacityError with capacityProblem's message if the flock does not fit this GPU.
void checkCapacity(const Params& params);
// The same for a grid of `cells` alone (setParams, an ensemble's cells): its cell starts are read
// through a buffer texture.
void checkGridFits(const Params& params, const GridSpec& grid);
// Free video memory is a driver's guess, not a limit: a flock larger than it gets a warning (where
// the driver reports it: NVX_gpu_memory_info), not a refusal.
std::optional<std::string> memoryWarning(const Params& params);

}  // namespace murmur::gpu
