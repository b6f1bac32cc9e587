// One Dear ImGui widget per parameter of the table: a drag for a number (at a speed that suits
// its value and range), a combo for a choice, a checkbox for an off/on key, each with its unit,
// a delayed tooltip with meaning and range, a right-click reset, and the reason under it when a
// value is refused. Used by the panel (panel.cpp), which lays them out in sections.
#pragma once

#include "model/param_table.hpp"
#include "model/params.hpp"
#include "ui/panel.hpp"

#include <string_view>
#include <vector>

namespace murmur::ui {

// What a widget needs beyond its parameter: the last edit's problems (shown under their field),
// whether keys that do not apply now are shown too, and where a refused value's reason is kept.
struct FieldContext {
    const std::vector<ParamProblem>& problems;
    bool show_all;
    PanelState& state;
};

// The widget for info's value in p, labelled shown_key (the key itself by default); true when
// it changed p.
bool paramWidget(const ParamInfo& info, Params& p, const FieldContext& ctx, std::string_view shown_key);
bool paramWidget(const ParamInfo& info, Params& p, const FieldContext& ctx);

// "species2.dc.brake" -> "dc.brake": a species' key as its own node in the panel shows it.
std::string_view withoutSpeciesPrefix(std::string_view key);
// The widest label a widget has, so the panel cuts none.
float labelWidth();

}  // namespace murmur::ui
