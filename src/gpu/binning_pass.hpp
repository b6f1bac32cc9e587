// The binning pass: the state's boids into the uniform grid by a counting sort (count where no
// steer pass counted, scan, scatter, then id order within each cell), leaving the sorted copy and
// the cell starts that the steer and measure passes read. Programs: grid_*.comp.
#pragma once

#include "gl/program.hpp"
#include "gpu/flock_state.hpp"
#include "gpu/grid_scan.hpp"
#include "gpu/pass_clock.hpp"

#include <span>
#include <string>
#include <vector>

namespace murmur::gpu {

class BinningPass {
public:
    static std::vector<std::string> shaderFiles();
    void setPrograms(std::span<gl::Program> built);  // in shaderFiles()'s order
    // grid_count.comp: counts the state into the next counts and makes them current (what a steer
    // pass would have done), for a state the steer pass did not write.
    void count(FlockState& s);
    // Binning of the state the step starts from: 3 dispatches (4 when it must count first), each
    // marked on `clock` (none: untimed). Nothing when a sample has just binned this very state.
    void bin(FlockState& s, PassClock* clock);
    GridScan& scan() { return scan_; }

private:
    void orderCells(FlockState& s);
    gl::Program count_, scatter_, order_, order_large_;
    GridScan scan_;
    gl::Buffer large_cells_;  // grid_order.comp's list of large cells, an indirect dispatch's arguments first
};

}  // namespace murmur::gpu
