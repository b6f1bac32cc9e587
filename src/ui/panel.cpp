// The ImGui panel; see panel.hpp.
#include "ui/panel.hpp"

#include "io/preset_json.hpp"
#include "model/density.hpp"
#include "model/param_table.hpp"
#include "render/overlay.hpp"
#include "render/palette.hpp"
#include "ui/keys.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace murmur::ui {
namespace {

// Pixels of drag per unit: a hundredth of the value, but at least a ten-thousandth of the range,
// so a drag reaches 0 (or the bound) in a few hundred pixels instead of creeping towards it.
float dragSpeed(const ParamInfo& info, float v) {
    const double range = std::min(info.max - info.min, 1e6);
    return float(std::max({std::abs(double(v)) * 0.01, range * 1e-4, 1e-4}));
}

void tooltip(const ParamInfo& info) {
    if (!ImGui::IsItemHovered()) return;
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(info.help);
    ImGui::Text("range %s %s", rangeText(info).c_str(), info.unit);
    if (info.kind == ParamKind::Float || info.kind == ParamKind::Int)
        ImGui::TextDisabled("double-click (or Ctrl+click) to type a value; right-click to reset it");
    else
        ImGui::TextDisabled("right-click to reset it");
    ImGui::EndTooltip();
}

// "species2.dc.brake" -> "dc.brake": a species' key as its own node in the panel shows it.
std::string_view withoutSpeciesPrefix(std::string_view key) {
    if (key.starts_with("species") && key.size() > 9 && key[8] == '.') key.remove_prefix(9);
    return key;
}

// What a widget needs beyond its parameter: the last edit's problems (shown under their field)
// and whether keys that do not apply now are shown too.
struct FieldContext {
    const std::vector<ParamProblem>& problems;
    bool show_all;
};

std::string fieldLabel(const ParamInfo& info, std::string_view shown_key) {
    return std::string(shown_key) + (info.unit[0] ? std::string(" (") + info.unit + ")" : "") + "##" + info.key;
}

// Right click: back to the documented default; the tooltip says how to type an exact value.
void fieldMenu(const ParamInfo& info, Params& p, bool& changed) {
    if (ImGui::BeginPopupContextItem(info.key)) {
        const Params defaults;
        const std::string item = "reset to default (" + formatValue(info, defaults) + ")";
        if (ImGui::MenuItem(item.c_str())) changed = !setFromNumber(info, info.get(defaults), p);
        ImGui::EndPopup();
    }
}

// One widget for one parameter of `p`, labelled shown_key; true when it changed.
bool paramWidget(const ParamInfo& info, Params& p, const FieldContext& ctx, std::string_view shown_key) {
    const double value = info.get(p);
    const std::string label = fieldLabel(info, shown_key);
    bool changed = false;
    switch (info.kind) {
        case ParamKind::Choice: {
            int index = int(value);
            if (ImGui::BeginCombo(label.c_str(), info.choices[std::size_t(index)])) {
                for (std::size_t k = 0; k < info.choices.size(); ++k)
                    if (ImGui::Selectable(info.choices[k], int(k) == index)) {
                        changed = !setFromNumber(info, double(k), p) && int(k) != index;
                    }
                ImGui::EndCombo();
            }
            break;
        }
        case ParamKind::Int: {
            int v = int(value);
            if (ImGui::SliderInt(label.c_str(), &v, int(info.min), int(std::min(info.max, 1e9)))) changed = !setFromNumber(info, v, p);
            break;
        }
        case ParamKind::Seed: {
            auto v = static_cast<unsigned long long>(value);
            if (ImGui::InputScalar(label.c_str(), ImGuiDataType_U64, &v)) changed = !setFromNumber(info, double(v), p);
            break;
        }
        case ParamKind::Float: {
            float v = float(value);
            const float speed = dragSpeed(info, v);
            if (ImGui::DragFloat(label.c_str(), &v, speed, float(info.min), float(info.max), "%.4g",
                                 ImGuiSliderFlags_AlwaysClamp))
                changed = !setFromNumber(info, double(v), p);
            break;
        }
    }
    fieldMenu(info, p, changed);
    tooltip(info);
    for (const ParamProblem& problem : ctx.problems)
        if (problem.field == info.key) {
            ImGui::PushTextWrapPos(0.0f);
            ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "not applied: %s", problem.message.c_str());
            ImGui::PopTextWrapPos();
        }
    return changed;
}

