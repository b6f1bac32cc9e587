// The per-boid random draws' hash and salts, shared by C++ (src/model/rng.hpp includes this file)
// and GLSL (flock_rules.glsl and the styles), so both backends draw the same bits. Written in the
// subset both languages read: `uint` is std::uint32_t in C++, and HASH_FN is constexpr there.
#ifndef MURMUR_EVENT_HASH_GLSL
#define MURMUR_EVENT_HASH_GLSL
#ifndef HASH_FN
#define HASH_FN
#endif

// A 32-bit hash of (seed, id, step) for per-boid random events.
HASH_FN uint eventHash(uint seed_lo, uint id, uint step) {
    uint h = seed_lo ^ (id * 0x9E3779B1u) ^ (step * 0x85EBCA77u);
    h ^= h >> 16;
    h *= 0x7FEB352Du;
    h ^= h >> 15;
    h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

// A hash's top 24 bits as a uniform draw in [0, 1), exactly (a float holds 24 bits).
HASH_FN float eventUniform(uint h) {
    return float(h >> 8u) * float(1.0 / 16777216.0);
}

// Salts XORed into the seed, one per kind of draw, so draws of one boid at one step differ.
#define WANDER_SALTS 0xA511E9B3u, 0x63D83595u, 0x2F1B7C4Du  // wander, per axis
#define VICSEK_SALTS 0x7C5A1B2Du, 0x1D2E3F4Bu               // vicsek style's two uniforms
#define COUZIN_SALTS 0x43A9E1F7u, 0x2B6C0D95u               // couzin style's two uniforms
#define DORSOGNA_SALTS 0x6E3B95C1u, 0x58D2A7F3u, 0x0F4C8B69u, 0x3A71D6E5u  // dorsogna style's noise: four uniforms
#define STEER_PHASE_SEED 0x5EEDu                             // amortised steering's phase

#endif
