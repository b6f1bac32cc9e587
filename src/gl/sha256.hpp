// SHA-256 and HMAC-SHA-256 (FIPS 180-4, RFC 2104), for the program cache's signatures: an entry
// is trusted only if it carries the HMAC of its bytes under the user's own key.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string_view>

namespace murmur::gl {

using Digest = std::array<std::uint8_t, 32>;

class Sha256 {
public:
    Sha256();
    void add(const void* data, std::size_t n);
    void add(std::string_view s) { add(s.data(), s.size()); }
    Digest finish();

private:
    void block(const std::uint8_t* p);
    std::array<std::uint32_t, 8> h_;
    std::array<std::uint8_t, 64> buffer_{};
    std::size_t buffered_ = 0;
    std::uint64_t length_ = 0;  // bytes added
};

Digest sha256(std::string_view data);
// HMAC-SHA-256 of the concatenated parts under key.
Digest hmacSha256(std::string_view key, std::initializer_list<std::string_view> parts);

}  // namespace murmur::gl
