// Thin wrappers over Nettle's sha256 and hmac_sha256, in the harness's own string types.
#include "core/sha256.hpp"

#include <nettle/hmac.h>
#include <nettle/sha2.h>
#include <nettle/version.h>

namespace cugrade {
namespace {

const std::uint8_t* bytes(std::string_view text) { return reinterpret_cast<const std::uint8_t*>(text.data()); }

// Nettle 4 dropped the length argument of the digest functions (the whole digest is written).
#if NETTLE_VERSION_MAJOR >= 4
void finish(sha256_ctx* ctx, Digest256& out) { sha256_digest(ctx, out.data()); }
void finish(hmac_sha256_ctx* ctx, Digest256& out) { hmac_sha256_digest(ctx, out.data()); }
#else
void finish(sha256_ctx* ctx, Digest256& out) { sha256_digest(ctx, out.size(), out.data()); }
void finish(hmac_sha256_ctx* ctx, Digest256& out) { hmac_sha256_digest(ctx, out.size(), out.data()); }
#endif

}  // namespace

std::string to_hex(const Digest256& digest) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * digest.size());
  for (const std::uint8_t b : digest) {
    hex += kHex[b >> 4];
    hex += kHex[b & 15];
  }
  return hex;
}

std::string sha256_hex(std::string_view data) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, data.size(), bytes(data));
  Digest256 digest;
  finish(&ctx, digest);
  return to_hex(digest);
}

Digest256 hmac_sha256(std::string_view key, std::string_view message) {
  hmac_sha256_ctx ctx;
  hmac_sha256_set_key(&ctx, key.size(), bytes(key));
  hmac_sha256_update(&ctx, message.size(), bytes(message));
  Digest256 digest;
  finish(&ctx, digest);
  return digest;
}

}  // namespace cugrade
