// murmur's public C++ API: a flock from a preset and key=value settings, on the GPU pipeline or
// the CPU reference, stepped, measured, read into arrays and saved, from another program. The
// engine behind it is private (src/); nothing here exposes its types. Errors throw murmur::api::Error
// with the same messages the command line prints (a bad key, a value out of range with its valid
// range, a flock the GPU cannot hold).
//
//   murmur::api::Flock flock({.preset = "couzin-torus", .backend = "gpu", .seed = 1});
//   flock.set("couzin.orientation_width", "4");
//   flock.step(500);
//   std::vector<float> xyz = flock.positions();   // 3 floats a boid, in id order
//   double p = flock.orderParameters().at("polarization");
//
// GL state and threads (backend "gpu"): a Flock made without gl_loader runs in a headless context
// of murmur's own, made current on the creating thread, and answers on that thread only. Made
// with gl_loader, it runs in the caller's current context: each call that touches the GPU (the
// constructor, step, set, reads, measures, records) binds compute programs, shader storage
// buffers (bindings 0..26), buffer textures (units 0..3) and images (units 0..2), and leaves them
// bound: re-bind your own state afterwards. It never changes the framebuffer, viewport, blending
// or depth state, or the vertex array bound. step() ends with glMemoryBarrier(
// GL_SHADER_STORAGE_BARRIER_BIT | GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT),
// so glBuffers() can be drawn from (as vertex attributes or storage buffers) straight after, on
// the same context; another context shares them only through your own share group and fences.
// A Flock is not thread-safe: one thread at a time, and on the GPU the thread whose context it
// uses.
#pragma once

#include "murmur/version.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace murmur::api {

class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// No OpenGL 4.5 context for a GPU flock: the caller gave none and murmur could not make one
// (the message says what was tried and how to get one). Python: murmur.ContextError, a
// RuntimeError.
class ContextError : public Error {
public:
    using Error::Error;
};

// Where a GPU flock runs: a GL 4.5 context current on the calling thread (the caller's window)
// whose functions `gl_loader` finds (glfwGetProcAddress and eglGetProcAddress fit as they are),
// or, without one, a headless EGL context murmur makes (one for all such flocks) and keeps while
// a flock uses it. Every call on a GPU flock needs its context current.
using GlProc = void (*)();
using GlLoader = GlProc (*)(const char* name);

struct FlockOptions {
    std::string preset;                                         // a built-in name or a .json file; empty: the defaults
    std::vector<std::pair<std::string, std::string>> settings;  // key=value, as --set, in order
    std::optional<std::uint32_t> boids;                         // as --boids: the world resized to keep the density
    std::optional<std::uint64_t> seed;
    std::string backend = "gpu";                                // "gpu" or "cpu"
    GlLoader gl_loader = nullptr;                               // GPU: the caller's context (see GlLoader)
    // A restart file (exportState's): its parameters, state and step, continued as if never
    // stopped. With it, preset must be empty; settings, boids and seed that change a parameter
    // that moves the flock are an Error naming each, unless resume_override.
    std::string resume;
    bool resume_override = false;
};

// The GL names of a GPU flock's current state, for drawing from it without a copy: positions
// (vec4: xyz, the id's bits in w) and velocities (vec4: xyz, the species' bits in w), `count`
// of each, in no particular order; valid until the next step. Zero on the CPU backend.
struct GlBuffers {
    unsigned positions = 0, velocities = 0;
    std::uint32_t count = 0;
};

struct ParamRecord {
    std::string key, kind, unit, range, default_value, help;
};

// Each boid's own figures of the state, in id order: the distance to its nearest neighbour
// (infinity when none is within the nn radius, order parameter nn_mean's radius), and its group:
// the group's first id, as groupK_first_id names the largest groups (-1 outside groups of 5 or
// more boids at the group radius).
struct BoidFigures {
    std::vector<float> nearest;
    std::vector<std::int64_t> group;
    // The acceleration the next step applies (units/s^2, 3 floats a boid): (v after - v now) / dt
    // of one step taken and taken back, so the steering after speed limits and walls.
    std::vector<float> acceleration;
};

inline constexpr std::uint32_t kMaxCorrelationBins = 1024;

