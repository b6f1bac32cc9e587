// One widget per parameter of the table; see param_widgets.hpp.
#include "ui/param_widgets.hpp"

#include "model/param_table.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace murmur::ui {

bool hoveredAWhile() {
    if (!ImGui::IsItemHovered()) return false;
    // Where the hovered item starts identifies it; the window's storage keeps when hovering began.
    const ImVec2 at = ImGui::GetItemRectMin();
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID item = ImGui::GetID("##tooltip-item"), since = ImGui::GetID("##tooltip-since");
    const unsigned hash = unsigned(int(at.x)) * 73856093u ^ unsigned(int(at.y)) * 19349663u;
    const int key = static_cast<int>(hash);
    if (storage->GetInt(item, 0) != key) {
        storage->SetInt(item, key);
        storage->SetFloat(since, float(ImGui::GetTime()));
    }
    return float(ImGui::GetTime()) - storage->GetFloat(since) >= kTooltipDelay;
}

// "species2.dc.brake" -> "dc.brake": a species' key as its own node in the panel shows it.
std::string_view withoutSpeciesPrefix(std::string_view key) {
    if (key.starts_with("species") && key.size() > 9 && key[8] == '.') key.remove_prefix(9);
    return key;
}

// The field's label: the key shown, its unit, and the whole key as its ImGui identity.
std::string fieldLabel(const ParamInfo& info, std::string_view shown_key) {
    return std::string(shown_key) + (info.unit[0] ? std::string(" (") + info.unit + ")" : "") + "##" + info.key;
}

namespace {

// Units per pixel of drag: half a percent of the value (or of the default, near zero), so a
// 200-pixel drag at most multiplies a value by 2.7; never more than a 400th of the range, so
// crossing the whole range takes at least 400 pixels (about the panel's width); never less than a
// millionth of it. Shift drags ten times finer (Dear ImGui's own Shift is ten times coarser).
float dragSpeed(const ParamInfo& info, float v, bool fine) {
    const Params defaults;
    const double range = info.max - info.min;
    const double scale = std::max(std::abs(double(v)), std::abs(info.get(defaults)));
    const double speed = std::clamp(scale * 0.005, std::max(range * 1e-6, 1e-6), std::max(range / 400.0, 1e-6));
    return float(fine ? speed * 0.01 : speed);
}

void tooltip(const ParamInfo& info) {
    if (!hoveredAWhile()) return;
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(info.help);
    ImGui::Text("range %s %s", rangeText(info).c_str(), info.unit);
    if (info.kind == ParamKind::Float || info.kind == ParamKind::Int)
        ImGui::TextDisabled("double-click (or Ctrl+click) to type a value; right-click for a menu that resets it to its default");
    else
        ImGui::TextDisabled("right-click for a menu that resets it to its default");
    ImGui::EndTooltip();
}

// A value the parameter table refused: shown under its field until the next accepted edit of it.
bool accepted(const ParamInfo& info, const std::optional<std::string>& refusal, const FieldContext& ctx) {
    if (refusal) {
        ctx.state.refused_key = info.key;
        ctx.state.refused_why = *refusal;
        return false;
    }
    if (ctx.state.refused_key == info.key) ctx.state.refused_key.clear();
    return true;
}

bool isSwitch(const ParamInfo& info) {
    return info.kind == ParamKind::Choice && info.choices.size() == 2 && std::strcmp(info.choices[0], "off") == 0 &&
           std::strcmp(info.choices[1], "on") == 0;
}

// A choice key: a checkbox for off/on, else a combo; set through the table's choice names.
bool choiceWidget(const ParamInfo& info, Params& p, const FieldContext& ctx, const std::string& label) {
    const auto index = std::size_t(info.get(p));
    if (isSwitch(info)) {
        bool on = index == 1;
        return ImGui::Checkbox(label.c_str(), &on) && accepted(info, setFromText(info, on ? "on" : "off", p), ctx);
    }
    bool changed = false;
    if (ImGui::BeginCombo(label.c_str(), info.choices[index], ImGuiComboFlags_HeightLargest)) {  // every choice in view (the styles are nine)
        const std::size_t problems_now = validate(p).size();  // other fields' problems are not this choice's
        for (std::size_t k = 0; k < info.choices.size(); ++k) {
            // A choice these settings refuse (sequential past its 1,024 boids) is greyed, its
            // reason in the tooltip: offered, it was refused only after a click.
            Params with = p;
            const bool refused = k != index && (setFromText(info, info.choices[k], with) || validate(with).size() > problems_now);
            ImGui::BeginDisabled(refused);
            if (ImGui::Selectable(info.choices[k], k == index) && k != index)
                changed = accepted(info, setFromText(info, info.choices[k], p), ctx);
            ImGui::EndDisabled();
            if (refused && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
                const auto problems = validate(with);
                ImGui::SetTooltip("%s", problems.empty() ? "not valid here" : problems.back().message.c_str());
            }
            ctx.state.noteRect(std::string(info.key) + "=" + info.choices[k]);
        }
        ImGui::EndCombo();
    }
    return changed;
}

// Right click: back to the documented default; the tooltip says how to type an exact value.
void fieldMenu(const ParamInfo& info, Params& p, bool& changed, const FieldContext& ctx) {
    if (ImGui::BeginPopupContextItem(info.key)) {
        const Params defaults;
        const std::string value = formatValue(info, defaults);
        const std::string item = "reset to default (" + value + ")";
        if (ImGui::MenuItem(item.c_str())) changed = accepted(info, setFromText(info, value, p), ctx);
        ImGui::EndPopup();
    }
}

}  // namespace

