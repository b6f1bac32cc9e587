// Cucker-Smale style (src/cpu/styles/cucker_smale.cpp): the same functions, in the same order.
#define CS_PULL (P.style[0].x)      // cucker_smale.coupling / N (CuckerSmaleStyle::pullOf)
#define CS_BETA (P.style[0].y)      // cucker_smale.beta

float psi(float d2, float beta) { return pow(1.0 + d2, -beta); }

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s) {
    if (speciesAt(j) != self.species_bits || !(d2 < ALI_R2(S))) return;
    ++s.neighbours;
    ++s.n_ali;
    s.ali += psi(d2, CS_BETA) * (velAt(j) - self.v);
}

vec3 integrate(SpeciesBlock S, Self self, NeighbourSums s, inout vec4 steer) {
    float pull = CS_PULL;
    vec3 a = pull * s.ali + boundsAcceleration(self.p) + influenceAcceleration(S, self);
    return self.v + a * DT;
}
