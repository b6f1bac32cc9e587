#include "model/style_row.hpp"

#include <utility>

namespace murmur {

std::vector<std::string> influenceKeys() {
    return {"wander", "wind.x", "wind.y", "wind.z", "attractor.x", "attractor.y", "attractor.z", "attractor.weight", "repeller.x",
            "repeller.y", "repeller.z", "repeller.weight", "repeller.radius", "scatter"};
}

std::vector<std::string> withInfluences(std::vector<std::string> keys) {
    for (std::string& k : influenceKeys()) keys.push_back(std::move(k));
    return keys;
}

}  // namespace murmur
