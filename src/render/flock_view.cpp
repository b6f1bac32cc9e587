// HostFlock: packs a Flock into the GPU layout; see flock_view.hpp.
#include "render/flock_view.hpp"

#include <glm/vec4.hpp>

#include <cstring>

namespace murmur::render {
namespace {
float bitsAsFloat(std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
}  // namespace

void HostFlock::update(const Flock& flock, const std::vector<std::uint32_t>& neighbours) {
    const std::size_t n = flock.size();
    std::vector<glm::vec4> pos(n), vel(n), steer(n);
    std::vector<std::uint32_t> nb(n, 0u);
    for (std::size_t i = 0; i < n; ++i) {
        pos[i] = glm::vec4(flock[i].p, bitsAsFloat(flock[i].id));
        vel[i] = glm::vec4(flock[i].v, bitsAsFloat(flock[i].species));
        steer[i] = flock[i].steer;
        if (i < neighbours.size()) nb[i] = neighbours[i];
    }
    if (n != count_ || !pos_) {
        pos_ = gl::Buffer(n * 16);
        vel_ = gl::Buffer(n * 16);
        neighbours_ = gl::Buffer(n * 4);
        steer_ = gl::Buffer(n * 16);
        count_ = std::uint32_t(n);
    }
    pos_.upload(pos.data(), n * 16);
    vel_.upload(vel.data(), n * 16);
    neighbours_.upload(nb.data(), n * 4);
    steer_.upload(steer.data(), n * 16);
}

}  // namespace murmur::render
