#version 430
// Boids drawn straight from the simulation's storage buffers (no CPU copy), by vertex pulling:
// one draw of N x BOID_VERTICES vertices, vertex k of boid i = k / BOID_VERTICES reads pos[i],
// vel[i] and neighbours[i] (no instancing: instances of 3 or 12 vertices leave a GPU's vertex
// pipeline mostly idle). 2D: a triangle nose-first along the velocity. 3D: a
// small dart (4 sides, open at the back) in the boid's frame (forward = velocity, y up), with a face normal for
// lighting. Boids never shrink below u_min_px pixels, so a million of them stay visible.
// POINTS 1: a point a boid instead (the draw key's points, or auto for boids under 3 pixels), of
// about the mesh's area, in its colour.
// FLAT 1 (3D): a triangle a boid instead of the dart's four sides, most of its outline as seen
// from the eye (flatCorner), shaded as its faces would be on average (the draw key's flat, or auto for
// darts under 12 pixels: a quarter of the vertices and triangles; side on the outline but a
// sliver, end on 0.6 of it; one shade for its faces; no wing beats).
// Defines: DIMS (2|3), POINTS (0|1), FLAT (0|1).
#include "layout.glsl"
#ifndef POINTS
#define POINTS 0
#endif
#ifndef FLAT
#define FLAT 0
#endif

layout(std430, binding = BIND_POS) readonly buffer PosBuf { uvec4 pos[]; };  // float bits, id
layout(std430, binding = BIND_VEL) readonly buffer VelBuf { uvec4 vel[]; };  // float bits, species
layout(std430, binding = BIND_NEIGHBOURS) readonly buffer NbBuf { uint neighbours[]; };
layout(std430, binding = BIND_STEER) readonly buffer SteerBuf { vec4 steer[]; };

uniform mat4 u_view_proj;
uniform float u_size;        // world units, nose to tail
uniform float u_min_px;      // smallest drawn size, pixels
uniform float u_px_per_clip; // pixels per world unit at clip w = 1: viewport_h * P[1][1] / 2
uniform int u_colour_by;     // 0 species, 1 heading, 2 speed, 3 neighbours (4 dusk: u_dusk)
uniform float u_max_speed;
uniform float u_neighbour_scale;
uniform uint u_selected_id;  // 0xffffffff: none
uniform uint u_predators;    // bit s set: species s is a predator (drawn larger, in red)
uniform int u_flap;          // 3D decarpentier: wings beat, tail bends
uniform float u_time;        // seconds
uniform vec3 u_eye;          // world position of the camera
uniform int u_banks;         // 3D: steer.x is the bird's bank angle (starling): the mesh and its wing plane roll by it
// The colour key's dusk: each bird dark, its opacity from its wing plane against the view (wings
// face on: darkest; edge on: faint, so banking shows as bands) and fading with distance past the
// flock's centre (fog). u_fog 0: no fog.
uniform int u_dusk;
uniform float u_fog_start;   // units from the eye
uniform float u_fog;         // units past u_fog_start over which the opacity falls by e

out vec3 v_colour;
out vec3 v_normal;
out float v_alpha;  // 1, or the dusk look's opacity

#if DIMS == 2
const int kBoidVertices = 3;  // kTriangleVertices in flock_renderer.cpp
const vec3 kMesh[3] = vec3[3](vec3(0.6, 0.0, 0.0), vec3(-0.4, 0.32, 0.0), vec3(-0.4, -0.32, 0.0));
#elif FLAT
const int kBoidVertices = 3;  // kFlatVertices in flock_renderer.cpp
#else
const int kBoidVertices = 12;  // kDartVertices in flock_renderer.cpp
#endif
#if DIMS == 3
// Nose, then tail points: left wing, top, right wing, bottom (x forward, y up, z side).
const vec3 kNose = vec3(0.6, 0.0, 0.0);
const vec3 kTail[4] = vec3[4](vec3(-0.4, 0.0, -0.4), vec3(-0.4, 0.12, 0.0), vec3(-0.4, 0.0, 0.4), vec3(-0.4, -0.08, 0.0));
vec3 meshVertex(int v) {
    // Four sides, each nose, tail[face], tail[face+1]. No back: seen from behind, the sides' insides
    // (lit two-sided) fill the same outline, for 12 vertices instead of 18.
    int face = v / 3, corner = v % 3;
    if (corner == 0) return kNose;
    return kTail[(face + corner - 1) % 4];
}
#endif

