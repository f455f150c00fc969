// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer harness: frame descriptions from the input bytes (any format
// value, sizes around the minimum, matrix, range, siting and primaries
// values valid or not, strides below and above the row size, missing planes) into the front
// end and the CPU reference. Each plane gets exactly the bytes its stride
// and rows span, so AddressSanitizer sees any read outside them. Bad input
// must come back as an error Status; a valid pair must score.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "cpu/cpu_reference.h"
#include "frontend.h"

namespace {

using s2c::FrameView;
using s2c::PixelFormat;

// Reads the input a byte at a time, zeros once it runs out.
struct Bytes {
  const uint8_t* data;
  size_t size;
  size_t at = 0;
  uint8_t Next() { return at < size ? data[at++] : 0; }
};

// One frame: its description from 8 input bytes (format, matrix, range,
// siting and primaries, a shape per plane: 0xFF drops the plane, else the stride's
// distance from the row size), its samples from whatever input follows both
// descriptions.
struct FuzzFrame {
  FrameView view;
  uint8_t shape[s2c::kMaxPlanes] = {};
  std::vector<uint8_t> plane[s2c::kMaxPlanes];

  FuzzFrame(Bytes& in, int width, int height) {
    const int format = in.Next() % (static_cast<int>(PixelFormat::kCount) + 2);
    view.desc.format = static_cast<PixelFormat>(format);
    view.desc.width = width;
    view.desc.height = height;
    view.desc.matrix = static_cast<s2c::YuvMatrix>(in.Next() % 5);
    view.desc.range = static_cast<s2c::YuvRange>(in.Next() % 3);
    const uint8_t siting = in.Next();
    view.desc.siting.h_cosited = siting & 1;
    view.desc.siting.v_cosited = siting & 2;
    view.desc.primaries = static_cast<s2c::RgbPrimaries>((siting >> 2) % 3);
    for (uint8_t& s : shape) s = in.Next();
  }

  // Each plane the format has gets exactly the bytes its stride and rows
  // span; a stride below the row size (up to 8 bytes short) must be refused
  // before anything is read.
  void Fill(Bytes& samples) {
    const s2c::FrameDesc& d = view.desc;
    for (int p = 0; p < s2c::NumPlanes(d.format); ++p) {
      if (shape[p] == 0xFF) continue;
      const size_t row = s2c::PlaneRowBytes(d.format, d.width, p);
      const int rows = s2c::PlaneRows(d.format, d.height, p);
      const ptrdiff_t stride = static_cast<ptrdiff_t>(row) + (shape[p] % 32) - 8;
      const size_t span =
          rows <= 0 ? 0 : (stride > 0 ? static_cast<size_t>(stride) * (rows - 1) : 0) + row;
      plane[p].resize(span > 0 ? span : 1);
      for (size_t i = 0; i < plane[p].size(); ++i) {
        plane[p][i] = samples.Next() ^ static_cast<uint8_t>(i * 131 + p);
      }
      view.data[p] = plane[p].data();
      view.stride[p] = stride;
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static s2c::CpuReference* reference = new s2c::CpuReference(1);
  Bytes in{data, size};
  // Sizes from 0 to 39: below the 8x8 minimum too, small enough to be fast.
  const int width = in.Next() % 40;
  const int height = in.Next() % 40;
  FuzzFrame ref(in, width, height);
  FuzzFrame dist(in, width, height);
  ref.Fill(in);
  dist.Fill(in);
  s2c::FrameLayout layout;
  const bool ref_ok = s2c::DescribeFrame(ref.view, &layout).ok();
  const bool dist_ok = s2c::DescribeFrame(dist.view, &layout).ok();
  s2c::Result result;
  const s2c::Status status = reference->Compare(ref.view, dist.view, &result);
  // Compare accepts exactly the pairs whose frames are valid.
  if (status.ok() != (ref_ok && dist_ok)) std::abort();
  return 0;
}
