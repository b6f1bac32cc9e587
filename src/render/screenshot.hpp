// PNG screenshots (stb_image_write from Debian's libstb), written atomically: a temporary file
// beside the target, then a rename, so a failed write never leaves half a PNG.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace murmur::render {

// PNG bytes of RGBA8 pixels given bottom row first (GL order); the PNG is top row first.
std::string encodePng(int width, int height, const std::vector<std::uint8_t>& rgba_bottom_up);
// Throws std::runtime_error naming the path on failure.
void writePng(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba_bottom_up);
// "murmur-YYYYMMDD-HHMMSS" + suffix in dir, with "-2", "-3"... added if that name is taken (a
// suffix ending in '/' names a folder).
std::string freshName(const std::string& dir, const std::string& suffix);
// "murmur-YYYYMMDD-HHMMSS.png" in dir, with "-2", "-3"... added if that name is taken.
std::string screenshotName(const std::string& dir = ".");

}  // namespace murmur::render
