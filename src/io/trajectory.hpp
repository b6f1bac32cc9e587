// Trajectories in H5MD (the HDF5 layout for particle trajectories, h5md.nongnu.org):
//   /h5md                          version 1.1, author and creator (murmur and its version)
//   /particles/flock/box           dimension, boundary ("periodic" or "none" per axis), edges
//   /particles/flock/position      step (F), time (F), value (F, N, D) float32
//   /particles/flock/velocity      the same (its step and time hard links to position's)
//   /particles/flock/image         step, time (links), value (F, N, D) int32: the periodic images
//                                  each boid crossed (periodic boxes, positions as held: wrapped)
//   /particles/flock/species, id   (N) int32, fixed: boid i of every frame is id i
// D is the flock's dims (3 for a 2D flock written as_3d, z 0); with `unwrapped` the positions are
// written unwrapped (held + image x L) and no image element; value is chunked a frame at a time (at most 2^20 boids a chunk) and
// compressed (shuffle + deflate, level 1 unless chosen; 0 writes it uncompressed). Frames are
// written as they come, by a thread of the writer's own (at most two waiting: memory stays
// constant over a long run) or by the caller's (Threading). The file is written beside
// the target (NAME.tmp.XXXXXX) and renamed into place by finish(), so an existing file is never
// damaged and a reader never sees half a file.
#pragma once

#include "model/params.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace murmur {

struct TrajectoryLayout {
    std::uint32_t boids = 0;
    int dims = 3;
    bool periodic = true;
    float world_size = 0.0f;              // the box's edge on every axis: [0, world_size)
    double dt = 0.0;                      // time = step * dt
    std::vector<std::uint32_t> species;   // by id, boids of them
    std::string creator_version;          // murmur's version
    std::string author = "murmur";        // /h5md/author's name: who made the run
    int deflate = 1;                      // the vectors' compression: 0 none, 1 .. 9 zlib's levels
    std::vector<std::pair<std::string, std::string>> settings;  // every key and its value, for /parameters
    // The per-boid state kept from step to step (keptStateNames): its four components' names, and
    // then a /particles/flock/kept_state element of 4 floats a boid; empty: none.
    std::vector<std::string> kept_state;
    bool unwrapped = false;  // positions written unwrapped, no image element (MDAnalysis' MSD reads them so)
    bool as_3d = false;      // a 2D flock written with dimension 3, z 0 (MDAnalysis reads only 3D boxes)
    int writtenDims() const { return as_3d ? 3 : dims; }
    bool writesImages() const { return periodic && !unwrapped; }
};

// The layout of a flock with these parameters (count, dims, bounds, world, dt) and species by id.
// author: /h5md/author's name (empty: "murmur"; trajectoryAuthorProblem checks a user's).
TrajectoryLayout trajectoryLayout(const Params& p, std::vector<std::uint32_t> species, int deflate, std::string creator_version,
                                  const std::string& author = "");

// Why `author` cannot be a trajectory's author (empty, over 200 bytes, holding a control byte, or
// not UTF-8), if it cannot.
std::optional<std::string> trajectoryAuthorProblem(const std::string& author);

// Why a flock of `dims` cannot be written as 3D (only a 2D flock is), if it cannot: the command
// line's --trajectory-3d and the library's record(as_3d) refuse it with the same words.
std::optional<std::string> trajectoryAs3dProblem(int dims);

// Why `path` cannot name a trajectory (it must end in .h5, .hdf5 or .h5md), if it cannot: the
// command line and the library refuse the same names with the same words.
std::optional<std::string> trajectoryNameProblem(const std::string& path);

class TrajectoryWriter {
public:
    // Where frames are written: by a thread of the writer's own while the caller steps on (the
    // command line), or by add() itself (a library in someone else's process, which may use
    // HDF5 on its own threads, as h5py does: Debian's HDF5 is not thread-safe).
    enum class Threading { WriterThread, CallersThread };
    // Creates the temporary file beside `path` with the layout; throws std::runtime_error naming
    // the path and the cause.
    TrajectoryWriter(const std::string& path, const TrajectoryLayout& layout, Threading threading = Threading::WriterThread);
    ~TrajectoryWriter();  // an unfinished file is removed
    TrajectoryWriter(const TrajectoryWriter&) = delete;
    TrajectoryWriter& operator=(const TrajectoryWriter&) = delete;

    // A frame: positions and velocities by id, 3 floats a boid each (z ignored in 2D), with a
    // kept state 4 floats a boid of it (else empty), and in a periodic box the images each boid
    // crossed, 3 ints a boid (else empty). Waits while two frames are already waiting; throws
    // std::runtime_error if writing has failed.
    void add(std::uint64_t step, std::vector<float> positions, std::vector<float> velocities, std::vector<float> kept = {},
             std::vector<std::int32_t> images = {});
    std::uint64_t frames() const;  // added so far
    // Writes what is waiting, closes the file and renames it into place; returns the path.
    std::string finish();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace murmur
