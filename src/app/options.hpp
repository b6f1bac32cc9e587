// What the command line asks for, after parsing and validation (see cli.cpp).
#pragma once

#include "engine/engine.hpp"
#include "model/params.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace murmur {

struct Options {
    Params params;
    Backend backend = Backend::Gpu;
    bool headless = false;
    std::uint64_t steps = 300;
    std::string import_path;
    std::uint32_t import_step = 0;  // the imported state's step counter ("# step N")
    std::string export_path;
    std::string shader_dir;  // empty: shaders embedded in the binary
    std::string stats_out;             // --stats-out: order parameters as CSV ...
    std::uint64_t stats_every = 10;    // ... every this many steps
    std::string screenshot;  // PNG of the last frame (headless: rendered offscreen)
    std::string record;                // --record FILE.mp4|FILE.mkv|DIR/: a video of the run
    std::uint64_t record_every = 1;    // steps between recorded frames
    int record_fps = 30;               // the video's frame rate
    std::string trajectory;            // --trajectory FILE.h5: positions and velocities over time, H5MD
    std::uint64_t trajectory_every = 1;  // steps between its frames
    int trajectory_deflate = 1;          // its compression: 0 none, 1 .. 9 zlib's levels
    std::string trajectory_author;       // its /h5md/author name (empty: "murmur")
    bool trajectory_unwrapped = false;   // its positions unwrapped (no image element)
    bool trajectory_3d = false;          // a 2D flock's written with dimension 3 (z 0)
    std::uint64_t frames = 0;  // window: close after this many frames (0: run until closed)
    int width = 1280, height = 720;  // window and screenshot size, pixels
    bool vsync = true;
    bool body = false;  // headless: print the flock's body measures after the run (--body)
    // No --boids, --import, --preset or boids= was given: the window picks a count that suits
    // the renderer (app/renderer_defaults.hpp).
    bool auto_boids = false;
    // No --preset, --import, --set or --dims: a count from kMurmurationFrom opens the murmuration
    // (app/renderer_defaults.hpp).
    bool plain_launch = false;
    // --seed, --colour and --camera as key=value: what a plain launch keeps when the window's own
    // count opens the murmuration in place of the preset they were applied to.
    std::vector<std::string> kept_over_preset;
    bool world_size_set = false;  // --set world_size=...: the panel's Apply keeps this world
    std::string preset_name;      // --preset as given (the panel's presets combo shows it)
};

}  // namespace murmur
