// A portable random generator of our own (splitmix64 seeding, PCG32 stream): the same seed gives
// the same numbers on every compiler and machine, unlike the standard library's distributions.
#pragma once

#include <cstdint>

namespace murmur {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

class Pcg32 {
public:
    constexpr Pcg32(std::uint64_t seed, std::uint64_t stream)
        : inc_((splitmix64(stream) << 1u) | 1u) {
        next();
        state_ += splitmix64(seed);
        next();
    }
    constexpr std::uint32_t next() {
        const std::uint64_t old = state_;
        state_ = old * 6364136223846793005ull + inc_;
        const auto xorshifted = std::uint32_t(((old >> 18u) ^ old) >> 27u);
        const auto rot = std::uint32_t(old >> 59u);
        return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
    }
    // Uniform in [0, 1): 24 random bits, exact in a float.
    constexpr float uniform() { return float(next() >> 8) * (1.0f / 16777216.0f); }

private:
    std::uint64_t state_ = 0;
    std::uint64_t inc_;
};

}  // namespace murmur
