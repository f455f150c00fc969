// SPDX-License-Identifier: BSD-3-Clause
// The RGB-to-XYZ matrices of SMPTE RP 177 (the primaries' XYZ at Y = 1,
// each column scaled so that R = G = B = 1 gives the white point), and
// from them BT.2020 to BT.709 as XYZ-to-BT.709 times BT.2020-to-XYZ. Every
// operation is binary64 in a fixed order; only the result is rounded.
#include "primaries.h"

namespace s2c {
namespace {

struct Chromaticity {
  double x;
  double y;
};

// Red, green, blue: ITU-R BT.709-6 and BT.2020-2, table items 1.3 and 3.3.
constexpr Chromaticity kBt709[3] = {{0.640, 0.330}, {0.300, 0.600}, {0.150, 0.060}};
constexpr Chromaticity kBt2020[3] = {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}};
constexpr Chromaticity kD65 = {0.3127, 0.3290};

struct Matrix {
  double m[3][3];
};

// XYZ of a chromaticity at Y = 1.
void XyzOf(const Chromaticity& c, double xyz[3]) {
  xyz[0] = c.x / c.y;
  xyz[1] = 1.0;
  xyz[2] = (1.0 - c.x - c.y) / c.y;
}

// By cofactors; the determinant of these matrices is far from 0.
Matrix Inverse(const Matrix& a) {
  const double(&m)[3][3] = a.m;
  const double c00 = m[1][1] * m[2][2] - m[1][2] * m[2][1];
  const double c01 = m[1][2] * m[2][0] - m[1][0] * m[2][2];
  const double c02 = m[1][0] * m[2][1] - m[1][1] * m[2][0];
  const double det = m[0][0] * c00 + m[0][1] * c01 + m[0][2] * c02;
  Matrix inv;
  inv.m[0][0] = c00 / det;
  inv.m[0][1] = (m[0][2] * m[2][1] - m[0][1] * m[2][2]) / det;
  inv.m[0][2] = (m[0][1] * m[1][2] - m[0][2] * m[1][1]) / det;
  inv.m[1][0] = c01 / det;
  inv.m[1][1] = (m[0][0] * m[2][2] - m[0][2] * m[2][0]) / det;
  inv.m[1][2] = (m[0][2] * m[1][0] - m[0][0] * m[1][2]) / det;
  inv.m[2][0] = c02 / det;
  inv.m[2][1] = (m[0][1] * m[2][0] - m[0][0] * m[2][1]) / det;
  inv.m[2][2] = (m[0][0] * m[1][1] - m[0][1] * m[1][0]) / det;
  return inv;
}

// a * b, each element summed over k = 0, 1, 2 in that order.
Matrix Product(const Matrix& a, const Matrix& b) {
  Matrix p;
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      p.m[r][c] = a.m[r][0] * b.m[0][c] + a.m[r][1] * b.m[1][c] + a.m[r][2] * b.m[2][c];
    }
  }
  return p;
}

Matrix RgbToXyz(const Chromaticity (&primaries)[3]) {
  Matrix columns;
  for (int c = 0; c < 3; ++c) {
    double xyz[3];
    XyzOf(primaries[c], xyz);
    for (int r = 0; r < 3; ++r) columns.m[r][c] = xyz[r];
  }
  double white[3];
  XyzOf(kD65, white);
  const Matrix inv = Inverse(columns);
  Matrix out;
  for (int c = 0; c < 3; ++c) {
    const double scale = inv.m[c][0] * white[0] + inv.m[c][1] * white[1] + inv.m[c][2] * white[2];
    for (int r = 0; r < 3; ++r) out.m[r][c] = columns.m[r][c] * scale;
  }
  return out;
}

}  // namespace

void Bt2020ToBt709(float m[9]) {
  const Matrix p = Product(Inverse(RgbToXyz(kBt709)), RgbToXyz(kBt2020));
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) m[3 * r + c] = static_cast<float>(p.m[r][c]);
  }
}

}  // namespace s2c
