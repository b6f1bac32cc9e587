// The panel's logic without a window: edits apply on the next step or are refused with the field
// and range; counts, reset, new seed, single step, presets (atomic save asking before overwrite);
// the key table.
#include "io/preset_json.hpp"
#include "model/grid_spec.hpp"
#include "model/param_table.hpp"
#include "model/styles.hpp"
#include "ui/keys.hpp"
#include "ui/panel.hpp"
#include "ui/pointer.hpp"
#include "render/palette.hpp"
#include "ui/session.hpp"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>

#include <cmath>

#include <filesystem>
#include <set>

using namespace murmur;
using ui::Session;

namespace {

// Records what the session asks of the simulation.
class SpySimulation final : public Simulation {
public:
    void upload(const Flock& flock, const Params& params) override {
        ++uploads;
        count = flock.size();
        last = params;
    }
    void setParams(const Params& params) override {
        ++set_params;
        last = params;
    }
    void step(int steps) override { stepped += steps; }
    std::uint32_t stepCount() const override { return std::uint32_t(stepped); }
    void setStepCount(std::uint32_t steps) override { stepped = int(steps); }
    Flock download() override { return Flock(count); }
    std::vector<std::uint32_t> neighbourCounts() override { return std::vector<std::uint32_t>(count, 0u); }
    OrderParams measure() override {
        OrderParams o;
        o.boids = std::uint32_t(count);
        return o;
    }
    void checkpoint() override {}
    void rollback() override {}
    bool allFinite() override { return true; }
    std::string name() const override { return "spy"; }
    int uploads = 0, set_params = 0, stepped = 0;
    std::size_t count = 0;
    Params last;
};

Params small() {
    Params p;
    p.boids = 50;
    return p;
}

}  // namespace

TEST(Session, SpawnsTheFlockAndAppliesAValidEditOnCommit) {
    SpySimulation sim;
    Session s(sim, small());
    EXPECT_EQ(sim.uploads, 1);
    EXPECT_EQ(sim.count, 50u);
    EXPECT_FALSE(s.commitEdits()) << "nothing edited";
    s.edit().species[0].alignment.weight = 2.5f;
    EXPECT_TRUE(s.commitEdits());
    EXPECT_EQ(sim.set_params, 1);
    EXPECT_EQ(sim.last.species[0].alignment.weight, 2.5f);
    EXPECT_EQ(s.live().species[0].alignment.weight, 2.5f);
    EXPECT_EQ(sim.uploads, 1) << "an edit does not respawn";
}

// The V key steps the camera through its four modes and back, as an edit (a view key: no respawn).
TEST(Session, TheCameraKeyCyclesItsModes) {
    SpySimulation sim;
    Session s(sim, small());
    for (std::uint32_t want : {1u, 2u, 3u, 0u}) {
        EXPECT_TRUE(s.apply(ui::Action::NextCamera));
        EXPECT_EQ(s.edit().camera, want);
    }
    EXPECT_EQ(sim.uploads, 1);
}

TEST(Session, AnInvalidEditIsRefusedWithTheFieldAndRange) {
    SpySimulation sim;
    Session s(sim, small());
    s.edit().species[0].min_speed = 20.0f;  // above max_speed 10
    EXPECT_FALSE(s.commitEdits());
    EXPECT_TRUE(s.messageIsError());
    EXPECT_NE(s.message().find("min_speed"), std::string::npos) << s.message();
    EXPECT_EQ(s.live().species[0].min_speed, Params{}.species[0].min_speed);
    EXPECT_EQ(sim.set_params, 0);
    s.edit().species[0].min_speed = 1.0f;
    EXPECT_TRUE(s.commitEdits());
    EXPECT_FALSE(s.messageIsError());
}

