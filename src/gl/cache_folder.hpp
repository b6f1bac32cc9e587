// The program cache's files, handled as ssh handles its folder: the folder private to the user
// (made 0700; refused when another user owns it or others may write it), a per-user key beside
// the entries (32 random bytes, 0600) that signs them, and entries read only when they are regular
// files of a bounded size, opened without following a link or waiting on a FIFO.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace murmur::gl {

// Makes dir (and its parents) if missing, dir itself 0700. nullopt when dir is a folder (not a
// link) of this user's that no one else may write; else why not, for a warning.
std::optional<std::string> privateFolderProblem(const std::filesystem::path& dir);

// The key in dir/key, made if missing (by one process when several race). Empty with `problem`
// set when it cannot be made or read, or is not a private 32-byte file of this user's.
struct CacheKey {
    std::string bytes, problem;
};
CacheKey cacheKey(const std::filesystem::path& dir);

// An entry's bytes. Missing: no such entry. Bad: there is something, but not a regular file of at
// most max_bytes (a folder, a link, a FIFO, a device) or it cannot be read: `problem` says which.
struct EntryRead {
    enum Status { Missing, Ok, Bad } status = Missing;
    std::string bytes, problem;
};
EntryRead readEntry(const std::filesystem::path& file, std::uintmax_t max_bytes);

// Removes whatever is at file (a folder with its contents; a link, not its target).
void removeEntry(const std::filesystem::path& file);

// Writes bytes to file through a private temporary renamed into place; why not, on failure.
std::optional<std::string> writeEntry(const std::filesystem::path& file, const std::string& bytes);

}  // namespace murmur::gl
