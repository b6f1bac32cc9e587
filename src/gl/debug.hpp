// GL debug output (KHR_debug, core in 4.3) routed to murmur's log (stderr), with a count of
// errors that tests check after each step. Errors and undefined or deprecated behaviour are
// always printed; the driver's performance, portability and other messages (NVIDIA's "buffer
// ... copied from VIDEO memory to HOST memory", for one) are counted and printed only in verbose
// mode (--gl-debug, or MURMUR_GL_DEBUG=1), with notifications too.
#pragma once

#include <cstdint>

namespace murmur::gl {

// Installs the callback on the current context. Verbose if setVerboseDebugOutput(true) was
// called or MURMUR_GL_DEBUG=1 is set.
void enableDebugOutput();
void setVerboseDebugOutput(bool verbose);
// Debug-output errors plus glGetError() results since the last call; resets the count.
std::uint64_t takeErrorCount();
// Performance messages the driver sent since the process began (printed or not).
std::uint64_t performanceMessageCount();

}  // namespace murmur::gl
