// Vicsek style (src/styles/vicsek/cpu.cpp): the same functions, in the same order.
// Its values (VICSEK_NOISE (eta, radians)) are defines made from its registry row's slots
// (src/styles/vicsek/params.cpp, StyleSlot): the packing and these reads are declared once.

// vicsekUniform in src/model/rng.hpp.
const uint kVicsekSalt[2] = uint[2](VICSEK_SALTS);
float vicsekUniform(uint id, int which) {
    return eventUniform(eventHash(SEED_LO ^ kVicsekSalt[which], id, STEP_INDEX));
}

vec3 vicsekNoise(Self self, vec3 mean) {
    float u0 = vicsekUniform(self.id, 0), u1 = vicsekUniform(self.id, 1);
    float eta = VICSEK_NOISE;
#if DIMS == 2
    float a = eta * (u0 - 0.5), c = cos(a), s = sin(a);
    return vec3(mean.x * c - mean.y * s, mean.x * s + mean.y * c, 0.0);
#else
    float cos_t = 1.0 - u0 * (1.0 - cos(0.5 * eta));
    float sin_t = sqrt(max(0.0, 1.0 - cos_t * cos_t));
    float phi = 6.2831853 * u1;
    vec3 helper = abs(mean.x) < 0.9 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
    vec3 e1 = normalize(cross(mean, helper)), e2 = cross(mean, e1);
    return mean * cos_t + (e1 * cos(phi) + e2 * sin(phi)) * sin_t;
#endif
}

// Vectorial noise (vicsekVectorial in cpu.cpp): the direction of `sum` (n unit headings) plus
// noise x n x a random unit vector.
vec3 vicsekVectorial(Self self, vec3 sum, float n, vec3 own) {
    float u0 = vicsekUniform(self.id, 0), u1 = vicsekUniform(self.id, 1);
#if DIMS == 2
    vec3 xi = vec3(cos(6.2831853 * u0), sin(6.2831853 * u0), 0.0);
#else
    float z = 2.0 * u0 - 1.0, r = sqrt(max(0.0, 1.0 - z * z)), phi = 6.2831853 * u1;
    vec3 xi = vec3(r * cos(phi), r * sin(phi), z);
#endif
    return unitOr(sum + (VICSEK_NOISE * n) * xi, own);
}

// Its own sums (VicsekStyle::Sums): the unit headings of the boids of its species within the
// alignment radius, how many, and the neighbours counted for the order parameters.
struct VicsekSums {
    vec3 headings;
    uint n_headings, neighbours;
};
#define GATHER_SUMS VicsekSums
VicsekSums noStyleSums() { return VicsekSums(vec3(0.0), 0u, 0u); }

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout VicsekSums s) {
    if (d2 < COUNTED_R2(S)) ++s.neighbours;
    if (sameSpecies(self, j) && d2 < ALI_R2(S)) {  // headings, not velocities
        ++s.n_headings;
        s.headings += unitOr(velAt(j), vec3(0.0));
    }
}

vec3 integrate(SpeciesBlock S, Self self, VicsekSums s, inout vec4 steer) {
    vec3 own = unitOr(self.v, vec3(1.0, 0.0, 0.0));
    vec3 heading = VICSEK_VECTORIAL > 0.5 ? vicsekVectorial(self, s.headings + own, float(s.n_headings + 1u), own)
                                          : vicsekNoise(self, unitOr(s.headings + own, own));
    return trapTurn(self, heading * MAX_SPEED(S));
}
