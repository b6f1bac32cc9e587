// Linked programs kept across runs as program binaries (glGetProgramBinary), one file each in the
// user's cache directory ($MURMUR_CACHE_DIR, else $XDG_CACHE_HOME/murmur, else ~/.cache/murmur;
// MURMUR_PROGRAM_CACHE=0 turns it off). A file is named by a hash of the renderer, the driver's
// version and every stage's source, and is signed with the user's key (cache_folder.hpp): a
// corrupt or foreign file, one from another driver, one not murmur's (a folder, a link, a FIFO,
// too large) or one the driver refuses is ignored with a one-line warning, removed, and the
// program built from source. A folder that is not private is not used (one warning a process). The folder is kept under 64 MiB (the
// oldest files go first): a process counts it at its first store and again whenever its count
// passes the cap, so stores by other processes meanwhile are trimmed at that next count.
#pragma once

#include "gl/gl.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace murmur::gl {

// How many programs this process built from source and loaded from the cache, and the seconds
// spent on both (wall clock, from the first compile to the last status).
struct ProgramBuildStats {
    std::uint32_t built = 0, cached = 0;
    double seconds = 0.0;
};
ProgramBuildStats programBuildStats();
void addProgramBuildTime(double seconds);
void countProgram(bool cached);
// "17 programs in 0.84 s (17 from the cache)", for the summaries.
std::string describeProgramBuilds();

class ProgramCache {
public:
    // The cache of the current context's driver, or a disabled one (no binary formats, no folder,
    // MURMUR_PROGRAM_CACHE=0).
    static ProgramCache& forCurrentDriver();
    static std::filesystem::path directory();

    // Binary formats offered, MURMUR_PROGRAM_CACHE not 0, and a folder to keep them in (the
    // environment is read at each call).
    bool enabled() const;
    // The key of a program: the driver and every stage's kind and text.
    std::string keyOf(const std::vector<std::pair<GLenum, const std::string*>>& stages) const;
    // Loads the cached binary for key into program (a fresh glCreateProgram name). True if the
    // driver linked it.
    bool load(const std::string& key, GLuint program);
    // Writes program's binary under key (best effort: a full disk only warns).
    void store(const std::string& key, GLuint program);

private:
    explicit ProgramCache(std::string driver);
    std::filesystem::path fileOf(const std::string& key) const;
    static void warn(const std::string& what);
    void warnOnce(const std::string& what);  // a store's failure: once a process, not each program
    const std::string& folderKey(const std::filesystem::path& dir);
    // After a store of `bytes` into `dir`: the folder's size counted once (and again when the
    // folder changes or the count passes the cap), the oldest files removed past the cap.
    void noteStored(const std::filesystem::path& dir, std::uintmax_t bytes);

    std::string driver_;          // renderer, version and vendor
    std::vector<GLint> formats_;  // the binary formats the driver offers (none: no cache)
    std::mutex count_mutex_;  // two threads' contexts of one driver share this cache
    std::filesystem::path counted_dir_;
    std::uintmax_t counted_bytes_ = 0;  // counted_dir_'s .bin files, as of the last count plus stores since
    std::map<std::string, std::string> folder_keys_;  // each folder used: its user key (empty: unusable)
    bool warned_ = false;
};

}  // namespace murmur::gl
