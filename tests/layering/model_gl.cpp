// A back door: the model reaching the GL layer above it (must not compile).
#include "gl/buffer.hpp"