TEST(Session, ChangingDimsRespawnsAndReframes) {
    SpySimulation sim;
    Session s(sim, small());
    s.edit().dims = 3;
    EXPECT_TRUE(s.commitEdits());
    EXPECT_EQ(sim.uploads, 2);
    EXPECT_EQ(sim.last.dims, 3);
    EXPECT_TRUE(s.takeRespawned());
    EXPECT_FALSE(s.takeRespawned());
}

// 20,000 boids in the 2D world that holds them at the defaults' density, then dims 3: the world
// is resized so the expected neighbour count stays (it stayed 948.7 units wide: 0.49 neighbours a
// boid, a flock that never flocked), and the message says dims changed (it said species count:
// it compared dims after the respawn had made them live).
TEST(Session, ADimsChangeKeepsTheNeighboursAndSaysSo) {
    SpySimulation sim;
    Params p = small();
    Session s(sim, p);
    s.pending_boids = 20000;
    ASSERT_TRUE(s.applyBoidCount());
    const Params flat = s.live();
    s.edit().dims = 3;
    ASSERT_TRUE(s.commitEdits());
    const Params deep = s.live();
    EXPECT_EQ(deep.dims, 3);
    EXPECT_NE(s.message().find("dims changed to 3, world resized"), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find("species"), std::string::npos) << s.message();
    // Expected neighbours within the largest rule radius r: N pi r^2 / L^2 in 2D, N (4/3) pi r^3 / L^3 in 3D.
    const double r = flat.rulesOf(0).ruleRadius(), n = 20000.0, pi = 3.14159265358979;
    const double before = n * pi * r * r / (double(flat.world_size) * flat.world_size);
    const double after = n * 4.0 / 3.0 * pi * r * r * r / std::pow(double(deep.world_size), 3.0);
    EXPECT_NEAR(after, before, 0.01 * before) << "2D world " << flat.world_size << ", 3D world " << deep.world_size;
}

// A refused value typed back to the one in effect clears the refusal (it stayed, red, under the
// field and in the Run line until another value applied).
TEST(Session, ARefusalGoesWhenTheEditIsBackToWhatRuns) {
    SpySimulation sim;
    Session s(sim, small());
    const float running = s.live().species[0].min_speed;
    s.edit().species[0].min_speed = 20.0f;  // above max_speed: refused
    EXPECT_FALSE(s.commitEdits());
    EXPECT_TRUE(s.messageIsError());
    EXPECT_FALSE(s.problems().empty());
    s.edit().species[0].min_speed = running;
    EXPECT_FALSE(s.commitEdits()) << "nothing to apply";
    EXPECT_FALSE(s.messageIsError()) << s.message();
    EXPECT_TRUE(s.problems().empty());
}

TEST(Session, BoidCountAppliesOnlyWhenItFits) {
    SpySimulation sim;
    Session s(sim, small(), [](const Params& p) -> std::optional<std::string> {
        if (p.boids > 1000) return "holds at most 1000; valid range [0, 1000]";
        return std::nullopt;
    });
    s.pending_boids = 5000;
    EXPECT_FALSE(s.applyBoidCount());
    EXPECT_NE(s.message().find("valid range [0, 1000]"), std::string::npos) << s.message();
    EXPECT_EQ(sim.count, 50u);
    EXPECT_EQ(s.pending_boids, 50u);
    s.pending_boids = 800;
    EXPECT_TRUE(s.applyBoidCount());
    EXPECT_EQ(sim.count, 800u);
    EXPECT_EQ(s.live().boids, 800u);
}

