// What a style's model module (src/styles/<name>/params.cpp) writes its registry row with: the
// key-table accessors, the slot readers, and the lists of keys a style may ignore. Included by
// those modules only.
#pragma once

#include "model/number_text.hpp"
#include "model/styles.hpp"

#include <string>
#include <vector>

// A row names only what differs from StyleInfo's defaults (no keys, no hooks, default traits).
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

// A float key's reader and writer, and a slot's value, for Params' member `field`.
#define MURMUR_FLOAT(field) \
    [](const Params& p) { return double(p.field); }, [](Params& p, double v) { p.field = float(v); }
#define MURMUR_SLOT(field) [](const Params& p) { return float(p.field); }

namespace murmur {

// The influences' keys: goals, wind, wander and scatter, which a style that sets its velocity
// outright (a heading at constant speed) or by its own law does not read.
std::vector<std::string> influenceKeys();
// `keys` and then every influence key (constant-speed models: no force, limit or influence acts).
std::vector<std::string> withInfluences(std::vector<std::string> keys);

}  // namespace murmur
