// Offset style (src/styles/offset/cpu.cpp): the same functions, in the same order.
// Its switches (0|1): OFFSET_SUMS (offset.sums: flock.rb's sums), OFFSET_LONE (offset.lone:
// Parker's lone boid).

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout NeighbourSums s) {
    if (d2 < COUNTED_R2(S)) ++s.neighbours;  // the flee radius alone does not make a neighbour
    if (d2 < SEP_R2(S)) {  // separation: from every species
        ++s.n_sep;
        s.sep += d;
    }
    addAlignmentAndCohesion(S, sameSpecies(self, j), j, d, d2, s);  // within the species
    addPredatorOrPrey(S, j, jid, d, d2, s, true);
}

vec3 integrate(SpeciesBlock S, Self self, NeighbourSums s, inout vec4 steer) {
    vec3 v = self.v;
    vec3 dv = vec3(0.0);
#if OFFSET_SUMS
    // flock.rb: each rule summed over the neighbours, not averaged.
    if (s.n_sep > 0u) dv -= s.sep * W_SEP(S);
    if (s.n_ali > 0u) dv += s.ali * W_ALI(S);
    if (s.n_coh > 0u) dv += s.coh * (COHESION_SIGN * W_COH(S));
    if (s.n_flee > 0u) dv -= s.flee * W_FLEE(S);
    if (s.chasing != 0u) dv += s.chase_d * CHASE(S);
#else
    // Parker: each rule is a velocity offset per step, summed; walls still push per second.
    if (s.n_sep > 0u) dv -= (s.sep / float(s.n_sep)) * W_SEP(S);
    if (s.n_ali > 0u) dv += (s.ali / float(s.n_ali) - v) * W_ALI(S);
#if OFFSET_LONE
    else dv += v;  // the Ruby's rule 3 with no one near: the boid's own velocity
#endif
    if (s.n_coh > 0u) dv += (s.coh / float(s.n_coh)) * (COHESION_SIGN * W_COH(S));
    if (s.n_flee > 0u) dv -= (s.flee / float(s.n_flee)) * W_FLEE(S);
    if (s.chasing != 0u) dv += s.chase_d * CHASE(S);
#endif
    dv += boundsAcceleration(self.p) * DT + influenceOffset(self);
    return limitSpeed(S, v + dv);
}
