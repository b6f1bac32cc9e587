// What the panel and the keys change, without any drawing: the parameters being edited and the
// ones the simulation runs, run/pause/step, boid count changes, reset and new seed, presets.
// Tested without a window (tests/no_gl/test_session.cpp).
#pragma once

#include "model/density.hpp"
#include "ui/keys.hpp"
#include "model/params.hpp"
#include "model/simulation.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <utility>

namespace murmur::ui {

// Says why the flock these parameters make does not fit (the GPU's limits on the boids and on the
// grid their world and radii make), or nothing when it fits.
using CapacityCheck = std::function<std::optional<std::string>(const Params&)>;

class Session {
public:
    // Spawns params.boids boids from params.seed into sim (or uses `start` when given).
    Session(Simulation& sim, const Params& params, CapacityCheck check = {}, const Flock* start = nullptr);

    // The panel edits this copy; commitEdits() validates it and hands it to the simulation.
    Params& edit() { return edit_; }
    // What the simulation runs now.
    const Params& live() const { return live_; }
    // Applies edit() on the next step if it is valid (a dims or species-count change respawns
    // the flock; shares apply on reset); if not,
    // keeps the running parameters and sets an error message naming the field and its range.
    // The boid count and seed are not edits: see applyBoidCount() and reset()/newSeed().
    bool commitEdits();

    // Boid count typed in the panel, applied (reallocating and respawning) by applyBoidCount().
    std::uint32_t pending_boids = 0;
    // Apply keeps the density: the world grows or shrinks with the count (model/density.hpp),
    // unless world_size was set by the user (world_set, also set by a panel edit of it).
    bool keep_density = true;
    bool world_set = false;
    // The density Apply keeps: the flock's at start, at a preset load, a dims change or an edit
    // of world_size (so a count clamped once does not drift the density).
    DensityRef density;
    // The parameters Apply would run with pending_boids.
    Params withPendingCount() const;
    bool applyBoidCount();

    // The run controls the panel's buttons and the keys share.
    void togglePause() { running = !running; }
    void stepOnce() {  // pauses, then one step
        running = false;
        requestStep();
    }
    void setScatter(bool on) { edit_.scatter = on; }
    // Alignment and cohesion radius, at least 0 (Parker's +/-); a style with a reach of its own
    // (StyleInfo::reach_key), that key within its range (a cut-off of 0, every pair, stays).
    void nudgeNeighbourRadius(float units);
    // A key's action if it is a run control (pause, step, reset, scatter, radius); false otherwise.
    bool apply(Action a);

    void reset();    // respawn from the edited seed
    void newSeed();  // next seed, then respawn
    bool running = true;
    int steps_per_frame = 1;  // [1, 64]
    void requestStep() { step_requested_ = true; }
    // Steps for this frame: steps_per_frame when running, 1 after requestStep(), else 0. Given
    // the seconds a step has been taking, no more than fit in kFrameBudget (at least one), so the
    // window keeps answering keys and the close button however slow a step is.
    int advance(double seconds_per_step = 0.0);
    // How advance() steps the flock: sim.step by default; the window's run loop (engine::Run),
    // which writes its outputs at the states they are due.
    void setStepper(std::function<void(int)> step) { stepper_ = std::move(step); }
    static constexpr double kFrameBudget = 0.25;  // s of stepping per frame
    std::uint64_t steps() const { return steps_; }

    // A built-in preset NAME or a .json path: replaces every parameter and respawns.
    bool loadPreset(const std::string& name_or_path);
    enum class SaveResult { Saved, NeedsConfirm, Failed };
    // Writes the edited parameters atomically; an existing file needs overwrite = true.
    SaveResult savePreset(const std::string& path, bool overwrite);

    const std::string& message() const { return message_; }
    bool messageIsError() const { return message_error_; }
    // The fields of the last edit that was not applied, each with its problem (the panel shows
    // each under its field); empty once an edit applies.
    const std::vector<ParamProblem>& problems() const { return problems_; }
    // Set when the flock was replaced (reset, count, preset, dims): the view should re-frame.
    bool takeRespawned() { return std::exchange(respawned_, false); }

private:
    void respawn(const Params& p);
    void say(std::string text, bool error);

    Simulation& sim_;
    CapacityCheck check_;
    Params live_, edit_;
    bool step_requested_ = false, respawned_ = false, message_error_ = false;
    std::function<void(int)> stepper_;
    std::uint64_t steps_ = 0;
    std::string message_;
    std::vector<ParamProblem> problems_;
};

}  // namespace murmur::ui
