// The murmur command line: parses flags into Options and runs. Kept apart from main() so tests
// can drive it in-process with their own streams.
#pragma once

#include <ostream>
#include <string>

namespace murmur {

struct Params;

// One "key=value" of a --set (or of `flag`) applied to p; InputError naming the flag, the key (a
// near one for an unknown key) and the valid range.
void applySet(const std::string& assignment, Params& p, const std::string& flag);

// Exit codes: 0 success, 1 runtime failure, 2 bad input.
int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace murmur
