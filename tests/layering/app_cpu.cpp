// A back door: the command line naming the CPU backend's type (must not compile).
#include "cpu/cpu_simulation.hpp"
