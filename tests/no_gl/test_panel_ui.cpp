// The real panel driven as a user drives it: Dear ImGui frames without a window or GL (fonts
// built, nothing rendered), input through ui::ImGuiInput as the window's callbacks give it, and
// the panel's own report of where each field is drawn (PanelState::rects). Each choice key set
// through its combo or checkbox, a click and a typed value at 2 frames/s, a drag's speed, and
// modifiers pressed in the middle of a frame.
#include "cpu/cpu_simulation.hpp"
#include "io/preset_json.hpp"
#include "model/param_table.hpp"
#include "ui/imgui_input.hpp"
#include "ui/overlays.hpp"
#include "ui/panel.hpp"
#include "ui/session.hpp"

#include <GLFW/glfw3.h>
#include <gtest/gtest.h>
#include <imgui.h>
#include <imgui_internal.h>

#include <cstring>

using namespace murmur;

namespace {

class PanelUi : public ::testing::Test {
protected:
    void SetUp() override {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(1600, 6000);  // tall: every open section fits without scrolling
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        io.KeyMap[ImGuiKey_Enter] = GLFW_KEY_ENTER;  // as the GLFW backend maps them
        io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
        io.KeyMap[ImGuiKey_A] = GLFW_KEY_A;
        params.boids = 60;
        session = std::make_unique<ui::Session>(sim, params);
        frame();
        ImGui::SetWindowSize("murmur", ImVec2(700, 5900));  // as a user would make it tall
        frame();
    }
    void TearDown() override { ImGui::DestroyContext(); }

    // One frame as the window runs it: input fed, panel drawn, edits committed.
    void frame() {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = ImVec2(float(pointer.x), float(pointer.y));
        input.feed(io);
        io.MouseDoubleClickTime = ui::ImGuiInput::doubleClickTime(io.DeltaTime);
        ImGui::NewFrame();
        ui::drawPanel(*session, state, stats);
        ImGui::Render();
        session->commitEdits();
    }
    void frames(int n) {
        for (int k = 0; k < n; ++k) frame();
    }
    glm::dvec2 centreOf(const std::string& name) {
        const auto it = state.rects.find(name);
        if (it == state.rects.end()) {
            ADD_FAILURE() << "the panel drew no " << name;
            return {0, 0};
        }
        // a quarter of the way in: a field's frame starts at its left, its label follows it
        return {it->second.x + it->second.z / 4, it->second.y + it->second.w / 2};
    }
    // A click (press and release between the same two frames, as a quick click at a low frame rate).
    void click(const std::string& name) {
        pointer = centreOf(name);
        input.push({ui::InputEvent::Button, 0, true, pointer});
        input.push({ui::InputEvent::Button, 0, false, pointer});
        frames(4);
    }
    void key(int code) {
        input.push({ui::InputEvent::Key, code, true, {}});
        input.push({ui::InputEvent::Key, code, false, {}});
    }

    CpuSimulation sim;
    Params params;
    std::unique_ptr<ui::Session> session;
    ui::PanelState state;
    ui::FrameStats stats;
    ui::ImGuiInput input;
    glm::dvec2 pointer{0.0};
};

bool isSwitch(const ParamInfo& info) {
    return info.choices.size() == 2 && std::strcmp(info.choices[0], "off") == 0 && std::strcmp(info.choices[1], "on") == 0;
}

}  // namespace

// Every choice key the panel shows takes each of its values through its combo (or checkbox), and
// the value reaches Session::live(). Species 1-3's keys are in their nodes under Species.
TEST_F(PanelUi, EveryChoiceKeyTakesEachValueThroughThePanel) {
    state.show_all_keys = true;
    session->edit().species_count = 4;
    frames(2);
    click("#Species");
    for (int s = 0; s < 4; ++s) click("#species " + std::to_string(s));
    click("#Influences");
    int set = 0;
    for (const ParamInfo& info : paramTable()) {
        if (info.kind != ParamKind::Choice || std::strcmp(info.key, "colour") == 0 || std::strcmp(info.key, "draw") == 0 ||
            std::strcmp(info.key, "camera") == 0)
            continue;  // colour, draw and camera: the View combos
        for (std::size_t k = 0; k < info.choices.size(); ++k) {
            const std::size_t before = std::size_t(info.get(session->live()));
            if (k == before) continue;
            if (isSwitch(info)) {
                click(info.key);
            } else {
                click(info.key);
                click(std::string(info.key) + "=" + info.choices[k]);
            }
            EXPECT_EQ(formatValue(info, session->live()), info.choices[k]) << info.key << ": " << session->message();
            ++set;
            // back to the default, through the same widget, so the next key starts from a valid flock
            const Params defaults;
            if (std::size_t(info.get(session->live())) != std::size_t(info.get(defaults))) {
                const std::string back = formatValue(info, defaults);
                if (isSwitch(info)) click(info.key);
                else {
                    click(info.key);
                    click(std::string(info.key) + "=" + back);
                }
            }
        }
    }
    EXPECT_GE(set, 20) << "choice values set through the panel";
}

