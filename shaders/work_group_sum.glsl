// A work group's sum of a shared vec4 array (one entry an invocation) in two levels: sixteen
// invocations each add a strided sixteenth in order, then invocation 0 adds the sixteen in a
// register. Two barriers where a halving tree takes eight; on llvmpipe both the barriers and a
// loop of shared-memory writes by one invocation cost (1.5-2 ms a pass at 2x10^5 boids). The
// same order every run, so the sums reproduce to the bit. Usage, after the entries are written:
//     barrier(); SUM_LEVEL_ONE(s_a, lid); barrier();
//     if (lid == 0u) { SUM_LEVEL_TWO(s_a); ... s_a[0] ... }
// A pass with little work a boid does the first level in registers instead, with the same
// additions in the same order: SUM_LANES invocations a work group, lane l taking the boids l,
// l + SUM_LANES, ... of the group's STEP_GROUP_SIZE and writing one entry, then SUM_LEVEL_TWO
// (flock_measure.comp's NEAREST_STORED, group_sums.comp, group_spin.comp). On llvmpipe the
// shared-memory entries are most of such a pass's cost: 16 times fewer made those three passes
// about 3 times faster.
#ifndef MURMUR_WORK_GROUP_SUM_GLSL
#define MURMUR_WORK_GROUP_SUM_GLSL

#define SUM_LANES 16u
#if STEP_GROUP_SIZE % 16 != 0
#error "STEP_GROUP_SIZE must be a multiple of 16 (SUM_LANES)"
#endif

#define SUM_LEVEL_ONE(A, lid)                                                                 \
    do {                                                                                      \
        if ((lid) < SUM_LANES) {                                                              \
            vec4 acc_ = A[lid];                                                               \
            for (uint k_ = 1u; k_ < uint(STEP_GROUP_SIZE) / SUM_LANES; ++k_) acc_ += A[(lid) + SUM_LANES * k_]; \
            A[lid] = acc_;                                                                    \
        }                                                                                     \
    } while (false)

#define SUM_LEVEL_TWO(A)                                                                      \
    do {                                                                                      \
        vec4 acc_ = A[0];                                                                     \
        for (uint k_ = 1u; k_ < SUM_LANES; ++k_) acc_ += A[k_];                               \
        A[0] = acc_;                                                                          \
    } while (false)

// The layout above with the first level in registers: each lane takes SUM_LANE_BOIDS boids, its
// k-th (from 0) laneBoid, and keeps laneSum: the first entry itself, then each next added, which
// is SUM_LEVEL_ONE's order to the bit (starting from 0.0 instead could turn a -0.0 into +0.0).
#define SUM_LANE_BOIDS (uint(STEP_GROUP_SIZE) / SUM_LANES)
uint laneBoid(uint first, uint lane, uint k) { return first + lane + SUM_LANES * k; }
vec4 laneSum(vec4 sum, vec4 entry, uint k) { return k == 0u ? entry : sum + entry; }

#endif
