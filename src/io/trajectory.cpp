// H5MD trajectories through HDF5's C API; see trajectory.hpp.
#include "io/trajectory.hpp"

#include "io/atomic_file.hpp"
#include "model/param_table.hpp"
#include "model/styles.hpp"

#include <hdf5.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <functional>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace murmur {
namespace {

constexpr hsize_t kMaxChunkBoids = hsize_t(1) << 20;  // a chunk stays well under HDF5's 4 GiB
constexpr std::size_t kMaxWaiting = 2;

// Debian's HDF5 is built without its thread-safety option: two writers (two flocks recording at
// once) take turns through this lock for every HDF5 call.
std::mutex g_hdf5;

// An HDF5 identifier closed with its kind's close function.
class Id {
public:
    Id() = default;
    Id(hid_t id, herr_t (*closer)(hid_t), const char* what) : id_(id), close_(closer) {
        if (id < 0) throw std::runtime_error(std::string("HDF5 could not create ") + what);
    }
    ~Id() {
        if (id_ >= 0) close_(id_);
    }
    Id(Id&& o) noexcept : id_(std::exchange(o.id_, -1)), close_(o.close_) {}
    Id& operator=(Id&& o) noexcept {
        std::swap(id_, o.id_);
        std::swap(close_, o.close_);
        return *this;
    }
    operator hid_t() const { return id_; }
    // Closes now; the status (negative: HDF5 failed, e.g. could not write its last metadata).
    herr_t close() { return id_ >= 0 ? close_(std::exchange(id_, -1)) : 0; }

private:
    hid_t id_ = -1;
    herr_t (*close_)(hid_t) = nullptr;
};

void check(herr_t status, const char* what) {
    if (status < 0) throw std::runtime_error(std::string("HDF5 could not write ") + what);
}

Id group(hid_t parent, const char* name) {
    return Id(H5Gcreate2(parent, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose, name);
}

Id simpleSpace(std::initializer_list<hsize_t> dims, std::initializer_list<hsize_t> max = {}) {
    const std::vector<hsize_t> d(dims), m(max);
    return Id(H5Screate_simple(int(d.size()), d.data(), m.empty() ? nullptr : m.data()), H5Sclose, "a data space");
}

// Variable-length UTF-8 strings: h5py reads them as str.
Id stringType() {
    Id t(H5Tcopy(H5T_C_S1), H5Tclose, "a string type");
    check(H5Tset_size(t, H5T_VARIABLE), "a string type");
    check(H5Tset_cset(t, H5T_CSET_UTF8), "a string type");
    return t;
}

void stringAttribute(hid_t on, const char* name, const std::vector<std::string>& values, bool scalar = false) {
    const Id type = stringType();
    const Id space = scalar ? Id(H5Screate(H5S_SCALAR), H5Sclose, name) : simpleSpace({values.size()});
    const Id attr(H5Acreate2(on, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
    std::vector<const char*> text;
    for (const auto& v : values) text.push_back(v.c_str());
    check(H5Awrite(attr, type, text.data()), name);
}

void intAttribute(hid_t on, const char* name, const std::vector<int>& values, bool scalar = false) {
    const Id space = scalar ? Id(H5Screate(H5S_SCALAR), H5Sclose, name) : simpleSpace({values.size()});
    const Id attr(H5Acreate2(on, name, H5T_NATIVE_INT, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
    check(H5Awrite(attr, H5T_NATIVE_INT, values.data()), name);
}

void fixedDataset(hid_t on, const char* name, hid_t file_type, hid_t mem_type, hsize_t count, const void* data) {
    const Id space = simpleSpace({count});
    const Id set(H5Dcreate2(on, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose, name);
    check(H5Dwrite(set, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data), name);
}

// A dataset that grows a frame at a time along its first axis; shape (0, rest...);
// deflate: 0 (none) or zlib's level, 1 .. 9; -1: a small dataset of one number a frame (chunks of
// 1024 frames, uncompressed).
Id growingDataset(hid_t on, const char* name, hid_t type, std::vector<hsize_t> rest, int deflate) {
    std::vector<hsize_t> dims{0}, max{H5S_UNLIMITED}, chunk{deflate < 0 ? hsize_t(1024) : hsize_t(1)};
    for (hsize_t r : rest) {
        dims.push_back(r);
        max.push_back(r);
        chunk.push_back(std::max<hsize_t>(1, std::min(r, kMaxChunkBoids)));
    }
    const Id space(H5Screate_simple(int(dims.size()), dims.data(), max.data()), H5Sclose, name);
    const Id props(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, name);
    check(H5Pset_chunk(props, int(chunk.size()), chunk.data()), name);
    if (deflate > 0) {
        check(H5Pset_shuffle(props), name);  // bytes grouped by significance: floats compress better
        check(H5Pset_deflate(props, unsigned(deflate)), name);
    }
    return Id(H5Dcreate2(on, name, type, space, H5P_DEFAULT, props, H5P_DEFAULT), H5Dclose, name);
}

// Appends one frame (`count` elements of the rest of the shape) to a growing dataset.
void append(hid_t set, hsize_t frame, hid_t mem_type, const void* data, const char* what) {
    std::array<hsize_t, 3> dims{}, start{};
    int rank = 0;
    {
        const Id space(H5Dget_space(set), H5Sclose, what);
        rank = H5Sget_simple_extent_ndims(space);
        if (rank < 1 || rank > 3) throw std::runtime_error(std::string("HDF5 could not read the shape of ") + what);
        H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    }
    dims[0] = frame + 1;
    check(H5Dset_extent(set, dims.data()), what);
    const Id file_space(H5Dget_space(set), H5Sclose, what);
    start[0] = frame;
    std::array<hsize_t, 3> count = dims;
    count[0] = 1;
    check(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr), what);
    const Id mem_space(H5Screate_simple(rank, count.data(), nullptr), H5Sclose, what);
    check(H5Dwrite(set, mem_type, mem_space, file_space, H5P_DEFAULT, data), what);
}

// A float as the shortest decimal that reads back as it (std::to_chars), then as a double: a
// time step given as 0.1 gives times 0.1, 0.2, ..., not multiples of float(0.1).
double decimalOf(float x) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, x).ptr;
    double d = double(x);
    std::from_chars(text, end, d);
    return d;
}

struct Frame {
    std::uint64_t step = 0;
    std::vector<float> pos, vel, kept;
    std::vector<std::int32_t> images;
};

// The finished temporary file into place: flushed to disk, a replaced file's permissions (a new
// file's: 0666 less the umask), renamed over the target (through symlinks).
void renameIntoPlace(const std::string& temp, const std::string& given) {
    const std::string target = resolvedTarget(given);
    const int fd = ::open(temp.c_str(), O_RDONLY);
    const bool synced = fd >= 0 && ::fsync(fd) == 0;
    if (fd >= 0) ::close(fd);
    giveReplacementMode(temp, target);
    const int sync_error = synced ? 0 : (errno ? errno : EIO);
    if (!synced) throw std::runtime_error("cannot write " + given + ": " + std::strerror(sync_error));
    if (std::rename(temp.c_str(), target.c_str()) != 0) throw std::runtime_error("cannot write " + given + ": " + std::strerror(errno));
}

}  // namespace

TrajectoryLayout trajectoryLayout(const Params& p, std::vector<std::uint32_t> species, int deflate, std::string creator_version,
                                  const std::string& author) {
    TrajectoryLayout layout;
    layout.boids = p.boids;
    layout.dims = p.dims;
    layout.periodic = p.bounds == Bounds::Wrap;
    layout.world_size = p.world_size;
    layout.dt = p.dt;
    layout.species = std::move(species);
    layout.creator_version = std::move(creator_version);
    layout.deflate = deflate;
    if (!author.empty()) layout.author = author;
    layout.kept_state = keptStateNames(p);
    for (const ParamInfo& info : paramTable()) layout.settings.emplace_back(info.key, formatValue(info, p));
    return layout;
}

namespace {

// The length of the well-formed UTF-8 sequence at text[at] (no overlong form, no surrogate,
// nothing past U+10FFFF), or 0 where the bytes there are not one.
std::size_t utf8SequenceAt(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t k) { return at + k < text.size() ? static_cast<unsigned char>(text[at + k]) : 0u; };
    const unsigned lead = byte(0);
    if (lead < 0x80) return 1;
    const std::size_t n = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    for (std::size_t k = 1; k < n; ++k)
        if ((byte(k) & 0xc0) != 0x80) return 0;
    const unsigned second = byte(1);
    if ((lead == 0xe0 && second < 0xa0) || (lead == 0xed && second > 0x9f) || (lead == 0xf0 && second < 0x90) ||
        (lead == 0xf4 && second > 0x8f))
        return 0;  // overlong, a surrogate, or past U+10FFFF
    return n;
}

}  // namespace

std::optional<std::string> trajectoryAuthorProblem(const std::string& author) {
    if (author.empty()) return "the author is empty; valid: a name of 1 to 200 bytes";
    if (author.size() > 200) return "the author is " + std::to_string(author.size()) + " bytes; valid: a name of 1 to 200 bytes";
    for (const char c : author)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return "the author holds a control byte; valid: printable text";
    for (std::size_t at = 0; at < author.size();) {
        const std::size_t n = utf8SequenceAt(author, at);
        if (n == 0)
            return "the author is not UTF-8 text (byte " + std::to_string(at) + " is " + hexEscape(static_cast<unsigned char>(author[at])) +
                   "); valid: printable UTF-8 text (the H5MD attribute is UTF-8)";
        at += n;
    }
    return std::nullopt;
}

std::optional<std::string> trajectoryAs3dProblem(int dims) {
    if (dims == 2) return std::nullopt;
    return "the flock is already 3D (dims " + std::to_string(dims) + "); only a 2D flock (dims 2) is written with dimension 3";
}

std::optional<std::string> trajectoryNameProblem(const std::string& path) {
    if (auto problem = extensionOnlyNameProblem(path)) return problem;  // ".h5": a hidden file
    if (path.ends_with(".h5") || path.ends_with(".hdf5") || path.ends_with(".h5md")) return std::nullopt;
    return "the trajectory is H5MD (HDF5); name it FILE.h5, FILE.hdf5 or FILE.h5md";
}

struct TrajectoryWriter::Impl {
    std::string path, temp;
    TrajectoryLayout layout;
    double dt = 0.0;  // layout.dt as the decimal it was given as (0.1, not 0.100000001490116)
    Id file, position, velocity, edges, kept, image, step, time;  // the last two: position's datasets, shared
    int write_error = 0;  // the first failed write's errno (the guarded driver's, below)
    std::uint64_t written = 0, added = 0;
    bool finished = false;

    bool threaded = true;  // frames written by `worker`; else by add(), on the caller's thread
    std::mutex mutex;
    std::condition_variable changed;
    std::deque<Frame> waiting;
    bool busy = false;  // the worker is writing a frame it took from `waiting`
    bool closing = false;
    std::string error;
    std::thread worker;

    void create();
    void write(const Frame& f);
    std::string writeNow(const Frame& f);
    void run();
    void closeAll() {  // the groups and datasets (under g_hdf5); the file stays open
        position.close(), velocity.close(), edges.close(), kept.close(), image.close(), step.close(), time.close();
    }
    void discard();
    void writeParameters();
    // Throws (prefix + the cause) if a write failed or HDF5 said so (`hdf5_ok` false: `hdf5_said`).
    void requireWritten(bool hdf5_ok, const char* hdf5_said, const std::string& prefix = "") const {
        if (write_error) throw std::runtime_error(prefix + std::strerror(write_error));
        if (!hdf5_ok) throw std::runtime_error(prefix + hdf5_said);
    }
    // Before HDF5 is called (under g_hdf5): its diagnostics off on this thread (a failure is
    // reported once, by status or write_error), and this writer's file the one writes count for.
    void enter();
};

namespace {

// The write_error of the writer whose HDF5 calls run now (set by enter(), under g_hdf5): the
// guarded driver's failures count for its file.
int* g_write_error = nullptr;

// HDF5's sec2 file driver with its writes guarded: a write that fails (a full disk) is recorded in
// the writer's write_error and reported to HDF5 as done, and later writes are dropped. HDF5 1.10
// cannot close a file once a flush of it has failed (its metadata cache is left "already
// flushing"), and whoever closed every file later (HDF5's exit handler, h5py's) crashed on it; so
// HDF5 never sees a failure, and the writer reports it and removes the file.
const H5FD_class_t* g_sec2 = nullptr;

int& writeError() {
    static int none = 0;
    none = 0;  // a write outside any writer's call is not recorded (and never sticks)
    return g_write_error ? *g_write_error : none;
}

// One of sec2's calls, unless a write already failed; a failure recorded, success reported.
template <class Call>
herr_t guarded(Call&& call) {
    int& failed = writeError();
    if (failed) return 0;
    errno = 0;
    if (call() < 0) failed = errno ? errno : EIO;
    return 0;
}

herr_t guardedWrite(H5FD_t* f, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size, const void* buffer) {
    return guarded([&] { return g_sec2->write(f, type, dxpl, addr, size, buffer); });
}

herr_t guardedTruncate(H5FD_t* f, hid_t dxpl, hbool_t closing) {
    return guarded([&] { return g_sec2->truncate(f, dxpl, closing); });
}

hid_t guardedDriver() {
    static const hid_t driver = [] {
        // sec2's class, from a file it opens (HDF5 hands out no library class by its ID).
        const Id access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "a file access list");
        if (H5Pset_fapl_sec2(access) < 0) return hid_t(-1);
        H5FD_t* probe = H5FDopen("/dev/null", H5F_ACC_RDONLY, access, HADDR_UNDEF);
        if (!probe) return hid_t(-1);
        g_sec2 = probe->cls;
        static H5FD_class_t guarded = *g_sec2;
        H5FDclose(probe);
        guarded.name = "murmur_guarded_sec2";
        guarded.terminate = nullptr;
        guarded.write = guardedWrite;
        guarded.truncate = guardedTruncate;
        return H5FDregister(&guarded);
    }();
    return driver;
}

}  // namespace

void TrajectoryWriter::Impl::enter() {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    g_write_error = &write_error;
}

void TrajectoryWriter::Impl::create() {
    // HDF5's exit handler closes what is still open, and crashed on a file whose close had failed
    // (a full disk): it is not installed (H5dont_atexit must come before HDF5 is first used; once
    // it is in use, by h5py say, this call changes nothing).
    static const bool no_exit_handler = (H5dont_atexit(), true);
    (void)no_exit_handler;
    enter();
    const Id access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "a file access list");
    check(H5Pset_driver(access, guardedDriver(), nullptr), "the file driver");
    file = Id(H5Fcreate(temp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access), H5Fclose, temp.c_str());
    {
        const Id h5md = group(file, "h5md");
        intAttribute(h5md, "version", {1, 1});
        const Id author = group(h5md, "author");
        stringAttribute(author, "name", {layout.author}, true);
        const Id creator = group(h5md, "creator");
        stringAttribute(creator, "name", {"murmur"}, true);
        stringAttribute(creator, "version", {layout.creator_version}, true);
    }
    writeParameters();
    const Id particles = group(file, "particles");
    const Id flock = group(particles, "flock");
    const hsize_t n = layout.boids, d = hsize_t(layout.writtenDims());
    std::vector<std::int32_t> species(layout.species.begin(), layout.species.end()), ids(n);
    for (hsize_t i = 0; i < n; ++i) ids[i] = std::int32_t(i);
    fixedDataset(flock, "species", H5T_STD_I32LE, H5T_NATIVE_INT32, n, species.data());
    fixedDataset(flock, "id", H5T_STD_I32LE, H5T_NATIVE_INT32, n, ids.data());
    position = group(flock, "position");
    velocity = group(flock, "velocity");
    step = growingDataset(position, "step", H5T_STD_I64LE, {}, -1);
    time = growingDataset(position, "time", H5T_IEEE_F64LE, {}, -1);
    const Id box = group(flock, "box");
    intAttribute(box, "dimension", {int(d)}, true);
    std::vector<std::string> boundary(d, layout.periodic ? "periodic" : "none");
    if (layout.dims == 2 && d == 3) boundary[2] = "none";  // a 2D flock written as 3D: z is 0
    stringAttribute(box, "boundary", boundary);
    edges = group(box, "edges");  // a time series of edge vectors, as MDAnalysis reads it (the world cannot change while recording)
    for (const auto& [element, name] : {std::pair{&velocity, "velocity"}, std::pair{&edges, "box/edges"}}) {
        check(H5Lcreate_hard(position, "step", *element, "step", H5P_DEFAULT, H5P_DEFAULT), (std::string(name) + "/step").c_str());
        check(H5Lcreate_hard(position, "time", *element, "time", H5P_DEFAULT, H5P_DEFAULT), (std::string(name) + "/time").c_str());
    }
    growingDataset(edges, "value", H5T_IEEE_F32LE, {d, d}, -1);  // the box's edge vectors, a row each
    growingDataset(position, "value", H5T_IEEE_F32LE, {n, d}, layout.deflate);
    growingDataset(velocity, "value", H5T_IEEE_F32LE, {n, d}, layout.deflate);
    if (!layout.kept_state.empty()) {  // the per-boid state kept from step to step, its components named
        kept = group(flock, "kept_state");
        stringAttribute(kept, "components", layout.kept_state);
        check(H5Lcreate_hard(position, "step", kept, "step", H5P_DEFAULT, H5P_DEFAULT), "kept_state/step");
        check(H5Lcreate_hard(position, "time", kept, "time", H5P_DEFAULT, H5P_DEFAULT), "kept_state/time");
        growingDataset(kept, "value", H5T_IEEE_F32LE, {n, 4}, layout.deflate);
    }
    if (layout.writesImages()) {  // H5MD's image element: position + image x edges is where the boid has gone
        image = group(flock, "image");
        check(H5Lcreate_hard(position, "step", image, "step", H5P_DEFAULT, H5P_DEFAULT), "image/step");
        check(H5Lcreate_hard(position, "time", image, "time", H5P_DEFAULT, H5P_DEFAULT), "image/time");
        growingDataset(image, "value", H5T_STD_I32LE, {n, d}, layout.deflate);
    }
}

