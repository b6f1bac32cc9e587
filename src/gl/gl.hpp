// The one include for OpenGL in murmur: glad's generated GL 4.6 core loader.
#pragma once

#include <glad/gl.h>
