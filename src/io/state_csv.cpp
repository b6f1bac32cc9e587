// CSV state import/export; see state_csv.hpp. Positions may lie outside the box (soft bounds
// let boids stray) but not beyond one world size from it: that is a unit or scale mistake.
#include "io/state_csv.hpp"

#include "io/atomic_file.hpp"
#include "io/input_error.hpp"
#include "io/preset_json.hpp"
#include "model/number_text.hpp"
#include "model/param_table.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

namespace murmur {
namespace {

constexpr std::array<const char*, 16> kColumns = {"id", "species", "x", "y", "z", "vx", "vy", "vz",
                                                 "perch", "sx", "sy", "sz", "sn", "ix", "iy", "iz"};
constexpr std::string_view kParamsLine = "# params ";  // a restart file's parameters: a line of its preset JSON each
constexpr double kMaxImage = 2147483647.0;  // an image count is an int32
constexpr std::size_t kRequired = 8;  // the first 8 columns; the rest default to 0
constexpr std::size_t kMaxStateBoids = 100000000;  // --boids' range
constexpr double kMaxVelocity = 1e6;  // units/s; larger is a mistake, not a flock
constexpr double kMaxSoftDistance = 1e9;  // units, soft bounds: a boid may fly this far out (a float still holds it)

std::vector<std::string_view> splitFields(std::string_view line) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        std::string_view f = line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) f.remove_prefix(1);
        while (!f.empty() && (f.back() == ' ' || f.back() == '\t')) f.remove_suffix(1);
        out.push_back(f);
        if (comma == std::string_view::npos) return out;
        start = comma + 1;
    }
}

}  // namespace

std::string formatStateCsv(const Flock& flock, std::uint32_t step, float world, const Params* params) {
    Flock sorted = flock;
    std::sort(sorted.begin(), sorted.end(), [](const Boid& a, const Boid& b) { return a.id < b.id; });
    std::string out = "# step " + std::to_string(step) + "\n";
    if (world > 0.0f) out += "# world " + numberText(double(world)) + "\n";
    if (params) {
        std::istringstream json(formatPreset(*params, "a restart file's parameters: murmur --resume FILE"));
        for (std::string line; std::getline(json, line);) out += std::string(kParamsLine) + line + "\n";
    }
    out += "id,species,x,y,z,vx,vy,vz,perch,sx,sy,sz,sn,ix,iy,iz\n";
    char line[512];
    for (const Boid& b : sorted) {
        std::snprintf(line, sizeof line, "%u,%u,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%d,%d\n", b.id, b.species,
                      double(b.p.x), double(b.p.y), double(b.p.z), double(b.v.x), double(b.v.y), double(b.v.z), double(b.perch),
                      double(b.steer.x), double(b.steer.y), double(b.steer.z), double(b.steer.w), b.image.x, b.image.y, b.image.z);
        out += line;
    }
    return out;
}

namespace {

// One line into `line`, at most kMaxLineBytes of it: a file is read line by line, never whole, and
// a line of a gigabyte is refused rather than held. False at the end of the input.
constexpr std::size_t kMaxLineBytes = 4096;
bool readLine(std::istream& in, std::string& line, bool& too_long) {
    line.clear();
    too_long = false;
    std::streambuf* buf = in.rdbuf();
    for (int c = buf->sbumpc();; c = buf->sbumpc()) {
        if (c == std::char_traits<char>::eof()) return !line.empty() || too_long;
        if (c == '\n') return true;
        if (line.size() < kMaxLineBytes) line.push_back(char(c));
        else too_long = true;
    }
}

}  // namespace

Flock parseStateCsv(const std::string& text, const Params& params, const std::string& source, std::uint32_t* step_out) {
    std::istringstream in(text);
    return parseStateCsv(in, params, source, step_out);
}

namespace {

// A state file read line by line: the header (with the step counter of a resumable state), then
// one boid per line, each checked as it is read; every failure names the file and line.
class StateReader {
public:
    StateReader(std::istream& in, const Params& params, const std::string& source) : in_(in), params_(params), source_(source) {}

    Flock read(std::uint32_t* step_out);
    float world() {  // the header's "# world L" (0: none), reading the header alone
        readHeader(nullptr);
        return world_;
    }
    const std::string& paramsJson() {  // the header's "# params " lines, joined (empty: none)
        readHeader(nullptr);
        return params_json_;
    }

private:
    struct Row {
        Boid boid;
        int line;
    };
    using Values = StateValues;