// /parameters: what made the run (every key's value, the seed among them) and murmur's units,
// which are its own: no `unit` attributes on the elements, since readers refuse units they do not
// know (MDAnalysis opens the file with convert_units=False).
void TrajectoryWriter::Impl::writeParameters() {
    const Id parameters = group(file, "parameters");
    stringAttribute(parameters, "length_unit", {"murmur's world units: the box's edge is world_size"}, true);
    stringAttribute(parameters, "time_unit", {"murmur's model seconds: time = step * dt"}, true);
    for (const auto& [key, value] : layout.settings) stringAttribute(parameters, key.c_str(), {value}, true);
}

// The temporary file closed and removed, whatever failed before (under g_hdf5): HDF5 saw no
// failure (the guarded driver's), so its closes succeed, writing nothing more.
void TrajectoryWriter::Impl::discard() {
    enter();
    write_error = write_error ? write_error : ECANCELED;  // nothing more is written
    closeAll();
    file.close();
    ::unlink(temp.c_str());
}

// One frame appended: step, time, and the vectors cut to the flock's dims.
void TrajectoryWriter::Impl::write(const Frame& f) {
    const std::size_t n = layout.boids, d = std::size_t(layout.writtenDims());
    std::vector<float> packed(n * d);
    const auto pack = [&](const std::vector<float>& xyz) {
        if (d == 3) return xyz.data();
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < d; ++k) packed[i * d + k] = xyz[i * 3 + k];
        return static_cast<const float*>(packed.data());
    };
    std::vector<float> unwrapped;
    if (layout.unwrapped && !f.images.empty()) {  // held + image x L, in double, rounded once
        unwrapped.resize(n * 3);
        for (std::size_t i = 0; i < n * 3; ++i)
            unwrapped[i] = float(double(f.pos[i]) + double(f.images[i]) * double(layout.world_size));
    }
    const std::int64_t s = std::int64_t(f.step);
    const double t = double(f.step) * dt;
    append(step, written, H5T_NATIVE_INT64, &s, "position/step");
    append(time, written, H5T_NATIVE_DOUBLE, &t, "position/time");
    // Closed here, their status checked: HDF5 writes a dataset's cached chunks when it closes it,
    // and a full disk shows first there.
    Id pos_value(H5Dopen2(position, "value", H5P_DEFAULT), H5Dclose, "position/value");
    append(pos_value, written, H5T_NATIVE_FLOAT, pack(unwrapped.empty() ? f.pos : unwrapped), "position/value");
    check(pos_value.close(), "position/value");
    Id vel_value(H5Dopen2(velocity, "value", H5P_DEFAULT), H5Dclose, "velocity/value");
    append(vel_value, written, H5T_NATIVE_FLOAT, pack(f.vel), "velocity/value");
    check(vel_value.close(), "velocity/value");
    std::vector<float> box(d * d, 0.0f);  // the edge vectors: L along each axis
    for (std::size_t a = 0; a < d; ++a) box[a * d + a] = layout.world_size;
    Id edge_value(H5Dopen2(edges, "value", H5P_DEFAULT), H5Dclose, "box/edges/value");
    append(edge_value, written, H5T_NATIVE_FLOAT, box.data(), "box/edges/value");
    check(edge_value.close(), "box/edges/value");
    if (!layout.kept_state.empty()) {
        Id kept_value(H5Dopen2(kept, "value", H5P_DEFAULT), H5Dclose, "kept_state/value");
        append(kept_value, written, H5T_NATIVE_FLOAT, f.kept.data(), "kept_state/value");
        check(kept_value.close(), "kept_state/value");
    }
    if (layout.writesImages()) {
        std::vector<std::int32_t> cut(n * d);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t k = 0; k < d; ++k) cut[i * d + k] = f.images[i * 3 + k];
        Id image_value(H5Dopen2(image, "value", H5P_DEFAULT), H5Dclose, "image/value");
        append(image_value, written, H5T_NATIVE_INT32, cut.data(), "image/value");
        check(image_value.close(), "image/value");
    }
    ++written;
}