#if DIMS == 3 && FLAT
// Its four faces' outward normals, each twice its face's area long (face k: the nose, tail k,
// tail k + 1), and the same of the tail's largest triangle (both wing tips and the top), in its frame.
const vec3 kFaceNormals[4] = vec3[4](cross(kTail[0] - kNose, kTail[1] - kNose), cross(kTail[1] - kNose, kTail[2] - kNose),
                                     cross(kTail[2] - kNose, kTail[3] - kNose), cross(kTail[3] - kNose, kTail[0] - kNose));
const vec3 kTailTriangleNormal = cross(kTail[2] - kTail[0], kTail[1] - kTail[0]);

// Corner k of the dart's outline seen along d (eye to boid, in the boid's frame) as one triangle,
// in its frame scaled to length 1. The outline is the hull of the nose and the four tail points;
// the triangle is the larger as seen of: the nose with the two tail points reaching furthest
// across the heading on screen (side on: the outline but a sliver of the tail), and the tail's
// largest triangle (end on, where the outline is the tail's diamond: 0.6 of it).
vec3 flatCorner(int corner, vec3 d) {
    vec3 across = vec3(0.0, -d.z, d.y);  // cross(forward, d)
    vec3 hi = kTail[0], lo = kTail[0];
    for (int k = 1; k < 4; ++k) {
        if (dot(kTail[k], across) > dot(hi, across)) hi = kTail[k];
        if (dot(kTail[k], across) < dot(lo, across)) lo = kTail[k];
    }
    float side_on = abs(dot(cross(hi - kNose, lo - kNose), d)), end_on = abs(dot(kTailTriangleNormal, d));  // twice the areas as seen
    if (end_on > side_on) return corner == 0 ? kTail[1] : corner == 1 ? kTail[0] : kTail[2];
    return corner == 0 ? kNose : corner == 1 ? hi : lo;
}

// The mean shade of the dart's pixels as seen along d (in its frame, as sun): boid.frag's
// two-sided Lambert term of each face the eye sees, weighted by its area as seen; where the open
// back faces the eye, the far faces' insides fill it.
float flatShade(vec3 d, vec3 sun) {
    const float kBackTwiceArea = (kTail[2].z - kTail[0].z) * (kTail[1].y - kTail[3].y);  // the diamond's diagonals
    float near_shade = 0.0, near_seen = 0.0, far_shade = 0.0, far_seen = 0.0;
    for (int face = 0; face < 4; ++face) {
        vec3 n = kFaceNormals[face];
        float facing = -dot(n, d), shade = 0.35 + 0.65 * abs(dot(n, sun)) / length(n);
        if (facing > 0.0) { near_shade += facing * shade; near_seen += facing; }
        else { far_shade -= facing * shade; far_seen -= facing; }
    }
    float opening = max(0.0, d.x) * kBackTwiceArea;  // the back's outward normal is -forward
    float inside = far_seen > 0.0 ? far_shade / far_seen : 1.0;
    float seen = near_seen + opening;
    return seen > 0.0 ? (near_shade + opening * inside) / seen : 1.0;
}
#endif

vec3 hsv(float h, float s, float v) {
    vec3 k = clamp(abs(mod(h * 6.0 + vec3(0.0, 4.0, 2.0), 6.0) - 3.0) - 1.0, 0.0, 1.0);
    return v * mix(vec3(1.0), k, s);
}

