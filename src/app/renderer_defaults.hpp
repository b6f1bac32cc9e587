// The default boid count for the renderer at hand: a million on a hardware GPU, ten thousand on
// a software rasteriser such as llvmpipe. The world grows with the count so that the density,
// and so the neighbour count and the look of the flock, stay those of the parameters given.
#pragma once

#include "app/options.hpp"
#include "model/params.hpp"

#include <ostream>

#include <cstdint>
#include <string>
#include <vector>

namespace murmur {

inline constexpr std::uint32_t kHardwareDefaultBoids = 1000000;
inline constexpr std::uint32_t kSoftwareDefaultBoids = 10000;
// From this many boids, a launch that chose nothing but the count (no --preset, --import, --set
// or --dims: Options::plain_launch) opens the murmuration preset, one flock at any count, instead
// of the default 2D flock (which at 10^5 boids is a field of small clumps); `--preset default`
// keeps the classic flock.
inline constexpr std::uint32_t kMurmurationFrom = 50000;
bool opensTheMurmuration(bool plain_launch, std::uint64_t boids);
// What murmur prints when it does ("murmur: no preset at N boids: the murmuration (...)\n").
std::string murmurationLine(std::uint64_t boids);

// p with boids = the default for this renderer (capped at max_boids) and world_size scaled by
// (boids / p.boids)^(1/dims), within the parameter's range; `why` says what was chosen.
// keep_world: the user chose world_size; it stays.
Params rendererDefaults(const Params& p, bool software, std::uint64_t max_boids, std::string& why, bool keep_world = false);

// rendererDefaults() for this run: the current context's renderer, capped by what the GPU holds
// (GPU backend; needs a current context); the CPU reference gets the software count. Prints the
// choice to out. Throws InputError when the parameters are invalid in the world chosen. A plain
// launch whose count reaches kMurmurationFrom gets the murmuration preset at that count, with
// `kept` (--seed, --colour, --camera as key=value) applied over it.
Params defaultsForThisRun(const Params& p, Backend backend, std::ostream& out, bool keep_world, bool plain_launch = false,
                          const std::vector<std::string>& kept = {});

}  // namespace murmur
