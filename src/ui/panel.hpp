// The Dear ImGui panel: every parameter grouped (rules, perception, motion, world) with units,
// ranges and tooltips; boid count; run controls; presets; drawing options; stats and plots;
// the selected boid. Drawing only: what it changes goes through ui::Session.
#pragma once

#include "model/order_params.hpp"
#include "render/flock_renderer.hpp"
#include "ui/overlays.hpp"
#include "ui/series.hpp"
#include "ui/session.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace murmur::ui {

struct FrameStats {
    std::string renderer;
    std::string backend;
    double fps = 0, steps_per_s = 0;
    std::vector<std::pair<std::string, double>> pass_ms;  // GPU ms per step, by pass
    OrderParams order;  // the last sample (twice a second, or less often when measuring is slow)
    std::uint64_t order_step = 0;
    std::string paused_why;  // not sampled: the flock is too expensive to measure in the window
    Series polarization_history, group_polarization_history, milling_history, groups_history, nn_history,
        neighbours_history, speed_history;
    void push(const OrderParams& o);
    void clearHistory();  // a new flock: the plots start again
};

struct PanelState {
    bool visible = true;
    bool debug = false;                      // visual debug: clicks select boids
    std::optional<render::Selection> selection;
    render::DrawSettings draw;
    bool vsync = true;
    bool screenshot_requested = false;
    bool quit_requested = false;
    bool reset_view_requested = false;
    std::string preset_path = "my_preset.json";
    std::string loaded_preset;  // the built-in preset the run started from: the combo shows it
    int preset_index = -1;
    bool place_panel = false;  // put the panel back at its place next frame (H, C/Home)  // -1: none chosen yet (a run without --preset): the combo says so
    bool confirm_overwrite = false;
    bool attractor_at_pointer = false;  // the window moves the goal to the pointer each frame
    bool repeller_at_pointer = false;
    bool record_toggle_requested = false;  // the Record button: start, or stop and write
    std::string recording;                 // the target being recorded; empty when not
    bool show_all_keys = false;  // also the keys the current style, dims and features do not use
    bool show_legend = true;     // what the colours mean, in the band above the world
    glm::vec4 box{0.0f};  // where the panel was drawn last: x, y (top left), width, height; window units
    std::string refused_key, refused_why;  // the last value the parameter table refused, and why
    // Where each field (by key; a combo's options as "key=choice") and section header ("#Name")
    // was drawn last frame, window units: x, y (top left), width, height. For tests and tools
    // that drive the panel as a user would.
    std::map<std::string, glm::vec4> rects;
    void noteRect(const std::string& name);  // the last item drawn, as `name`
};

// Tooltips wait this long under a still pointer, so passing over labels does not cover the next.
inline constexpr float kTooltipDelay = 0.5f;  // s
// The last item is hovered and has been for kTooltipDelay.
bool hoveredAWhile();

// Whether a key does anything with p's style, dims, bounds and features (dc.* only in the
// decarpentier style, z only in 3D, margin only with soft bounds, ...): the panel shows only those
// unless asked for all.
bool appliesNow(std::string_view key, const Params& p);
// Every key at its default (--list-params), keeping p's boid count, dims, seed and world size.
Params withDefaultsKeeping(const Params& p);

// The section a parameter key belongs to: "Rules", "Perception", "Motion", "World", "Influences",
// "Species", "Run" (boids) or "View" (colour).
const char* paramGroup(const char* key);

void drawPanel(Session& session, PanelState& state, const FrameStats& stats);

// A key's action if it belongs to the view and panel (visual debug, screenshot, panel, view,
// quit); false otherwise (run controls: Session::apply).
bool applyToPanel(PanelState& state, Action a);

}  // namespace murmur::ui
