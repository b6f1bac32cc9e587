// Programs kept across runs as program binaries: a second build of the same source loads from the
// cache; a corrupt file, one from another driver and one the driver refuses are each ignored with
// one warning line and the program built from source (never a crash, never a GL error); the cache
// can be turned off. Each test uses a folder of its own through MURMUR_CACHE_DIR.
#include "gl/program.hpp"
#include "gl/program_cache.hpp"
#include "gl/sha256.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

using namespace murmur;
namespace fs = std::filesystem;

namespace {

// MURMUR_CACHE_DIR pointed at a fresh folder for the scope (a new name each time: the cache
// settles a folder's state once a process).
int g_folders = 0;
struct CacheFolder {
    fs::path dir = fs::temp_directory_path() /
                   ("murmur_program_cache_" + std::to_string(::getpid()) + "_" + std::to_string(++g_folders));
    CacheFolder() {
        fs::remove_all(dir);
        ::setenv("MURMUR_CACHE_DIR", dir.c_str(), 1);
    }
    ~CacheFolder() {
        ::unsetenv("MURMUR_CACHE_DIR");
        ::unsetenv("MURMUR_PROGRAM_CACHE");
        fs::remove_all(dir);
    }
    std::vector<fs::path> files() const {
        std::vector<fs::path> out;
        if (fs::exists(dir / "programs"))
            for (const auto& e : fs::directory_iterator(dir / "programs"))
                if (e.path().extension() == ".bin") out.push_back(e.path());
        return out;
    }
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
void spit(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

// grid_count.comp with a define of its own, so no other test's program shares its file. Returns
// how many of the build came from the cache (0 or 1) and the warnings printed.
struct Build {
    int cached = 0;
    std::string warnings;
};
Build buildOnce(const char* variant = "1") {
    const gl::ProgramBuildStats before = gl::programBuildStats();
    ::testing::internal::CaptureStderr();
    gl::Program p =
        gl::buildCompute(gl::ShaderLibrary{}, "grid_count.comp", {{"DIMS", "2"}, {"PROGRAM_CACHE_TEST", variant}});
    Build b;
    b.warnings = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(p);
    GLint ok = 0;
    glGetProgramiv(p.id(), GL_LINK_STATUS, &ok);
    EXPECT_EQ(ok, GL_TRUE);
    b.cached = int(gl::programBuildStats().cached - before.cached);
    return b;
}

bool cacheOffered() {
    GLint formats = 0;
    glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
    return formats > 0;
}

// The header's layout (program_cache.cpp): 8 magic, 2 x 4, 2 x 8 bytes, a 32-byte signature,
// then the driver string.
constexpr std::size_t kHeader = 8 + 8 + 16 + 32;

std::size_t lines(const std::string& text) { return std::size_t(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST(ProgramCache, ASecondBuildLoadsTheBinaryAndABadFileIsRebuiltWithOneWarning) {
    MURMUR_REQUIRE_GL();
    ASSERT_TRUE(cacheOffered()) << "llvmpipe, zink and NVIDIA all offer program binaries; this driver offers none";
    CacheFolder folder;
    EXPECT_EQ(buildOnce().cached, 0);
    ASSERT_EQ(folder.files().size(), 1u);
    const fs::path file = folder.files().front();
    const std::string good = slurp(file);
    const Build warm = buildOnce();
    EXPECT_EQ(warm.cached, 1);
    EXPECT_EQ(warm.warnings, "");

    struct Damage {
        const char* what;
        std::string bytes;
        const char* warning;
    };
    std::string foreign = good, flipped = good, tail = good;
    foreign[kHeader] ^= 0x20;  // the driver string's first letter
    flipped[good.size() - 1] ^= 0x55;
    tail.resize(kHeader + 3);
    for (const Damage& d :
         {Damage{"garbage", std::string(200, 'x'), "not a murmur program binary"},
          Damage{"another driver's", foreign, "another driver"}, Damage{"a flipped byte", flipped, "signature"},
          Damage{"cut short", tail, "sizes do not add up"}}) {
        SCOPED_TRACE(d.what);
        spit(file, d.bytes);
        const Build b = buildOnce();
        EXPECT_EQ(b.cached, 0);
        EXPECT_NE(b.warnings.find(d.warning), std::string::npos) << b.warnings;
        EXPECT_EQ(std::count(b.warnings.begin(), b.warnings.end(), '\n'), 1) << b.warnings;
        EXPECT_EQ(buildOnce().cached, 1) << "the rebuilt program was not stored again";
    }
    EXPECT_NO_GL_ERRORS();
}

// A file that is whole (its checksum recomputed) but whose binary the driver cannot use.
TEST(ProgramCache, ABinaryTheDriverRefusesIsRebuiltWithoutAGlError) {
    MURMUR_REQUIRE_GL();
    ASSERT_TRUE(cacheOffered());
    CacheFolder folder;
    buildOnce();
    ASSERT_EQ(folder.files().size(), 1u);
    const fs::path file = folder.files().front();
    std::string bytes = slurp(file);
    std::uint64_t driver_bytes = 0, binary_bytes = 0;
    std::memcpy(&driver_bytes, bytes.data() + 8 + 8, 8);
    std::memcpy(&binary_bytes, bytes.data() + 8 + 8 + 8, 8);
    const std::size_t binary = kHeader + driver_bytes;
    for (std::size_t i = binary; i < binary + binary_bytes; i += 7) bytes[i] = char(bytes[i] ^ 0x5a);
    // Signed again as murmur signs (the user's key beside the entries), so only the driver can refuse it.
    const std::string user_key = slurp(folder.dir / "programs" / "key");
    ASSERT_EQ(user_key.size(), 32u);
    const gl::ProgramSource source =
        gl::computeSource(gl::ShaderLibrary{}, "grid_count.comp", {{"DIMS", "2"}, {"PROGRAM_CACHE_TEST", "1"}});
    const std::string key = gl::ProgramCache::forCurrentDriver().keyOf({{GL_COMPUTE_SHADER, &source.stages[0].second.text}});
    const gl::Digest signature = gl::hmacSha256(user_key, {key, std::string_view("\0", 1), std::string_view(bytes.data() + 8 + 4, 4),
                                                           std::string_view(bytes.data() + binary, binary_bytes)});
    std::memcpy(bytes.data() + 32, signature.data(), signature.size());
    spit(file, bytes);
    const Build b = buildOnce();
    EXPECT_EQ(b.cached, 0);
    EXPECT_NE(b.warnings.find("refused by the driver"), std::string::npos) << b.warnings;
    EXPECT_EQ(gl::takeErrorCount(), 0u);
}

TEST(ProgramCache, TurnedOffItWritesNothing) {
    MURMUR_REQUIRE_GL();
    CacheFolder folder;
    ::setenv("MURMUR_PROGRAM_CACHE", "0", 1);
    EXPECT_EQ(buildOnce().cached, 0);
    EXPECT_EQ(buildOnce().cached, 0);
    EXPECT_TRUE(folder.files().empty());
}

// An entry is trusted only if murmur signed it for this very program: another program's entry
// copied over it (every field but the signature right) is refused and rebuilt.
TEST(ProgramCache, AnotherProgramsEntryPlantedInItsPlaceIsRefused) {
    MURMUR_REQUIRE_GL();
    ASSERT_TRUE(cacheOffered());
    CacheFolder folder;
    buildOnce("1");
    const fs::path first = folder.files().front();
    buildOnce("2");
    ASSERT_EQ(folder.files().size(), 2u);
    const fs::path second = folder.files().front() == first ? folder.files().back() : folder.files().front();
    spit(first, slurp(second));
    const Build b = buildOnce("1");
    EXPECT_EQ(b.cached, 0);
    EXPECT_NE(b.warnings.find("signature does not match"), std::string::npos) << b.warnings;
    EXPECT_EQ(lines(b.warnings), 1u) << b.warnings;
    EXPECT_EQ(buildOnce("1").cached, 1);
}

// The folder is made private, its key 0600; one others may write is not used, with one warning a
// process however many programs are built.
TEST(ProgramCache, TheFolderIsPrivateAndOneOthersMayWriteIsNotUsed) {
    MURMUR_REQUIRE_GL();
    ASSERT_TRUE(cacheOffered());
    CacheFolder folder;
    const mode_t old_mask = ::umask(0);
    buildOnce();
    ::umask(old_mask);
    struct stat st {};
    ASSERT_EQ(::stat((folder.dir / "programs").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    ASSERT_EQ(::stat((folder.dir / "programs" / "key").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);

    CacheFolder shared;
    fs::create_directories(shared.dir / "programs");
    fs::permissions(shared.dir / "programs", fs::perms::all);
    const Build first = buildOnce(), second = buildOnce();
    EXPECT_EQ(first.cached + second.cached, 0);
    EXPECT_NE(first.warnings.find("may be written by others (mode 0777"), std::string::npos) << first.warnings;
    EXPECT_EQ(lines(first.warnings), 1u) << first.warnings;
    EXPECT_EQ(second.warnings, "");
    EXPECT_TRUE(shared.files().empty());
}

// A folder, a link to /dev/zero or a FIFO where an entry should be: each removed with one warning
// and the program built and stored (never a hang, an unbounded read or a failed start-up).
TEST(ProgramCache, AnEntryThatIsNotAFileIsRemovedAndRebuilt) {
    MURMUR_REQUIRE_GL();
    ASSERT_TRUE(cacheOffered());
    CacheFolder folder;
    buildOnce();
    const fs::path file = folder.files().front();
    const std::vector<std::pair<const char*, std::function<void()>>> plants{
        {"a folder", [&] { fs::create_directories(file / "inside"); }},
        {"a link", [&] { fs::create_symlink("/dev/zero", file); }},
        {"not a regular file", [&] { ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0); }}};
    for (const auto& [what, plant] : plants) {
        SCOPED_TRACE(what);
        fs::remove(file);
        plant();
        const Build b = buildOnce();
        EXPECT_EQ(b.cached, 0);
        EXPECT_NE(b.warnings.find(what), std::string::npos) << b.warnings;
        EXPECT_EQ(lines(b.warnings), 1u) << b.warnings;
        EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(file)));
        EXPECT_EQ(buildOnce().cached, 1);
    }
}

// A cache folder that cannot be made (its path runs through a file) warns once, naming why.
TEST(ProgramCache, AFolderThatCannotBeMadeWarnsOnce) {
    MURMUR_REQUIRE_GL();
    ASSERT_TRUE(cacheOffered());
    CacheFolder folder;
    spit(folder.dir, "a file where the folder would be");
    const Build first = buildOnce(), second = buildOnce();
    EXPECT_EQ(lines(first.warnings), 1u) << first.warnings;
    EXPECT_NE(first.warnings.find("Not a directory"), std::string::npos) << first.warnings;
    EXPECT_EQ(second.warnings, "");
}

// The signature's hash against published answers: SHA-256 of "abc" and of the empty string (FIPS
// 180-4's examples), HMAC-SHA-256 of RFC 4231's test case 2, its message given in two parts.
TEST(Sha256, GivesThePublishedAnswers) {
    const auto hex = [](const gl::Digest& d) {
        static const char* digits = "0123456789abcdef";
        std::string out;
        for (const std::uint8_t b : d) out += std::string{digits[b >> 4], digits[b & 15]};
        return out;
    };
    EXPECT_EQ(hex(gl::sha256("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(hex(gl::sha256("")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(hex(gl::sha256(std::string(1000, 'a'))), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
    EXPECT_EQ(hex(gl::hmacSha256("Jefe", {"what do ya want ", "for nothing?"})),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}
