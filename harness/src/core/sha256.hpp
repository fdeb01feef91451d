#pragma once
// SHA-256 and HMAC-SHA256, from Nettle (GnuTLS's crypto library): a report names exactly what
// was graded by the hash of its files, and hidden cases' seeds are keyed by the course secret.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace cugrade {

/// A SHA-256 or HMAC-SHA256 digest: 32 bytes.
using Digest256 = std::array<std::uint8_t, 32>;

/// Lower-case hex SHA-256 of `data`.
std::string sha256_hex(std::string_view data);

/// HMAC-SHA256 (RFC 2104) of `message` under `key`; any key length, any bytes.
Digest256 hmac_sha256(std::string_view key, std::string_view message);

/// Lower-case hex of a digest.
std::string to_hex(const Digest256& digest);

}  // namespace cugrade
