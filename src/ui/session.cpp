// Panel logic; see session.hpp.
#include "ui/session.hpp"

#include "io/input_error.hpp"
#include "io/preset_json.hpp"
#include "model/density.hpp"
#include "model/grid_spec.hpp"
#include "model/param_table.hpp"
#include "model/rng.hpp"
#include "model/spawn.hpp"
#include "model/styles.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <utility>

namespace murmur::ui {

Session::Session(Simulation& sim, const Params& params, CapacityCheck check, const Flock* start)
    : sim_(sim), check_(std::move(check)), live_(params), edit_(params) {
    if (start) {
        live_.boids = edit_.boids = std::uint32_t(start->size());
        sim_.upload(*start, live_);
    } else {
        sim_.upload(spawn(live_), live_);
    }
    pending_boids = live_.boids;
    density = {live_.boids, live_.world_size, live_.dims};
}

void Session::say(std::string text, bool error) {
    message_ = std::move(text);
    message_error_ = error;
}

void Session::respawn(const Params& p) {
    live_ = p;
    edit_ = p;
    pending_boids = p.boids;
    sim_.upload(spawn(p), p);
    steps_ = 0;
    respawned_ = true;
}

bool Session::commitEdits() {
    Params candidate = edit_;
    candidate.boids = live_.boids;  // counts change through applyBoidCount()
    candidate.seed = live_.seed;    // seeds apply on reset
    Params current = live_;
    if (candidate == current) {  // the edits are back to what runs: a refusal of them no longer stands
        if (message_error_ && !problems_.empty()) say("", false);
        problems_.clear();
        return false;
    }
    if (auto problems = validate(candidate); !problems.empty()) {
        say("not applied: " + describe(problems), true);
        problems_ = std::move(problems);
        return false;
    }
    problems_.clear();
    if (const double pairs = candidatePairsPerStep(candidate); pairs > kMaxCandidatePairs) {
        say("not applied: " + describeCost(pairs) + "; a step would take far too long", true);
        return false;
    }
    // A wider world or smaller radii make a larger grid, which may not fit the GPU: checked then
    // only (the check also weighs the whole flock, which is already held).
    if (check_ && makeGridSpec(candidate).total() > makeGridSpec(live_).total()) {
        if (auto why = check_(candidate)) {
            say("not applied: " + *why, true);
            return false;
        }
    }
    if (candidate.world_size != live_.world_size) {
        world_set = true;  // the user's world wins from now on: "keep density" shows it unticked
        keep_density = false;
        density = {candidate.boids, candidate.world_size, candidate.dims};
    }
    if (candidate.dims != live_.dims || candidate.species_count != live_.species_count) {
        candidate.seed = edit_.seed;
        // What changed, said before the respawn makes it live; a dims change keeps the expected
        // neighbour count, as --dims does (model.md, "Density"), unless the user chose the world.
        std::string what = candidate.dims != live_.dims ? "dims changed" : "species count changed";
        if (candidate.dims != live_.dims && keep_density && !world_set) {
            const WorldSize w = worldForDensity(density, candidate.rulesOf(0).ruleRadius(), candidate.largestRadius(), candidate.boids,
                                                candidate.dims);
            candidate = withWorld(candidate, w.edge);
            char text[96];
            std::snprintf(text, sizeof text, " to %d, world resized to %.4g units to keep the neighbours", candidate.dims, double(w.edge));
            what += text;
        }
        if (auto problems = validate(candidate); !problems.empty()) {
            say("not applied: " + describe(problems), true);
            return false;
        }
        respawn(candidate);
        say(what + ": flock respawned", false);
        return true;
    }
    sim_.setParams(candidate);  // first: if it throws, live_ still says what runs
    live_ = candidate;
    if (!message_.empty()) say("", false);  // it told of an earlier edit (a respawn, a refusal)
    return true;
}

Params Session::withPendingCount() const {
    Params p = live_;
    if (keep_density && !world_set && pending_boids != live_.boids)
        p = withWorld(live_, worldForDensity(density, live_.rulesOf(0).ruleRadius(), live_.largestRadius(), pending_boids, live_.dims).edge);
    p.boids = pending_boids;
    p.seed = edit_.seed;
    return p;
}

bool Session::applyBoidCount() {
    const Params p = withPendingCount();
    if (auto problems = validate(p); !problems.empty()) {
        say("boids not applied: " + describe(problems), true);
        return false;
    }
    if (const double pairs = candidatePairsPerStep(p); pairs > kMaxCandidatePairs) {
        say("boids not applied: " + describeCost(pairs) + "; lower the count or the radii", true);
        return false;
    }
    if (check_) {
        if (auto why = check_(p)) {
            say("boids not applied: " + *why, true);
            pending_boids = live_.boids;
            return false;
        }
    }
    respawn(p);
    char text[96];
    std::snprintf(text, sizeof text, "%u boids in a %.4g-unit world", p.boids, double(p.world_size));
    say(text, false);
    return true;
}

void Session::nudgeNeighbourRadius(float units) {
    if (const char* key = styleInfo(edit_.style).reach_key) {  // a style's own reach: its cut-off
        const ParamInfo& k = *findParam(key);
        const double now = k.get(edit_);
        if (now > 0.0) k.set(edit_, std::clamp(now + double(units), std::max(k.min, 1e-2), k.max));  // 0: every pair, as it is
        return;
    }
    edit_.species[0].alignment.radius = std::max(0.0f, edit_.species[0].alignment.radius + units);
    edit_.species[0].cohesion.radius = std::max(0.0f, edit_.species[0].cohesion.radius + units);
}

bool Session::apply(Action a) {
    switch (a) {
        case Action::TogglePause: togglePause(); return true;
        case Action::Step: stepOnce(); return true;
        case Action::Reset: reset(); return true;
        case Action::ScatterOn: setScatter(true); return true;
        case Action::ScatterOff: setScatter(false); return true;
        case Action::RadiusUp: nudgeNeighbourRadius(5.0f); return true;
        case Action::RadiusDown: nudgeNeighbourRadius(-5.0f); return true;
        case Action::NextCamera: edit_.camera = std::uint32_t((edit_.camera + 1) % findParam("camera")->choices.size()); return true;
        default: return false;
    }
}

void Session::reset() {
    Params p = live_;
    p.seed = edit_.seed;
    respawn(p);
    say("reset, seed " + std::to_string(p.seed), false);
}

void Session::newSeed() {
    edit_.seed = splitmix64(edit_.seed) % (std::uint64_t(1) << 53);
    reset();
}

int Session::advance(double seconds_per_step) {
    int n = running ? std::clamp(steps_per_frame, 1, 64) : (step_requested_ ? 1 : 0);
    if (n > 1 && seconds_per_step > 0.0) n = int(std::clamp(kFrameBudget / seconds_per_step, 1.0, double(n)));
    step_requested_ = false;
    if (n > 0) {
        if (stepper_) stepper_(n);
        else sim_.step(n);
        steps_ += std::uint64_t(n);
    }
    return n;
}

bool Session::loadPreset(const std::string& name_or_path) {
    try {
        const std::string path = resolvePreset(name_or_path);
        const Params p = loadPresetFile(path, Params{});
        if (check_) {
            if (auto why = check_(p)) {
                say("preset not loaded: " + *why, true);
                return false;
            }
        }
        respawn(p);
        world_set = false;
        density = {p.boids, p.world_size, p.dims};
        say("loaded " + path, false);
        return true;
    } catch (const std::exception& e) {
        say(std::string("preset not loaded: ") + e.what(), true);
        return false;
    }
}

Session::SaveResult Session::savePreset(const std::string& path, bool overwrite) {
    if (path.empty()) {
        say("preset not saved: no file name", true);
        return SaveResult::Failed;
    }
    if (!overwrite && std::filesystem::exists(path)) return SaveResult::NeedsConfirm;
    try {
        Params p = edit_;
        p.boids = live_.boids;
        savePresetFile(path, p);
        say("saved " + path, false);
        return SaveResult::Saved;
    } catch (const std::exception& e) {
        say(std::string("preset not saved: ") + e.what(), true);
        return SaveResult::Failed;
    }
}

}  // namespace murmur::ui
