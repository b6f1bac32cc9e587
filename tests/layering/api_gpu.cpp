// A back door: the public library reaching a backend past the engine (must not compile).
#include "gpu/gpu_simulation.hpp"
