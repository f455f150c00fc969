// SPDX-License-Identifier: BSD-3-Clause
// The front end's change of primaries (docs/frontend.md, 9): the matrix
// that takes linear light in BT.2020's RGB to BT.709's (sRGB's), derived
// on the host in binary64 from the two standards' chromaticities and D65
// and rounded to binary32 once. The per-pixel step that applies it is
// ConvertPrimaries in steps/frontend_steps.h.
#ifndef S2C_PRIMARIES_H_
#define S2C_PRIMARIES_H_

namespace s2c {

// Row-major: BT.709 R = m[0]*R + m[1]*G + m[2]*B of BT.2020's linear R, G,
// B; then G (m[3..5]) and B (m[6..8]).
void Bt2020ToBt709(float m[9]);

}  // namespace s2c

#endif  // S2C_PRIMARIES_H_
