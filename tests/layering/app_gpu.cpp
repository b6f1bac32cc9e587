// A back door: the command line naming the GPU backend's type (must not compile).
#include "gpu/gpu_simulation.hpp"
