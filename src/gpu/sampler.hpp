// The sampler pass: a flock's order parameters on the GPU. The per-boid measures by reduction
// (flock_measure.comp per work group, measure_reduce.comp over the groups: two vec4 and a 33-bin
// histogram come back at any N, never the flock) and the group measures by union-find (the forest
// of groups.glsl: group_*.comp; 32 bytes back, and 384 for the four largest groups). Its figures
// come back in one read that does not stall: copied on the GPU into read-back memory behind a
// fence when its passes end (a landing), parsed when asked for, by then most likely arrived (the
// window polls; a headless run takes a row's a step later). A sample is of a binned state; one
// in slices copies what its passes read, so that steps taken between its slices do not move what
// it measures. A sampled step's steer pass may do its walk
// (bindForSteer); the sampler's other passes follow it.
#pragma once

#include "gl/buffer.hpp"
#include "gl/buffer_texture.hpp"
#include "gl/program.hpp"
#include "gl/read_buffer.hpp"
#include "gpu/flock_state.hpp"
#include "model/order_params.hpp"

#include <deque>
#include <span>
#include <string>
#include <vector>

namespace murmur::gpu {

class Sampler {
public:
    static std::vector<std::string> shaderFiles();
    void setPrograms(std::span<gl::Program> built);  // in shaderFiles()'s order; the stored walk goes
    // flock_measure.comp with NEAREST_STORED: the walk of a sampled step, its nearest distances
    // written by the steer pass.
    void setStoredWalk(gl::Program walk) { measure_stored_ = std::move(walk); }
    bool hasStoredWalk() const { return bool(measure_stored_); }

    // A sample of `boids` boids (flock `flock` of an ensemble, or the one flock) of the state
    // binned now, with these parameters, landing under `ticket` (0: a sample measured now, taken
    // by takeNewest); `copy`: of a copy of what its passes read, so that steps may come between
    // its slices (else of the live buffers, finished before anything else runs). `in_step`: its
    // walk done by the next steer pass (bindForSteer). A sample in progress is abandoned.
    void start(FlockState& s, const Params& p, std::uint32_t flock, std::uint32_t boids, bool copy, std::uint64_t ticket,
               bool in_step = false);
    // A sample of every flock of the ensemble, of the live buffers.
    void startAllFlocks(FlockState& s, std::uint64_t ticket, bool in_step = false);
    bool active() const { return sample_.active; }
    std::uint64_t activeTicket() const { return sample_.active ? sample_.ticket : 0; }
    // Runs about `boids` boids' walks' worth of the sample's passes; true when they are done (the
    // sample has landed: its figures are on their way back).
    bool advance(FlockState& s, std::uint64_t boids);
    void finish(FlockState& s);  // runs what is left of the passes
    // The samples whose passes are done, by ticket: holds() says whether the one with this
    // ticket is among them, landed() whether its figures have arrived (no wait), take() parses
    // them, waiting if they have not: one OrderParams, or one a flock for startAllFlocks.
    // takeNewest() the same of the newest (a sample measured now), the others left.
    bool holds(std::uint64_t ticket) const { return landing(ticket) != landings_.end(); }
    bool landed(std::uint64_t ticket) const;
    std::vector<OrderParams> take(std::uint64_t ticket);
    std::vector<OrderParams> takeNewest();
    // A sampled step, before its binning: the forest's roots (a clear). After the binning: the
    // sample's buffers and radii bound for `steer`, which walks for it.
    void plantRoots(FlockState& s);
    void bindForSteer(FlockState& s, gl::Program& steer);

private:
    // A sample in progress: what it reads, copied from the state when it began (the sorted copy,
    // cell starts, neighbour counts and the parameter block), its passes' outputs, and how far it
    // has gone. Passes (stage): the groups' roots, the walk, the walk's reduction, the groups'
    // largest root so far and the links outside it, the groups' sums, spin and totals; a stage
    // runs in slices of work groups.
    struct Sample {
        bool active = false;
        bool copied = true;        // of copies (a sample in slices), else of the live buffers
        bool in_step = false;      // its walk done by a step's steer pass: nearest read from `nearest`
        bool all = false;          // every flock of an ensemble at once (measureFlocks): results
        std::uint64_t ticket = 0;  // what it lands under
        std::uint32_t flock = 0;   // an ensemble's flock being measured (all: ALL_FLOCKS)
        std::uint32_t groups = 0;  // work groups of a pass over the boids measured
        std::vector<OrderParams> results;
        OrderParams result;
        float group_radius = 0.0f;  // 0: the groups are not measured on the GPU
        int stage = 0;
        std::uint32_t next_group = 0;  // the stage's first work group not yet run
        std::uint32_t boids = 0, cells = 0;
        gl::Buffer params, pos, vel, cell_start, neighbours;
        gl::BufferTexture pos_tex, vel_tex, cell_start_tex;
        gl::Buffer sums, histogram, parent, group_sums, totals, group_list, largest, roots;
        gl::Buffer nearest;  // a sampled step's squared nearest distance per slot
        Params folded;  // the one flock's world and bounds when it began (its groups' centres fold by them)
    };
    void prepare(FlockState& s, std::uint32_t flock_count);
    void copyInputs(FlockState& s);
    void bind(FlockState& s) const;
    bool runStage(FlockState& s, double& budget);
    void runWholeStage(FlockState& s);
    void runTotals(FlockState& s);
    // A sample's figures on their way back: where each lies in `buffer`, and what parsing them
    // needs from when the sample began (each flock's boids, whether its groups were walked by
    // the passes, its world for folding the groups' centres; the figures found on the CPU then).
    struct Landing {
        gl::ReadBuffer buffer;
        std::size_t bytes = 0;  // 0: nothing copied (an empty flock)
        std::size_t histogram_at = 0, totals_at = 0, largest_at = 0;  // the walk's sums at 0
        std::uint64_t ticket = 0;
        bool groups = false;  // the group figures copied too
        std::vector<OrderParams> results;
        std::vector<std::uint32_t> boids;
        std::vector<char> groups_on_gpu;
        struct World {
            Bounds bounds = Bounds::Wrap;
            float size = 0.0f;
            int dims = 2;
        };
        std::vector<World> worlds;  // foldCentre's
    };
    void land(const FlockState& s);
    std::deque<Landing>::const_iterator landing(std::uint64_t ticket) const;
    void queueCopies(Landing& l);
    std::vector<OrderParams> parse(Landing& l);
    static void parseWalkSums(Landing& l, const std::vector<std::uint32_t>& words);
    static void parseGroupTotals(Landing& l, const std::vector<std::uint32_t>& words);
    static void parseLargestGroups(Landing& l, const std::vector<std::uint32_t>& words);
    std::uint32_t flocks(const FlockState& s) const { return sample_.all ? std::uint32_t(s.ensemble.size()) : 1u; }
    std::uint32_t boidsOf(const FlockState& s, std::uint32_t f) const { return sample_.all ? s.ensemble[f].boids : sample_.boids; }

    Sample sample_;
    std::deque<Landing> landings_;
    std::vector<gl::ReadBuffer> spare_;  // read-back buffers of landings taken, for the next
    gl::Program measure_, measure_reduce_, group_giant_, group_links_, group_sums_, group_spin_, group_totals_, group_largest_;
    gl::Program measure_stored_;
};

}  // namespace murmur::gpu
