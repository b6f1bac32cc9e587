// Allowed: the renderer reads the layout shared by C++ and GLSL.
#include "gpu/layout.hpp"
