// The binned grid as the passes after the scan read it. grid_scan.comp writes, in one dispatch,
// each cell's start within its block of SCAN_BLOCK cells and, after the cells, the total, a
// count of finished groups and each block's start: a cell's first slot in the sorted copy is the sum of the
// two, scannedStart() (GridScan::resolve on the CPU). The scatter reads that; the order pass then
// writes each cell's sum in place, so the passes after it (steer, measure) read one value,
// cellStart() in sorted_reads.glsl; the scan's total follows the cells, so cellStart(c + 1) is
// where cell c ends, the last cell included.
#ifndef MURMUR_GRID_CELLS_GLSL
#define MURMUR_GRID_CELLS_GLSL

#ifndef CELL_START_ACCESS
#define CELL_START_ACCESS readonly  // the order pass, which resolves the starts, defines it empty
#endif
// The counts only where they are read (the order passes define READS_CELL_COUNT): a declared
// block may count against GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS though unread, and the steer
// pass's fullest variant has none to spare.
#ifdef READS_CELL_COUNT
layout(std430, binding = BIND_CELL_COUNT) readonly buffer CellCount { uint cell_count[]; };
#endif
layout(std430, binding = BIND_CELL_START) CELL_START_ACCESS buffer CellStart { uint cell_start[]; };

uint scannedStart(uint c) { return cell_start[c] + cell_start[TOTAL_CELLS + 2u + c / uint(SCAN_BLOCK)]; }

#endif
