// The status line and the legend in the band above the world; see overlays.hpp.
#include "ui/overlays.hpp"

#include "render/flock_renderer.hpp"
#include "render/palette.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace murmur::ui {

float overlayBandHeight() {
    const ImGuiStyle& style = ImGui::GetStyle();
    return 2.0f * ImGui::GetTextLineHeightWithSpacing() + 2.0f * style.WindowPadding.y + 8.0f;
}

std::vector<std::string> statusLines(const StatusLine& s) {
    std::vector<std::string> lines;
    if (s.paused) lines.push_back("paused (Space runs)");
    if (!s.recording.empty()) lines.push_back("REC " + std::to_string(s.recorded_frames) + " frames: " + s.recording);
    if (!s.notice.empty()) lines.push_back(s.notice);
    return lines;
}

void drawStatus(const StatusLine& s, glm::vec2 top_left) {
    const auto lines = statusLines(s);
    if (lines.empty()) return;
    ImGui::SetNextWindowPos(ImVec2(top_left.x + 6, top_left.y + 4), ImGuiCond_Always, ImVec2(0.0f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.6f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("##status", nullptr, flags))
        for (std::size_t k = 0; k < lines.size(); ++k) {  // one row: the status fits the band above the world
            if (k > 0) ImGui::SameLine(0.0f, 2.0f * ImGui::GetStyle().ItemSpacing.x);
            ImGui::TextColored(lines[k].starts_with("REC") ? ImVec4(1.0f, 0.4f, 0.35f, 1.0f) : ImVec4(0.9f, 0.9f, 0.9f, 1.0f), "%s",
                               lines[k].c_str());
        }
    ImGui::End();
}

float statusWidth(const StatusLine& s) {
    const auto lines = statusLines(s);
    if (lines.empty()) return 0.0f;
    float w = 2.0f * ImGui::GetStyle().WindowPadding.x + 6.0f;
    for (std::size_t k = 0; k < lines.size(); ++k)
        w += ImGui::CalcTextSize(lines[k].c_str()).x + (k > 0 ? 2.0f * ImGui::GetStyle().ItemSpacing.x : 0.0f);
    return w;
}

float legendWidth(const Legend& legend) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float h = ImGui::GetTextLineHeight();
    float row = legend.wheel ? h + style.ItemSpacing.x : 0.0f;
    for (const LegendEntry& e : legend.entries) row += h + style.ItemSpacing.x + ImGui::CalcTextSize(e.label.c_str()).x + 2.0f * style.ItemSpacing.x;
    return std::max(row, ImGui::CalcTextSize(legend.title.c_str()).x) + 2.0f * style.WindowPadding.x + 6.0f;
}

Legend legendFor(const Params& p, float neighbour_scale, bool counted) {
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
        case render::ColourBy::Dusk:
            l.title = "dusk: darker where denser and where wings face you";
            l.entries.push_back({"wings face on", glm::vec3(0.03f, 0.03f, 0.05f)});
            l.entries.push_back({"edge on", glm::vec3(0.62f, 0.52f, 0.5f)});
            break;
        case render::ColourBy::Neighbours:
            l.title = counted ? "neighbours" : "neighbours (counted at the next step)";
            for (float t : {0.0f, 0.5f, 1.0f})
                l.entries.push_back({number(double(t * neighbour_scale)) + (t == 1.0f ? " or more" : ""), render::rampColour(t)});
            break;
    }
    return l;
}

void drawLegend(const Legend& legend, glm::vec2 top_right) {
    ImGui::SetNextWindowPos(ImVec2(top_right.x - 6, top_right.y + 4), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.6f);
    const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoInputs |
                                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav;
    if (ImGui::Begin("##legend", nullptr, flags)) {
        ImGui::TextUnformatted(legend.title.c_str());
        const auto toU32 = [](glm::vec3 c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)); };
        if (legend.wheel) {  // 48 wedges, +x at the right, counter-clockwise as angles grow
            const float r = ImGui::GetTextLineHeight() * 0.5f;
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
            ImGui::SameLine();
        }
        for (const LegendEntry& e : legend.entries) {  // one row: the legend fits the band above the world
            const float h = ImGui::GetTextLineHeight();
            const ImVec2 at = ImGui::GetCursorScreenPos();
            ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + h, at.y + h), toU32(e.colour));
            ImGui::Dummy(ImVec2(h, h));
            ImGui::SameLine();
            ImGui::TextUnformatted(e.label.c_str());
            ImGui::SameLine(0.0f, 2.0f * ImGui::GetStyle().ItemSpacing.x);
        }
        ImGui::NewLine();
    }
    ImGui::End();
}

}  // namespace murmur::ui