// A wider world makes a larger grid, which the GPU may not hold: an edit that grows the grid is
// checked as a count is; one that does not is never refused by the check.
TEST(Session, AnEditTheGpuCannotHoldIsRefused) {
    SpySimulation sim;
    Params start = small();
    start.boids = 5000;  // a budget of 10,000 cells: the default world's 60 x 60 fit, three times it does not
    const float world = start.world_size;
    int checks = 0;
    Session s(sim, start, [world, &checks](const Params& p) -> std::optional<std::string> {
        ++checks;
        if (p.world_size > world * 2.0f) return "their grid needs more texels than the GPU holds";
        return std::nullopt;
    });
    const int set_before = sim.set_params;
    s.edit().world_size = world * 3.0f;
    ASSERT_GT(makeGridSpec(s.edit()).total(), makeGridSpec(s.live()).total()) << "the wider world's grid is larger";
    EXPECT_FALSE(s.commitEdits());
    EXPECT_NE(s.message().find("not applied: their grid needs more texels"), std::string::npos) << s.message();
    EXPECT_EQ(s.live().world_size, world);
    EXPECT_EQ(sim.set_params, set_before) << "nothing reached the simulation";
    checks = 0;
    s.edit().world_size = world;
    s.edit().dt = s.live().dt * 0.5f;  // the same grid: not checked
    EXPECT_TRUE(s.commitEdits());
    EXPECT_EQ(checks, 0);
    s.edit().world_size = world * 1.5f;
    EXPECT_TRUE(s.commitEdits());
    EXPECT_EQ(s.live().world_size, world * 1.5f);
}

TEST(Session, ResetNewSeedAndStepping) {
    SpySimulation sim;
    Session s(sim, small());
    EXPECT_EQ(s.advance(), 1);
    s.steps_per_frame = 4;
    EXPECT_EQ(s.advance(), 4);
    // Slow steps: only what fits in a quarter of a second, at least one.
    s.steps_per_frame = 64;
    EXPECT_EQ(s.advance(0.1), 2);
    EXPECT_EQ(s.advance(3.0), 1);
    EXPECT_EQ(s.advance(0.001), 64);
    s.steps_per_frame = 4;
    EXPECT_EQ(sim.stepped, 5 + 2 + 1 + 64);
    s.running = false;
    EXPECT_EQ(s.advance(), 0);
    s.requestStep();
    EXPECT_EQ(s.advance(), 1);
    EXPECT_EQ(s.advance(), 0) << "a single step is taken once";
    EXPECT_EQ(s.steps(), 73u);
    const std::uint64_t seed = s.live().seed;
    s.newSeed();
    EXPECT_NE(s.live().seed, seed);
    EXPECT_EQ(s.steps(), 0u);
    EXPECT_EQ(sim.uploads, 2);
    s.reset();
    EXPECT_EQ(sim.uploads, 3);
}

TEST(Session, PresetsLoadAndSaveAskingBeforeOverwriting) {
    SpySimulation sim;
    Session s(sim, small());
    ASSERT_TRUE(s.loadPreset("default3d")) << s.message();
    EXPECT_EQ(s.live().dims, 3);
    EXPECT_FALSE(s.loadPreset("no_such_preset"));
    EXPECT_TRUE(s.messageIsError());
    EXPECT_EQ(s.live().dims, 3) << "a failed load changes nothing";

    const auto dir = std::filesystem::temp_directory_path() / "murmur_session_test";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "mine.json").string();
    s.edit().species[0].cohesion.weight = 3.25f;
    EXPECT_EQ(s.savePreset(path, false), Session::SaveResult::Saved);
    EXPECT_EQ(loadPresetFile(path, Params{}).species[0].cohesion.weight, 3.25f);
    s.edit().species[0].cohesion.weight = 0.5f;
    EXPECT_EQ(s.savePreset(path, false), Session::SaveResult::NeedsConfirm);
    EXPECT_EQ(loadPresetFile(path, Params{}).species[0].cohesion.weight, 3.25f) << "not overwritten without asking";
    EXPECT_EQ(s.savePreset(path, true), Session::SaveResult::Saved);
    EXPECT_EQ(loadPresetFile(path, Params{}).species[0].cohesion.weight, 0.5f);
    EXPECT_EQ(s.savePreset((dir / "missing" / "x.json").string(), false), Session::SaveResult::Failed);
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) files += e.is_regular_file();
    EXPECT_EQ(files, 1u) << "no temporary file left behind";
    std::filesystem::remove_all(dir);
}

