// Steps in work groups: small flocks stepped many steps a dispatch (flock_steps.comp). A flock of
// at most STEP_GROUP_SIZE boids whose grid lists every cell around each boid (at most GRID_SPAN
// cells an axis when wrapped, GRID_REACH + 1 walled) looks at all of its boids in the grid's
// order, so one work group can order it and step it, step after step, to the bits of the step's
// four or five passes. An ensemble takes this path when every flock can. Its program is built
// when first used, for the work group size and memory it needs.
#pragma once

#include "gl/program.hpp"
#include "gpu/flock_state.hpp"

#include <string>
#include <vector>

namespace murmur::gpu {

// A step's ordered flock is kept in shared memory or in images: Auto takes images on a software
// renderer (llvmpipe loads shared memory lane by lane), shared memory on a GPU.
enum class GroupMemory { Auto, Shared, Images };

class GroupStepsPass {
public:
    struct Plan {
        int steps = 0;  // 0: the next step takes the passes
        std::uint32_t group_size = 0;
        bool shared = false;  // the ordered flock in shared memory, else in images
    };
    void enable(bool on, GroupMemory memory) {
        on_ = on;
        memory_ = memory;
    }
    void setSoftwareRenderer(bool software) { software_ = software; }
    // How the next dispatch steps (at most `wanted` steps), or no steps. `variant` is what the
    // programs were built for (an ensemble's obstacles); `blocked`: a step profiled pass by pass
    // or run in slices, which take the passes.
    Plan plan(const FlockState& s, const Params& variant, int wanted, bool blocked) const;
    // The state's next `how.steps` steps in one dispatch, one work group a flock (builds the
    // program for `defines` if it is not built for this plan: throws ShaderError before anything
    // changes). The step count moves on; the next step's passes count the cells afresh.
    void run(FlockState& s, const Plan& how, const gl::ShaderLibrary& lib, const std::vector<gl::ShaderDefine>& defines);
    void forget() { program_ = gl::Program{}; }  // a new variant: built again when next used
    // The program again from `lib` if one is built (a shader reload): throws before anything changes.
    void rebuild(const gl::ShaderLibrary& lib, const std::vector<gl::ShaderDefine>& defines);
    std::uint64_t taken() const { return taken_; }

private:
    gl::Program build(const gl::ShaderLibrary& lib, std::vector<gl::ShaderDefine> defines, std::uint32_t size, bool shared) const;
    bool on_ = true, software_ = false;
    GroupMemory memory_ = GroupMemory::Auto;
    gl::Program program_;
    std::uint32_t group_size_ = 0;
    bool shared_ = false;
    std::uint64_t taken_ = 0;
};

}  // namespace murmur::gpu
