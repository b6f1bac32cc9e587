// Flock summary statistics, accumulated in double.
#include "model/flock_stats.hpp"

#include <cmath>

namespace murmur {

double polarization(const Flock& flock) {
    double sx = 0, sy = 0, sz = 0;
    std::size_t moving = 0;
    for (const Boid& b : flock) {
        const double len = std::sqrt(double(b.v.x) * b.v.x + double(b.v.y) * b.v.y + double(b.v.z) * b.v.z);
        if (len <= 0.0) continue;
        sx += b.v.x / len;
        sy += b.v.y / len;
        sz += b.v.z / len;
        ++moving;
    }
    if (moving == 0) return 0.0;
    return std::sqrt(sx * sx + sy * sy + sz * sz) / double(moving);
}

double meanOf(const std::vector<std::uint32_t>& values) {
    if (values.empty()) return 0.0;
    double s = 0;
    for (std::uint32_t v : values) s += v;
    return s / double(values.size());
}

}  // namespace murmur