// A frame written and flushed; the first failure's message, or empty.
std::string TrajectoryWriter::Impl::writeNow(const Frame& f) {
    try {
        const std::lock_guard hdf5(g_hdf5);
        enter();
        write(f);
        requireWritten(H5Fflush(file, H5F_SCOPE_LOCAL) >= 0, "HDF5 could not flush the file");
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

// The writer thread: frames in order until closing with none waiting, or the first failure. A
// frame leaves the queue before it is written (`busy` counts it meanwhile), so that the
// destructor may empty the queue at any time.
void TrajectoryWriter::Impl::run() {
    for (;;) {
        Frame f;
        {
            std::unique_lock lock(mutex);
            changed.wait(lock, [&] { return closing || !waiting.empty(); });
            if (waiting.empty()) return;
            f = std::move(waiting.front());
            waiting.pop_front();
            busy = true;
        }
        const std::string failure = writeNow(f);
        std::lock_guard lock(mutex);
        busy = false;
        changed.notify_all();
        if (!failure.empty()) {
            error = failure;
            waiting.clear();
            return;
        }
    }
}

// A thread that SIGINT and SIGTERM never interrupt (the process's handlers run on the others).
std::thread startWithoutStopSignals(std::function<void()> body) {
    sigset_t stop, old;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, &old);
    std::thread t(std::move(body));
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return t;
}

TrajectoryWriter::TrajectoryWriter(const std::string& path, const TrajectoryLayout& layout, Threading threading)
    : impl_(std::make_unique<Impl>()) {
    impl_->path = path;
    impl_->layout = layout;
    impl_->threaded = threading == Threading::WriterThread;
    impl_->dt = decimalOf(float(layout.dt));
    if (path.empty() || path.ends_with("/")) throw std::runtime_error("cannot write '" + path + "': not a file name");
    if (layout.species.size() != layout.boids) throw std::runtime_error("trajectory: species for every boid expected");
    if (layout.deflate < 0 || layout.deflate > 9) throw std::runtime_error("trajectory: deflate level in [0, 9] expected");
    if (const auto problem = layout.as_3d ? trajectoryAs3dProblem(layout.dims) : std::nullopt)
        throw std::runtime_error("trajectory: " + *problem);
    const std::string target = resolvedTarget(path);
    if (const auto problem = targetProblem(target)) throw std::runtime_error("cannot write " + path + ": it " + *problem);
    std::string pattern = target + ".tmp.XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    ::close(fd);
    impl_->temp = pattern;
    try {
        const std::lock_guard hdf5(g_hdf5);
        impl_->create();
        impl_->requireWritten(true, "");
    } catch (const std::exception& e) {
        const std::lock_guard hdf5(g_hdf5);
        impl_->discard();
        if (g_write_error == &impl_->write_error) g_write_error = nullptr;  // this writer ends with the throw
        throw std::runtime_error("cannot write " + path + ": " + e.what());
    }
    if (impl_->threaded) impl_->worker = startWithoutStopSignals([this] { impl_->run(); });
}

TrajectoryWriter::~TrajectoryWriter() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->closing = true;
        impl_->waiting.clear();
    }
    impl_->changed.notify_all();
    if (impl_->worker.joinable()) impl_->worker.join();
    const std::lock_guard hdf5(g_hdf5);
    if (!impl_->finished) impl_->discard();
    if (g_write_error == &impl_->write_error) g_write_error = nullptr;  // never left pointing into a writer that is gone
}

