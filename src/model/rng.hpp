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

// eventHash(seed_lo, id, step) and the salts: shaders/event_hash.glsl, the same text the shaders read.
namespace event_hash_glsl {
using uint = std::uint32_t;
#define HASH_FN constexpr
#include "event_hash.glsl"
#undef HASH_FN
}  // namespace event_hash_glsl
using event_hash_glsl::eventHash;
using event_hash_glsl::eventUniform;  // eventHash() as a float in [0, 1): 24 bits, exact on every backend
// The low 32 bits of the seed folded with the high ones, as eventHash() takes it.
constexpr std::uint32_t seedLow(std::uint64_t seed) { return std::uint32_t(seed ^ (seed >> 32)); }

// Wander: component `axis` of boid `id`'s random push at `step`, uniform in [-1, 1) and exact in
// a float (the GPU computes the same bits: wanderAcceleration in shaders/flock_rules.glsl).
inline constexpr std::uint32_t kWanderSalt[3] = {WANDER_SALTS};
constexpr float wanderJitter(std::uint32_t seed_lo, std::uint32_t id, std::uint32_t step, int axis) {
    return 2.0f * eventUniform(eventHash(seed_lo ^ kWanderSalt[axis], id, step)) - 1.0f;
}

// Vicsek style's noise for boid `id` at `step`: two uniforms in [0, 1), exact in a float.
inline constexpr std::uint32_t kVicsekSalt[2] = {VICSEK_SALTS};
constexpr float vicsekUniform(std::uint32_t seed_lo, std::uint32_t id, std::uint32_t step, int which) {
    return eventUniform(eventHash(seed_lo ^ kVicsekSalt[which], id, step));
}

// D'Orsogna style's noise for boid `id` at `step`: four uniforms in [0, 1), exact in a float.
inline constexpr std::uint32_t kDorsognaSalt[4] = {DORSOGNA_SALTS};
constexpr float dorsognaUniform(std::uint32_t seed_lo, std::uint32_t id, std::uint32_t step, int which) {
    return eventUniform(eventHash(seed_lo ^ kDorsognaSalt[which], id, step));
}

// Couzin style's noise for boid `id` at `step`: two uniforms in [0, 1), exact in a float.
inline constexpr std::uint32_t kCouzinSalt[2] = {COUZIN_SALTS};
constexpr float couzinUniform(std::uint32_t seed_lo, std::uint32_t id, std::uint32_t step, int which) {
    return eventUniform(eventHash(seed_lo ^ kCouzinSalt[which], id, step));
}

// A boid's own phase in [0, period): which of every `period` steps it steers on.
constexpr std::uint32_t steerPhase(std::uint32_t id, std::uint32_t period) { return eventHash(STEER_PHASE_SEED, id, 0u) % period; }
// Decarpentier's amortised steering: a boid steers on the first step after upload and then every
// `period` steps at its own phase.
constexpr bool steersAt(std::uint32_t id, std::uint32_t step, std::uint32_t period) {
    return step == 0 || period <= 1 || (step + steerPhase(id, period)) % period == 0;
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