    [[noreturn]] void fail(const std::string& what) const { throw InputError(source_ + ":" + std::to_string(line_no_) + ": " + what); }
    bool nextLine();
    std::size_t readHeader(std::uint32_t* step_out);
    std::optional<double> numberAfter(std::size_t prefix) const;
    void readStep(std::uint32_t* step_out);
    void readWorld();
    Values readValues(std::size_t n_fields);
    Boid boidOf(const Values& v);
    Flock inIdOrder(const std::vector<Row>& rows);

    std::istream& in_;
    const Params& params_;
    const std::string& source_;
    std::string raw_;
    int line_no_ = 0;
    float world_ = 0.0f;
    std::string params_json_;
    std::array<int, kColumns.size()> col_{};
};

bool StateReader::nextLine() {
    bool too_long = false;
    if (!readLine(in_, raw_, too_long)) return false;
    ++line_no_;
    if (too_long) fail("a line longer than " + std::to_string(kMaxLineBytes) + " bytes; a state line is under 300");
    if (!raw_.empty() && raw_.back() == '\r') raw_.pop_back();
    return true;
}

// The header line's number after its first `prefix` characters, the rest of the line (else none).
std::optional<double> StateReader::numberAfter(std::size_t prefix) const {
    double v = 0.0;
    const char* end = raw_.data() + raw_.size();
    auto [ptr, ec] = std::from_chars(raw_.data() + prefix, end, v);
    if (ec != std::errc() || ptr != end) return std::nullopt;
    return v;
}

void StateReader::readStep(std::uint32_t* step_out) {
    const std::optional<double> s = numberAfter(7);  // "# step "
    if (!s || *s < 0 || *s != std::floor(*s) || *s > 4294967295.0)
        fail("'" + raw_.substr(0, 40) + "': the step must be a whole number in [0, 4294967295]");
    if (step_out) *step_out = std::uint32_t(*s);
}

void StateReader::readWorld() {
    const ParamInfo& range = *findParam("world_size");
    const std::optional<double> w = numberAfter(8);  // "# world "
    if (!w || !(*w >= range.min && *w <= range.max))
        fail("'" + echo(raw_.substr(0, 40)) + "': the world must be a number in " + rangeText(range));
    if (world_ > 0.0f) fail("a second world line");
    world_ = float(*w);
}

// Header: every column once, nothing else. Returns the number of fields (0: no header).
std::size_t StateReader::readHeader(std::uint32_t* step_out) {
    col_.fill(-1);
    while (nextLine()) {
        if (line_no_ == 1 && raw_.starts_with("\xEF\xBB\xBF")) raw_.erase(0, 3);  // a UTF-8 byte order mark
        if (raw_.empty()) continue;
        if (raw_.starts_with("# step ")) {  // the step counter of a resumable state
            readStep(step_out);
            continue;
        }
        if (raw_.starts_with("# world ")) {  // the world it was written in
            readWorld();
            continue;
        }
        if (raw_.starts_with(kParamsLine)) {  // a restart file's parameters (readStateParams reads them)
            params_json_ += raw_.substr(kParamsLine.size()) + "\n";
            continue;
        }
        const auto fields = splitFields(raw_);
        for (std::size_t f = 0; f < fields.size(); ++f) {
            auto it = std::find_if(kColumns.begin(), kColumns.end(), [&](const char* c) { return fields[f] == c; });
            if (it == kColumns.end())
                fail("unknown column '" + echo(fields[f]) +
                     "'; expected id,species,x,y,z,vx,vy,vz (and optionally perch,sx,sy,sz,sn,ix,iy,iz)");
            const auto k = std::size_t(it - kColumns.begin());
            if (col_[k] >= 0) fail("column '" + std::string(kColumns[k]) + "' appears twice");
            col_[k] = int(f);
        }
        for (std::size_t k = 0; k < kRequired; ++k)
            if (col_[k] < 0) fail("missing column '" + std::string(kColumns[k]) + "' in header");
        return fields.size();
    }
    return 0;
}

// The line's numbers by column (0 for an optional column the file lacks).
StateReader::Values StateReader::readValues(std::size_t n_fields) {
    const auto fields = splitFields(raw_);
    if (fields.size() != n_fields) fail("expected " + std::to_string(n_fields) + " fields, found " + std::to_string(fields.size()));
    Values v{};
    for (std::size_t k = 0; k < kColumns.size(); ++k) {
        if (col_[k] < 0) continue;
        const std::string_view f = fields[std::size_t(col_[k])];
        const char* end = f.data() + f.size();
        auto [ptr, ec] = std::from_chars(f.data(), end, v[k]);
        const std::string name = kColumns[k];
        if (f.empty() || ec != std::errc() || ptr != end) fail(name + ": '" + echo(f) + "' is not a number");
        if (!std::isfinite(v[k])) fail(name + ": '" + echo(f) + "' is not a finite number");
    }
    return v;
}

Boid StateReader::boidOf(const Values& v) {
    try {
        return checkedStateBoid(v, params_);
    } catch (const InputError& e) {
        fail(e.what());
    }
}

}  // namespace

