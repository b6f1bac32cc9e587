#version 430
// Group measures, pass 2 (Afforest's sampling): after flock_measure.comp linked each boid to its
// first two links, the root most of GIANT_SAMPLES boids spread over the flock share, chosen by one
// work group per flock and kept in the flock's totals (TOTALS_GIANT). group_links.comp then skips
// every boid in that root's tree (its root found again at each check: it may have been hooked
// under another): all of their links are inside one tree, or reached from the other end. Any root
// would give the same groups; a large tree saves the most walks.
#include "common.glsl"
#include "slices.glsl"
#include "sorted_reads.glsl"
#include "groups.glsl"

#define GIANT_SAMPLES 64u

layout(local_size_x = STEP_GROUP_SIZE) in;

shared uint s_root[GIANT_SAMPLES];
shared uint s_count[GIANT_SAMPLES];

// The root most samples share (the lower root on a tie), of the first `samples`: each of the
// first `samples` invocations counts its sample's root, then invocation 0 compares the counts
// (one invocation counting all pairs took 64^2 shared reads in a row: 38 us a flock on llvmpipe).
uint mostShared(uint samples) {
    uint best = s_root[0], best_count = 0u;
    for (uint t = 0u; t < samples; ++t) {
        uint count = s_count[t], root = s_root[t];
        if (count > best_count || (count == best_count && root < best)) {
            best = root;
            best_count = count;
        }
    }
    return best;
}

void main() {
    uint lid = gl_LocalInvocationID.x, index = 0u;
#if ENSEMBLE
    g_flock = allFlocks() ? flatGroup() : u_flock;  // dispatched in rows
    if (g_flock >= FLOCK_COUNT) return;  // a row's padding (the whole work group)
    index = allFlocks() ? g_flock : 0u;
#endif
    uint samples = min(BOIDS, GIANT_SAMPLES);
    if (samples == 0u) return;
    // Slot lid * BOIDS / samples, without the product (it may pass 2^32).
    uint step = BOIDS / samples, rest = BOIDS % samples;
    if (lid < samples) s_root[lid] = findRoot(FIRST_SLOT + lid * step + lid * rest / samples);
    barrier();
    if (lid < samples) {
        uint root = s_root[lid], count = 0u;
        for (uint u = 0u; u < samples; ++u) count += s_root[u] == root ? 1u : 0u;
        s_count[lid] = count;
    }
    barrier();
    if (lid == 0u) totals[index * TOTALS_STRIDE + TOTALS_GIANT] = 1u + mostShared(samples);
}
