#version 430
// Group measures, pass 7: each flock's LARGEST_GROUPS largest groups (more boids first, then the
// lower root id: a strict order, so the choice does not depend on the order group_totals.comp
// listed the roots in), chosen by one work group per flock, and each one's figures copied out:
// GROUP_FIGURE_WORDS words, the only thing read back besides the totals (GpuSimulation decodes
// them; measureGroups in src/cpu/order_params.cpp is the reference).
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

layout(local_size_x = STEP_GROUP_SIZE) in;
// group_totals.comp's list: the root slots of flock k's groups from its first slot on, as many
// as its totals count.
layout(std430, binding = BIND_GROUP_LIST) readonly buffer GroupList { uint group_list[]; };
// Per flock, LARGEST_GROUPS entries of GROUP_FIGURE_WORDS words: [0] boids (0: no such group),
// [1] the root's id, [2..4] its position (float bits), [5] unused, then the root's sums of
// offsets (6 words), unit velocities (6) and r̂ × v̂ (6), 64-bit fixed point as in groups.glsl.
layout(std430, binding = BIND_GROUP_LARGEST) writeonly buffer Largest { uint largest[]; };

struct Candidate {
    uint boids;
    uint id;
    uint slot;
};

bool listedBefore(Candidate a, Candidate b) { return a.boids > b.boids || (a.boids == b.boids && a.id < b.id); }

// c offered to a list kept in listed order (bubbled in: the displaced entry moves down).
void offer(inout Candidate list[LARGEST_GROUPS], Candidate c) {
    for (int k = 0; k < LARGEST_GROUPS; ++k)
        if (listedBefore(c, list[k])) {
            Candidate t = list[k];
            list[k] = c;
            c = t;
        }
}

shared uint s_boids[STEP_GROUP_SIZE * LARGEST_GROUPS];
shared uint s_id[STEP_GROUP_SIZE * LARGEST_GROUPS];
shared uint s_slot[STEP_GROUP_SIZE * LARGEST_GROUPS];

void share(uint lid, Candidate list[LARGEST_GROUPS]) {
    for (int k = 0; k < LARGEST_GROUPS; ++k) {
        uint at = lid * uint(LARGEST_GROUPS) + uint(k);
        s_boids[at] = list[k].boids;
        s_id[at] = list[k].id;
        s_slot[at] = list[k].slot;
    }
}

Candidate sharedCandidate(uint lid, int k) {
    uint at = lid * uint(LARGEST_GROUPS) + uint(k);
    return Candidate(s_boids[at], s_id[at], s_slot[at]);
}

void writeFigures(uint out_at, Candidate c) {
    largest[out_at] = c.boids;
    largest[out_at + 1u] = c.id;
    vec3 p = c.boids > 0u ? posAt(c.slot) : vec3(0.0);
    for (uint a = 0u; a < 3u; ++a) largest[out_at + 2u + a] = floatBitsToUint(p[a]);
    largest[out_at + 5u] = 0u;
    uint from = c.slot * SUM_STRIDE;
    for (uint w = 0u; w < 6u; ++w) {
        largest[out_at + 6u + w] = c.boids > 0u ? group_sums[from + SUM_OFFSET + w] : 0u;
        largest[out_at + 12u + w] = c.boids > 0u ? group_sums[from + SUM_HEADING + w] : 0u;
        largest[out_at + 18u + w] = c.boids > 0u ? group_sums[from + SUM_SPIN + w] : 0u;
    }
}

void main() {
    uint lid = gl_LocalInvocationID.x, index = 0u;
#if ENSEMBLE
    g_flock = allFlocks() ? flatGroup() : u_flock;  // dispatched in rows
    if (g_flock >= FLOCK_COUNT) return;  // a row's padding (the whole work group)
    index = allFlocks() ? g_flock : 0u;
#endif
    uint listed = totals[index * TOTALS_STRIDE];
    Candidate list[LARGEST_GROUPS];
    for (int k = 0; k < LARGEST_GROUPS; ++k) list[k] = Candidate(0u, 0xFFFFFFFFu, 0u);
    for (uint n = lid; n < listed; n += uint(STEP_GROUP_SIZE)) {
        uint slot = group_list[FIRST_SLOT + n];
        offer(list, Candidate(group_sums[slot * SUM_STRIDE + SUM_COUNT], idAt(slot), slot));
    }
    share(lid, list);
    barrier();
    // Only the first min(listed, STEP_GROUP_SIZE) invocations hold candidates: the tree spans
    // the power of two at or above that (the same for the whole work group), not all of them (a
    // flock of a few groups: no level, where eight barriers cost 40 us a flock on llvmpipe).
    uint span = 1u;
    while (span < min(listed, uint(STEP_GROUP_SIZE))) span <<= 1u;
    for (uint stride = span / 2u; stride > 0u; stride >>= 1u) {
        if (lid < stride) {
            for (int k = 0; k < LARGEST_GROUPS; ++k) offer(list, sharedCandidate(lid + stride, k));
            share(lid, list);
        }
        barrier();
    }
    if (lid < uint(LARGEST_GROUPS)) writeFigures((index * uint(LARGEST_GROUPS) + lid) * GROUP_FIGURE_WORDS, sharedCandidate(0u, int(lid)));
}
