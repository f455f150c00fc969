// SPDX-License-Identifier: BSD-3-Clause
#include "synthetic.h"

#include <algorithm>
#include <cstdio>

namespace s2c {
namespace test {
namespace {

// splitmix64: a tiny PRNG with the same sequence everywhere.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi].
  int64_t Uniform(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }

 private:
  uint64_t state_;
};

uint16_t Clamp(int64_t v, int max_value) {
  return static_cast<uint16_t>(std::min<int64_t>(std::max<int64_t>(v, 0), max_value));
}

}  // namespace

const char* DegradationName(Degradation d) {
  switch (d) {
    case Degradation::kBlur: return "blur";
    case Degradation::kNoise: return "noise";
    case Degradation::kBlockShift: return "block shift";
    case Degradation::kQuantise: return "quantise";
  }
  return "?";
}

SampleImage MakeScene(int width, int height, int max_value, uint64_t seed) {
  Rng rng(seed);
  SampleImage img;
  img.width = width;
  img.height = height;
  img.max_value = max_value;
  img.rgb.assign(static_cast<size_t>(width) * height * 3, 0);
  const int64_t m = max_value;

  // Smooth gradients: per channel an offset and a slope in x and in y.
  int64_t base[3], gx[3], gy[3];
  for (int c = 0; c < 3; ++c) {
    base[c] = rng.Uniform(m / 8, m / 2);
    gx[c] = rng.Uniform(-m / 3, m / 3);
    gy[c] = rng.Uniform(-m / 3, m / 3);
  }
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      for (int c = 0; c < 3; ++c) {
        img.At(x, y, c) = Clamp(base[c] + gx[c] * x / width + gy[c] * y / height, max_value);
      }
    }
  }

  // Hard edges: flat rectangles and discs of random colour.
  const int shapes = 3 + static_cast<int>(rng.Uniform(0, 5));
  for (int s = 0; s < shapes; ++s) {
    const int64_t x0 = rng.Uniform(0, width - 1), y0 = rng.Uniform(0, height - 1);
    const int64_t rx = rng.Uniform(1, std::max(1, width / 3));
    const int64_t ry = rng.Uniform(1, std::max(1, height / 3));
    const bool disc = rng.Uniform(0, 1) == 1;
    uint16_t colour[3];
    for (int c = 0; c < 3; ++c) colour[c] = Clamp(rng.Uniform(0, m), max_value);
    for (int y = 0; y < height; ++y) {
      for (int x = 0; x < width; ++x) {
        const int64_t dx = x - x0, dy = y - y0;
        const bool inside = disc ? dx * dx * ry * ry + dy * dy * rx * rx <= rx * rx * ry * ry
                                 : (dx >= 0 && dx < rx && dy >= 0 && dy < ry);
        if (!inside) continue;
        for (int c = 0; c < 3; ++c) img.At(x, y, c) = colour[c];
      }
    }
  }

  // Fine texture (one-pixel stripes in a band) and noise everywhere.
  const int64_t band0 = rng.Uniform(0, height - 1), band1 = band0 + height / 4;
  const int64_t noise = m / 40 + 1;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const int64_t stripe = (y >= band0 && y < band1 && ((x + y) & 1)) ? m / 6 : 0;
      for (int c = 0; c < 3; ++c) {
        img.At(x, y, c) = Clamp(img.At(x, y, c) + stripe + rng.Uniform(-noise, noise), max_value);
      }
    }
  }
  return img;
}

SampleImage Degrade(const SampleImage& in, Degradation d, uint64_t seed) {
  Rng rng(seed);
  SampleImage out = in;
  const int w = in.width, h = in.height, m = in.max_value;
  auto src = [&](int x, int y, int c) {
    return static_cast<int64_t>(in.At(std::min(std::max(x, 0), w - 1),
                                      std::min(std::max(y, 0), h - 1), c));
  };
  switch (d) {
    case Degradation::kBlur:  // 3x3 box, rounded
      for (int y = 0; y < h; ++y) {
        for (int x = 0; x < w; ++x) {
          for (int c = 0; c < 3; ++c) {
            int64_t s = 0;
            for (int dy = -1; dy <= 1; ++dy) {
              for (int dx = -1; dx <= 1; ++dx) s += src(x + dx, y + dy, c);
            }
            out.At(x, y, c) = Clamp((s + 4) / 9, m);
          }
        }
      }
      break;
    case Degradation::kNoise: {
      const int64_t a = m / 32 + 1;
      for (uint16_t& v : out.rgb) v = Clamp(v + rng.Uniform(-a, a), m);
      break;
    }
    case Degradation::kBlockShift:  // some 8x8 blocks moved by one pixel
      for (int by = 0; by < h; by += 8) {
        for (int bx = 0; bx < w; bx += 8) {
          const int sx = static_cast<int>(rng.Uniform(-1, 1));
          const int sy = static_cast<int>(rng.Uniform(-1, 1));
          for (int y = by; y < std::min(h, by + 8); ++y) {
            for (int x = bx; x < std::min(w, bx + 8); ++x) {
              for (int c = 0; c < 3; ++c) out.At(x, y, c) = Clamp(src(x + sx, y + sy, c), m);
            }
          }
        }
      }
      break;
    case Degradation::kQuantise: {
      const int q = (m + 1) / 24;
      for (uint16_t& v : out.rgb) v = Clamp(v / q * q + q / 2, m);
      break;
    }
  }
  return out;
}

HostImage ToHostImage(const SampleImage& img) {
  HostImage out;
  out.desc = FrameDesc();
  out.desc.width = img.width;
  out.desc.height = img.height;
  const size_t pixels = static_cast<size_t>(img.width) * img.height;
  if (img.max_value <= 255) {
    out.desc.format = PixelFormat::kRGB;
    out.stride = static_cast<ptrdiff_t>(img.width) * 3;
    out.bytes.resize(pixels * 3);
    for (size_t i = 0; i < pixels * 3; ++i) out.bytes[i] = static_cast<uint8_t>(img.rgb[i]);
    return out;
  }
  out.desc.format = PixelFormat::kRGBA64_LE;
  out.stride = static_cast<ptrdiff_t>(img.width) * 8;
  out.bytes.assign(pixels * 8, 0xff);
  for (size_t px = 0; px < pixels; ++px) {
    for (int c = 0; c < 3; ++c) {
      out.bytes[px * 8 + c * 2 + 0] = static_cast<uint8_t>(img.rgb[px * 3 + c] & 0xff);
      out.bytes[px * 8 + c * 2 + 1] = static_cast<uint8_t>(img.rgb[px * 3 + c] >> 8);
    }
  }
  return out;
}

bool WritePpm(const SampleImage& img, const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  std::fprintf(f, "P6\n%d %d\n%d\n", img.width, img.height, img.max_value);
  std::vector<uint8_t> raw;
  raw.reserve(img.rgb.size() * 2);
  for (uint16_t v : img.rgb) {
    if (img.max_value > 255) raw.push_back(static_cast<uint8_t>(v >> 8));
    raw.push_back(static_cast<uint8_t>(v & 0xff));
  }
  const bool ok = std::fwrite(raw.data(), 1, raw.size(), f) == raw.size();
  return std::fclose(f) == 0 && ok;
}

}  // namespace test
}  // namespace s2c
