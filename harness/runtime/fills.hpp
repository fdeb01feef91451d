#pragma once
// The values memory holds before anyone wrote it, shared by the runner, the CPU backend's
// executor and the harness, so that a report can say WHICH never-written memory an output holds.
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace cugrade {

/// The byte the runner fills every output with before each call (NaN as float and double, -1 as
/// a signed integer; f32 outputs get one byte more, below): an output still holding it was never
/// written, or never copied back.
inline constexpr std::uint8_t output_fill_byte = 0xFF;

/// The byte at offset 2 of every 4-byte f32 output element (little-endian word 0xFF8FFFFF): a
/// SIGNALLING NaN, so that arithmetic on it shows. A CPU quiets it and keeps the payload
/// (0xFFCFFFFF: the kernel added into the output instead of assigning it; not 0xFFFFFFFF, which is
/// also what NaN from 0xFF shared-memory poison gives); an untouched element
/// keeps 0xFF8FFFFF (never written). Other dtypes hold output_fill_byte only.
inline constexpr std::uint8_t output_fill_f32_byte2 = 0x8F;
/// The f32 output fill as a word, and the same NaN quieted (what x86 arithmetic on it gives).
inline constexpr std::uint32_t output_fill_f32_word = 0xFF8FFFFFu;
inline constexpr std::uint32_t output_fill_f32_quieted = 0xFFCFFFFFu;
// The runner writes the word (word_fill.cu); the bytes above are what the word must hold.
static_assert(output_fill_f32_word == (std::uint32_t{output_fill_byte} << 24 | std::uint32_t{output_fill_f32_byte2} << 16 |
                                       std::uint32_t{output_fill_byte} << 8 | output_fill_byte));

/// The 32-bit word fresh cudaMalloc memory holds on the CPU backend (little-endian: a5 a5 a5 ff):
/// a signalling NaN as float, -5921371 as int. An output holding it was copied from device memory
/// that no kernel wrote; an integer result off by it added into memory that was never zeroed.
inline constexpr std::uint32_t fresh_device_fill_word = 0xFFA5A5A5u;

/// The environment variable naming the byte shared memory starts with, as two hex digits ("ff",
/// "00"): read by the CPU executor at each block start and by the CUDA runner before each check
/// call, set by the harness (pipeline/schedule_race.hpp).
inline constexpr const char* shared_poison_variable = "CUGRADE_SHARED_POISON";

/// The byte two hex digits ("00", "ff") name; 0xFF when `text` is null or malformed.
inline std::uint8_t shared_poison_byte(const char* text) {
  if (!text || std::strlen(text) != 2 || !std::isxdigit(static_cast<unsigned char>(text[0])) ||
      !std::isxdigit(static_cast<unsigned char>(text[1])))
    return 0xFF;
  return static_cast<std::uint8_t>(std::strtoul(text, nullptr, 16));
}

/// The byte shared_poison_variable names; 0xFF when it is unset or malformed.
inline std::uint8_t shared_poison_byte_from_environment() { return shared_poison_byte(std::getenv(shared_poison_variable)); }

}  // namespace cugrade
