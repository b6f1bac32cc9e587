// --sweep-plot: a sweep's CSV drawn as a PNG (one key: a curve; two: a phase diagram) by
// scripts/sweep_plot.py, which is embedded in the binary and run with Debian's python3 and
// matplotlib (python3-matplotlib).
#pragma once

#include <iosfwd>
#include <string>

namespace murmur {

// Draws `of` from the sweep CSV at csv into png. 0 when written; 1 when python3 or matplotlib is
// missing or the script fails (its message on err). The CSV is untouched either way.
int plotSweep(const std::string& csv, const std::string& png, const std::string& of, std::ostream& out, std::ostream& err);

}  // namespace murmur
