// The storage blocks an assembled shader declares, counted before it is compiled: the source is
// read as the GLSL preprocessor reads it (#define, #undef, #ifdef, #ifndef, #if, #elif, #else,
// #endif; integer expressions with defined(), comparisons, arithmetic, ! && ||), and each
// `buffer NAME {` on a line that survives is a block. A compute program over the stage's
// GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS fails to link on that driver; the count lets the program
// builder refuse it first, naming the limit.
#pragma once

#include <string>

namespace murmur::gl {

int storageBlocksIn(const std::string& source);

}  // namespace murmur::gl
