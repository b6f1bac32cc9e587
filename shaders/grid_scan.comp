#version 430
// Pass 2: exclusive prefix sum of the cell counts in one dispatch. Each work group scans one
// block of SCAN_BLOCK counts into starts within the block and leaves the block's total; the last
// group to finish (a count of finished groups, kept after the cells) scans the totals into block
// starts and writes the grand total after the cells: the start of the cell past the last, so a
// cell's end is the next cell's start. The scatter and order passes add the two (scannedStart()
// in grid_cells.glsl). With u_clear, the groups also zero scan_clear over the cells (the count
// buffer the steer pass fills next).
//
// scan_out: [0, u_count) starts within blocks, [u_count] the total, [u_count + 1] finished groups
// (zero between runs), [u_count + 2 + b] block b's total, then its start.
#include "common.glsl"

layout(local_size_x = SCAN_GROUP_SIZE) in;
layout(std430, binding = BIND_SCAN_IN) readonly buffer ScanIn { uint scan_in[]; };
layout(std430, binding = BIND_SCAN_OUT) coherent buffer ScanOut { uint scan_out[]; };
layout(std430, binding = BIND_SCAN_CLEAR) writeonly buffer ScanClear { uint scan_clear[]; };
layout(location = 0) uniform uint u_count;  // elements scanned
layout(location = 1) uniform uint u_clear;  // 1: zero scan_clear[0, u_count)

shared uint s_tot[SCAN_GROUP_SIZE];
shared bool s_last;

// Work-efficient scan (up-sweep, down-sweep) of the invocations' sums: returns the exclusive
// prefix of invocation t's sum and, in total, the sum over the group.
uint scanGroup(uint t, uint sum, out uint total) {
    s_tot[t] = sum;
    for (uint stride = 1u; stride < SCAN_GROUP_SIZE; stride <<= 1u) {
        barrier();
        uint i = (t + 1u) * stride * 2u - 1u;
        if (i < SCAN_GROUP_SIZE) s_tot[i] += s_tot[i - stride];
    }
    barrier();
    total = s_tot[SCAN_GROUP_SIZE - 1u];
    barrier();
    if (t == 0u) s_tot[SCAN_GROUP_SIZE - 1u] = 0u;
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
    uint prefix = s_tot[t];
    barrier();  // s_tot is free again
    return prefix;
}

// Scans SCAN_BLOCK elements of scan_out from `first` (of `count`) in place, starting from carry;
// returns the carry for the next block.
uint scanInPlace(uint t, uint first, uint count, uint carry) {
    uint base = first + t * SCAN_PER_THREAD;
    uint v[SCAN_PER_THREAD];
    uint sum = 0u;
    for (uint k = 0u; k < SCAN_PER_THREAD; ++k) {
        v[k] = base + k < count ? scan_out[u_count + 2u + base + k] : 0u;
        sum += v[k];
    }
    uint total;
    uint running = carry + scanGroup(t, sum, total);
    for (uint k = 0u; k < SCAN_PER_THREAD; ++k) {
        if (base + k < count) scan_out[u_count + 2u + base + k] = running;
        running += v[k];
    }
    return carry + total;
}

void main() {
    uint group = flatGroup();
    uint blocks = (u_count + uint(SCAN_BLOCK) - 1u) / uint(SCAN_BLOCK);
    if (group >= blocks) return;  // a padding group of a dispatch split into rows
    uint t = gl_LocalInvocationID.x;
    uint base = group * SCAN_BLOCK + t * SCAN_PER_THREAD;
    uint v[SCAN_PER_THREAD];
    uint sum = 0u;
    for (uint k = 0u; k < SCAN_PER_THREAD; ++k) {
        uint idx = base + k;
        v[k] = idx < u_count ? scan_in[idx] : 0u;
        sum += v[k];
        if (u_clear != 0u && idx < u_count) scan_clear[idx] = 0u;
    }
    uint total;
    uint running = scanGroup(t, sum, total);
    for (uint k = 0u; k < SCAN_PER_THREAD; ++k) {
        uint idx = base + k;
        if (idx < u_count) scan_out[idx] = running;
        running += v[k];
    }
    // The block's total, then the count of finished groups: the group that finishes last sees
    // every total (written before each group's count, the buffer coherent).
    if (t == 0u) {
        scan_out[u_count + 2u + group] = total;
        memoryBarrierBuffer();
        s_last = atomicAdd(scan_out[u_count + 1u], 1u) == blocks - 1u;
    }
    barrier();
    if (!s_last) return;
    memoryBarrierBuffer();
    uint carry = 0u;
    for (uint first = 0u; first < blocks; first += uint(SCAN_BLOCK)) carry = scanInPlace(t, first, blocks, carry);
    if (t == 0u) {
        scan_out[u_count] = carry;      // the total: where the cell past the last starts
        scan_out[u_count + 1u] = 0u;    // ready for the next run
    }
}
