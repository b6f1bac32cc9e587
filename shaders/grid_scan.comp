#version 430
// Pass 2a: work-efficient exclusive scan of one level. Each work group scans SCAN_BLOCK elements
// (a serial scan of SCAN_PER_THREAD per invocation, then an up-sweep/down-sweep over the group's
// totals in shared memory) and writes its block total to scan_sums for the next level.
#include "common.glsl"

layout(local_size_x = SCAN_GROUP_SIZE) in;
layout(std430, binding = BIND_SCAN_IN) readonly buffer ScanIn { uint scan_in[]; };
layout(std430, binding = BIND_SCAN_OUT) writeonly buffer ScanOut { uint scan_out[]; };
layout(std430, binding = BIND_SCAN_SUMS) writeonly buffer ScanSums { uint scan_sums[]; };
layout(location = 0) uniform uint u_count;  // elements at this level

shared uint s_tot[SCAN_GROUP_SIZE];

void main() {
    uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
    uint t = gl_LocalInvocationID.x;
    uint base = group * SCAN_BLOCK + t * SCAN_PER_THREAD;
    uint v[SCAN_PER_THREAD];
    uint sum = 0u;
    for (uint k = 0u; k < SCAN_PER_THREAD; ++k) {
        uint idx = base + k;
        v[k] = idx < u_count ? scan_in[idx] : 0u;
        sum += v[k];
    }
    s_tot[t] = sum;
    // Up-sweep (reduce) over the group's totals.
    for (uint stride = 1u; stride < SCAN_GROUP_SIZE; stride <<= 1u) {
        barrier();
        uint i = (t + 1u) * stride * 2u - 1u;
        if (i < SCAN_GROUP_SIZE) s_tot[i] += s_tot[i - stride];
    }
    barrier();
    if (t == 0u) {
        // Not for the padding groups of a dispatch split into rows: they are past the block sums.
        if (group * uint(SCAN_BLOCK) < u_count) scan_sums[group] = s_tot[SCAN_GROUP_SIZE - 1u];
        s_tot[SCAN_GROUP_SIZE - 1u] = 0u;
    }
    // Down-sweep: s_tot[t] becomes the exclusive prefix of thread t's total.
    for (uint stride = SCAN_GROUP_SIZE / 2u; stride > 0u; stride >>= 1u) {
        barrier();
        uint i = (t + 1u) * stride * 2u - 1u;
        if (i < SCAN_GROUP_SIZE) {
            uint left = s_tot[i - stride];
            s_tot[i - stride] = s_tot[i];
            s_tot[i] += left;
        }
    }
    barrier();
    uint running = s_tot[t];
    for (uint k = 0u; k < SCAN_PER_THREAD; ++k) {
        uint idx = base + k;
        if (idx < u_count) scan_out[idx] = running;
        running += v[k];
    }
}