// The flock's pair correlations (Flock::correlations): bins of equal width over [0, r_max), each
// bin's centre r, the connected velocity correlation C(r) (the mean u_i . u_j of its pairs over
// the mean |u|^2, u = v - the mean velocity; NaN where no pair, and everywhere when the flock
// moves as one: mean |u|^2 at most 1e-10 of mean |v|^2), the pair distribution g(r) (its
// pairs over an ideal gas's at the world box's density), its pairs, and xi, C's first zero (NaN
// when C never falls to 0).
struct Correlations {
    std::vector<double> r, velocity, g;  // bins: 1 .. kMaxCorrelationBins
    std::vector<std::uint64_t> pairs;
    double xi = 0.0;
};

// Asked between chunks of a long step(): true stops the stepping there.
using StopCheck = std::function<bool()>;

class Flock {
public:
    explicit Flock(const FlockOptions& options = {});
    ~Flock();
    Flock(Flock&&) noexcept;
    Flock& operator=(Flock&&) noexcept;

    // Steps the flock. A step that makes any position or velocity non-finite throws Error and
    // leaves the flock as it was before the call (a recording ends with its last finite frame).
    // With `stop`, the steps run in chunks of about 50 ms and stop() is asked after each: true
    // ends the call there, the flock consistent (a caller's Ctrl-C). stop() is asked during a
    // long step too: true there takes the flock back to where the call began (a recording ends
    // with the frames it has). One thread steps a flock at a time; the others get Error.
    void step(int steps = 1, const StopCheck& stop = {});
    // Steps as step() does and samples the order parameters (orderParameters()'s keys) of the
    // state it starts from, of every `every`-th state after it and of the last: one row a sample,
    // with "step" and "time" (step x get("dt")) too. A sample is measured with the step after its state
    // (on the GPU in that step's steer pass: no copy of the flock back); the last at once.
    // `progress`, with `stop`, hears the steps done after each chunk. A non-finite flock throws
    // Error and goes back to where the call began; a stop inside a step takes the flock back there
    // too, and the rows are then the first alone.
    using Row = std::map<std::string, double>;
    std::vector<Row> run(int steps, int every = 1, const StopCheck& stop = {}, const std::function<void(int)>& progress = {});
    std::uint64_t stepCount() const;
    std::uint32_t size() const;
    std::string backend() const;

    // Any key of params() by name; the value as --set takes it ("0.5", "wrap"). A change applies
    // from the next step (a change of boids or dims is refused: make a new Flock).
    void set(const std::string& key, const std::string& value);
    std::string get(const std::string& key) const;

    // The state in id order: 3 floats a boid (x, y, z; z 0 in 2D), ids and species.
    std::vector<float> positions() const;
    std::vector<float> velocities() const;
    std::vector<std::uint32_t> ids() const;
    std::vector<std::uint32_t> species() const;
    // Into caller memory: `count` must be size() (3 floats a boid); one copy from the GPU.
    void readPositions(float* xyz, std::size_t count) const;
    void readVelocities(float* xyz, std::size_t count) const;
    // The periodic images each boid crossed since its state was set (or world_size or bounds last
    // changed), 3 ints a boid in id order: 0 outside wrap bounds. unwrappedPositions() is then
    // positions() + images() x world_size, in double: where each boid has gone, for a mean
    // squared displacement.
    std::vector<std::int32_t> images() const;
    std::vector<double> unwrappedPositions() const;