// A quick click between two frames at 2 frames/s still presses a button.
TEST_F(PanelUi, AClickShorterThanAFrameIsNotLostAtTwoFramesPerSecond) {
    ImGui::GetIO().DeltaTime = 0.5f;
    ASSERT_TRUE(session->running);
    click("run/pause");
    EXPECT_FALSE(session->running);
}

// A double click at 2 frames/s (both clicks between two frames) opens a field for typing, and a
// value typed with Enter pressed and released within one frame is applied.
TEST_F(PanelUi, ADoubleClickAndATypedValueAreNotLostAtTwoFramesPerSecond) {
    ImGui::GetIO().DeltaTime = 0.5f;
    pointer = centreOf("separation.weight");
    for (int k = 0; k < 2; ++k) {
        input.push({ui::InputEvent::Button, 0, true, pointer});
        input.push({ui::InputEvent::Button, 0, false, pointer});
    }
    frames(6);
    ASSERT_TRUE(ImGui::GetIO().WantTextInput) << "the double click did not open the field for typing";
    key(GLFW_KEY_BACKSPACE);  // the field opens with its text selected: Backspace clears it
    frames(3);
    for (const char c : std::string("2.5")) input.push({ui::InputEvent::Char, c, false, {}});
    key(GLFW_KEY_ENTER);
    frames(4);
    EXPECT_FLOAT_EQ(session->live().species[0].separation.weight, 2.5f);
}

// A typed value outside the range is refused with the reason under the field, the value in effect
// kept (1000 typed into separation.weight, range [0, 100], was clamped to 100 silently).
TEST_F(PanelUi, ATypedValueOutOfRangeIsRefusedWithItsRange) {
    const float running = session->live().species[0].separation.weight;
    pointer = centreOf("separation.weight");
    for (int k = 0; k < 2; ++k) {
        input.push({ui::InputEvent::Button, 0, true, pointer});
        input.push({ui::InputEvent::Button, 0, false, pointer});
    }
    frames(6);
    ASSERT_TRUE(ImGui::GetIO().WantTextInput);
    key(GLFW_KEY_BACKSPACE);
    frames(3);
    for (const char c : std::string("1000")) input.push({ui::InputEvent::Char, c, false, {}});
    key(GLFW_KEY_ENTER);
    frames(4);
    EXPECT_EQ(session->live().species[0].separation.weight, running);
    EXPECT_EQ(state.refused_key, "separation.weight");
    EXPECT_NE(state.refused_why.find("range"), std::string::npos) << state.refused_why;
}

// A 200-pixel drag moves a radius by at most a factor of three (it once went from 10 to 230).
TEST_F(PanelUi, ADragOfTwoHundredPixelsChangesAValueByAtMostThreeTimes) {
    const float before = session->live().species[0].alignment.radius;
    pointer = centreOf("alignment.radius");
    input.push({ui::InputEvent::Button, 0, true, pointer});
    frames(2);
    for (int k = 0; k < 20; ++k) {
        pointer.x += 10;
        frame();
    }
    input.push({ui::InputEvent::Button, 0, false, pointer});
    frames(2);
    const float after = session->live().species[0].alignment.radius;
    EXPECT_GT(after, before);
    EXPECT_LE(after, 3.0f * before) << "from " << before;
}

// Ctrl, Shift and Alt pressed and released while a frame is under way (a sliced step polls events
// in the middle of one) reach ImGui only between frames: no modifier mismatch, and each is seen.
TEST_F(PanelUi, ModifiersPressedInTheMiddleOfAFrameWaitForTheNext) {
    ImGuiIO& io = ImGui::GetIO();
    for (int k : {GLFW_KEY_LEFT_CONTROL, GLFW_KEY_LEFT_SHIFT, GLFW_KEY_LEFT_ALT}) {
        input.feed(io);
        ImGui::NewFrame();
        input.push({ui::InputEvent::Key, k, true, {}});  // as the callbacks would during the frame
        ui::drawPanel(*session, state, stats);
        ImGui::Render();  // ImGui checks io.KeyMods against the modifiers here
        input.feed(io);
        EXPECT_TRUE(io.KeyCtrl || io.KeyShift || io.KeyAlt) << "key " << k << " not seen the next frame";
        ImGui::NewFrame();
        input.push({ui::InputEvent::Key, k, false, {}});
        ui::drawPanel(*session, state, stats);
        ImGui::Render();
        frame();
        EXPECT_FALSE(io.KeyCtrl || io.KeyShift || io.KeyAlt);
    }
}

