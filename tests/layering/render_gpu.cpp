// A back door: the renderer reaching the GPU pipeline beyond the shared layout (must not compile).
#include "gpu/flock_state.hpp"
