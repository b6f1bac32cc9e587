// The murmur command line: parses flags into Options and runs. Kept apart from main() so tests
// can drive it in-process with their own streams.
#pragma once

#include <ostream>

namespace murmur {

// Exit codes: 0 success, 1 runtime failure, 2 bad input.
int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace murmur
