#version 430
// Pass 2b: adds each block's scanned offset (from the next level) to its elements, turning the
// per-block scans into one scan over all cells.
#include "common.glsl"

layout(local_size_x = SCAN_GROUP_SIZE) in;
layout(std430, binding = BIND_SCAN_OUT) buffer ScanOut { uint scan_out[]; };
layout(std430, binding = BIND_SCAN_SUMS) readonly buffer ScanSums { uint scan_sums[]; };
layout(location = 0) uniform uint u_count;

void main() {
    uint i = flatIndex(SCAN_GROUP_SIZE);
    if (i >= u_count) return;
    scan_out[i] += scan_sums[i / SCAN_BLOCK];
}