    // polarization, group_polarization, milling, groups, largest_group_share, grouped_share,
    // nn_mean, nn_median, mean_neighbours, mean_speed, boids; and the four largest groups' own
    // figures, groupK_boids, _first_id, _polarization, _milling, _x, _y, _z (K = 1 the largest;
    // groupK_boids 0: fewer groups).
    std::map<std::string, double> orderParameters() const;
    // The shape of the flock's body now (Ballerini et al. 2008's measures, docs/research.md):
    // proportion_middle and proportion_long (the spreads along the principal axes over the
    // thinnest's), thin_vs_up and heading_vs_thin/_middle/_long (|cos| of the thin axis against
    // up, +y, and of the mean velocity against each axis), r1 (mean nearest distance), r1_border,
    // r1_interior and border_share (centrality over the 7 nearest >= 0.35), boids. Measured by the
    // CPU on the state (a GPU flock's is read once); the flock is left as it was.
    std::map<std::string, double> bodyShape() const;
    // Pair correlations now, over every pair within r_max (0: half the world; at most that in wrap
    // bounds; the minimum image there), in `bins` bins (1 .. kMaxCorrelationBins), over every
    // pair (O(N^2)): a CPU flock's in double, a GPU flock's on the GPU (sums in fixed point; only
    // the bins are read back); the flock is left as it was.
    Correlations correlations(std::uint32_t bins = 64, double r_max = 0.0) const;
    // The per-boid state the flock keeps from step to step beyond position and velocity, declared
    // by its style (decarpentier's and gloss's last acceleration and neighbour count) or by the
    // adaptive topological radius (w: search_radius): the four components' names ("unused" where
    // none; empty: it keeps none), and the values, 4 floats a boid in id order. H5MD recordings
    // carry it as /particles/flock/kept_state, the state CSV as sx, sy, sz, sn.
    std::vector<std::string> keptStateNames() const;
    std::vector<float> keptState() const;
    // Sets it: `count` must be size() * 4 floats, each finite and within +-1e9; Error when the
    // flock keeps none (setState restarts it at 0: an adaptive radius then at its max_radius).
    void setKeptState(const float* values, std::size_t count);
    // Each boid's neighbour count (id order) from the last step: the boids within its rules' radii
    // and field of view; all 0 before the first step.
    std::vector<std::uint32_t> neighbourCounts() const;
    // Each boid's nearest distance and group now (BoidFigures), measured by the CPU reference on
    // the state (a GPU flock's state is read once; the flock-wide figures agree with them), and
    // its acceleration from one step taken on the flock's own backend and taken back (the state,
    // step count and neighbour counts are as before the call).
    BoidFigures boidFigures() const;

    // The state from arrays in id order, 3 floats a boid (x, y, z; z and vz 0 in 2D), each boid
    // checked as an imported state file's line is (Error names the first bad boid and the range).
    // species null: each boid keeps its species when `boids` is size(), else all are species 0.
    // Another count changes the boids key (the world stays: set world_size first to keep a
    // density). The step count stays; perch times and stored accelerations start at 0. Ends a
    // recording. One copy to the GPU.
    void setState(const float* positions, const float* velocities, std::size_t boids, const std::uint32_t* species = nullptr);

    // A trajectory in H5MD (as --trajectory writes): a frame now and every `every` steps that
    // step() takes from here (the step counts from now), written as it goes, on the calling
    // thread; deflate 0 (none) .. 9; the path ends in .h5, .hdf5 or .h5md. stopRecording() (or
    // an importState(), or the Flock's end) closes the file and renames it into place; until
    // then it is NAME.tmp.XXXXXX beside it. One recording at a time: record() while one is open
    // is refused. While recording, dt, world_size and bounds cannot change.
    // author: /h5md/author's name (1 to 200 printable bytes; empty: "murmur"). In wrap bounds each
    // frame holds the images each boid crossed (/particles/flock/image); unwrapped: the positions
    // are written unwrapped instead (what MDAnalysis' EinsteinMSD reads). as_3d: a 2D flock
    // written with dimension 3, z 0 (MDAnalysis reads only 3D boxes; Error for a 3D flock).
    void record(const std::string& path, std::uint64_t every = 1, int deflate = 1, const std::string& author = "",
                bool unwrapped = false, bool as_3d = false);
    std::uint64_t stopRecording();  // the frames written (0: none being recorded)
    bool recording() const;
    std::string recordingPath() const;  // the path being recorded, or empty

    void exportState(const std::string& path) const;  // the CSV of --export (atomic)
    void importState(const std::string& path);        // the CSV of --import, step count and world restored; ends a recording

    GlBuffers glBuffers() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// K flocks stepped together. On the GPU they share one set of buffers and each step's dispatches
// (many small flocks at the GPU's width); on the CPU each is stepped in turn. Flock k is, bit for
// bit on the same backend, what a Flock with its options would be alone. Each flock has its own
// options (preset, settings, boids, seed); the backend and the GL loader are the first flock's.
// On the GPU the flocks must share the style, dims, bounds and switches (one shader variant) and
// the parallel update order: otherwise Error names the flock. Flock indices are 0 .. flocks()-1.
class Ensemble {
public:
    explicit Ensemble(const std::vector<FlockOptions>& flocks);
    ~Ensemble();
    Ensemble(Ensemble&&) noexcept;
    Ensemble& operator=(Ensemble&&) noexcept;

    void step(int steps = 1, const StopCheck& stop = {});  // as Flock::step, every flock at once
    std::uint64_t stepCount() const;
    std::uint32_t flocks() const;
    std::uint32_t size(std::uint32_t k) const;  // flock k's boids
    std::string backend() const;

