// The panel shows a key only where it acts: for each preset's style and settings, a key the panel
// shows (ui::appliesNow) changes the flight when perturbed, and a key it hides does not. Derived
// by stepping, not by reading the lists: the CPU reference steps each preset's flock 30 steps
// with one key perturbed at a time, and the state is compared with the unperturbed run's.
// Built into murmur_gpu_hand_tests too (OnGpu.Presets/KeysApply.*): the GPU pipeline steps the
// same probes, so a shader that reads a key the panel hides fails there.
#include "test_util.hpp"

#include "cpu/cpu_simulation.hpp"
#include "io/preset_json.hpp"
#include "model/density.hpp"
#include "model/param_table.hpp"
#include "model/spawn.hpp"
#include "model/styles.hpp"
#include "ui/panel.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

using namespace murmur;
using namespace murmur::test;

namespace {

// The preset's flock (spawned with `start`'s parameters: spawn keys act on a reset only) stepped
// 30 steps with p.
Flock flown(const Params& start, const Params& p) {
    const auto sim = backendUnderTest(NeighbourSearch::Grid);
    if (!sim) return {};
    sim->upload(spawn(start), p);
    sim->step(30);
    return byId(sim->download());
}

bool sameFlight(const Flock& a, const Flock& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].p != b[i].p || a[i].v != b[i].v) return false;
    return true;
}

// p with `info`'s value moved to another valid one (halved, doubled, a tenth into its range, the
// next choice, on/off switched); nullopt if none is valid.
std::optional<Params> perturbed(const Params& p, const ParamInfo& info) {
    const double v = info.get(p);
    std::vector<double> tries;
    if (info.kind == ParamKind::Choice) tries = {double((int(v) + 1) % int(info.choices.size()))};
    else tries = {v * 0.5, v * 2.0 + 0.1, info.min + 0.1 * (std::min(info.max, 1000.0) - info.min), v + 1.0, v - 1.0};
    for (double t : tries) {
        if (info.kind == ParamKind::Int) t = std::round(t);
        if (t == v || t < info.min || t > info.max) continue;
        Params q = p;
        info.set(q, t);
        if (validate(q).empty()) return q;
    }
    return std::nullopt;
}

// Keys outside the question: the count, dims, seed, spawn and species shares act on a respawn;
// the style and the update order switch the model; species 1..3's keys belong to species not in
// use here; colour is the view's.
bool outsideTheQuestion(std::string_view key) {
    for (const char* k : {"boids", "dims", "seed", "spawn.radius", "spawn.heading", "colour", "draw", "camera", "boid_length", "group_radius", "style", "update", "species_count"})
        if (key == k) return true;
    return key.starts_with("species1.") || key.starts_with("species2.") || key.starts_with("species3.") || key.ends_with(".share");
}

// Keys that may change nothing in a 30-step probe although they act, each for its reason (a
// style's name, or "*" for every style): they are held to the other direction only (hidden, they
// must change nothing).
bool situational(const std::string& style, const std::string& key) {
    static const std::set<std::pair<std::string, std::string>> keys = {
        {"*", "repeller.weight"},   // the repeller acts with a radius too: a switch of a pair
        {"*", "repeller.radius"},   // ... and with a weight
        {"*", "perch.enabled"},     // boids perch only on reaching the ground
        {"*", "offset.lone"},       // acts only on a boid with no one to align with
        {"*", "speed_limit"},       // acts only when a boid's speed leaves [min_speed, max_speed]
        {"*", "min_speed"},         // acts only on a boid slower than it
        {"*", "bounds"},            // acts only on a boid at the world's edge
        {"decarpentier", "alignment.radius"},  // the search reaches the largest rule radius: one of three
        {"decarpentier", "cohesion.radius"},
        {"decarpentier", "dc.accel_forward"},  // the clamps bind in sharp manoeuvres only
        {"decarpentier", "dc.accel_side"},
        {"decarpentier", "species0.flee.radius"},  // the predators are beyond it in the first steps
        {"decarpentier", "species0.flee.weight"},
        {"starling", "starling.roost_radius"},  // the birds are inside the roost in the first steps
        {"starling", "starling.roost_weight"},
        {"starling", "alignment.radius"},  // 100 m, about the adaptive radius' start: the probe's
        {"starling", "cohesion.radius"},   // 120 birds in a ball 24 m wide are all within either, and
        {"starling", "topological.count"},  // the radius shrinks from 100 m by 5 % a step: in 30
        {"starling", "topological.max_radius"},  // steps the cap's 16 nearest are who is seen
        {"starling", "topological.rate"},
        {"dorsogna", "max_force"},  // clamps the attractor's and repeller's steering only
        {"dorsogna", "max_speed"},  // the spawn's speeds and the attractor's target speed only
    };
    return keys.count({"*", key}) > 0 || keys.count({style, key}) > 0;
}

Params presetOf(const std::string& name) {
    const Params p = loadPresetFile(resolvePreset(name), Params{});
    return keepDensity(p, std::min<std::uint32_t>(p.boids, 120), p.dims).params;
}

}  // namespace

class KeysApply : public ::testing::TestWithParam<const char*> {};

TEST_P(KeysApply, AShownKeyChangesTheFlightAndAHiddenOneDoesNot) {
    const Params p = presetOf(GetParam());
    const Flock base = flown(p, p);
    std::string shown_idle, hidden_acting;
    for (const ParamInfo& info : paramTable()) {
        if (outsideTheQuestion(info.key)) continue;
        const auto q = perturbed(p, info);
        if (!q) continue;
        const bool acts = !sameFlight(flown(p, *q), base);
        const bool shown = ui::appliesNow(info.key, p);
        if (shown && !acts && !situational(styleInfo(p.style).name, info.key)) shown_idle += std::string(" ") + info.key;
        if (!shown && acts) hidden_acting += std::string(" ") + info.key;
    }
    EXPECT_EQ(shown_idle, "") << GetParam() << ": shown, but changing them changes nothing";
    EXPECT_EQ(hidden_acting, "") << GetParam() << ": hidden, but they change the flight";
}

INSTANTIATE_TEST_SUITE_P(Presets, KeysApply,
                         ::testing::Values("default", "default3d", "soft", "parker", "processing", "shiffman", "flockrb", "gloss",
                                           "vicsek", "couzin-torus", "cucker-smale", "decarpentier", "predators", "dorsogna-mill", "murmuration"),
                         [](const auto& param) {
                             std::string n = param.param;
                             for (char& c : n)
                                 if (c == '-') c = '_';
                             return n;
                         });
