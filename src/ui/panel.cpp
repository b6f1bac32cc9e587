// The ImGui panel; see panel.hpp.
#include "ui/panel.hpp"

#include "io/preset_json.hpp"
#include "model/density.hpp"
#include "model/param_table.hpp"
#include "model/styles.hpp"
#include "render/overlay.hpp"
#include "render/palette.hpp"
#include "ui/keys.hpp"
#include "ui/param_widgets.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace murmur::ui {
namespace {

// A collapsing header that reports where it was drawn ("#Name"), so tests can open it.
bool section(PanelState& state, const char* name, ImGuiTreeNodeFlags flags = 0) {
    const bool open = ImGui::CollapsingHeader(name, flags);
    state.noteRect(std::string("#") + name);
    return open;
}


// What the edited radii cost against the running flock's: the candidate pairs a step examines,
// and the steps per second that leaves at the rate measured now (shown while they differ).
void costLine(Session& session, const FrameStats& stats, PanelState& state) {
    const double now = candidatePairsPerStep(session.live()), next = candidatePairsPerStep(session.edit());
    if (now <= 0.0 || std::abs(next - now) < 0.1 * now) return;
    const double rate = stats.steps_per_s * now / next;
    const ImVec4 colour = next > kMaxCandidatePairs ? ImVec4(1.0f, 0.45f, 0.35f, 1.0f) : ImVec4(0.85f, 0.75f, 0.45f, 1.0f);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(colour, "this edit: %s, %.2gx now; about %.3g steps/s here", describeCost(next).c_str(), next / now, rate);
    ImGui::PopTextWrapPos();
    state.noteRect("edit cost");
}

void paramSection(const char* group, Session& session, const FieldContext& ctx) {
    if (!section(ctx.state, group, ImGuiTreeNodeFlags_DefaultOpen)) return;
    for (const ParamInfo& info : paramTable()) {
        if (std::strcmp(paramGroup(info.key), group) != 0) continue;
        if (!ctx.show_all && !appliesNow(info.key, session.edit())) continue;
        paramWidget(info, session.edit(), ctx);
        if (std::strcmp(info.key, "seed") == 0 || std::string_view(info.key).starts_with("spawn.")) {
            ImGui::SameLine();
            ImGui::TextDisabled("(on reset)");
        }
    }
}

// Species in use; each one's role, and for 1..3 their own rules (species 0 flies the sections
// above). Inside a species' node its keys are shown without the "speciesN." prefix.
void speciesSection(Session& session, const FieldContext& ctx) {
    if (!section(ctx.state, "Species")) return;
    Params& p = session.edit();
    paramWidget(*findParam("species_count"), p, ctx);
    for (std::uint32_t s = 0; s < std::min(p.species_count, kMaxSpecies); ++s) {
        const std::string prefix = "species" + std::to_string(s) + ".";
        const std::string title = "species " + std::to_string(s) + (p.roles[s].predator ? " (predator)" : "") +
                                  (s == 0 ? ": rules above" : "");
        const bool open = ImGui::TreeNode(("species" + std::to_string(s)).c_str(), "%s", title.c_str());
        ctx.state.noteRect("#species " + std::to_string(s));
        if (!open) continue;
        for (const ParamInfo& info : paramTable())
            if (std::string_view(info.key).starts_with(prefix) && (ctx.show_all || appliesNow(info.key, p))) {
                ImGui::PushID(info.key);
                paramWidget(info, p, ctx, withoutSpeciesPrefix(info.key));
                ImGui::PopID();
            }
        ImGui::TreePop();
    }
    ImGui::TextDisabled("shares apply on reset; changing the count respawns");
}

// Wind, goals (optionally at the pointer), scatter, and the obstacle list.
void influencesSection(Session& session, PanelState& state, const FieldContext& ctx) {
    if (!section(state, "Influences")) return;
    for (const ParamInfo& info : paramTable())
        if (std::strcmp(paramGroup(info.key), "Influences") == 0 && (ctx.show_all || appliesNow(info.key, session.edit())))
            paramWidget(info, session.edit(), ctx);
    ImGui::Checkbox("attractor at the pointer", &state.attractor_at_pointer);
    ImGui::SameLine();
    ImGui::Checkbox("repeller at the pointer", &state.repeller_at_pointer);
    Params& p = session.edit();
    ImGui::Text("obstacles (%zu of %zu)", p.obstacles.size(), kMaxObstacles);
    int remove = -1;
    for (std::size_t k = 0; k < p.obstacles.size(); ++k) {
        ImGui::PushID(int(k));
        Obstacle& o = p.obstacles[k];
        float centre[3] = {o.at.x, o.at.y, o.at.z};
        const float L = p.world_size;
        if (ImGui::DragFloat3("centre", centre, L * 0.002f, 0.0f, L, "%.1f", ImGuiSliderFlags_AlwaysClamp))
            o.at = {centre[0], centre[1], p.dims == 3 ? centre[2] : 0.0f};
        ImGui::DragFloat("radius", &o.radius, L * 0.001f, L * 0.001f, L / 2, "%.2f", ImGuiSliderFlags_AlwaysClamp);
        ImGui::SameLine();
        if (ImGui::SmallButton("remove")) remove = int(k);
        ImGui::PopID();
    }
    if (remove >= 0) p.obstacles.erase(p.obstacles.begin() + remove);
    if (p.obstacles.size() < kMaxObstacles && ImGui::Button("add obstacle")) {
        const float c = p.world_size / 2;
        p.obstacles.push_back({{c, c, p.dims == 3 ? c : 0.0f}, p.world_size / 12});
    }
}

void runSection(Session& session, PanelState& state) {
    if (!section(state, "Run", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (ImGui::Button(session.running ? "Pause###run" : "Run###run")) session.togglePause();
    state.noteRect("run/pause");
    ImGui::SameLine();
    if (ImGui::Button("Step")) session.stepOnce();
    ImGui::SameLine();
    if (ImGui::Button("Reset")) session.reset();
    ImGui::SameLine();
    if (ImGui::Button("New seed")) session.newSeed();
    ImGui::SliderInt("steps per frame", &session.steps_per_frame, 1, 64);
    auto pending = static_cast<unsigned int>(session.pending_boids);
    ImGui::InputScalar("boids", ImGuiDataType_U32, &pending);
    session.pending_boids = pending;
    ImGui::SameLine();
    if (ImGui::Button("Apply")) session.applyBoidCount();
    if (hoveredAWhile()) ImGui::SetTooltip("reallocates the buffers and respawns; range [0, 100000000], or what the GPU holds");
    ImGui::SameLine();
    if (ImGui::Checkbox("keep density", &session.keep_density) && session.keep_density) session.world_set = false;
    if (hoveredAWhile())
        ImGui::SetTooltip("Apply resizes the world so the flock stays as crowded; editing world_size unticks it (the world you "
                          "chose stays) until you tick it again");
    if (session.pending_boids != session.live().boids) {
        const Params next = session.withPendingCount();
        const double pairs = candidatePairsPerStep(next);
        if (pairs > kMaxCandidatePairs)
            ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.35f, 1.0f), "too slow: %s", describeCost(pairs).c_str());
        else
            ImGui::TextDisabled("Apply: %u boids in a %.4g-unit world", next.boids, double(next.world_size));
    }
    ImGui::Text("step %llu", static_cast<unsigned long long>(session.steps()));
}

void presetSection(Session& session, PanelState& state) {
    if (!section(state, "Presets")) return;
    static std::vector<std::pair<std::string, std::string>> presets = listPresets();
    if (!presets.empty()) {
        for (std::size_t k = 0; k < presets.size() && !state.loaded_preset.empty(); ++k)
            if (presets[k].first == state.loaded_preset) state.preset_index = int(k);
        state.loaded_preset.clear();  // from now on the combo shows what the user picks
        state.preset_index = std::clamp(state.preset_index, -1, int(presets.size()) - 1);
        const char* shown = state.preset_index < 0 ? "(none: choose one)" : presets[std::size_t(state.preset_index)].first.c_str();
        if (ImGui::BeginCombo("built-in", shown)) {
            for (std::size_t k = 0; k < presets.size(); ++k) {
                if (ImGui::Selectable(presets[k].first.c_str(), int(k) == state.preset_index)) state.preset_index = int(k);
                if (hoveredAWhile() && !presets[k].second.empty()) ImGui::SetTooltip("%s", presets[k].second.c_str());
            }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        ImGui::BeginDisabled(state.preset_index < 0);
        if (ImGui::Button("Load##builtin")) session.loadPreset(presets[std::size_t(state.preset_index)].first);
        ImGui::EndDisabled();
    }
    ImGui::InputText("file", &state.preset_path);
    if (ImGui::Button("Load file")) session.loadPreset(state.preset_path);
    ImGui::SameLine();
    if (ImGui::Button("Save file")) {
        if (session.savePreset(state.preset_path, false) == Session::SaveResult::NeedsConfirm) {
            state.confirm_overwrite = true;
            ImGui::OpenPopup("Overwrite?");
        }
    }
    if (ImGui::BeginPopupModal("Overwrite?", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::Text("%s exists. Overwrite it?", state.preset_path.c_str());
        if (ImGui::Button("Overwrite")) {
            session.savePreset(state.preset_path, true);
            ImGui::CloseCurrentPopup();
        }
        ImGui::SameLine();
        if (ImGui::Button("Cancel")) ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
    }
}

void viewSection(Session& session, PanelState& state) {
    if (!ImGui::CollapsingHeader("View", ImGuiTreeNodeFlags_DefaultOpen)) return;
    int colour = int(session.edit().colour);
    const std::vector<const char*>& names = findParam("colour")->choices;  // the one list of colourings
    if (ImGui::Combo("colour by", &colour, names.data(), int(names.size())))
        session.edit().colour = std::uint32_t(colour);  // a view key: saved with a preset
    int draw = int(session.edit().draw);
    const std::vector<const char*>& shapes = findParam("draw")->choices;
    if (ImGui::Combo("draw boids as", &draw, shapes.data(), int(shapes.size()))) session.edit().draw = std::uint32_t(draw);
    int camera = int(session.edit().camera);
    const std::vector<const char*>& views = findParam("camera")->choices;
    if (ImGui::Combo("camera (V)", &camera, views.data(), int(views.size()))) session.edit().camera = std::uint32_t(camera);
    ImGui::Checkbox("legend", &state.show_legend);
    if (session.edit().colour == std::uint32_t(render::ColourBy::Neighbours))
        ImGui::DragFloat("neighbours at top", &state.draw.neighbour_scale, 0.5f, 1.0f, 1000.0f, "%.0f", ImGuiSliderFlags_AlwaysClamp);
    float length = session.edit().boid_length;
    if (ImGui::DragFloat("boid length (0: auto)", &length, 0.01f, 0.0f, 100000.0f, "%.3g", ImGuiSliderFlags_AlwaysClamp))
        session.edit().boid_length = length;
    ImGui::SliderFloat("boid size", &state.draw.size_scale, 0.1f, 10.0f, "%.2fx", ImGuiSliderFlags_Logarithmic);
    ImGui::SliderFloat("min size (px)", &state.draw.min_px, 0.0f, 8.0f, "%.1f");
    ImGui::Checkbox("bounds", &state.draw.show_bounds);
    ImGui::SameLine();
    ImGui::Checkbox("vsync", &state.vsync);
    ImGui::SameLine();
    if (ImGui::Button("Reset view")) state.reset_view_requested = true;
    ImGui::Checkbox("visual debug (click a boid)", &state.debug);
    if (ImGui::Button("Screenshot")) state.screenshot_requested = true;
    ImGui::SameLine();
    if (ImGui::Button(state.recording.empty() ? "Record" : "Stop recording")) state.record_toggle_requested = true;
    if (hoveredAWhile())
        ImGui::SetTooltip("%s", state.recording.empty() ? "record the world as a video (ffmpeg) in the current folder; PNG frames if ffmpeg is missing"
                                                        : state.recording.c_str());
}

// The largest groups one by one: size, first id, polarization and milling within it, centre.
void largestGroupsTable(const OrderParams& o) {
    if (o.largest_groups[0].boids == 0) return;
    if (!ImGui::BeginTable("largest groups", 5, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
    for (const char* name : {"boids", "first id", "polar.", "milling", "centre"}) ImGui::TableSetupColumn(name);
    ImGui::TableHeadersRow();
    for (const GroupFigures& g : o.largest_groups) {
        if (g.boids == 0) break;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%u", g.boids);
        ImGui::TableNextColumn();
        ImGui::Text("%u", g.first_id);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", g.polarization);
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", g.milling);
        ImGui::TableNextColumn();
        ImGui::Text("%.0f, %.0f, %.0f", g.centre.x, g.centre.y, g.centre.z);
    }
    ImGui::EndTable();
}

void statsSection(const FrameStats& stats) {
    if (!ImGui::CollapsingHeader("Stats", ImGuiTreeNodeFlags_DefaultOpen)) return;
    ImGui::TextWrapped("%s (%s backend)", stats.renderer.c_str(), stats.backend.c_str());
    ImGui::Text("%.1f FPS, %.1f steps/s", stats.fps, stats.steps_per_s);
    double total = 0;
    for (const auto& [name, ms] : stats.pass_ms) {
        ImGui::Text("  %-8s %7.3f ms", name.c_str(), ms);
        total += ms;
    }
    if (!stats.pass_ms.empty()) {
        ImGui::Text("  %-8s %7.3f ms per step (GPU)", "total", total);
        if (hoveredAWhile())
            ImGui::SetTooltip("one step per sample timed on the CPU's clock with glFinish after each pass: right on any driver,\n"
                              "though the stalls make it a little slower than the steps between samples");
    }
    if (!stats.paused_why.empty()) ImGui::TextWrapped("order parameters paused: %s", stats.paused_why.c_str());
    const OrderParams& o = stats.order;
    ImGui::Text("%u groups (largest %.0f%%, grouped %.0f%%)", o.groups, 100.0 * o.largest_group_share, 100.0 * o.grouped_share);
    largestGroupsTable(o);
    auto plot = [](const char* label, const Series& s, float lo, float hi, const char* format, double now) {
        char overlay[64];
        std::snprintf(overlay, sizeof overlay, format, now);
        ImGui::PlotLines(label, s.data(), s.plotCount(), s.offset(), overlay, lo, hi, ImVec2(0, 40));
    };
    plot("polarization", stats.polarization_history, 0.0f, 1.0f, "%.3f", o.polarization);
    plot("within groups", stats.group_polarization_history, 0.0f, 1.0f, "%.3f", o.group_polarization);
    plot("milling", stats.milling_history, 0.0f, 1.0f, "%.3f", o.milling);
    plot("groups", stats.groups_history, 0.0f, FLT_MAX, "%.0f", o.groups);
    plot("nearest (median)", stats.nn_history, 0.0f, FLT_MAX, "%.3g units", o.nn_median);
    plot("neighbours", stats.neighbours_history, 0.0f, FLT_MAX, "%.2f", o.mean_neighbours);
    plot("speed", stats.speed_history, 0.0f, FLT_MAX, "%.3g units/s", o.mean_speed);
    if (hoveredAWhile()) ImGui::SetTooltip("order parameters: see docs/model.md; --stats-out writes them to a CSV");
}

void selectionSection(const PanelState& state, const Params& p) {
    if (!state.debug) return;
    if (!ImGui::CollapsingHeader("Selected boid", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (!state.selection) {
        ImGui::TextDisabled("click a boid");
        return;
    }
    const render::Selection& s = *state.selection;
    ImGui::Text("id %u, speed %.3f units/s, %u neighbours", s.id, double(glm::length(s.v)), s.neighbours);
    ImGui::Text("at (%.2f, %.2f, %.2f)", double(s.p.x), double(s.p.y), double(s.p.z));
    auto legend = [](const char* name, glm::vec4 c, float r) {
        ImGui::TextColored(ImVec4(c.r, c.g, c.b, c.a), "%s radius %.2f", name, double(r));
    };
    const SpeciesRules rules = p.rulesOf(0);  // as the style reads them (Couzin's zones; a style's own reach)
    if (rules.reach > 0.0f) legend("reach (the style's cut-off)", render::alignmentColour(), rules.reach);
    else {
        legend("separation", render::separationColour(), rules.separation.radius);
        legend("alignment", render::alignmentColour(), rules.alignment.radius);
        legend("cohesion", render::cohesionColour(), rules.cohesion.radius);
    }
    ImGui::Text("field of view %.0f deg (white)", double(p.species[0].fov_deg));
}

void keysSection() {
    if (!ImGui::CollapsingHeader("Keys")) return;
    for (const KeyBinding& b : keyBindings()) ImGui::Text("%-6s %s", b.key_name, b.what);
    ImGui::TextUnformatted("mouse: left drag pans (2D) / orbits (3D), right or middle drag pans, wheel zooms");
}

}  // namespace

bool applyToPanel(PanelState& state, Action a) {
    switch (a) {
        case Action::ToggleDebug: state.debug = !state.debug; return true;
        case Action::Screenshot: state.screenshot_requested = true; return true;
        case Action::TogglePanel:
            state.visible = !state.visible;
            state.place_panel = state.visible;
            return true;
        case Action::ResetView:
            state.reset_view_requested = state.place_panel = true;
            return true;
        case Action::Quit: state.quit_requested = true; return true;
        default: return false;
    }
}

void FrameStats::push(const OrderParams& o) {
    order = o;
    polarization_history.push(float(o.polarization));
    group_polarization_history.push(float(o.group_polarization));
    milling_history.push(float(o.milling));
    groups_history.push(float(o.groups));
    nn_history.push(float(o.nn_median));
    neighbours_history.push(float(o.mean_neighbours));
    speed_history.push(float(o.mean_speed));
}

void FrameStats::clearHistory() {
    order = OrderParams{};
    for (Series* s : {&polarization_history, &group_polarization_history, &milling_history, &groups_history, &nn_history,
                      &neighbours_history, &speed_history})
        s->clear();
}

namespace {

// A species' role keys: the predator switch where there are others to chase, a predator's chase,
// a prey's flight where some other species in use is a predator.
bool roleKeyApplies(std::string_view full_key, std::string_view key, const Params& p) {
    std::uint32_t s = 0;
    if (full_key.starts_with("species") && full_key.size() > 8) s = std::min(std::uint32_t(full_key[7] - '0'), kMaxSpecies - 1);
    const std::uint32_t used = std::min(p.species_count, kMaxSpecies);
    if (key == "predator") return used > 1;
    if (key == "chase") return used > 1 && p.roles[s].predator;
    bool hunted = false;
    for (std::uint32_t o = 0; o < used; ++o) hunted = hunted || (o != s && p.roles[o].predator);
    return hunted;  // flee.radius, flee.weight
}

}  // namespace

// A key applies where it acts: the style reads it (its own keys, less the shared keys it ignores),
// and the feature it belongs to is on (soft walls, perching, the led boid, a goal with a weight,
// an obstacle, a species' role). tests/no_gl/test_keys_apply.cpp holds this to what a step does.
bool appliesNow(std::string_view key, const Params& p) {
    const std::string_view full_key = key;
    key = withoutSpeciesPrefix(key);
    if (key == "dc.height" && p.dc.height_weight <= 0.0f) return false;  // the pull toward it is off
    for (const StyleInfo& s : styles())  // a style's own keys apply in it alone
        if (*s.prefix && key.starts_with(s.prefix)) return s.style == p.style;
    const auto& ignored = styleInfo(p.style).ignored_keys;
    if (std::find(ignored.begin(), ignored.end(), key) != ignored.end()) return false;
    if (key.ends_with(".z") && p.dims != 3) return false;
    if (key == "margin" || key == "turn") return p.bounds == Bounds::Soft;
    if (key.starts_with("topological.") && !styleInfo(p.style).traits.takesAdaptiveRadius()) return false;  // its slot is the style's
    if (key == "topological.max_radius" || key == "topological.rate") return p.topological.on();
    if (key.starts_with("perch.") && key != "perch.enabled") return p.perching;
    if (key.starts_with("leader.") && key != "leader.enabled") return p.leader;
    if (key.starts_with("attractor.") && key != "attractor.weight") return p.attractor.weight != 0.0f;
    if (key.starts_with("trap.") && key != "trap.stiffness") return p.trap.stiffness != 0.0f;
    if (key == "repeller.x" || key == "repeller.y" || key == "repeller.z") return p.repeller.weight != 0.0f && p.repeller.radius > 0.0f;
    if (key.starts_with("obstacle_")) return !p.obstacles.empty();
    if (key == "predator" || key == "chase" || key.starts_with("flee.")) return roleKeyApplies(full_key, key, p);
    return true;
}

Params withDefaultsKeeping(const Params& p) {
    Params d;
    d.boids = p.boids;
    d.dims = p.dims;
    d.seed = p.seed;
    d.world_size = p.world_size;  // the flock's density stays; world_size has its own reset
    return d;
}

const char* paramGroup(const char* key) {
    const std::string k = key;
    if (k == "colour" || k == "draw" || k == "camera" || k == "boid_length") return "View";  // the View section's widgets
    if (k == "boids") return "Run";    // the Run section's count and Apply
    if (k.starts_with("species")) return "Species";
    if (k.starts_with("spawn.")) return "World";  // with the seed: where and how the next reset puts the flock
    if (k.starts_with("wind.") || k == "wander" || k.starts_with("attractor.") || k.starts_with("repeller.") || k == "scatter" ||
        k.starts_with("trap.") ||
        k.starts_with("obstacle_") || k.starts_with("leader") || k.starts_with("perch."))
        return "Influences";
    const auto all = styles();
    const bool a_style_key = std::any_of(all.begin(), all.end(), [&](const StyleInfo& st) { return *st.prefix && k.starts_with(st.prefix); });
    if (k.ends_with(".weight") || k == "style" || k == "update" || a_style_key) return "Rules";
    if (k.ends_with(".radius") || k == "fov_deg" || k == "neighbour_cap" || k.starts_with("topological.")) return "Perception";
    if (k == "min_speed" || k == "max_speed" || k == "max_force" || k == "dt" || k == "speed_limit" || k == "integrator") return "Motion";
    return "World";
}


// The panel's title bar and left edge stay inside the window: after a resize to 1x1 and back
// they stayed off-screen, out of reach of the mouse. A minimised window (no size) is left alone.
void keepOnScreen() {
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    if (display.x < 1.0f || display.y < 1.0f) return;
    const ImVec2 at = ImGui::GetWindowPos();
    const float bar = ImGui::GetFrameHeight();
    const ImVec2 inside(std::clamp(at.x, 0.0f, std::max(0.0f, display.x - 4.0f * bar)), std::clamp(at.y, 0.0f, std::max(0.0f, display.y - bar)));
    if (inside.x != at.x || inside.y != at.y) ImGui::SetWindowPos(inside);
}

void drawPanel(Session& session, PanelState& state, const FrameStats& stats) {
    // At its first use, and back at its place on H (shown again) and C/Home.
    ImGui::SetNextWindowPos(ImVec2(10, 10), std::exchange(state.place_panel, false) ? ImGuiCond_Always : ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34, 0), ImGuiCond_FirstUseEver);
    ImGui::Begin("murmur");
    keepOnScreen();
    state.rects.clear();  // this frame's, item by item
    ImGui::PushItemWidth(-labelWidth());
    const FieldContext ctx{session.problems(), state.show_all_keys, state};
    ImGui::TextDisabled("%.1f FPS, %.1f steps/s, step %llu%s", stats.fps, stats.steps_per_s,
                        static_cast<unsigned long long>(session.steps()), session.running ? "" : " (paused)");
    state.noteRect("fps");
    if (hoveredAWhile()) ImGui::SetTooltip("the Stats section below has the GPU's time per pass and the order parameters");
    runSection(session, state);
    // One line kept for messages, at the same place whether or not there is one: nothing moves
    // under the pointer when a message appears. Problems with a field also show under it.
    const ImVec4 colour = session.messageIsError() ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f);
    const std::string& message = session.message();
    const std::string first_line = message.substr(0, message.find('\n'));
    ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextWrapped("%s", first_line.empty() ? " " : first_line.c_str());  // wrapped: it was cut at the panel's edge
    ImGui::PopStyleColor();
    state.noteRect("message");
    if (!message.empty() && hoveredAWhile()) ImGui::SetTooltip("%s", message.c_str());
    ImGui::Checkbox("show keys that do not apply now", &state.show_all_keys);
    if (hoveredAWhile()) ImGui::SetTooltip("off: only what the current style, dims and features use");
    ImGui::SameLine();
    if (ImGui::SmallButton("all defaults")) session.edit() = withDefaultsKeeping(session.edit());
    if (hoveredAWhile()) ImGui::SetTooltip("every key back to its default (--list-params), keeping the boid count, dims and seed");
    for (const char* group : {"Rules", "Perception", "Motion", "World"}) {
        paramSection(group, session, ctx);
        if (std::strcmp(group, "Perception") == 0) costLine(session, stats, state);
    }
    speciesSection(session, ctx);
    influencesSection(session, state, ctx);
    presetSection(session, state);
    viewSection(session, state);
    statsSection(stats);
    selectionSection(state, session.live());
    keysSection();
    ImGui::PopItemWidth();
    state.box = ImGui::IsWindowCollapsed()
                    ? glm::vec4(0.0f)
                    : glm::vec4(ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x, ImGui::GetWindowSize().y);
    ImGui::End();
}

}  // namespace murmur::ui

namespace murmur::ui {

void PanelState::noteRect(const std::string& name) {
    const ImVec2 at = ImGui::GetItemRectMin(), size = ImGui::GetItemRectSize();
    rects[name] = glm::vec4(at.x, at.y, size.x, size.y);
}

}  // namespace murmur::ui
