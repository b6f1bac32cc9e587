// Flock state as CSV with header id,species,x,y,z,vx,vy,vz (columns in any order), and the rest of
// the state for an exact resume: optional columns perch (s on the ground), sx,sy,sz,sn (a stored
// acceleration and its neighbour count: decarpentier, gloss), ix,iy,iz (the periodic images
// crossed), a first line "# step N" (the step counter), a line "# world L" (the world's edge it
// was written in, so that a resume runs in the same world) and, in a restart file, every
// parameter as "# params " lines holding the run's preset JSON (every key, the seed and the
// obstacles). Files of the 8 columns alone still read (the rest then starts at 0). Reading
// checks every row against the parameters and reports the first problem with its line number.
#pragma once

#include "model/boid.hpp"
#include "model/params.hpp"

#include <array>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace murmur {

// One boid as a state line holds it, in the columns' order: id, species, x, y, z, vx, vy, vz,
// perch, sx, sy, sz, sn, ix, iy, iz.
using StateValues = std::array<double, 16>;
// The boid, checked as a state file's line is (finite, species in range, positions near the world,
// speeds and stored figures bounded); else InputError naming the column and its range.
Boid checkedStateBoid(const StateValues& values, const Params& params);
// A flock from arrays in id order (3 numbers a boid, z 0 in 2D; species null: all 0), each boid
// checked as a state file's line; InputError names the first bad boid by index.
Flock stateFromArrays(const float* xyz, const float* vxyz, const std::uint32_t* species, std::size_t boids, const Params& params);

// Rows sorted by id, every column, floats round-trip exactly; "# step N" first, then "# world L"
// when a world is given (> 0), then with `params` the "# params " lines: a restart file.
std::string formatStateCsv(const Flock& flock, std::uint32_t step = 0, float world = 0.0f, const Params* params = nullptr);
// Throws InputError("<source>:<line>: ...") on a bad file. step (if given) receives the file's
// step counter, 0 without one.
Flock parseStateCsv(const std::string& text, const Params& params, const std::string& source, std::uint32_t* step = nullptr);
// The same from a stream, read line by line (a line of more than 4,096 bytes is refused).
Flock parseStateCsv(std::istream& in, const Params& params, const std::string& source, std::uint32_t* step = nullptr);

void writeStateCsv(const std::string& path, const Flock& flock, std::uint32_t step = 0, float world = 0.0f,
                   const Params* params = nullptr);  // atomic
Flock readStateCsv(const std::string& path, const Params& params, std::uint32_t* step = nullptr);
// The world a state file says it was written in ("# world L"), 0 when it does not say; its header
// is checked as readStateCsv checks it.
float readStateWorld(const std::string& path);
// The parameters a restart file holds (its "# params " lines, read as a preset over the defaults
// and checked), or nothing when it holds none (a state file of an earlier murmur, or not murmur's).
std::optional<Params> readStateParams(const std::string& path);

}  // namespace murmur
