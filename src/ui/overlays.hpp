// The band above the world: the status line (paused, recording, the last notice) at its left and
// the legend of the colours at its right, drawn as Dear ImGui windows that take no input. The
// world is drawn below the band (render::belowBand), so neither covers a boid.
#pragma once

#include "model/params.hpp"

#include <glm/glm.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace murmur::ui {

// What the status line says, panel or not: paused, recording, and the
// last notice (a screenshot written, the panel hidden) for a few seconds.
struct StatusLine {
    bool paused = false;
    std::string recording;  // target, if recording
    std::uint64_t recorded_frames = 0;
    std::string notice;
};
// The lines the overlay shows (empty: no overlay).
std::vector<std::string> statusLines(const StatusLine& s);
// Draws them in one row from top_left (window units); takes no input.
void drawStatus(const StatusLine& s, glm::vec2 top_left);
// Their width in one row, padding included (window units; 0 when there are none).
float statusWidth(const StatusLine& s);
// The height of the band above the world that the status and the legend take (window units):
// the world is drawn below it, so they never cover a boid.
float overlayBandHeight();

// What the colours mean: a title and labelled swatches (species and predators; for heading the
// wheel's compass points; for speed and neighbours the ramp's ends and middle).
struct LegendEntry {
    std::string label;
    glm::vec3 colour;
};
struct Legend {
    std::string title;
    std::vector<LegendEntry> entries;
    bool wheel = false;  // heading: drawn as a colour wheel beside the entries
};
// counted: the state shown has been stepped since it was made (neighbour counts come from a step;
// a flock respawned while paused has none yet, and the legend says so).
Legend legendFor(const Params& p, float neighbour_scale, bool counted = true);
// Draws the legend (a title over one row of swatches) ending at top_right (window units); no input.
void drawLegend(const Legend& legend, glm::vec2 top_right);
// Its width, padding included (window units).
float legendWidth(const Legend& legend);

}  // namespace murmur::ui
