// Program binaries on disk; see program_cache.hpp.
#include "gl/program_cache.hpp"

#include "gl/cache_folder.hpp"
#include "gl/sha256.hpp"
#include "io/env_switch.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>


namespace murmur::gl {
namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'M', 'U', 'R', 'M', 'U', 'R', 'P', 'B'};
constexpr std::uint32_t kFileVersion = 2;  // 2: signed entries
constexpr std::uintmax_t kMaxEntryBytes = 32ull << 20;
constexpr std::uintmax_t kMaxCacheBytes = 64ull << 20;

std::mutex g_mutex;
ProgramBuildStats g_stats;

std::uint64_t fnv1a(const void* data, std::size_t n, std::uint64_t h = 1469598103934665603ull) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

std::string glString(GLenum name) {
    const auto* s = reinterpret_cast<const char*>(glGetString(name));
    return s ? s : "";
}

// The file's fixed header, then the driver string, then the binary. `signature` is the HMAC of
// the program's key, the format and the binary under the user's key (cache_folder.hpp): an entry
// that murmur did not write for this very source is refused, however well its other fields agree.
struct Header {
    char magic[8];
    std::uint32_t version, format;
    std::uint64_t driver_bytes, binary_bytes;
    std::uint8_t signature[32];
};

Digest signatureOf(const std::string& user_key, const std::string& key, std::uint32_t format, std::string_view binary) {
    const std::string_view format_bytes(reinterpret_cast<const char*>(&format), sizeof format);
    return hmacSha256(user_key, {key, std::string_view("\0", 1), format_bytes, binary});
}

std::vector<GLint> offeredFormats() {
    GLint n = 0;
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &n);
    std::vector<GLint> formats(std::size_t(std::max(n, 0)));
    if (n > 0) glGetIntegerv(GL_PROGRAM_BINARY_FORMATS, formats.data());
    return formats;
}

// The .bin files' total size in dir, after removing the oldest until it is at most kMaxCacheBytes.
std::uintmax_t trimmed(const fs::path& dir) {
    std::error_code ec;
    std::vector<std::pair<fs::file_time_type, fs::path>> files;
    std::uintmax_t total = 0;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (e.path().extension() != ".bin") continue;
        total += e.file_size(ec);
        files.emplace_back(e.last_write_time(ec), e.path());
    }
    if (total <= kMaxCacheBytes) return total;
    std::sort(files.begin(), files.end());
    for (const auto& [when, path] : files) {
        if (total <= kMaxCacheBytes) break;
        const std::uintmax_t size = fs::file_size(path, ec);
        if (fs::remove(path, ec)) total -= size;
    }
    return total;
}

}  // namespace

ProgramBuildStats programBuildStats() {
    const std::lock_guard<std::mutex> lock(g_mutex);
    return g_stats;
}

void addProgramBuildTime(double seconds) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    g_stats.seconds += seconds;
}

void countProgram(bool cached) {
    const std::lock_guard<std::mutex> lock(g_mutex);
    ++(cached ? g_stats.cached : g_stats.built);
}

std::string describeProgramBuilds() {
    const ProgramBuildStats s = programBuildStats();
    char text[160];
    std::snprintf(text, sizeof text, "%u programs in %.2f s (%u from the cache)", s.built + s.cached, s.seconds,
                  s.cached);
    return text;
}

fs::path ProgramCache::directory() {
    if (const char* d = std::getenv("MURMUR_CACHE_DIR"); d && *d) return fs::path(d) / "programs";
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "murmur" / "programs";
    if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "murmur" / "programs";
    return {};
}

ProgramCache& ProgramCache::forCurrentDriver() {
    static std::mutex mutex;
    static std::map<std::string, std::unique_ptr<ProgramCache>> caches;
    const std::string driver = glString(GL_RENDERER) + " | " + glString(GL_VERSION) + " | " + glString(GL_VENDOR);
    const std::lock_guard<std::mutex> lock(mutex);
    auto& cache = caches[driver];
    if (!cache) cache.reset(new ProgramCache(driver));
    return *cache;
}

ProgramCache::ProgramCache(std::string driver) : driver_(std::move(driver)), formats_(offeredFormats()) {}

bool ProgramCache::enabled() const {
    return !formats_.empty() && envSwitch("MURMUR_PROGRAM_CACHE").value_or(true) && !directory().empty();
}

std::string ProgramCache::keyOf(const std::vector<std::pair<GLenum, const std::string*>>& stages) const {
    std::string key = driver_;
    for (const auto& [stage, text] : stages) key += "\n@stage " + std::to_string(stage) + "\n" + *text;
    return key;
}

fs::path ProgramCache::fileOf(const std::string& key) const {
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.bin", static_cast<unsigned long long>(fnv1a(key.data(), key.size())));
    return directory() / name;
}

void ProgramCache::warn(const std::string& what) {
    std::fprintf(stderr, "murmur: warning: program cache: %s\n", what.c_str());
}

