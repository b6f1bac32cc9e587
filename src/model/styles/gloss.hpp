// The gloss style's parameters: the struct Params holds as its member of this style (the one
// line registering the style, MURMUR_STYLES in model/params.hpp, names it). Its keys and registry
// row: gloss.cpp.
#pragma once

namespace murmur {

// Gloss style: the Haskell post's normalised rules and a view cone from the acceleration. Its
// values are the shared rules': none of its own.
struct GlossParams {
    bool operator==(const GlossParams&) const = default;
};

}  // namespace murmur