TEST(Keys, ShortcutsMapToActionsAndNeverFireWhileTyping) {
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_SPACE, false), ui::Action::TogglePause);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_S, false), ui::Action::Step);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_R, false), ui::Action::Reset);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_D, false), ui::Action::ToggleDebug);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_F12, false), ui::Action::Screenshot);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_H, false), ui::Action::TogglePanel);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_ESCAPE, false), ui::Action::Quit);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_Q, false), ui::Action::None);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_X, false), ui::Action::ScatterOn);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_X, true, false), ui::Action::ScatterOff) << "releasing X always ends a scatter";
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_SPACE, false, false), ui::Action::None) << "releases are not presses";
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_EQUAL, false), ui::Action::RadiusUp);
    EXPECT_EQ(ui::actionForKey(GLFW_KEY_MINUS, false), ui::Action::RadiusDown);
    std::set<int> keys;
    for (const auto& b : ui::keyBindings()) {
        EXPECT_TRUE(keys.insert(b.key).second) << b.key_name << " bound twice";
        EXPECT_EQ(ui::actionForKey(b.key, true), ui::Action::None) << b.key_name << " fires while typing";
    }
}

TEST(Panel, EveryParameterHasASectionAndOnlyWorldKeysFallToWorld) {
    // paramGroup() falls back to "World": a new key that no rule places must be listed here on
    // purpose, or the test fails.
    const std::set<std::string> world = {"dims", "world_size", "bounds", "margin", "turn", "seed", "species_count", "spawn.radius", "spawn.heading", "group_radius"};
    const std::set<std::string> sections = {"Rules", "Perception", "Motion", "World", "Influences", "Species", "Run", "View"};
    for (const ParamInfo& info : paramTable()) {
        const std::string group = ui::paramGroup(info.key);
        EXPECT_TRUE(sections.count(group)) << info.key << " -> " << group;
        if (group == "World") {
            EXPECT_TRUE(world.count(info.key)) << info.key << " falls to World by default";
        }
    }
}

TEST(Panel, EveryParameterHasASection) {
    EXPECT_STREQ(ui::paramGroup("separation.weight"), "Rules");
    EXPECT_STREQ(ui::paramGroup("colour"), "View");
    EXPECT_STREQ(ui::paramGroup("boids"), "Run");
    EXPECT_STREQ(ui::paramGroup("cohesion.radius"), "Perception");
    EXPECT_STREQ(ui::paramGroup("fov_deg"), "Perception");
    EXPECT_STREQ(ui::paramGroup("max_force"), "Motion");
    EXPECT_STREQ(ui::paramGroup("bounds"), "World");
    EXPECT_STREQ(ui::paramGroup("wind.x"), "Influences");
    EXPECT_STREQ(ui::paramGroup("repeller.radius"), "Influences");
    EXPECT_STREQ(ui::paramGroup("obstacle_push"), "Influences");
    EXPECT_STREQ(ui::paramGroup("neighbour_cap"), "Perception");
    EXPECT_STREQ(ui::paramGroup("perch.ground"), "Influences");
    EXPECT_STREQ(ui::paramGroup("dc.far_factor"), "Rules");
    EXPECT_STREQ(ui::paramGroup("species2.chase"), "Species");
}