void TrajectoryWriter::add(std::uint64_t step, std::vector<float> positions, std::vector<float> velocities, std::vector<float> kept,
                           std::vector<std::int32_t> images) {
    const std::size_t floats = std::size_t(impl_->layout.boids) * 3;
    if (positions.size() != floats || velocities.size() != floats)
        throw std::runtime_error("trajectory: a frame needs 3 floats a boid for each vector");
    if (images.size() != (impl_->layout.periodic ? floats : 0))
        throw std::runtime_error("trajectory: a frame's images need 3 ints a boid in a periodic box, none otherwise");
    if (kept.size() != (impl_->layout.kept_state.empty() ? 0 : std::size_t(impl_->layout.boids) * 4))
        throw std::runtime_error("trajectory: a frame's kept state needs 4 floats a boid where the flock keeps one, none otherwise");
    if (!impl_->error.empty()) throw std::runtime_error("cannot write " + impl_->path + ": " + impl_->error);
    if (!impl_->threaded) {
        impl_->error = impl_->writeNow({step, std::move(positions), std::move(velocities), std::move(kept), std::move(images)});
        if (!impl_->error.empty()) throw std::runtime_error("cannot write " + impl_->path + ": " + impl_->error);
        ++impl_->added;
        return;
    }
    std::unique_lock lock(impl_->mutex);
    impl_->changed.wait(lock, [&] {
        return impl_->waiting.size() + (impl_->busy ? 1u : 0u) < kMaxWaiting || !impl_->error.empty();
    });
    if (!impl_->error.empty()) throw std::runtime_error("cannot write " + impl_->path + ": " + impl_->error);
    impl_->waiting.push_back({step, std::move(positions), std::move(velocities), std::move(kept), std::move(images)});
    ++impl_->added;
    impl_->changed.notify_all();
}