// The frame rate is the panel's first line: no scrolling to the Stats section to see it.
TEST_F(PanelUi, TheFrameRateIsOnThePanelsFirstLine) {
    stats.fps = 42.5;
    frame();
    const auto fps = state.rects.find("fps");
    ASSERT_NE(fps, state.rects.end());
    EXPECT_LT(fps->second.y, state.rects.at("#Run").y) << "above the first section";
}

// A tooltip waits half a second under a still pointer (it appeared at once and covered the next
// labels).
TEST_F(PanelUi, TooltipsWaitHalfASecond) {
    pointer = centreOf("separation.weight");
    ImGui::GetIO().DeltaTime = 0.1f;
    const auto tooltipShown = [] {
        const ImGuiWindow* w = ImGui::FindWindowByName("##Tooltip_00");
        return w && w->Active;
    };
    frames(2);
    EXPECT_FALSE(tooltipShown()) << "shown at once";
    frames(6);
    EXPECT_TRUE(tooltipShown()) << "not shown after 0.6 s";
}

// The presets combo opens on the preset the run started from, not the first one alphabetically.
TEST_F(PanelUi, ThePresetsComboShowsTheLoadedPreset) {
    state.loaded_preset = "vicsek";
    click("#Presets");
    const auto presets = listPresets();
    ASSERT_FALSE(presets.empty()) << "no built-in presets (MURMUR_PRESET_DIR)";
    ASSERT_LT(std::size_t(state.preset_index), presets.size());
    EXPECT_EQ(presets[std::size_t(state.preset_index)].first, "vicsek");
}

// Without --preset the combo names no preset (it said "couzin-dynamic", the first alphabetically,
// for a run that had loaded none) and Load waits for a choice.
TEST_F(PanelUi, WithoutAPresetTheComboNamesNone) {
    click("#Presets");
    EXPECT_EQ(state.preset_index, -1);
}

// A radius edit that makes a step costlier says so (candidate pairs, the factor, the steps per
// second left at today's rate) before it is applied; none while the edit costs the same. (60
// boids: a budget of 120 cells, 10 x 10 of 30 units; a radius of 100 makes them 6 x 6 of 50.)
TEST_F(PanelUi, AnEditsCostIsShownBeforeItIsApplied) {
    stats.steps_per_s = 100;
    frame();
    EXPECT_EQ(state.rects.count("edit cost"), 0u) << "a cost line with no edit";
    session->edit().species[0].alignment.radius *= 10;
    ImGui::GetIO().DeltaTime = 1.0f / 60;
    input.feed(ImGui::GetIO());
    ImGui::NewFrame();
    ui::drawPanel(*session, state, stats);  // drawn before the window commits the edit
    ImGui::Render();
    EXPECT_EQ(state.rects.count("edit cost"), 1u) << "the tenfold radius's cost not shown";
}

// The colourings' names are the parameter table's, in ColourBy's order (one list of them).
TEST(PanelColours, TheColourKeysNamesFollowColourBy) {
    const auto& names = findParam("colour")->choices;
    ASSERT_EQ(names.size(), 5u);
    EXPECT_STREQ(names[std::size_t(render::ColourBy::Species)], "species");
    EXPECT_STREQ(names[std::size_t(render::ColourBy::Heading)], "heading");
    EXPECT_STREQ(names[std::size_t(render::ColourBy::Speed)], "speed");
    EXPECT_STREQ(names[std::size_t(render::ColourBy::Neighbours)], "neighbours");
    EXPECT_STREQ(names[std::size_t(render::ColourBy::Dusk)], "dusk");
}

// The queue on its own: a press and release between two frames are seen one frame each; text
// keeps its order behind a key that has to wait; the wheel adds up.
TEST(ImGuiInput, APressAndReleaseBetweenFramesAreSeenOneFrameEach) {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    ui::ImGuiInput input;
    input.push({ui::InputEvent::Button, 0, true, {5, 6}});
    input.push({ui::InputEvent::Button, 0, false, {5, 6}});
    input.push({ui::InputEvent::Key, GLFW_KEY_A, true, {}});
    input.push({ui::InputEvent::Key, GLFW_KEY_A, false, {}});
    input.push({ui::InputEvent::Char, 'a', false, {}});
    input.feed(io);
    EXPECT_TRUE(io.MouseDown[0]);
    EXPECT_FLOAT_EQ(io.MousePos.x, 5.0f);
    EXPECT_FALSE(io.KeysDown[GLFW_KEY_A]) << "the key waits behind the button's release";
    EXPECT_EQ(input.pending(), 4u);
    input.feed(io);
    EXPECT_FALSE(io.MouseDown[0]);
    EXPECT_TRUE(io.KeysDown[GLFW_KEY_A]);
    EXPECT_EQ(io.InputQueueCharacters.Size, 0) << "the character waits behind its key's release";
    input.feed(io);
    EXPECT_FALSE(io.KeysDown[GLFW_KEY_A]);
    ASSERT_EQ(io.InputQueueCharacters.Size, 1);
    EXPECT_EQ(io.InputQueueCharacters[0], 'a');
    EXPECT_EQ(input.pending(), 0u);
    input.push({ui::InputEvent::Scroll, 0, false, {0, 1}});
    input.push({ui::InputEvent::Scroll, 0, false, {0, 2}});
    io.MouseWheel = 0;
    input.feed(io);
    EXPECT_FLOAT_EQ(io.MouseWheel, 3.0f);
    EXPECT_FLOAT_EQ(ui::ImGuiInput::doubleClickTime(1.0f / 60), 0.30f);
    EXPECT_FLOAT_EQ(ui::ImGuiInput::doubleClickTime(0.5f), 1.25f);
    ImGui::DestroyContext();
}