void ProgramCache::warnOnce(const std::string& what) {
    {
        const std::lock_guard<std::mutex> lock(count_mutex_);
        if (warned_) return;
        warned_ = true;
    }
    warn(what);
}

// The folder's state, settled once a process (a problem warned of once): the user's key when the
// folder is private and the key can be had, else empty.
const std::string& ProgramCache::folderKey(const fs::path& dir) {
    const std::lock_guard<std::mutex> lock(count_mutex_);
    auto [at, fresh] = folder_keys_.try_emplace(dir.string());
    if (!fresh) return at->second;
    if (const auto problem = privateFolderProblem(dir)) {
        warn(*problem + "; programs are built from source");
        return at->second;
    }
    CacheKey key = cacheKey(dir);
    if (!key.problem.empty()) warn(key.problem + "; programs are built from source");
    at->second = std::move(key.bytes);
    return at->second;
}

bool ProgramCache::load(const std::string& key, GLuint program) {
    if (!enabled()) return false;
    const fs::path file = fileOf(key);
    const std::string& user_key = folderKey(file.parent_path());
    if (user_key.empty()) return false;
    const EntryRead entry = readEntry(file, kMaxEntryBytes);
    if (entry.status == EntryRead::Missing) return false;
    auto reject = [&](const std::string& why) {
        warn(file.string() + ": " + why + "; removed, built from source instead");
        removeEntry(file);
        return false;
    };
    if (entry.status == EntryRead::Bad) return reject(entry.problem);
    const std::string& bytes = entry.bytes;
    Header h{};
    if (bytes.size() < sizeof h) return reject("corrupt (too short)");
    std::memcpy(&h, bytes.data(), sizeof h);
    if (std::memcmp(h.magic, kMagic, sizeof kMagic) != 0 || h.version != kFileVersion)
        return reject("not a murmur program binary of this version");
    if (h.driver_bytes > bytes.size() - sizeof h || h.binary_bytes != bytes.size() - sizeof h - h.driver_bytes)
        return reject("corrupt (its sizes do not add up)");
    const std::string_view binary(bytes.data() + sizeof h + h.driver_bytes, h.binary_bytes);
    if (std::string_view(bytes.data() + sizeof h, h.driver_bytes) != driver_) return reject("made for another driver");
    const Digest signature = signatureOf(user_key, key, h.format, binary);
    if (std::memcmp(signature.data(), h.signature, signature.size()) != 0)
        return reject("its signature does not match (not written by murmur for this program, or changed since)");
    if (std::find(formats_.begin(), formats_.end(), GLint(h.format)) == formats_.end())
        return reject("a binary format this driver does not offer");
    glProgramBinary(program, GLenum(h.format), binary.data(), GLsizei(h.binary_bytes));
    GLint ok = GL_FALSE;
    glGetProgramiv(program, GL_LINK_STATUS, &ok);
    if (!ok) return reject("refused by the driver");
    return true;
}

void ProgramCache::store(const std::string& key, GLuint program) {
    if (!enabled()) return;
    const fs::path file = fileOf(key);
    const std::string& user_key = folderKey(file.parent_path());
    if (user_key.empty()) return;
    GLint length = 0;
    glGetProgramiv(program, GL_PROGRAM_BINARY_LENGTH, &length);
    if (length <= 0) return;
    std::string binary(static_cast<std::size_t>(length), '\0');
    GLenum format = 0;
    GLsizei written = 0;
    glGetProgramBinary(program, length, &written, &format, binary.data());
    if (written <= 0) return;
    binary.resize(std::size_t(written));
    Header h{};
    std::memcpy(h.magic, kMagic, sizeof kMagic);
    h.version = kFileVersion;
    h.format = std::uint32_t(format);
    h.driver_bytes = driver_.size();
    h.binary_bytes = binary.size();
    const Digest signature = signatureOf(user_key, key, h.format, binary);
    std::memcpy(h.signature, signature.data(), signature.size());
    const std::string bytes = std::string(reinterpret_cast<const char*>(&h), sizeof h) + driver_ + binary;
    if (const auto problem = writeEntry(file, bytes)) return warnOnce(*problem + "; programs not kept");
    noteStored(file.parent_path(), bytes.size());
}

// The folder was listed after every store (thousands of files on a cold self-test); now once,
// and again only when the count says it may be past the cap (other processes' stores included
// then).
void ProgramCache::noteStored(const fs::path& dir, std::uintmax_t bytes) {
    const std::lock_guard<std::mutex> lock(count_mutex_);
    if (dir != counted_dir_) {
        counted_dir_ = dir;
        counted_bytes_ = trimmed(dir);
        return;
    }
    counted_bytes_ += bytes;
    if (counted_bytes_ > kMaxCacheBytes) counted_bytes_ = trimmed(dir);
}

}  // namespace murmur::gl
