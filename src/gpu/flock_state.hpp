// The GPU flock state: the boids' buffers and their sorted copy, the grid's cells, the parameter
// block and an ensemble's layout (its flocks' blocks and table). Every pass binds it and reads or
// writes it; it owns no program. The layout of the binding slots is layout.glsl's.
#pragma once

#include "gl/buffer.hpp"
#include "gl/buffer_texture.hpp"
#include "model/boid.hpp"
#include "model/grid_spec.hpp"
#include "model/params.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace murmur::gpu {

// An ensemble's flock: its parameters, grid, slots, cells and work groups in the whole state.
struct EnsembleFlock {
    Params params;
    GridSpec grid;
    std::uint32_t first_slot = 0, first_cell = 0, boids = 0;
    std::uint32_t first_group = 0;  // in a measure pass over all flocks (measureFlocks)
    bool groups_on_gpu = false;     // its group radius within the grid's reach
};

struct FlockState {
    FlockState();

    // The state buffers for `flock` (and their sorted copies), the step count back to 0; the
    // parameters follow (setParams, or layOutFlocks and layOutBlocks). An ensemble's flocks come
    // one after another, `flock_sizes` boids each (empty: one flock): a boid's image counts lie
    // at its flock's first slot plus its id.
    void upload(const Flock& flock, const std::vector<std::uint32_t>& flock_sizes = {});
    // The perch times, slot table and steering these parameters read, zero, if not there yet.
    void allocateOptional(const Params& params);
    void allocateCells(std::uint32_t cells);  // the cell counts and starts (all flocks')
    void viewSorted();                        // the buffer textures over the current buffers
    void bind() const;                        // every buffer at its slot (layout.glsl), the textures at their units
    // One flock's parameters (and grid) into its block; the next step counts afresh.
    void setParams(const Params& params, const GridSpec& grid);
    // An ensemble's flocks laid out one after another (slots, cells, work groups), with `params`
    // sized; returns the cells of all. layOutBlocks then writes their blocks and table.
    std::uint32_t layOutFlocks(const std::vector<Params>& params);
    void layOutBlocks();
    void uploadStepEvents();  // the step index into each flock's block (or the table)

    Flock downloadSlots(std::uint32_t first, std::uint32_t count);
    Flock downloadFlock(std::uint32_t k);  // an ensemble's flock k, or the one flock
    bool isEnsemble() const { return !ensemble.empty(); }
    std::uint32_t flockCount() const { return ensemble.empty() ? 1u : std::uint32_t(ensemble.size()); }
    // Flock k of the ensemble, or null for flock 0 of one flock; std::out_of_range past the last.
    const EnsembleFlock* ensembleFlock(std::uint32_t k) const;
    // Whether the binning's outputs describe the state: every writer of the positions and
    // velocities (or of the grid) calls changed(), which moves the state's version on; the
    // binning marks what it made with the version it binned.
    void changed() { ++version_; }                             // pos, vel or the grid: the binning's outputs no longer describe them
    void changedAndCounted() { counted_ = ++version_; }        // the steer pass: it counted what it wrote into counts[current]
    bool counted() const { return counted_ == version_; }      // counts[current] and boid_bin describe pos
    bool sorted() const { return sorted_ == version_; }        // the sorted copy and cell starts do (a sample binned this state)
    void markCounted() { counted_ = version_; }
    void markSorted() { sorted_ = version_; }
    void forgetSorted() { sorted_ = kNever; }                  // the next step bins though nothing changed (it is timed)

    Params params;   // one flock's, or an ensemble's flock 0's with boids = every slot
    GridSpec grid;   // one flock's, or an ensemble's flock 0's
    std::uint32_t n = 0;
    std::uint32_t step_count = 0;  // steps since upload (perch lengths are drawn from it)
    gl::Buffer params_ubo, pos, vel, sorted_pos, sorted_vel, boid_bin, slot_of_id, neighbours;
    gl::Buffer cell_start, perch, sorted_perch, steer, sorted_steer;
    gl::Buffer images;  // ivec4 per id (from each flock's first slot): periodic images crossed (wrap bounds; else one element)
    // Cell counts, double-buffered: the step reads counts[current] (of the state it starts from)
    // while its steer pass counts the state it writes into the other, which the scan zeroed.
    std::array<gl::Buffer, 2> counts;
    // What the steer and measure passes read, as buffer textures over the buffers above
    // (sorted_reads.glsl): made whenever a buffer is, bound to the TEX_* units with the state.
    gl::BufferTexture sorted_pos_tex, sorted_vel_tex, sorted_perch_tex, cell_start_tex;
    gl::BufferTexture boid_bin_tex;  // over boid_bin, RG32UI: flock_steps.comp's keys (an image)
    int current = 0;
    std::uint32_t cell_total = 0;  // every flock's cells
    // An ensemble's flocks (empty: one flock), their blocks and the table (common.glsl's FlockTable).
    std::vector<EnsembleFlock> ensemble;
    std::uint32_t ensemble_groups = 0;  // work groups of a measure pass over all flocks
    gl::Buffer flock_params, flock_table;

private:
    static constexpr std::uint64_t kNever = ~std::uint64_t(0);
    std::uint64_t version_ = 0, counted_ = kNever, sorted_ = kNever;
};

// A copy of the state on the GPU (checkpoint and rollback), never through the host.
struct StateCopy {
    void save(const FlockState& s);
    void restore(FlockState& s) const;  // the grid and sorted copy then stale
    gl::Buffer pos, vel, perch, steer, neighbours, images;  // neighbours: the last step's counts, by slot as pos
    std::uint32_t step_count = 0;
};

}  // namespace murmur::gpu