namespace {

[[noreturn]] void refuse(const std::string& what) { throw InputError(what); }

// Axis a's position and velocity: 0 on an unused axis; wrapped positions stay in the world; soft
// walls only turn boids back, and a fast flock can be far out when it is exported: murmur reads
// back what it writes.
void setAxis(Boid& b, const StateValues& v, int a, const Params& params) {
    const std::string axis = std::string(1, char('x' + a));
    const double x = v[std::size_t(2 + a)], vx = v[std::size_t(5 + a)];
    if (a >= params.dims) {
        if (x != 0.0 || vx != 0.0) refuse(axis + " and v" + axis + " must be 0 when dims is 2");
        return;
    }
    const double L = params.world_size;
    const bool wrap = params.bounds == Bounds::Wrap;
    const double lo = wrap ? -L : -kMaxSoftDistance, hi = wrap ? 2 * L : kMaxSoftDistance;
    if (x < lo || x > hi)
        refuse(axis + " = " + numberText(x) + " is far outside the world [0, " + numberText(L) + "); allowed range [" + numberText(lo) + ", " +
               numberText(hi) + "] (" + boundsName(params.bounds) + " bounds)");
    if (std::fabs(vx) > kMaxVelocity) refuse("v" + axis + " = " + numberText(vx) + " is out of range [-1e6, 1e6] units/s");
    b.p[a] = float(x);
    b.v[a] = float(vx);
}

}  // namespace

Boid checkedStateBoid(const StateValues& v, const Params& params) {
    for (std::size_t k = 0; k < v.size(); ++k)
        if (!std::isfinite(v[k])) refuse(std::string(kColumns[k]) + ": '" + numberText(v[k]) + "' is not a finite number");
    Boid b;
    if (v[0] < 0 || v[0] != std::floor(v[0]) || v[0] > 4294967295.0) refuse("id: " + numberText(v[0]) + " is not a whole number >= 0");
    const std::uint32_t species = std::min(std::max(params.species_count, 1u), kMaxSpecies);
    if (v[1] < 0 || v[1] != std::floor(v[1]) || v[1] >= double(species))
        refuse("species: " + numberText(v[1]) + " is out of range [0, " + std::to_string(species - 1) + "] (species_count " +
               std::to_string(species) + ")");
    b.id = std::uint32_t(v[0]);
    b.species = std::uint32_t(v[1]);
    for (int a = 0; a < 3; ++a) setAxis(b, v, a, params);
    if (v[8] < 0 || v[8] > 3600.0) refuse("perch: " + numberText(v[8]) + " is out of range [0, 3600] s");
    if (std::fabs(v[9]) > 1e9 || std::fabs(v[10]) > 1e9 || std::fabs(v[11]) > 1e9 || v[12] < 0 || v[12] > 4294967295.0)
        refuse("sx, sy, sz: a stored acceleration within [-1e9, 1e9] units/s^2, sn a count >= 0");
    b.perch = float(v[8]);
    b.steer = glm::vec4(float(v[9]), float(v[10]), params.dims == 3 ? float(v[11]) : 0.0f, float(v[12]));
    for (int a = 0; a < 3; ++a) {
        const double image = v[std::size_t(13 + a)];
        const std::string name = kColumns[std::size_t(13 + a)];
        if (image != std::floor(image) || std::fabs(image) > kMaxImage)
            refuse(name + ": " + numberText(image) + " is not a whole number in [-2147483647, 2147483647]");
        if (image != 0.0 && a >= params.dims) refuse(name + " must be 0 when dims is 2");
        b.image[a] = params.bounds == Bounds::Wrap ? int(image) : 0;  // another box: the counts start again
    }
    return b;
}

