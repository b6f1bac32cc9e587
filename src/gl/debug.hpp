// GL debug output (KHR_debug, core in 4.3) routed to murmur's log (stderr), with a count of
// errors that tests check after each step.
#pragma once

#include <cstdint>

namespace murmur::gl {

// Installs the callback on the current context. verbose: also log notifications.
void enableDebugOutput(bool verbose = false);
// Debug-output errors plus glGetError() results since the last call; resets the count.
std::uint64_t takeErrorCount();

}  // namespace murmur::gl