TEST(Session, ApplyKeepsTheDensityUnlessTheWorldWasSet) {
    SpySimulation sim;
    Session s(sim, small());  // 50 boids in the default 300-unit world
    s.pending_boids = 200;     // 4x the boids: twice the edge
    EXPECT_TRUE(s.applyBoidCount());
    EXPECT_NEAR(s.live().world_size, 600.0f, 1e-3f);
    EXPECT_EQ(sim.count, 200u);
    EXPECT_NE(s.message().find("600-unit world"), std::string::npos) << s.message();
    s.keep_density = false;  // unticked: the world stays
    s.pending_boids = 800;
    EXPECT_TRUE(s.applyBoidCount());
    EXPECT_NEAR(s.live().world_size, 600.0f, 1e-3f);
    s.keep_density = true;
    s.edit().world_size = 500.0f;  // the user's world wins from now on
    EXPECT_TRUE(s.commitEdits());
    EXPECT_TRUE(s.world_set);
    EXPECT_FALSE(s.keep_density) << "the box shows that the density is no longer kept";
    s.pending_boids = 3200;
    EXPECT_NEAR(s.withPendingCount().world_size, 500.0f, 1e-3f);
    EXPECT_TRUE(s.applyBoidCount());
    EXPECT_NEAR(s.live().world_size, 500.0f, 1e-3f);
}

// A message about one edit (a respawn) goes with the next edit that applies.
TEST(Session, ARespawnsMessageGoesWithTheNextEdit) {
    SpySimulation sim;
    Session s(sim, small());
    s.edit().dims = 3;
    EXPECT_TRUE(s.commitEdits());
    EXPECT_NE(s.message().find("flock respawned"), std::string::npos) << s.message();
    s.edit().species[0].alignment.weight = 2.0f;
    EXPECT_TRUE(s.commitEdits());
    EXPECT_EQ(s.message(), "");
}

TEST(Session, AClampedCountDoesNotDriftTheDensity) {
    SpySimulation sim;
    Params p = small();
    p.boids = 5000;  // in 300 units
    Session s(sim, p);
    s.pending_boids = 5;  // would want 300 x sqrt(5/5000) = 9.5 units, less than twice the radius (2 x 10): held at 20
    EXPECT_TRUE(s.applyBoidCount());
    EXPECT_NEAR(s.live().world_size, 20.0f, 1e-4f);
    s.pending_boids = 5000;  // back to the start's count: the start's world, not 20 x sqrt(1000) = 632
    EXPECT_TRUE(s.applyBoidCount());
    EXPECT_NEAR(s.live().world_size, 300.0f, 1e-3f);
}

TEST(Session, AStepTooExpensiveIsRefusedBeforeItRuns) {
    SpySimulation sim;
    Params p = small();
    p.boids = 40000;  // 300-unit world, cells of floor(300 / 10.0001) = 29 per axis: 841, 9 searched
    Session s(sim, p);
    // 40000 boids, alignment radius 150 -> 1 cell per axis, all searched: 1.6e9 candidate pairs.
    s.edit().species[0].alignment.radius = 150.0f;
    EXPECT_FALSE(s.commitEdits());
    EXPECT_TRUE(s.messageIsError());
    EXPECT_NE(s.message().find("candidate pairs per step"), std::string::npos) << s.message();
    EXPECT_EQ(s.live().species[0].alignment.radius, 10.0f);
    EXPECT_EQ(sim.set_params, 0);
    // Ten times the boids in the same world: 1.6e11 x 25 / 3364 (58^2 half-radius cells) = 1.2e9 pairs.
    s.edit().species[0].alignment.radius = 10.0f;
    s.keep_density = false;
    s.pending_boids = 400000;
    const int uploads = sim.uploads;
    EXPECT_FALSE(s.applyBoidCount());
    EXPECT_NE(s.message().find("candidate pairs per step"), std::string::npos) << s.message();
    EXPECT_EQ(sim.uploads, uploads);
    s.keep_density = true;  // at the preset's density the same count is cheap
    EXPECT_TRUE(s.applyBoidCount());
}

