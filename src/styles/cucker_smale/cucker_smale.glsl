// Cucker-Smale style (src/styles/cucker_smale/cpu.cpp): the same functions, in the same order.
// Its values (CS_PULL (cucker_smale.coupling / N) and CS_BETA) are defines made from its registry row's slots
// (src/styles/cucker_smale/params.cpp, StyleSlot): the packing and these reads are declared once.

float psi(float d2, float beta) { return pow(1.0 + d2, -beta); }

// Its own sums (CuckerSmaleStyle::Sums): psi-weighted velocity differences to the boids of its
// species within the cut-off, and how many.
struct CuckerSmaleSums {
    vec3 pull;
    uint neighbours;
};
#define GATHER_SUMS CuckerSmaleSums
CuckerSmaleSums noStyleSums() { return CuckerSmaleSums(vec3(0.0), 0u); }

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout CuckerSmaleSums s) {
    if (speciesAt(j) != self.species_bits || !(d2 < REACH_R2(S))) return;
    ++s.neighbours;
    s.pull += psi(d2, CS_BETA) * (velAt(j) - self.v);
}

vec3 integrate(SpeciesBlock S, Self self, CuckerSmaleSums s, inout vec4 steer) {
    float pull = CS_PULL;
    vec3 a = pull * s.pull + boundsAcceleration(self.p) + influenceAcceleration(S, self);
    return self.v + a * DT;
}
