// Programs kept across runs as program binaries: a second build of the same source loads from the
// cache; a corrupt file, one from another driver and one the driver refuses are each ignored with
// one warning line and the program built from source (never a crash, never a GL error); the cache
// can be turned off. Each test uses a folder of its own through MURMUR_CACHE_DIR.
#include "gl/program.hpp"
#include "gl/program_cache.hpp"

#include "gl_env.hpp"

#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using namespace murmur;
namespace fs = std::filesystem;

namespace {

// MURMUR_CACHE_DIR pointed at a fresh folder for the scope.
struct CacheFolder {
    fs::path dir = fs::temp_directory_path() / ("murmur_program_cache_" + std::to_string(::getpid()));
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
            for (const auto& e : fs::directory_iterator(dir / "programs")) out.push_back(e.path());
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
Build buildOnce() {
    const gl::ProgramBuildStats before = gl::programBuildStats();
    ::testing::internal::CaptureStderr();
    gl::Program p =
        gl::buildCompute(gl::ShaderLibrary{}, "grid_count.comp", {{"DIMS", "2"}, {"PROGRAM_CACHE_TEST", "1"}});
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

// The header's layout (program_cache.cpp): 8 magic, 2 x 4, 4 x 8 bytes, then the driver string.
constexpr std::size_t kHeader = 8 + 8 + 32;

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
          Damage{"another driver's", foreign, "another driver"}, Damage{"a flipped byte", flipped, "checksum"},
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
    std::memcpy(&driver_bytes, bytes.data() + 8 + 8 + 8, 8);
    std::memcpy(&binary_bytes, bytes.data() + 8 + 8 + 16, 8);
    const std::size_t binary = kHeader + driver_bytes;
    for (std::size_t i = binary; i < binary + binary_bytes; i += 7) bytes[i] = char(bytes[i] ^ 0x5a);
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a, as the file's checksum
    for (std::size_t i = binary; i < bytes.size(); ++i)
        h = (h ^ static_cast<unsigned char>(bytes[i])) * 1099511628211ull;
    std::memcpy(bytes.data() + 8 + 8 + 24, &h, 8);
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