TEST(Session, KeysAndButtonsShareTheRunControls) {
    SpySimulation sim;
    Session s(sim, small());
    EXPECT_TRUE(s.apply(ui::Action::TogglePause));
    EXPECT_FALSE(s.running);
    EXPECT_TRUE(s.apply(ui::Action::Step));
    EXPECT_EQ(s.advance(), 1);
    EXPECT_TRUE(s.apply(ui::Action::RadiusUp));  // alignment and cohesion radius +5
    EXPECT_EQ(s.edit().species[0].alignment.radius, small().species[0].alignment.radius + 5.0f);
    EXPECT_EQ(s.edit().species[0].cohesion.radius, small().species[0].cohesion.radius + 5.0f);
    for (int k = 0; k < 10; ++k) s.apply(ui::Action::RadiusDown);  // never below 0
    EXPECT_EQ(s.edit().species[0].cohesion.radius, 0.0f);
    // A style with a reach of its own: the keys nudge its cut-off, within its range, and leave
    // the species' radii it ignores.
    Params dorsogna = small();
    dorsogna.style = Style::DOrsogna;
    dorsogna.dorsogna.cutoff = 8.0f;
    Session d(sim, dorsogna);
    EXPECT_TRUE(d.apply(ui::Action::RadiusUp));
    EXPECT_EQ(d.edit().dorsogna.cutoff, 13.0f);
    EXPECT_EQ(d.edit().species[0].alignment.radius, dorsogna.species[0].alignment.radius);
    for (int k = 0; k < 4; ++k) d.apply(ui::Action::RadiusDown);
    EXPECT_EQ(d.edit().dorsogna.cutoff, 0.01f) << "its range's least";
    EXPECT_TRUE(s.apply(ui::Action::ScatterOn));
    EXPECT_TRUE(s.edit().scatter);
    EXPECT_TRUE(s.apply(ui::Action::ScatterOff));
    EXPECT_FALSE(s.edit().scatter);
    const int uploads = sim.uploads;
    EXPECT_TRUE(s.apply(ui::Action::Reset));
    EXPECT_EQ(sim.uploads, uploads + 1);
    // View and panel keys are not the session's: the panel takes them.
    ui::PanelState panel;
    for (ui::Action a : {ui::Action::ToggleDebug, ui::Action::Screenshot, ui::Action::TogglePanel, ui::Action::ResetView,
                         ui::Action::Quit}) {
        EXPECT_FALSE(s.apply(a));
        EXPECT_TRUE(ui::applyToPanel(panel, a));
    }
    EXPECT_TRUE(panel.debug);
    EXPECT_TRUE(panel.screenshot_requested);
    EXPECT_FALSE(panel.visible);
    EXPECT_TRUE(panel.reset_view_requested);
    EXPECT_TRUE(panel.quit_requested);
    EXPECT_FALSE(ui::applyToPanel(panel, ui::Action::TogglePause));
}

// Pointer events in the order they came: a click within one frame is a click; a gesture that
// begins over the panel (or on a widget) never reaches the world; the wheel zooms only over it.
TEST(Pointer, EventsAreTakenInOrderAndThePanelKeepsItsOwn) {
    using ui::PointerEvent;
    const auto in_world = [](glm::dvec2 at) { return at.x >= 400; };  // the panel is x < 400
    ui::PointerTracker t;
    ui::Gestures g = t.update({{PointerEvent::Press, 0, {600, 300}}, {PointerEvent::Release, 0, {601, 300}}}, {601, 300}, in_world);
    ASSERT_TRUE(g.click.has_value()) << "a press and release in one frame";
    EXPECT_EQ(g.click->x, 601);
    EXPECT_EQ(g.drag_button, 0);
    g = t.update({{PointerEvent::Press, 0, {100, 300}}}, {700, 300}, in_world);  // a slider dragged off the panel
    EXPECT_EQ(g.drag_button, -1);
    g = t.update({{PointerEvent::Release, 0, {700, 300}}}, {700, 300}, in_world);
    EXPECT_FALSE(g.click.has_value());
    EXPECT_EQ(g.drag_button, -1);
    g = t.update({{PointerEvent::Scroll, 0, {100, 300}, 2.0}, {PointerEvent::Scroll, 0, {500, 300}, 1.0},
                  {PointerEvent::Scroll, 0, {500, 300}, 4.0, true}},
                 {500, 300}, in_world);
    EXPECT_EQ(g.zoom, 1.0) << "only the wheel over the world, not over the panel or a widget";
    // A right drag held across frames pans by the pointer's motion, and stops at the release.
    g = t.update({{PointerEvent::Press, 1, {500, 300}}}, {520, 310}, in_world);
    EXPECT_EQ(g.drag_button, 1);
    EXPECT_EQ(g.drag, glm::dvec2(20, 10));
    g = t.update({}, {530, 290}, in_world);
    EXPECT_EQ(g.drag, glm::dvec2(10, -20));
    g = t.update({{PointerEvent::Release, 1, {540, 290}}}, {560, 290}, in_world);
    EXPECT_EQ(g.drag, glm::dvec2(10, 0));
    EXPECT_FALSE(g.click.has_value()) << "a right button never picks";
    g = t.update({}, {600, 290}, in_world);
    EXPECT_EQ(g.drag_button, -1);
    // A long left drag is not a click.
    t.update({{PointerEvent::Press, 0, {500, 300}}}, {500, 300}, in_world);
    g = t.update({{PointerEvent::Release, 0, {540, 300}}}, {540, 300}, in_world);
    EXPECT_FALSE(g.click.has_value());
}

