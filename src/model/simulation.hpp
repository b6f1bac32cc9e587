// The narrow interface every backend implements (CPU reference, GPU pipeline): upload a state,
// step, read back. It owns no window, UI or camera.
#pragma once

#include "model/boid.hpp"
#include "model/correlations.hpp"
#include "model/drawable.hpp"
#include "model/order_params.hpp"
#include "model/params.hpp"
#include "model/restorable.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace murmur {

// A sample of the order parameters asked for (Simulation::requestSample), taken by its ticket.
struct SampleTicket {
    std::uint64_t id = 0;  // 0: none given
    bool operator==(const SampleTicket&) const = default;
};
// When a sample's work is done: in slices between steps, or by the next step.
enum class SampleWhen { InSlices, WithNextStep };

// Also Restorable (model/restorable.hpp): checkpoint, rollback and allFinite.
class Simulation : public Restorable {
public:
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
    // Samples of the order parameters asked for now and taken later, each by its ticket, in any
    // order: requestSample(when) fixes the state to measure (the current one) and returns the
    // ticket; takeSample(ticket) returns measure() of that state, to the bit, whatever steps and
    // parameter changes came between. `when` says when the sample's work is done:
    // - InSlices, for a caller that must not stall (a window: a slice a frame): each
    //   advanceSamples(boids) does about as much work as that many boids' neighbour walks (at
    //   least one slice of a pass) and returns true once no sample's passes are left to run;
    // - WithNextStep, for a caller that steps next (a stats log, a sweep): the GPU backend does
    //   the sample's neighbour walk inside the next step's steer pass, which walks the same cells
    //   of the same state; taken before a step, it is measured then.
    // sampleReady(ticket) says whether takeSample(ticket) would answer without waiting for the
    // GPU (its figures come back a while after its passes end; the GPU backend polls a fence).
    // takeSample() of a ticket already taken, or never given, throws std::logic_error; so does a
    // request while kMostWaitingSamples wait untaken (each keeps its figures, on the GPU a
    // read-back buffer, until taken). The defaults measure at the request.
    virtual SampleTicket requestSample(SampleWhen /*when*/) { return keepSample(measure()); }
    virtual bool advanceSamples(std::uint64_t /*boids*/) { return true; }
    virtual bool sampleReady(SampleTicket ticket) const { return kept_.count(ticket.id) > 0; }
    virtual OrderParams takeSample(SampleTicket ticket) {
        const auto it = kept_.find(ticket.id);
        if (it == kept_.end()) throw std::logic_error(unknownTicket(ticket));
        const OrderParams sample = it->second;
        kept_.erase(it);
        ticketTaken(ticket);
        return sample;
    }
    virtual std::string name() const = 0;

    // Slow steps stay interruptible (a window's Esc and close button): `check` is asked during a
    // step that takes long (each backend says how often); when it returns true the stepping stops
    // there, the step unfinished (for quitting), and interrupted() is true, and steps do nothing,
    // until the next upload or rollback.
    void setInterrupt(std::function<bool()> check) { interrupt_ = std::move(check); }
    bool interrupted() const { return interrupted_; }

    // What a renderer draws from without a copy, or null when the flock lives in host memory
    // (then draw from download()).
    virtual Drawable* drawable() { return nullptr; }

    // Times the next step pass by pass (for a stats panel); a backend without passes ignores it.
    virtual void profileNextStep() {}
    // The last profiled step's milliseconds per named pass; empty before one (or without passes).
    virtual std::vector<std::pair<std::string, double>> profiledPasses() const { return {}; }

    static constexpr std::size_t kMostWaitingSamples = 64;

protected:
    // The backends' side of setInterrupt: the check (empty when none is set), and the flag.
    const std::function<bool()>& interruptCheck() const { return interrupt_; }
    void setInterrupted(bool on) { interrupted_ = on; }

    // A ticket for a new sample (see kMostWaitingSamples), and the end of one taken.
    SampleTicket newTicket() {
        if (waiting_.size() >= kMostWaitingSamples)
            throw std::logic_error(std::to_string(waiting_.size()) + " samples wait untaken, the most there may be (take each ticket's "
                                   "sample with takeSample before asking for more)");
        waiting_.insert(++last_ticket_);
        return SampleTicket{last_ticket_};
    }
    void ticketTaken(SampleTicket ticket) { waiting_.erase(ticket.id); }
    static std::string unknownTicket(SampleTicket ticket) {
        return "no sample waits for ticket " + std::to_string(ticket.id) + " (taken already, or never given)";
    }

private:
    SampleTicket keepSample(const OrderParams& sample) {
        const SampleTicket ticket = newTicket();
        kept_.emplace(ticket.id, sample);
        return ticket;
    }
    std::uint64_t last_ticket_ = 0;
    std::map<std::uint64_t, OrderParams> kept_;  // the defaults' samples not yet taken
    std::set<std::uint64_t> waiting_;            // every sample's ticket not yet taken
    std::function<bool()> interrupt_;            // setInterrupt's check (empty: none)
    bool interrupted_ = false;                   // a step stopped part way since the last upload or rollback
};

}  // namespace murmur
