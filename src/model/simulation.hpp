// The narrow interface every backend implements (CPU reference, GPU pipeline): upload a state,
// step, read back. It owns no window, UI or camera.
#pragma once

#include "model/boid.hpp"
#include "model/correlations.hpp"
#include "model/drawable.hpp"
#include "model/order_params.hpp"
#include "model/params.hpp"

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace murmur {

class Simulation {
public:
    virtual ~Simulation() = default;

    // Replaces the flock and the parameters (params must be valid; params.boids is ignored in
    // favour of flock.size()).
    virtual void upload(const Flock& flock, const Params& params) = 0;
    // New parameters for the next steps (same boid count); e.g. a slider edit.
    virtual void setParams(const Params& params) = 0;
    virtual void step(int steps = 1) = 0;
    // The step counter (0 after upload) that phases wander, perch lengths and amortised steering:
    // a resumed state sets it so the run continues exactly as it would have.
    virtual std::uint32_t stepCount() const = 0;
    virtual void setStepCount(std::uint32_t steps) = 0;
    // The current flock, in any order (match boids by id).
    virtual Flock download() = 0;
    // Per boid, indexed by id: neighbours within the largest radius and the field of view,
    // as counted during the last step (zeros before the first step).
    virtual std::vector<std::uint32_t> neighbourCounts() = 0;
    // Positions and velocities in id order, 3 floats a boid each (z 0 in 2D), into the caller's
    // memory; either may be null. The default downloads the flock and places it by id.
    virtual void readXyzById(float* positions, float* velocities) {
        const Flock flock = download();
        for (const Boid& b : flock)
            for (int k = 0; k < 3; ++k) {
                if (positions) positions[3 * std::size_t(b.id) + std::size_t(k)] = b.p[k];
                if (velocities) velocities[3 * std::size_t(b.id) + std::size_t(k)] = b.v[k];
            }
    }
    // Each boid's periodic images crossed (Boid::image), 3 ints a boid in id order. The default
    // downloads the flock.
    virtual std::vector<std::int32_t> readImagesById() {
        const Flock flock = download();
        std::vector<std::int32_t> out(flock.size() * 3, 0);
        for (const Boid& b : flock)
            for (int k = 0; k < 3; ++k) out.at(3 * std::size_t(b.id) + std::size_t(k)) = b.image[k];
        return out;
    }
    // The sums of the pair correlations now (model/correlations.hpp; p the flock's parameters,
    // bins and r_max as correlationProblem allows). The default downloads the flock.
    virtual PairSums pairSums(const Params& p, std::uint32_t bins, double r_max) { return measurePairSums(download(), p, bins, r_max); }
    // The order parameters of the current state (docs/model.md, "Order parameters").
    virtual OrderParams measure() = 0;
    // The same, taken in slices for a caller that must not stall (a window: a slice a frame):
    // beginSample() fixes the state to measure (the current one); each advanceSample(boids) does
    // about as much work as that many boids' neighbour walks (at least one slice of a pass) and
    // returns true once the sample is complete;
    // takeSample() then returns it. Steps and parameter changes between the calls do not change
    // the answer: it equals measure() at beginSample(). A new beginSample() supersedes samples
    // not yet taken. The default measures at beginSample().
    virtual void beginSample() {
        sampled_.clear();
        sampled_.push_back(measure());
    }
    virtual bool advanceSample(std::uint64_t /*boids*/) { return true; }
    // Whether takeSample() would answer without waiting for the GPU: a sample's figures come back
    // a while after its passes end (the GPU backend polls a fence, no wait). A caller that must
    // not stall (the window) takes it once this is true.
    virtual bool sampleArrived() const { return true; }
    // The oldest sample asked for and not yet taken; the last one taken again when none waits.
    virtual OrderParams takeSample() {
        if (!sampled_.empty()) {
            last_sampled_ = sampled_.front();
            sampled_.pop_front();
        }
        return last_sampled_;
    }
    // The same for a caller that steps next (a stats log, a sweep): measureWithNextStep() fixes
    // the state to measure (the current one), and takeSample() after the next step() returns
    // measure() of that state, to the bit. The GPU backend does the sample's neighbour walk inside
    // that step's steer pass, which walks the same cells of the same state; without a step in
    // between, takeSample() measures then. It may be asked again, for the state after that step,
    // before the first is taken: takeSample() returns them in the order asked (a caller that takes
    // a row a step late, so that on a GPU its figures come back while the next step runs). The
    // default measures at once.
    virtual void measureWithNextStep() { sampled_.push_back(measure()); }
    virtual std::string name() const = 0;

    // Slow steps stay interruptible (a window's Esc and close button): `check` is asked during a
    // step that takes long; when it returns true the stepping stops there, the step unfinished
    // (for quitting), and interrupted() is true from then on.
    virtual void setInterrupt(std::function<bool()> check) = 0;
    virtual bool interrupted() const = 0;

    // For a caller that must never keep a non-finite flock (the library's step) or that looks a
    // step ahead (the library's per-boid acceleration): checkpoint() keeps the state, the step
    // counter and the last step's neighbour counts, rollback() brings them back (the parameters
    // stay as they are), allFinite() says whether every position and velocity is finite.
    virtual void checkpoint() = 0;
    virtual void rollback() = 0;
    virtual bool allFinite() = 0;

    // What a renderer draws from without a copy, or null when the flock lives in host memory
    // (then draw from download()).
    virtual Drawable* drawable() { return nullptr; }

    // Times the next step pass by pass (for a stats panel); a backend without passes ignores it.
    virtual void profileNextStep() {}
    // The last profiled step's milliseconds per named pass; empty before one (or without passes).
    virtual std::vector<std::pair<std::string, double>> profiledPasses() const { return {}; }

protected:
    std::deque<OrderParams> sampled_;  // the defaults' samples not yet taken
    OrderParams last_sampled_;
};

}  // namespace murmur
