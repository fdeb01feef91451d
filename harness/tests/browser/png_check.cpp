// png_check FILE WIDTH HEIGHT: exits 0 when FILE is a PNG of WIDTH×HEIGHT that shows a real
// picture (at least 16 distinct colours, at least 3 % of the pixels unlike the background), and
// says why not otherwise. Just enough PNG for Chromium's screenshots: 8-bit RGB or RGBA, not
// interlaced.
#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace {

std::uint32_t big_endian(const unsigned char* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

int fail(const std::string& why) {
  std::cerr << "png_check: " << why << "\n";
  return 1;
}

/// The Paeth predictor of the PNG specification.
unsigned char paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return static_cast<unsigned char>(a);
  return static_cast<unsigned char>(pb <= pc ? b : c);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return fail("usage: png_check FILE WIDTH HEIGHT");
  std::ifstream in(argv[1], std::ios::binary);
  const std::vector<unsigned char> file{std::istreambuf_iterator<char>(in), {}};
  static const unsigned char kSignature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (file.size() < 33 || !std::equal(std::begin(kSignature), std::end(kSignature), file.begin()))
    return fail(std::string(argv[1]) + " is not a PNG file");
  std::uint32_t width = 0, height = 0;
  unsigned depth = 0, colour = 0, interlace = 0;
  std::vector<unsigned char> compressed;
  for (std::size_t at = 8; at + 12 <= file.size();) {
    const std::uint32_t length = big_endian(&file[at]);
    const std::string type(file.begin() + static_cast<long>(at) + 4, file.begin() + static_cast<long>(at) + 8);
    const unsigned char* data = &file[at + 8];
    if (at + 12 + length > file.size()) return fail("a chunk runs past the end of the file");
    if (type == "IHDR") {
      width = big_endian(data);
      height = big_endian(data + 4);
      depth = data[8];
      colour = data[9];
      interlace = data[12];
    } else if (type == "IDAT") {
      compressed.insert(compressed.end(), data, data + length);
    }
    at += 12 + length;
  }
  if (width != std::stoul(argv[2]) || height != std::stoul(argv[3]))
    return fail("the picture is " + std::to_string(width) + "x" + std::to_string(height) +
                ", not " + argv[2] + "x" + argv[3]);
  if (depth != 8 || (colour != 2 && colour != 6) || interlace != 0)
    return fail("not an 8-bit RGB(A) picture without interlacing");
  const std::size_t channels = colour == 6 ? 4 : 3, stride = width * channels;
  std::vector<unsigned char> raw((stride + 1) * height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, compressed.data(), compressed.size()) != Z_OK ||
      raw_size != raw.size())
    return fail("the picture data does not decompress");
  // Undo the per-row filters (PNG specification, section 9).
  std::vector<unsigned char> pixels(stride * height), previous(stride, 0);
  for (std::size_t y = 0; y < height; ++y) {
    const unsigned char filter = raw[y * (stride + 1)];
    const unsigned char* row = &raw[y * (stride + 1) + 1];
    unsigned char* out = &pixels[y * stride];
    for (std::size_t x = 0; x < stride; ++x) {
      const int a = x >= channels ? out[x - channels] : 0, b = previous[x];
      const int c = x >= channels ? previous[x - channels] : 0;
      int value = row[x];
      switch (filter) {
        case 0: break;
        case 1: value += a; break;
        case 2: value += b; break;
        case 3: value += (a + b) / 2; break;
        case 4: value += paeth(a, b, c); break;
        default: return fail("an unknown row filter");
      }
      out[x] = static_cast<unsigned char>(value);
    }
    previous.assign(out, out + stride);
  }
  std::set<std::uint32_t> colours;
  std::size_t unlike_background = 0;
  const auto rgb = [&](std::size_t i) {
    return (std::uint32_t{pixels[i]} << 16) | (std::uint32_t{pixels[i + 1]} << 8) | pixels[i + 2];
  };
  const std::uint32_t background = rgb(0);
  for (std::size_t i = 0; i < pixels.size(); i += channels) {
    const std::uint32_t c = rgb(i);
    if (colours.size() < 4096) colours.insert(c);
    unlike_background += c != background;
  }
  const double ink = static_cast<double>(unlike_background) / (static_cast<double>(width) * height);
  std::cout << "png_check: " << width << "x" << height << ", " << colours.size()
            << (colours.size() >= 4096 ? "+" : "") << " colours, " << ink * 100.0
            << " % unlike the background\n";
  if (colours.size() < 16) return fail("fewer than 16 colours: the page did not render");
  if (ink < 0.03) return fail("almost every pixel is the background: the page is blank");
  return 0;
}
