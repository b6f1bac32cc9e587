// The boid palette on the CPU; each function mirrors its namesake in shaders/boid.vert.
#include "render/palette.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace murmur::render {
namespace {

glm::vec3 hsv(float h, float s, float v) {
    glm::vec3 k;
    for (int c = 0; c < 3; ++c) {
        const float offset = c == 0 ? 0.0f : (c == 1 ? 4.0f : 2.0f);
        const float m = std::fmod(h * 6.0f + offset, 6.0f);
        k[c] = std::clamp(std::abs((m < 0 ? m + 6.0f : m) - 3.0f) - 1.0f, 0.0f, 1.0f);
    }
    return v * glm::mix(glm::vec3(1.0f), k, s);
}

}  // namespace

glm::vec3 speciesColour(std::uint32_t species, bool predator) {
    static constexpr std::array<glm::vec3, 4> kSpecies = {glm::vec3(0.35f, 0.75f, 1.0f), glm::vec3(1.0f, 0.55f, 0.25f),
                                                          glm::vec3(0.5f, 0.95f, 0.45f), glm::vec3(0.95f, 0.4f, 0.8f)};
    if (predator) return {1.0f, 0.22f, 0.18f};
    return kSpecies[std::min<std::uint32_t>(species, 3)];
}

glm::vec3 headingColour(float angle) { return hsv(angle / 6.2831853f + 0.5f, 0.7f, 1.0f); }

glm::vec3 rampColour(float t) {
    t = std::clamp(t, 0.0f, 1.0f);
    return glm::mix(glm::mix(glm::vec3(0.15f, 0.25f, 0.85f), glm::vec3(0.1f, 0.75f, 0.65f), std::min(t * 2.0f, 1.0f)),
                    glm::vec3(1.0f, 0.85f, 0.2f), std::max(t * 2.0f - 1.0f, 0.0f));
}

}  // namespace murmur::render
