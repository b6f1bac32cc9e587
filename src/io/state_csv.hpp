// Flock state as CSV with header id,species,x,y,z,vx,vy,vz (columns in any order). Reading
// checks every row against the parameters and reports the first problem with its line number.
#pragma once

#include "model/boid.hpp"
#include "model/params.hpp"

#include <string>

namespace murmur {


std::string formatStateCsv(const Flock& flock);  // rows sorted by id, floats round-trip exactly
// Throws InputError("<source>:<line>: ...") on a bad file.
Flock parseStateCsv(const std::string& text, const Params& params, const std::string& source);

void writeStateCsv(const std::string& path, const Flock& flock);  // atomic
Flock readStateCsv(const std::string& path, const Params& params);

}  // namespace murmur