    // Flock k's key, as Flock::set and get (from the next step; boids and dims cannot change).
    void set(std::uint32_t k, const std::string& key, const std::string& value);
    std::string get(std::uint32_t k, const std::string& key) const;

    // Flock k's state in id order: 3 floats a boid; its ids' species.
    std::vector<float> positions(std::uint32_t k) const;
    std::vector<float> velocities(std::uint32_t k) const;
    std::vector<std::uint32_t> species(std::uint32_t k) const;
    // Flock k's state from arrays, as Flock::setState (checked alike; another count changes its
    // boids). The other flocks keep their states; the ensemble's step count stays.
    void setState(std::uint32_t k, const float* positions, const float* velocities, std::size_t boids,
                  const std::uint32_t* species = nullptr);
    std::map<std::string, double> orderParameters(std::uint32_t k);
    // Every flock's, in flock order (on the GPU in one set of passes for all K).
    std::vector<std::map<std::string, double>> orderParameters();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// A parameter sweep, as murmur --sweep: every combination of the axes' values (the first varies
// slowest), each with `seeds` seeds (the base seed, +1, ...), one CSV row per run holding each
// order parameter's mean and standard deviation over its samples (at the burn-in, then every
// `every` steps to `steps`). runSweep writes the CSV that murmur --sweep-out writes for the same
// sweep, byte for byte: the same code runs both.
struct Sweep {
    FlockOptions flock;             // the base flock (preset, settings, boids, seed, backend; gl_loader as Flock's)
    std::vector<std::string> axes;  // one to three "KEY=FROM:TO:COUNT[:log]" or "KEY=V1,V2,...", as --sweep (a numeric key, 1 to 10000 values)
    std::uint32_t seeds = 1;        // [1, 10000]
    std::uint64_t steps = 300;      // a run's steps [0, 1000000000]
    std::uint64_t burn_in = 0;      // steps before the samples start [0, steps]
    std::uint64_t every = 10;       // steps between samples [1, 1000000000]
    bool carry = false;             // as --sweep-carry: each seed's runs continue one another along the one key
    std::uint32_t batch = 0;        // as --sweep-batch [0, 65536]: GPU runs stepped together (0: as many as fit)
    std::string shard;              // as --sweep-shard "I/N" (empty: the whole sweep)
    std::optional<double> xi;       // as --sweep-xi R_MAX: xi at each sample (0: over half the world; empty: not measured)
};
// Each progress line of a sweep as it comes ("sweep: run 3/17 (...): ...; 12.0 s elapsed, about 58 s left\n").
using SweepProgress = std::function<void(const std::string&)>;
// Checks every run, then runs them (on the GPU, runs that share a shader variant stepped together
// as one ensemble) and writes the CSV to `path` atomically: the runs written. Error on bad input
// (before any run), on a flock that is no longer finite, or when stop() says true (asked between
// runs, samples and pieces of at most 100 steps): then nothing is written.
std::uint64_t runSweep(const Sweep& sweep, const std::string& path, const SweepProgress& progress = {}, const StopCheck& stop = {});

std::vector<std::string> presets();  // the built-in presets' names
// From order parameters (orderParameters()' keys boids, mean_speed, nn_mean) and the step dt: a
// warning, with its numbers, when a boid moves farther in a step than the mean nearest-neighbour
// distance (figures measured at that dt may be artefacts); empty when the step resolves it.
std::string stepResolutionWarning(const std::map<std::string, double>& order, double dt);
std::vector<ParamRecord> params();   // every key, as --list-params
// Every key's value (as get() gives it) of a flock made with these options, without making it:
// the preset, the settings, boids (the world resized unless world_size is set) and the seed.
std::map<std::string, std::string> resolvedParams(const FlockOptions& options);
// Writes `contents` to `path` as murmur writes its own files (Flock::exportState, the command
// line's outputs): checked first as they are (`what` and path named: a name that is only an
// extension, a missing or read-only folder, a directory or device there), then whole or not at
// all (a temporary file beside it, renamed over it), through a symlink to the file it points at,
// a replaced file keeping its permissions and a new one 0666 less the umask. Error on failure,
// naming path. The Python module's VTK files are written so.
void writeFile(const std::string& path, const std::string& contents, const std::string& what);

}  // namespace murmur::api