// After the window shrinks to 1x1 and grows back, the panel's title bar is inside it (it stayed
// off-screen, and H and C did not bring it back); C puts it back at its place; a long message is
// wrapped to the panel's width, not cut.
TEST_F(PanelUi, ThePanelStaysOnScreenAndItsMessageWraps) {
    ImGui::SetWindowPos("murmur", ImVec2(900, 3000));
    ImGui::GetIO().DisplaySize = ImVec2(1, 1);
    frames(2);
    ImGui::GetIO().DisplaySize = ImVec2(400, 300);
    frames(2);
    const ImVec2 at = ImGui::FindWindowByName("murmur")->Pos;
    EXPECT_GE(at.x, 0.0f);
    EXPECT_GE(at.y, 0.0f);
    EXPECT_LT(at.x, 400.0f - 20.0f);
    EXPECT_LT(at.y, 300.0f - 10.0f);
    ImGui::SetWindowPos("murmur", ImVec2(200, 150));
    frame();
    EXPECT_TRUE(ui::applyToPanel(state, ui::Action::ResetView));
    frames(2);
    EXPECT_NEAR(ImGui::FindWindowByName("murmur")->Pos.x, 10.0f, 0.5f);
    EXPECT_NEAR(ImGui::FindWindowByName("murmur")->Pos.y, 10.0f, 0.5f);
    ImGui::GetIO().DisplaySize = ImVec2(1600, 6000);
    session->edit().species[0].min_speed = 1e6f;  // refused, with a long reason
    frames(2);
    ASSERT_TRUE(session->messageIsError());
    const glm::vec4 line = state.rects.at("message");
    EXPECT_LE(line.x + line.z, ImGui::FindWindowByName("murmur")->Pos.x + ImGui::FindWindowByName("murmur")->Size.x + 0.5f);
}

// The widths the window uses to decide whether the legend fits beside the status line are at
// least what ImGui draws (the legend is left out where it would overlap the status or the panel).
TEST_F(PanelUi, TheLegendAndStatusWidthsCoverWhatIsDrawn) {
    Params p;
    p.dims = 3;
    const ui::Legend legend = ui::legendFor(p, 8.0f);
    ui::StatusLine status;
    status.paused = true;
    status.notice = "wrote murmur-20261127-193000.png";
    ImGui::NewFrame();
    ui::drawStatus(status, {0.0f, 0.0f});
    ui::drawLegend(legend, {1600.0f, 0.0f});
    ImGui::Render();
    ImGui::NewFrame();  // auto-resizing windows take their size in the frame after their first
    ui::drawStatus(status, {0.0f, 0.0f});
    ui::drawLegend(legend, {1600.0f, 0.0f});
    ImGui::Render();
    EXPECT_GE(ui::legendWidth(legend) + 0.5f, ImGui::FindWindowByName("##legend")->Size.x);
    EXPECT_GE(ui::statusWidth(status) + 0.5f, ImGui::FindWindowByName("##status")->Size.x);
    EXPECT_LT(ui::legendWidth(legend), 1.3f * ImGui::FindWindowByName("##legend")->Size.x) << "far too wide: hidden for nothing";
    EXPECT_EQ(ui::statusWidth(ui::StatusLine{}), 0.0f);
}

// A choice the settings refuse is greyed with its reason, not offered and refused after a click:
// sequential past its 1,024 boids.
TEST_F(PanelUi, AChoiceTheSettingsRefuseCannotBePicked) {
    Params p;
    p.boids = 5000;
    p.world_size = 400.0f;
    session = std::make_unique<ui::Session>(sim, p);
    frames(2);
    click("update");  // opens the combo
    ASSERT_TRUE(state.rects.count("update=sequential")) << "the combo did not open";
    click("update=sequential");
    EXPECT_EQ(session->live().update, UpdateOrder::Parallel);
    EXPECT_EQ(session->edit().update, UpdateOrder::Parallel) << "the greyed choice was taken";
    EXPECT_EQ(state.refused_key, "");
}