// The panel shows only the keys that do something now.
TEST(PanelRules, OnlyKeysThatApplyAreShown) {
    Params p;
    p.style = Style::Graded;
    p.dims = 2;
    EXPECT_FALSE(ui::appliesNow("dc.brake", p));
    EXPECT_FALSE(ui::appliesNow("species2.dc.brake", p));
    EXPECT_FALSE(ui::appliesNow("offset.sums", p));
    EXPECT_FALSE(ui::appliesNow("steering.separation", p));
    EXPECT_FALSE(ui::appliesNow("wind.z", p));
    EXPECT_FALSE(ui::appliesNow("margin", p));
    EXPECT_FALSE(ui::appliesNow("perch.ground", p));
    EXPECT_TRUE(ui::appliesNow("perch.enabled", p));
    EXPECT_TRUE(ui::appliesNow("separation.radius", p));
    EXPECT_TRUE(ui::appliesNow("wind.x", p));
    p.style = Style::Decarpentier;
    p.dims = 3;
    p.bounds = Bounds::Soft;
    p.perching = true;
    EXPECT_TRUE(ui::appliesNow("dc.brake", p));
    EXPECT_TRUE(ui::appliesNow("species2.dc.brake", p));
    EXPECT_TRUE(ui::appliesNow("wind.z", p));
    EXPECT_TRUE(ui::appliesNow("margin", p));
    EXPECT_TRUE(ui::appliesNow("perch.ground", p));
    p.style = Style::Offset;
    EXPECT_TRUE(ui::appliesNow("offset.lone", p));
    p.style = Style::Steering;
    EXPECT_TRUE(ui::appliesNow("steering.separation", p));
    EXPECT_FALSE(ui::appliesNow("vicsek.noise", p));
    p.style = Style::Vicsek;
    EXPECT_TRUE(ui::appliesNow("vicsek.noise", p));
    EXPECT_FALSE(ui::appliesNow("topological.rate", p)) << "the adaptive radius is off";
    p.topological.count = 6.5f;
    EXPECT_TRUE(ui::appliesNow("topological.rate", p));
    p.topological.count = 0.0f;
    // Every key applies to some setting: none is unreachable.
    Params all;
    all.dims = 3;
    all.bounds = Bounds::Soft;
    all.perching = all.leader = true;
    all.attractor.weight = all.repeller.weight = all.repeller.radius = all.dc.height_weight = all.trap.stiffness = 1.0f;  // every feature on
    all.obstacles = {Obstacle{{50.0f, 50.0f, 50.0f}, 5.0f}};
    all.topological.count = 6.5f;
    all.species_count = 4;
    for (const ParamInfo& info : paramTable()) {
        bool some = false;
        for (int predators : {0, 1})  // the odd species hunt the even, then the even the odd
            for (const StyleInfo& s : styles()) {
                for (std::uint32_t k = 0; k < 4; ++k) all.roles[k].predator = int(k % 2) == predators;
                all.style = s.style;
                some = some || ui::appliesNow(info.key, all);
            }
        EXPECT_TRUE(some) << info.key;
    }
    // All defaults keeps the flock's count, dims, seed and world.
    Params mine;
    mine.boids = 777;
    mine.dims = 3;
    mine.seed = 9;
    mine.world_size = 123;
    mine.species[0].alignment.weight = 0;
    const Params d = ui::withDefaultsKeeping(mine);
    EXPECT_EQ(d.boids, 777u);
    EXPECT_EQ(d.dims, 3u);
    EXPECT_EQ(d.seed, 9u);
    EXPECT_EQ(d.world_size, 123.0f);
    EXPECT_EQ(d.species[0].alignment.weight, Params{}.species[0].alignment.weight);
}

