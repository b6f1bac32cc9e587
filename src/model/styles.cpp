// The style registry (styles.hpp): each style's row from its module, in the order of the Style enum.
#include "model/styles.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace murmur {
namespace {

template <std::size_t... I>
std::vector<StyleInfo> makeStyles(std::index_sequence<I...>) {
    std::vector<StyleInfo> s = {styleRowOf<Style(I)>()...};
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (std::uint32_t(s[i].style) != i) throw std::logic_error("the style registry is out of the Style enum's order");
        if (s[i].slots.size() > kMaxStyleSlots) throw std::logic_error(std::string(s[i].name) + " has more slots than the block holds");
    }
    return s;
}

}  // namespace

std::span<const StyleInfo> styles() {
    static const std::vector<StyleInfo> s = makeStyles(std::make_index_sequence<kStyleCount>{});
    return s;
}

const StyleInfo& styleInfo(Style s) {
    const auto all = styles();
    return all[std::min<std::size_t>(std::size_t(s), all.size() - 1)];
}

bool keepsState(const Params& p) { return styleInfo(p.style).traits.keeps_steer || p.topological.on(); }

std::vector<std::string> keptStateNames(const Params& p) {
    if (!keepsState(p)) return {};
    const StyleTraits& t = styleInfo(p.style).traits;
    std::array<const char*, 4> names{};
    if (t.keeps_steer) names = t.kept_state;
    if (p.topological.on() && t.takesAdaptiveRadius()) names[3] = "search_radius";
    std::vector<std::string> out;
    for (const char* n : names) out.emplace_back(n ? n : "unused");
    return out;
}

const StyleInfo* findStyle(std::string_view name) {
    for (const StyleInfo& s : styles())
        if (name == s.name) return &s;
    return nullptr;
}

}  // namespace murmur
