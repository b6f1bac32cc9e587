// murmur --self-test: what a user runs first on a new GPU. On whatever OpenGL it finds it checks
// the limits, builds every shader variant, runs one-step parity cases against the CPU reference
// (every style and feature, 2D/3D, wrap/soft), a scan large enough to split its dispatches into
// rows (where the GPU holds it) and a render of a known flock; prints each check and a verdict.
// quickSelfTest() is the subset every GPU run does first (well under a second).
#pragma once

#include "model/params.hpp"

#include <optional>
#include <ostream>
#include <string>

namespace murmur::engine {

// The full self-test in a headless context, with the shaders of shader_dir (empty: those built
// in); exit code 0 only if every check passes.
int runSelfTest(const std::string& shader_dir, std::ostream& out, std::ostream& err);

// One parity case of the run's own variant (needs a current context): what failed, or nothing.
std::optional<std::string> quickSelfTest(const Params& params, const std::string& shader_dir);

// quickSelfTest() before a GPU run: false (and the reason, naming --self-test and --backend cpu,
// on err) when the GPU backend must be refused.
bool gpuPassesStartUpCheck(const Params& params, const std::string& shader_dir, std::ostream& err);

}  // namespace murmur::engine