// The status overlay says what the canvas alone cannot: paused, recording, the last notice.
TEST(PanelRules, StatusLinesSayPausedRecordingAndTheNotice) {
    ui::StatusLine s;
    EXPECT_TRUE(ui::statusLines(s).empty()) << "nothing to say: no overlay";
    s.paused = true;
    s.recording = "flock.mp4";
    s.recorded_frames = 42;
    s.notice = "wrote murmur-1.png";
    const auto lines = ui::statusLines(s);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "paused (Space runs)");
    EXPECT_EQ(lines[1], "REC 42 frames: flock.mp4");
    EXPECT_EQ(lines[2], "wrote murmur-1.png");
}

// The legend names what each colour means in the current mode, with the palette's colours.
TEST(PanelRules, TheLegendNamesEachColour) {
    Params p;
    p.species_count = 3;
    p.roles[2].predator = true;
    p.colour = 0;
    ui::Legend l = ui::legendFor(p, 20.0f);
    ASSERT_EQ(l.entries.size(), 3u);
    EXPECT_EQ(l.entries[2].label, "species 2 (predator)");
    EXPECT_EQ(l.entries[2].colour, render::speciesColour(2, true));
    EXPECT_EQ(l.entries[0].colour, render::speciesColour(0, false));
    p.colour = 1;
    l = ui::legendFor(p, 20.0f);
    EXPECT_TRUE(l.wheel);
    EXPECT_EQ(l.entries[0].label, "+x (right)");
    EXPECT_EQ(l.entries[1].colour, render::headingColour(1.5707963f));
    p.colour = 2;
    p.species[0].max_speed = 12.0f;
    l = ui::legendFor(p, 20.0f);
    ASSERT_EQ(l.entries.size(), 3u);
    EXPECT_EQ(l.entries[2].label, "12");
    EXPECT_EQ(l.entries[2].colour, render::rampColour(1.0f));
    p.colour = 3;
    l = ui::legendFor(p, 20.0f);
    EXPECT_EQ(l.entries[2].label, "20 or more");
    EXPECT_EQ(l.title, "neighbours");
    l = ui::legendFor(p, 20.0f, false);  // a flock respawned while paused: no step has counted them
    EXPECT_EQ(l.title, "neighbours (counted at the next step)");
}

// A preset carries its view: predators and decarpentier open coloured by species, so their red
// predators show; --colour still wins.
TEST(PanelRules, PresetsCarryTheirColouring) {
    EXPECT_EQ(loadPresetFile(resolvePreset("predators"), Params{}).colour, 0u);
    EXPECT_EQ(loadPresetFile(resolvePreset("decarpentier"), Params{}).colour, 0u);
    EXPECT_EQ(loadPresetFile(resolvePreset("parker"), Params{}).colour, 1u);
}