std::uint64_t TrajectoryWriter::frames() const { return impl_->added; }

std::string TrajectoryWriter::finish() {
    {
        std::lock_guard lock(impl_->mutex);
        impl_->closing = true;
    }
    impl_->changed.notify_all();
    if (impl_->worker.joinable()) impl_->worker.join();
    if (!impl_->error.empty()) throw std::runtime_error("cannot write " + impl_->path + ": " + impl_->error);
    {
        const std::lock_guard hdf5(g_hdf5);
        impl_->enter();
        // Everything HDF5 holds written first, its status checked: a failure there leaves the file
        // open for the destructor to discard, and the close after it has nothing left to write.
        impl_->closeAll();
        const std::string cannot = "cannot write " + impl_->path + ": ";
        impl_->requireWritten(H5Fflush(impl_->file, H5F_SCOPE_LOCAL) >= 0, "HDF5 could not flush the file", cannot);
        // H5Fclose writes what HDF5 still holds (its metadata): a failure there leaves the
        // temporary file incomplete, so it is removed (by the destructor), never renamed.
        impl_->requireWritten(impl_->file.close() >= 0, "HDF5 could not close the file", cannot);
    }
    renameIntoPlace(impl_->temp, impl_->path);
    impl_->finished = true;
    return impl_->path;
}

}  // namespace murmur