// One widget for one parameter of `p`, labelled shown_key; true when it changed.
bool paramWidget(const ParamInfo& info, Params& p, const FieldContext& ctx, std::string_view shown_key) {
    const double value = info.get(p);
    const std::string label = fieldLabel(info, shown_key);
    bool changed = false;
    switch (info.kind) {
        case ParamKind::Choice: changed = choiceWidget(info, p, ctx, label); break;
        case ParamKind::Int: {
            int v = int(value);
            if (ImGui::SliderInt(label.c_str(), &v, int(info.min), int(std::min(info.max, 1e9))))
                changed = accepted(info, setFromNumber(info, v, p), ctx);
            break;
        }
        case ParamKind::Seed: {
            auto v = static_cast<unsigned long long>(value);
            if (ImGui::InputScalar(label.c_str(), ImGuiDataType_U64, &v)) changed = accepted(info, setFromNumber(info, double(v), p), ctx);
            break;
        }
        case ParamKind::Float: {
            float v = float(value);
            const float speed = dragSpeed(info, v, ImGui::GetIO().KeyShift);
            // A drag stays within the range; a typed value outside it is refused with the range
            // under the field (it was clamped silently).
            if (ImGui::DragFloat(label.c_str(), &v, speed, float(info.min), float(info.max), "%.4g"))
                changed = accepted(info, setFromNumber(info, double(v), p), ctx);
            break;
        }
    }
    ctx.state.noteRect(info.key);
    fieldMenu(info, p, changed, ctx);
    tooltip(info);
    const auto problemLine = [](const std::string& text) {
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "not applied: %s", text.c_str());
        ImGui::PopTextWrapPos();
    };
    for (const ParamProblem& problem : ctx.problems)
        if (problem.field == info.key) problemLine(problem.message);
    if (ctx.state.refused_key == info.key) problemLine(ctx.state.refused_why);
    return changed;
}

bool paramWidget(const ParamInfo& info, Params& p, const FieldContext& ctx) { return paramWidget(info, p, ctx, info.key); }
// The widest label the panel shows, so no label is cut.
float labelWidth() {
    float widest = 0.0f;
    for (const ParamInfo& info : paramTable()) {
        widest = std::max(widest, ImGui::CalcTextSize(fieldLabel(info, withoutSpeciesPrefix(info.key)).c_str(), nullptr, true).x);
    }
    return widest + ImGui::GetStyle().ItemInnerSpacing.x * 2;
}

}  // namespace murmur::ui
