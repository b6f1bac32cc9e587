// Cucker-Smale style (src/styles/cucker_smale/cpu.cpp): the same functions, in the same order.
// Its values (CS_PULL (cucker_smale.coupling / N) and CS_BETA) are defines made from its registry row's slots
// (src/styles/cucker_smale/params.cpp, StyleSlot): the packing and these reads are declared once.

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
