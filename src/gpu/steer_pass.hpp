// The steer pass: flock_steer.comp steps every boid from the binned state (its neighbours from the
// sorted copy through the cells around it) and counts what it writes into the next cell counts.
// Its variants: the sampled step's (MEASURE_IN_STEER: it also walks for a sample) and the
// sequential order's (no grid: runs of ids, one invocation each). Slow steps may run in slices
// of work groups, checking between them whether to stop (the window's Esc and close button).
// In wrap bounds the parallel order's pass is followed by image_count.comp, which adds the
// periodic images each boid crossed (the steer pass has no storage block to spare for them).
#pragma once

#include "gl/program.hpp"
#include "gpu/flock_state.hpp"
#include "gpu/layout.hpp"
#include "model/density.hpp"

#include <functional>
#include <span>
#include <string>
#include <vector>

namespace murmur::gpu {

class SteerPass {
public:
    using Interrupt = std::function<bool()>;
    static std::vector<std::string> shaderFiles() { return {"flock_steer.comp", "image_count.comp"}; }
    void setPrograms(std::span<gl::Program> built);  // in shaderFiles()'s order; the sampled variant goes
    void setMeasured(gl::Program measured) {
        measured_ = std::move(measured);
        measured_group_ = groupSize(measured_);
    }
    bool hasMeasured() const { return bool(measured_); }
    gl::Program& program(bool measured = false) { return measured ? measured_ : steer_; }

    // With an interrupt's `check` set, a step whose estimated cost (candidatePairsPerStep) is at
    // least `min_pairs` runs in slices of `slice_groups` work groups, waiting for each and
    // calling `check` between them; when it returns true the step stops there, unfinished.
    void setSlices(std::uint32_t slice_groups, double min_pairs);
    bool inSlices(const Params& p, const Interrupt& check) const;  // would a step of these parameters run in slices
    // The pass over every boid with `program` (bound), in slices where inSlices: false when
    // interrupted (the state then stale). Then the cell counts it wrote are current, and in wrap
    // bounds the images are counted.
    bool run(FlockState& s, gl::Program& program, const Interrupt& check);
    // The sequential order: no binning; flock_steer.comp steps the boids in id order in the state
    // buffers (slot_of_id holds its slot-of-id table), a run of ids a dispatch.
    void runSequential(FlockState& s);

private:
    bool runInSlices(FlockState& s, std::uint32_t groups, std::uint32_t per_group, const Interrupt& check);
    static std::uint32_t groupSize(const gl::Program& program);
    void countImages(const FlockState& s);
    gl::Program steer_, measured_, images_;
    std::uint32_t steer_group_ = STEP_GROUP_SIZE, measured_group_ = STEP_GROUP_SIZE;  // boids a work group of each
    std::uint32_t slice_groups_ = 32;
    double slice_min_pairs_ = kSlowStepPairs;
};

}  // namespace murmur::gpu