Flock stateFromArrays(const float* xyz, const float* vxyz, const std::uint32_t* species, std::size_t boids, const Params& params) {
    if (boids > kMaxStateBoids)
        refuse(std::to_string(boids) + " boids: out of range [0, " + std::to_string(kMaxStateBoids) + "]");
    Flock flock(boids);
    for (std::size_t i = 0; i < boids; ++i) {
        StateValues v{};
        v[0] = double(i);
        v[1] = species ? double(species[i]) : 0.0;
        for (int a = 0; a < 3; ++a) {
            v[std::size_t(2 + a)] = double(xyz[3 * i + std::size_t(a)]);
            v[std::size_t(5 + a)] = double(vxyz[3 * i + std::size_t(a)]);
        }
        try {
            flock[i] = checkedStateBoid(v, params);
        } catch (const InputError& e) {
            refuse("boid " + std::to_string(i) + ": " + e.what());
        }
    }
    return flock;
}

namespace {

// Ids must be exactly 0..N-1, each once.
Flock StateReader::inIdOrder(const std::vector<Row>& rows) {
    const std::size_t n = rows.size();
    std::vector<int> first_line(n, 0);
    for (const Row& r : rows) {
        line_no_ = r.line;
        if (r.boid.id >= n)
            fail("id " + std::to_string(r.boid.id) + " is out of range [0, " + std::to_string(n == 0 ? 0 : n - 1) +
                 "]: ids must be 0..N-1 for the file's N = " + std::to_string(n) + " boids");
        if (first_line[r.boid.id] != 0)
            fail("duplicate id " + std::to_string(r.boid.id) + " (first on line " + std::to_string(first_line[r.boid.id]) + ")");
        first_line[r.boid.id] = r.line;
    }
    Flock flock(n);
    for (const Row& r : rows) flock[r.boid.id] = r.boid;
    return flock;
}

Flock StateReader::read(std::uint32_t* step_out) {
    if (step_out) *step_out = 0;
    const std::size_t n_fields = readHeader(step_out);
    if (n_fields == 0) throw InputError(source_ + ": empty file; expected header id,species,x,y,z,vx,vy,vz");
    std::vector<Row> rows;
    while (nextLine()) {
        if (raw_.empty()) continue;
        if (rows.size() >= kMaxStateBoids) fail("more than " + std::to_string(kMaxStateBoids) + " boids, the most murmur flies");
        rows.push_back({boidOf(readValues(n_fields)), line_no_});
    }
    Flock flock = inIdOrder(rows);
    if (world_ > 0.0f && world_ != params_.world_size)  // read into another box: the image counts start again
        for (Boid& b : flock) b.image = glm::ivec3(0);
    return flock;
}

}  // namespace

Flock parseStateCsv(std::istream& in, const Params& params, const std::string& source, std::uint32_t* step_out) {
    return StateReader(in, params, source).read(step_out);
}

void writeStateCsv(const std::string& path, const Flock& flock, std::uint32_t step, float world, const Params* params) {
    writeFileAtomic(path, formatStateCsv(flock, step, world, params));
}

namespace {
std::ifstream openState(const std::string& path) {
    try {
        return openForReading(path);
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
}
}  // namespace

Flock readStateCsv(const std::string& path, const Params& params, std::uint32_t* step) {
    std::ifstream in = openState(path);
    return parseStateCsv(in, params, path, step);
}

float readStateWorld(const std::string& path) {
    std::ifstream in = openState(path);
    const Params unused;
    return StateReader(in, unused, path).world();
}

std::optional<Params> readStateParams(const std::string& path) {
    std::ifstream in = openState(path);
    const Params defaults;
    const std::string json = StateReader(in, defaults, path).paramsJson();
    if (json.empty()) return std::nullopt;
    Params p = parsePreset(json, defaults, path + " (its parameters)");
    if (auto problems = validate(p); !problems.empty())
        throw InputError(path + ": its parameters are not valid:\n" + describe(problems));
    return p;
}

}  // namespace murmur
