// Starling style (src/styles/starling/cpu.cpp): the same functions, in the same order.
// Its values (SL_MASS, SL_CRUISE, SL_SPEED_TIME, SL_LIFT_DRAG, SL_ROLL_RATE, SL_CORE,
// SL_COS_HALF_BLIND, SL_MAX_SOCIAL, SL_ROOST_RADIUS, SL_ROOST_WEIGHT, SL_ALTITUDE_WEIGHT) are defines
// made from its registry row's slots (src/styles/starling/params.cpp, StyleSlot): the packing and
// these reads are declared once.

const float kGravity = 9.81;  // m/s^2, -y

// 1 within the core, falling smoothly (smoothstep) to 0 at the separation radius.
float separationFalloff(float core, float r_sep, float dist) {
    float t = min(max((dist - core) / (r_sep - core), 0.0), 1.0);
    return 1.0 - t * t * (3.0 - 2.0 * t);
}

// Its own sums (StarlingStyle::Sums): the unit vectors to its neighbours (centrality) and how
// many; separation, alignment and cohesion, each with how many.
struct StarlingSums {
    vec3 around, sep, ali, coh;
    uint n_sep, n_ali, n_coh, neighbours;
};
#define GATHER_SUMS StarlingSums
StarlingSums noStyleSums() { return StarlingSums(vec3(0.0), vec3(0.0), vec3(0.0), vec3(0.0), 0u, 0u, 0u, 0u); }

void addNeighbour(SpeciesBlock S, Self self, uint j, uint jid, vec3 d, float d2, inout StarlingSums s) {
    if (!(d2 < COUNTED_R2(S)) || !(d2 > 0.0)) return;  // coincident: no direction to go by
    ++s.neighbours;
    float dist = sqrt(d2);
    vec3 u = d / dist;
    s.around += u;
    if (d2 < SEP_R2(S)) {
        ++s.n_sep;
        s.sep -= u * separationFalloff(SL_CORE, SEP_RADIUS(S), dist);
    }
    bool blind = self.v2 > 0.0 && dot(self.v, u) < -SL_COS_HALF_BLIND * sqrt(self.v2);
    if (!sameSpecies(self, j) || blind) return;
    vec3 w = velAt(j);
    float w2 = dot(w, w);
    if (d2 < ALI_R2(S) && w2 > 0.0) {
        ++s.n_ali;
        s.ali += w / sqrt(w2);
    }
    if (d2 < COH_R2(S)) {
        ++s.n_coh;
        s.coh += d;
    }
}

struct BirdAxes {
    vec3 f, side, up;
};

BirdAxes axesOf(vec3 v) {
    float speed = sqrt(dot(v, v));
    BirdAxes b;
    b.f = speed > 0.0 ? v / speed : vec3(1.0, 0.0, 0.0);
#if DIMS == 2
    b.side = vec3(-b.f.y, b.f.x, 0.0);
    b.up = vec3(0.0);
#else
    b.side = vec3(-b.f.z, 0.0, b.f.x);  // f x (0, 1, 0)
    float side_len = sqrt(dot(b.side, b.side));
    b.side = side_len > 1e-6 ? b.side / side_len : vec3(0.0, 0.0, 1.0);
    b.up = cross(b.side, b.f);
#endif
    return b;
}

float centralityOf(StarlingSums s) { return s.neighbours > 0u ? sqrt(dot(s.around, s.around)) / float(s.neighbours) : 0.0; }

vec3 socialForce(SpeciesBlock S, BirdAxes b, StarlingSums s) {
    vec3 f = vec3(0.0);
    if (s.n_sep > 0u) f += W_SEP(S) * s.sep / float(s.n_sep);
    float c = centralityOf(s);
    if (s.n_coh > 0u) f += W_COH(S) * c * c * unitOr(s.coh, vec3(0.0));
    if (s.n_ali > 0u) f += W_ALI(S) * (s.ali / float(s.n_ali) - b.f);
    return limitLength(f, SL_MAX_SOCIAL);
}

#define SL_ROOST_TURN_BIAS 0.34202014  // sin 20 degrees (kRoostTurnBias in cpu.cpp): toward +side unless the roost is well toward -side

vec3 roostForce(Self self, BirdAxes b) {
    vec3 off = self.p - P.world.xyz * 0.5;
#if DIMS == 2
    off.z = 0.0;
#endif
    vec3 flat_ = off, heading = b.f;
#if DIMS == 3
    flat_.y = 0.0;
    heading.y = 0.0;
#endif
    vec3 force = vec3(0.0);
    float h = sqrt(dot(flat_, flat_));
    if (h > SL_ROOST_RADIUS) {
        vec3 out_ = flat_ / h;
        float outward = dot(unitOr(heading, vec3(0.0)), out_);
        float turn = dot(b.side, out_) > SL_ROOST_TURN_BIAS ? -1.0 : 1.0;
        force += b.side * (turn * SL_ROOST_WEIGHT * (h - SL_ROOST_RADIUS) * (0.5 + 0.5 * outward));
    }
#if DIMS == 3
    force.y -= SL_ALTITUDE_WEIGHT * off.y;
#endif
    return force;
}

// The force wanted; in 3D the bank, lift along the banked up axis, thrust minus drag, the force
// wanted but its sideways part, gravity; in 2D the force wanted alone. steer: bank, centrality,
// sideways force (w: the adaptive radius').
vec3 integrate(SpeciesBlock S, Self self, StarlingSums s, inout vec4 steer) {
    BirdAxes b = axesOf(self.v);
    float speed = sqrt(dot(self.v, self.v));
    vec3 force = socialForce(S, b, s) + roostForce(self, b) + b.f * (SL_MASS * (SL_CRUISE - speed) / SL_SPEED_TIME) +
                 SL_MASS * (boundsAcceleration(self.p) + influenceAcceleration(S, self));
    float bank = 0.0, sideways = 0.0;
    vec3 acc = force / SL_MASS;
#if DIMS == 3
    float weight = SL_MASS * kGravity;
    float ratio = speed / SL_CRUISE;
    float lift = weight * ratio * ratio;
    sideways = dot(force, b.side);
    bank = steer.x + min(SL_ROLL_RATE * DT, 1.0) * (atan(sideways, weight) - steer.x);
    vec3 up = cos(bank) * b.up + sin(bank) * b.side;
    acc = (lift * up + ((weight - lift) / SL_LIFT_DRAG) * b.f + force - sideways * b.side) / SL_MASS - vec3(0.0, kGravity, 0.0);
#endif
    steer = vec4(bank, centralityOf(s), sideways, steer.w);
    return limitSpeed(S, self.v + acc * DT);
}