bool paramWidget(const ParamInfo& info, Params& p, const FieldContext& ctx) { return paramWidget(info, p, ctx, info.key); }

void paramSection(const char* group, Session& session, const FieldContext& ctx) {
    if (!ImGui::CollapsingHeader(group, ImGuiTreeNodeFlags_DefaultOpen)) return;
    for (const ParamInfo& info : paramTable()) {
        if (std::strcmp(paramGroup(info.key), group) != 0) continue;
        if (!ctx.show_all && !appliesNow(info.key, session.edit())) continue;
        paramWidget(info, session.edit(), ctx);
        if (std::strcmp(info.key, "seed") == 0 || std::strcmp(info.key, "spawn.radius") == 0) {
            ImGui::SameLine();
            ImGui::TextDisabled("(on reset)");
        }
    }
}

// Species in use; each one's role, and for 1..3 their own rules (species 0 flies the sections
// above). Inside a species' node its keys are shown without the "speciesN." prefix.
void speciesSection(Session& session, const FieldContext& ctx) {
    if (!ImGui::CollapsingHeader("Species")) return;
    Params& p = session.edit();
    paramWidget(*findParam("species_count"), p, ctx);
    for (std::uint32_t s = 0; s < std::min(p.species_count, kMaxSpecies); ++s) {
        const std::string prefix = "species" + std::to_string(s) + ".";
        const std::string title = "species " + std::to_string(s) + (p.roles[s].predator ? " (predator)" : "") +
                                  (s == 0 ? ": rules above" : "");
        if (!ImGui::TreeNode(title.c_str())) continue;
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
    if (!ImGui::CollapsingHeader("Influences")) return;
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

void runSection(Session& session) {
    if (!ImGui::CollapsingHeader("Run", ImGuiTreeNodeFlags_DefaultOpen)) return;
    if (ImGui::Button(session.running ? "Pause" : "Run")) session.togglePause();
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
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("reallocates the buffers and respawns; range [0, 100000000], or what the GPU holds");
    ImGui::SameLine();
    ImGui::Checkbox("keep density", &session.keep_density);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Apply resizes the world so the flock stays as crowded (off, or once world_size is edited: the world stays)");
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
    if (!ImGui::CollapsingHeader("Presets")) return;
    static std::vector<std::pair<std::string, std::string>> presets = listPresets();
    if (!presets.empty()) {
        state.preset_index = std::clamp(state.preset_index, 0, int(presets.size()) - 1);
        if (ImGui::BeginCombo("built-in", presets[std::size_t(state.preset_index)].first.c_str())) {
            for (std::size_t k = 0; k < presets.size(); ++k) {
                if (ImGui::Selectable(presets[k].first.c_str(), int(k) == state.preset_index)) state.preset_index = int(k);
                if (ImGui::IsItemHovered() && !presets[k].second.empty()) ImGui::SetTooltip("%s", presets[k].second.c_str());
            }
            ImGui::EndCombo();
        }
        ImGui::SameLine();
        if (ImGui::Button("Load##builtin")) session.loadPreset(presets[std::size_t(state.preset_index)].first);
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
    if (ImGui::Combo("colour by", &colour, render::kColourByNames.data(), int(render::kColourByNames.size())))
        session.edit().colour = std::uint32_t(colour);  // a view key: saved with a preset
    ImGui::Checkbox("legend", &state.show_legend);
    if (session.edit().colour == std::uint32_t(render::ColourBy::Neighbours))
        ImGui::DragFloat("neighbours at top", &state.draw.neighbour_scale, 0.5f, 1.0f, 1000.0f, "%.0f", ImGuiSliderFlags_AlwaysClamp);
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
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", state.recording.empty() ? "record the world as a video (ffmpeg) in the current folder; PNG frames if ffmpeg is missing"
                                                        : state.recording.c_str());
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
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("one step per sample timed on the CPU's clock with glFinish after each pass: right on any driver,\n"
                              "though the stalls make it a little slower than the steps between samples");
    }
    if (!stats.paused_why.empty()) ImGui::TextWrapped("order parameters paused: %s", stats.paused_why.c_str());
    const OrderParams& o = stats.order;
    ImGui::Text("%u groups (largest %.0f%%, grouped %.0f%%)", o.groups, 100.0 * o.largest_group_share, 100.0 * o.grouped_share);
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
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("order parameters: see docs/model.md; --stats-out writes them to a CSV");
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
    legend("separation", render::separationColour(), p.species[0].separation.radius);
    legend("alignment", render::alignmentColour(), p.species[0].alignment.radius);
    legend("cohesion", render::cohesionColour(), p.species[0].cohesion.radius);
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
        case Action::TogglePanel: state.visible = !state.visible; return true;
        case Action::ResetView: state.reset_view_requested = true; return true;
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

bool appliesNow(std::string_view key, const Params& p) {
    key = withoutSpeciesPrefix(key);
    if (key.starts_with("dc.")) return p.style == Style::Decarpentier;
    if (key.starts_with("offset.")) return p.style == Style::Offset;
    if (key.starts_with("steering.")) return p.style == Style::Steering;
    if (key.starts_with("vicsek.")) return p.style == Style::Vicsek;
    if (key.starts_with("couzin.")) return p.style == Style::Couzin;
    if (key == "alignment.radius" || key == "cohesion.radius") return p.style != Style::Couzin;  // Couzin: zone widths
    if (key.ends_with(".z")) return p.dims == 3 && (!key.starts_with("leader.") || p.leader);
    if (key == "margin" || key == "turn") return p.bounds == Bounds::Soft;
    if (key.starts_with("perch.") && key != "perch.enabled") return p.perching;
    if (key.starts_with("leader.") && key != "leader.enabled") return p.leader;
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
    if (k == "colour") return "View";  // the View section's combo
    if (k == "boids") return "Run";    // the Run section's count and Apply
    if (k.starts_with("species")) return "Species";
    if (k == "spawn.radius") return "World";  // with the seed: where the next reset puts the flock
    if (k.starts_with("wind.") || k == "wander" || k.starts_with("attractor.") || k.starts_with("repeller.") || k == "scatter" ||
        k.starts_with("obstacle_") || k.starts_with("leader") || k.starts_with("perch."))
        return "Influences";
    if (k.ends_with(".weight") || k == "style" || k.starts_with("dc.") || k == "update" || k.starts_with("offset.") || k.starts_with("vicsek.") || k.starts_with("couzin.") ||
        k.starts_with("steering."))
        return "Rules";
    if (k.ends_with(".radius") || k == "fov_deg" || k == "neighbour_cap") return "Perception";
    if (k == "min_speed" || k == "max_speed" || k == "max_force" || k == "dt" || k == "speed_limit" || k == "integrator") return "Motion";
    return "World";
}

// The widest label the panel shows, so no label is cut.
float labelWidth() {
    float widest = 0.0f;
    for (const ParamInfo& info : paramTable()) {
        widest = std::max(widest, ImGui::CalcTextSize(fieldLabel(info, withoutSpeciesPrefix(info.key)).c_str(), nullptr, true).x);
    }
    return widest + ImGui::GetStyle().ItemInnerSpacing.x * 2;
}

std::vector<std::string> statusLines(const StatusLine& s) {
    std::vector<std::string> lines;
    if (s.paused) lines.push_back("paused (Space runs)");
    if (!s.recording.empty()) lines.push_back("REC " + std::to_string(s.recorded_frames) + " frames: " + s.recording);
    if (!s.notice.empty()) lines.push_back(s.notice);
    return lines;
}

void drawStatus(const StatusLine& s, glm::vec2 top_right) {
    const auto lines = statusLines(s);
    if (lines.empty()) return;
    ImGui::SetNextWindowPos(ImVec2(top_right.x - 10, top_right.y + 10), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.6f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("##status", nullptr, flags))
        for (const std::string& line : lines)
            ImGui::TextColored(line.starts_with("REC") ? ImVec4(1.0f, 0.4f, 0.35f, 1.0f) : ImVec4(0.9f, 0.9f, 0.9f, 1.0f), "%s",
                               line.c_str());
    ImGui::End();
}

Legend legendFor(const Params& p, float neighbour_scale) {
    Legend l;
    const auto number = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", v);
        return std::string(buf);
    };
    switch (render::ColourBy(p.colour)) {
        case render::ColourBy::Species:
            l.title = "species";
            for (std::uint32_t s = 0; s < std::min(p.species_count, kMaxSpecies); ++s)
                l.entries.push_back({"species " + std::to_string(s) + (p.roles[s].predator ? " (predator)" : ""),
                                     render::speciesColour(s, p.roles[s].predator)});
            break;
        case render::ColourBy::Heading: {
            l.title = p.dims == 3 ? "heading (x-z plane; brighter climbing)" : "heading";
            l.wheel = true;
            const char* names[4] = {"+x (right)", p.dims == 3 ? "+z" : "+y (up)", "-x (left)", p.dims == 3 ? "-z" : "-y (down)"};
            for (int k = 0; k < 4; ++k) {
                const float a = float(k) * 1.5707963f;
                l.entries.push_back({names[k], render::headingColour(a > 3.14159265f ? a - 6.2831853f : a)});
            }
            break;
        }
        case render::ColourBy::Speed: {
            const float top = p.species[0].max_speed;
            l.title = "speed (units/s)";
            for (float t : {0.0f, 0.5f, 1.0f}) l.entries.push_back({number(double(t * top)), render::rampColour(t)});
            break;
        }
        case render::ColourBy::Neighbours:
            l.title = "neighbours";
            for (float t : {0.0f, 0.5f, 1.0f})
                l.entries.push_back({number(double(t * neighbour_scale)) + (t == 1.0f ? " or more" : ""), render::rampColour(t)});
            break;
    }
    return l;
}

void drawLegend(const Legend& legend, glm::vec2 bottom_right) {
    ImGui::SetNextWindowPos(ImVec2(bottom_right.x - 10, bottom_right.y - 10), ImGuiCond_Always, ImVec2(1.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.6f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("##legend", nullptr, flags)) {
        ImGui::TextUnformatted(legend.title.c_str());
        const auto toU32 = [](glm::vec3 c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)); };
        if (legend.wheel) {  // 48 wedges, +x at the right, counter-clockwise as angles grow
            const float r = ImGui::GetFontSize() * 1.6f;
            const ImVec2 at = ImGui::GetCursorScreenPos();
            const ImVec2 centre(at.x + r, at.y + r);
            ImDrawList* draw = ImGui::GetWindowDrawList();
            for (int k = 0; k < 48; ++k) {
                const float a0 = float(k) / 48.0f * 6.2831853f, a1 = float(k + 1) / 48.0f * 6.2831853f;
                const float mid = (a0 + a1) / 2;
                draw->AddTriangleFilled(centre, ImVec2(centre.x + r * std::cos(a0), centre.y - r * std::sin(a0)),
                                        ImVec2(centre.x + r * std::cos(a1), centre.y - r * std::sin(a1)),
                                        toU32(render::headingColour(mid > 3.14159265f ? mid - 6.2831853f : mid)));
            }
            ImGui::Dummy(ImVec2(2 * r, 2 * r));
        }
        for (const LegendEntry& e : legend.entries) {
            const float h = ImGui::GetTextLineHeight();
            const ImVec2 at = ImGui::GetCursorScreenPos();
            ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + h, at.y + h), toU32(e.colour));
            ImGui::Dummy(ImVec2(h, h));
            ImGui::SameLine();
            ImGui::TextUnformatted(e.label.c_str());
        }
    }
    ImGui::End();
}

