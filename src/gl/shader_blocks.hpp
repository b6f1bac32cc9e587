// The storage blocks an assembled shader declares, counted before it is compiled: the source is
// read as the GLSL preprocessor reads it (#define, #undef, #ifdef, #ifndef, #if, #elif, #else,
// #endif; integer expressions with defined(), comparisons, arithmetic, ! && ||), and each
// `buffer NAME {` on a line that survives is a block, its `binding = EXPR` on that line read with
// the macros then defined. A compute program over the stage's GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS
// fails to link on that driver, and two blocks of one program at one binding read one buffer as
// two: the program builder refuses either first, naming the limit or the two blocks.
#pragma once

#include <string>
#include <vector>

namespace murmur::gl {

struct StorageBlock {
    std::string name;
    long binding = -1;  // -1: none given
};
std::vector<StorageBlock> storageBlocksOf(const std::string& source);
inline int storageBlocksIn(const std::string& source) { return int(storageBlocksOf(source).size()); }

}  // namespace murmur::gl