// Blue -> teal -> yellow for t in [0, 1].
vec3 ramp(float t) {
    t = clamp(t, 0.0, 1.0);
    return mix(mix(vec3(0.15, 0.25, 0.85), vec3(0.1, 0.75, 0.65), min(t * 2.0, 1.0)), vec3(1.0, 0.85, 0.2),
               max(t * 2.0 - 1.0, 0.0));
}

const vec3 kSpecies[4] = vec3[4](vec3(0.35, 0.75, 1.0), vec3(1.0, 0.55, 0.25), vec3(0.5, 0.95, 0.45),
                                 vec3(0.95, 0.4, 0.8));

// atan(y, x), with 0 where both are 0 (GLSL leaves atan(0, 0) undefined: a boid flying
// straight up, as every perching take-off does, would get any colour).
float heading(float y, float x) { return x == 0.0 && y == 0.0 ? 0.0 : atan(y, x); }

// The boid's colour by u_colour_by: species (predators red), heading, speed or neighbour count.
vec3 colourOf(int i, uint species, bool predator, vec3 f, float speed) {
    if (u_colour_by == 0) return predator ? vec3(1.0, 0.22, 0.18) : kSpecies[min(species, 3u)];
    if (u_colour_by == 1) {
#if DIMS == 2
        return hsv(heading(f.y, f.x) / 6.2831853 + 0.5, 0.7, 1.0);
#else
        return hsv(heading(f.z, f.x) / 6.2831853 + 0.5, 0.7, 0.65 + 0.35 * f.y);
#endif
    }
    if (u_colour_by == 2) return ramp(speed / max(u_max_speed, 1e-6));
    return ramp(float(neighbours[i]) / max(u_neighbour_scale, 1.0));
}

#if DIMS == 3
// Wing beats (DeCarpentier): faster when climbing and when turning hard; each bird on its own
// phase. The wing tips (tail points 0 and 2) move up and down; the tail (points 1 and 3) bends
// toward the turn. The turn from the last acceleration in steer.xyz, or from the bank (u_banks).
vec3 flapped(vec3 local, int i, uint id, vec3 v, vec3 f, vec3 side, float speed) {
    float bank = steer[i].x;
    float turn = u_banks != 0 ? 2.0 * abs(bank) : length(steer[i].xyz - dot(steer[i].xyz, f) * f) / max(speed, 1.0);  // rad/s
    float lateral = u_banks != 0 ? sin(bank) : clamp(dot(steer[i].xyz, side) / max(speed, 1.0), -1.0, 1.0);
    float hz = 2.5 + 4.0 * clamp(v.y / max(u_max_speed, 1e-6), 0.0, 1.0) + 1.5 * min(turn, 4.0);
    float phase = float(id % 1024u) * 0.6180339;
    float beat = sin(6.2831853 * (u_time * hz + phase));
    bool wing_tip = abs(local.z) > 0.3;
    bool tail_point = !wing_tip && local.x < 0.0;
    if (wing_tip) local.y += 0.3 * beat;
    if (tail_point) local.z += 0.25 * lateral;
    return local;
}
#endif

// The frame rolled about the heading by boid i's bank (u_banks, 3D): up toward side.
mat3 banked(mat3 frame, int i) {
#if DIMS == 3
    float bank = u_banks != 0 ? steer[i].x : 0.0;
    return mat3(frame[0], cos(bank) * frame[1] + sin(bank) * frame[2], cos(bank) * frame[2] - sin(bank) * frame[1]);
#else
    return frame;
#endif
}

// The dusk look's opacity of a bird at p whose wings' normal is up: 0.3 edge on to 0.9 face on,
// fading past the flock's centre (fog); 0.9 in 2D.
float duskOpacity(vec3 p, vec3 up) {
#if DIMS == 3
    vec3 to_eye = u_eye - p;
    float dist = length(to_eye);
    float face = dist > 0.0 ? abs(dot(up, to_eye)) / dist : 1.0;
    float fog = u_fog > 0.0 ? exp(-max(dist - u_fog_start, 0.0) / u_fog) : 1.0;
    return (0.3 + 0.6 * face) * fog;
#else
    return 0.9;
#endif
}