void drawPanel(Session& session, PanelState& state, const FrameStats& stats) {
    ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
    ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34, 0), ImGuiCond_FirstUseEver);
    ImGui::Begin("murmur");
    ImGui::PushItemWidth(-labelWidth());
    const FieldContext ctx{session.problems(), state.show_all_keys};
    runSection(session);
    // One line kept for messages, at the same place whether or not there is one: nothing moves
    // under the pointer when a message appears. Problems with a field also show under it.
    const ImVec4 colour = session.messageIsError() ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f);
    const std::string& message = session.message();
    const std::string first_line = message.substr(0, message.find('\n'));
    ImGui::TextColored(colour, "%s", first_line.empty() ? " " : first_line.c_str());
    if (!message.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", message.c_str());
    ImGui::Checkbox("show keys that do not apply now", &state.show_all_keys);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("off: only what the current style, dims and features use");
    ImGui::SameLine();
    if (ImGui::SmallButton("all defaults")) session.edit() = withDefaultsKeeping(session.edit());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("every key back to its default (--list-params), keeping the boid count, dims and seed");
    for (const char* group : {"Rules", "Perception", "Motion", "World"}) paramSection(group, session, ctx);
    speciesSection(session, ctx);
    influencesSection(session, state, ctx);
    session.commitEdits();
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