// The boid's frame: x forward along f, y up (3D) or side (2D), z side (3D).
mat3 frameOf(vec3 f) {
#if DIMS == 2
    return mat3(f, vec3(-f.y, f.x, 0.0), vec3(0.0, 0.0, 1.0));
#else
    vec3 world_up = abs(f.y) > 0.999 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
    vec3 side = normalize(cross(f, world_up));
    return mat3(f, cross(side, f), side);
#endif
}

void main() {
#if POINTS
    int i = gl_VertexID, corner = 0;
#else
    int i = gl_VertexID / kBoidVertices;
    int corner = gl_VertexID - i * kBoidVertices;  // the mesh's vertex
#endif
    vec3 p = uintBitsToFloat(pos[i].xyz), v = uintBitsToFloat(vel[i].xyz);
    uint id = pos[i].w, species = vel[i].w;
    float speed = length(v);
    vec3 f = speed > 0.0 ? v / speed : vec3(1.0, 0.0, 0.0);
#if DIMS == 2
    f.z = 0.0;
    f = length(f) > 0.0 ? normalize(f) : vec3(1.0, 0.0, 0.0);
#endif
    mat3 frame = banked(frameOf(f), i);
#if DIMS == 2
    vec3 local = kMesh[corner];
    vec3 n_local = vec3(0.0, 0.0, 1.0);
#elif !FLAT  // a flat dart's corners and shade come from flatCorner and flatShade; its wings don't beat
    vec3 local = meshVertex(corner);
    int face = corner / 3;
    vec3 a = meshVertex(face * 3), b = meshVertex(face * 3 + 1), c = meshVertex(face * 3 + 2);
    vec3 n_local = normalize(cross(b - a, c - a));
    if (u_flap != 0) local = flapped(local, i, id, v, f, frame[2], speed);
#endif
    // Size in world units, raised so the boid spans at least u_min_px pixels at its depth.
    vec4 centre = u_view_proj * vec4(p, 1.0);
    float size = max(u_size, u_min_px * centre.w / max(u_px_per_clip, 1e-9));
    bool selected = id == u_selected_id;
    bool predator = ((u_predators >> min(species, 31u)) & 1u) != 0u;
    if (selected) size *= 2.0;
    if (predator) size *= 2.2;
#if POINTS
    // A square of about the mesh's area (a mesh of length L covers about 0.3 L^2): side 0.57 L.
    gl_Position = centre;
    gl_PointSize = max(1.0, 0.57 * size * u_px_per_clip / max(centre.w, 1e-9));
    v_normal = vec3(0.0, 1.0, 0.0);
#elif DIMS == 3 && FLAT
    vec3 d = transpose(frame) * normalize(p - u_eye);  // eye to boid, in its frame (orthonormal)
    gl_Position = u_view_proj * vec4(p + frame * (flatCorner(corner, d) * size), 1.0);
    v_normal = vec3(0.0, 1.0, 0.0);
#else
    gl_Position = u_view_proj * vec4(p + frame * (local * size), 1.0);
    v_normal = frame * n_local;
#endif

    v_alpha = 1.0;
    if (u_dusk != 0) {
        v_colour = selected ? vec3(1.0) : predator ? vec3(0.35, 0.04, 0.03) : vec3(0.03, 0.03, 0.05);
        v_alpha = duskOpacity(p, frame[1]);
        return;
    }
    v_colour = selected ? vec3(1.0) : colourOf(i, species, predator, f, speed);
#if DIMS == 3 && FLAT
    v_colour *= flatShade(d, transpose(frame) * normalize(vec3(0.4, 0.8, 0.3)));  // boid.frag's sun; it leaves a flat dart unlit
#endif
}
