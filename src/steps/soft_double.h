// SPDX-License-Identifier: BSD-3-Clause
// IEEE binary64 arithmetic in integers, for devices whose fp64 units are
// slow (docs/soft-double.md). Each operation returns the bits that the host's
// double operation returns, on every input: round to nearest even,
// subnormals, overflow to infinity, and NaNs as x86-64 SSE2 gives them (a
// NaN operand comes out quieted, the first operand's first; an invalid
// operation gives the default NaN 0xFFF8000000000000). Nothing here computes
// in double; floats are decoded and encoded from their bits, and the one f32
// operation, the seed of a division's reciprocal, only speeds the division
// up: its result is exact whatever the seed.
//
// A value is unpacked: a sign, and for a finite nonzero value a significand
// in [2^52, 2^53) and the exponent of its last bit (value = sig * 2^exp), so
// chains of operations skip the packing. Subnormal values are held
// normalised too, with an exponent below -1074. An operation forms its exact
// result, or enough of it: at least 55 significant bits, the last of them a
// sticky bit where anything nonzero was cut off below, then rounds once
// (SoftRound). The sticky bit is always well below the highest bit that
// rounding drops, so it tells a tie from a value above it and an exact value
// from one a little above, which is all rounding needs.
#ifndef S2C_SOFT_DOUBLE_H_
#define S2C_SOFT_DOUBLE_H_

#include <cstdint>
#include <cstring>

#include "steps/hd.h"

namespace s2c {

// The exponent of infinities and NaNs; finite values have exponents in
// [-1126, 971].
constexpr int32_t kSoftSpecialExp = 0x4000;
constexpr uint64_t kSoftHidden = uint64_t{1} << 52;
constexpr uint64_t kSoftFraction = kSoftHidden - 1;
constexpr uint64_t kSoftQuietBit = uint64_t{1} << 51;

struct SoftDouble {
  uint64_t sig;  // finite nonzero: [2^52, 2^53); zero, inf: 0; NaN: its 52 fraction bits
  int32_t exp;   // finite: value = sig * 2^exp; inf and NaN: kSoftSpecialExp
  uint32_t neg;  // the sign bit, 0 or 1 (for zeros and NaNs too)
};

S2C_HD SoftDouble SoftZero(uint32_t neg) { return {0, 0, neg}; }
S2C_HD SoftDouble SoftInf(uint32_t neg) { return {0, kSoftSpecialExp, neg}; }
// x86's default NaN, the result of an invalid operation (inf - inf, 0 * inf,
// 0 / 0, inf / inf).
S2C_HD SoftDouble SoftDefaultNan() { return {kSoftQuietBit, kSoftSpecialExp, 1}; }

S2C_HD bool SoftIsSpecial(SoftDouble x) { return x.exp == kSoftSpecialExp; }
S2C_HD bool SoftIsNan(SoftDouble x) { return SoftIsSpecial(x) && x.sig != 0; }
S2C_HD bool SoftIsInf(SoftDouble x) { return SoftIsSpecial(x) && x.sig == 0; }
S2C_HD bool SoftIsZero(SoftDouble x) { return !SoftIsSpecial(x) && x.sig == 0; }

// ---- Integer helpers ----------------------------------------------------------

// Leading zeros of a nonzero value.
S2C_HD int SoftClz(uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(x));
#else
  return __builtin_clzll(x);
#endif
}

// The 128-bit product a * b as its high and low words.
S2C_HD void SoftMulWide(uint64_t a, uint64_t b, uint64_t* hi, uint64_t* lo) {
#if defined(__CUDA_ARCH__)
  *hi = __umul64hi(a, b);
  *lo = a * b;
#else
  const unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
  *hi = static_cast<uint64_t>(p >> 64);
  *lo = static_cast<uint64_t>(p);
#endif
}

// x >> d with the bits shifted out folded into the last bit (the sticky bit).
S2C_HD uint64_t SoftShiftRightJam(uint64_t x, int d) {
  if (d == 0) return x;
  if (d >= 64) return x != 0;
  return (x >> d) | ((x << (64 - d)) != 0);  // mutation-point: jamshift
}

// ---- Rounding -------------------------------------------------------------------

// The double nearest to (-1)^neg * m * 2^e, m != 0, with ties to even:
// normalised, zero where it rounds to nothing, infinity where it overflows.
// m's last bit may be a sticky bit: with m's top bit moved to 63, the
// highest bit that rounding drops is bit 10 for a normal result (53 bits
// kept) and higher on the subnormals' grid of 2^-1074, so a sticky bit
// within the last three bits of the normalised m only ever decides between
// "exactly half" and "more than half", or "exact" and "a little more".
S2C_HD SoftDouble SoftRound(uint32_t neg, uint64_t m, int e) {
  const int lz = SoftClz(m);
  m <<= lz;
  e -= lz;
  int shift = 11;
  if (e + shift < -1074) shift = -1074 - e;  // mutation-point: subnormal
  int exp = e + shift;
  uint64_t q;
  if (shift >= 64) {
    // Below one unit of 2^-1074: at least half of one is needed to round up.
    q = shift == 64 && m > (uint64_t{1} << 63);
  } else {
    q = m >> shift;
    const uint64_t rest = m & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    q += rest > half || (rest == half && (q & 1));  // mutation-point: round
  }
  if (q == 0) return SoftZero(neg);
  if (q >> 53) {  // carried to 2^53
    q >>= 1;
    ++exp;
  } else {  // a subnormal has fewer than 53 bits
    const int shift_up = SoftClz(q) - 11;
    q <<= shift_up;
    exp -= shift_up;
  }
  if (exp > 971) return SoftInf(neg);  // q * 2^exp >= 2^1024  // mutation-point: overflow
  return {q, exp, neg};
}

// ---- Conversions ------------------------------------------------------------------

S2C_HD SoftDouble SoftFromBits(uint64_t b) {
  const uint32_t neg = static_cast<uint32_t>(b >> 63);
  const int biased = static_cast<int>((b >> 52) & 0x7FF);
  const uint64_t fraction = b & kSoftFraction;
  if (biased == 0x7FF) return {fraction, kSoftSpecialExp, neg};
  if (biased == 0) {
    if (fraction == 0) return SoftZero(neg);
    const int lz = SoftClz(fraction) - 11;
    return {fraction << lz, -1074 - lz, neg};
  }
  return {fraction | kSoftHidden, biased - 1075, neg};
}

S2C_HD uint64_t SoftToBits(SoftDouble x) {
  const uint64_t sign = static_cast<uint64_t>(x.neg) << 63;
  if (SoftIsSpecial(x)) return sign | (uint64_t{0x7FF} << 52) | x.sig;
  if (x.sig == 0) return sign;
  // The hidden bit adds one to the exponent field: a normal value's field
  // is exp + 1075 = (exp + 1074) + 1. A subnormal was rounded on the grid
  // of 2^-1074, so the shift drops only zeros.
  if (x.exp >= -1074) return sign | ((static_cast<uint64_t>(x.exp + 1074) << 52) + x.sig);
  return sign | (x.sig >> (-1074 - x.exp));
}

// (double)f: exact. A signalling NaN comes out quieted, as cvtss2sd gives it.
S2C_HD SoftDouble SoftFromFloat(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  const uint32_t neg = b >> 31;
  const int biased = static_cast<int>((b >> 23) & 0xFF);
  const uint64_t fraction = b & 0x7FFFFFu;
  if (biased == 0xFF) {
    return {fraction ? (fraction << 29) | kSoftQuietBit : 0, kSoftSpecialExp, neg};
  }
  if (biased == 0) {
    if (fraction == 0) return SoftZero(neg);
    const int lz = SoftClz(fraction) - 11;
    return {fraction << lz, -149 - lz, neg};  // fraction * 2^-149
  }
  return {(fraction | 0x800000u) << 29, biased - 179, neg};
}

// (double)v, rounded to nearest even where |v| > 2^53.
S2C_HD SoftDouble SoftFromInt64(int64_t v) {
  if (v == 0) return SoftZero(0);
  const uint32_t neg = v < 0;
  const uint64_t magnitude = neg ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  return SoftRound(neg, magnitude, 0);
}

// ---- Operations ---------------------------------------------------------------------

// The NaN that an operation with a NaN operand returns: the first NaN
// operand, quieted.
S2C_HD SoftDouble SoftQuiet(SoftDouble nan) {
  nan.sig |= kSoftQuietBit;  // mutation-point: quiet
  return nan;
}
S2C_HD bool SoftEitherNan(SoftDouble a, SoftDouble b, SoftDouble* nan) {
  if (SoftIsNan(a)) {  // mutation-point: nanorder
    *nan = SoftQuiet(a);
    return true;
  }
  if (SoftIsNan(b)) {
    *nan = SoftQuiet(b);
    return true;
  }
  return false;
}

S2C_HD SoftDouble SoftNeg(SoftDouble x) {  // -x: flips the sign of NaNs too
  x.neg ^= 1u;
  return x;
}
S2C_HD SoftDouble SoftAbs(SoftDouble x) {  // fabs: clears the sign of NaNs too
  x.neg = 0;
  return x;
}
// x < 0.0: false for -0.0 and NaN.
S2C_HD bool SoftBelowZero(SoftDouble x) { return x.neg && !SoftIsZero(x) && !SoftIsNan(x); }

// a + b, or a - b where flip is 1. The NaN case looks at b before its sign
// is flipped: subsd returns b's NaN as it is.
S2C_HD SoftDouble SoftAddOrSub(SoftDouble a, SoftDouble b, uint32_t flip) {
  SoftDouble nan;
  if (SoftEitherNan(a, b, &nan)) return nan;
  b.neg ^= flip;
  if (SoftIsInf(a)) return SoftIsInf(b) && b.neg != a.neg ? SoftDefaultNan() : a;
  if (SoftIsInf(b)) return b;
  if (b.sig == 0) return a.sig == 0 ? SoftZero(a.neg & b.neg) : a;  // mutation-point: zerosign
  if (a.sig == 0) return b;
  // x: the operand of larger magnitude.
  const bool a_larger = a.exp > b.exp || (a.exp == b.exp && a.sig >= b.sig);
  const SoftDouble x = a_larger ? a : b;
  const SoftDouble y = a_larger ? b : a;
  // Ten guard bits: x's significand at bits 62..10, y's aligned below it,
  // what falls off its end kept as a sticky bit.
  const uint64_t mx = x.sig << 10;
  const uint64_t my = SoftShiftRightJam(y.sig << 10, x.exp - y.exp);
  if (x.neg == y.neg) return SoftRound(x.neg, mx + my, x.exp - 10);
  // Where bits were lost (exponents two or more apart) the difference is
  // above 2^61, so the sticky bit stays far below the rounding position;
  // otherwise it is exact, and may cancel to +0.
  const uint64_t m = mx - my;
  if (m == 0) return SoftZero(0);  // mutation-point: cancel
  return SoftRound(x.neg, m, x.exp - 10);
}
S2C_HD SoftDouble SoftAdd(SoftDouble a, SoftDouble b) { return SoftAddOrSub(a, b, 0); }
S2C_HD SoftDouble SoftSub(SoftDouble a, SoftDouble b) { return SoftAddOrSub(a, b, 1); }

S2C_HD SoftDouble SoftMul(SoftDouble a, SoftDouble b) {
  SoftDouble nan;
  if (SoftEitherNan(a, b, &nan)) return nan;
  const uint32_t neg = a.neg ^ b.neg;
  if (SoftIsInf(a) || SoftIsInf(b)) {
    return SoftIsZero(a) || SoftIsZero(b) ? SoftDefaultNan() : SoftInf(neg);
  }
  if (a.sig == 0 || b.sig == 0) return SoftZero(neg);
  // The product of the significands is exact in 106 bits, in [2^104,
  // 2^106): its top 64 bits with the rest as the sticky bit.
  uint64_t hi, lo;
  SoftMulWide(a.sig, b.sig, &hi, &lo);
  const uint64_t m = (hi << 22) | (lo >> 42) | ((lo << 22) != 0);  // mutation-point: jammul
  return SoftRound(neg, m, a.exp + b.exp + 42);
}

// ---- Division ----------------------------------------------------------------------
//
// The quotient of two significands, q = floor(a * 2^62 / b) with a and b in
// [2^52, 2^53), from a reciprocal of d = b * 2^11 in [2^63, 2^64) rather than
// a bit at a time: an f32 reciprocal of d's top 24 bits, two integer Newton
// steps, one product for q, then the exact remainder corrects it
// (docs/soft-double.md, "Division", derives the bounds below). The
// reciprocal stays below 2^127 / d throughout, so every step is unsigned.

// The seed: at most 2^127 / d, at least 2^127 / d * (1 - 2^-20.6). d's top
// 24 bits convert to float exactly; 1 / top is rounded to nearest (the
// device's __frcp_rn, the host's IEEE division: the same float); r * 2^63 is
// an integer below 2^40 and converts exactly. top <= d / 2^40 makes 1 / top
// up to 2^-23 too large, the rounding up to 2^-24 more: taking 2^-21 off
// brings the seed below 2^127 / d. (t * 2^24 may be 2^64, for d = 2^63: the
// difference wraps back below it.)
S2C_HD uint64_t SoftReciprocalSeed(uint64_t d) {
  const float top = static_cast<float>(static_cast<uint32_t>(d >> 40));
#if defined(__CUDA_ARCH__)
  const float r = __frcp_rn(top);
#else
  const float r = 1.0f / top;
#endif
  const uint64_t t = static_cast<uint64_t>(r * 0x1p63f);
  return (t << 24) - (t << 3);  // t * 2^24 * (1 - 2^-21)  // mutation-point: divseed
}

// One Newton step y + y * (2^127 - y d) / 2^127, each part rounded down:
// from y <= 2^127 / d with relative error e it gives at most 2^127 / d again
// (the exact step stays below, and the floors only lower it), with relative
// error about e^2, less at most 3 units.
S2C_HD uint64_t SoftReciprocalStep(uint64_t y, uint64_t d) {
  uint64_t hi, lo;
  SoftMulWide(y, d, &hi, &lo);
  const uint64_t e = (uint64_t{1} << 63) - hi - (lo != 0);  // floor((2^127 - y d) / 2^64)
  SoftMulWide(y, e, &hi, &lo);
  return y + ((hi << 1) | (lo >> 63));  // y + floor(y e / 2^63)
}

// An estimate of floor(a * 2^62 / b), never above it and at most 3 below:
// the reciprocal after two steps is within 4 units of 2^127 / d, and a * 2^10
// < 2^63 scales that to less than 2 units of the quotient, plus one for the
// product's floor.
S2C_HD uint64_t SoftQuotientEstimate(uint64_t a, uint64_t b) {
  const uint64_t d = b << 11;
  uint64_t y = SoftReciprocalSeed(d);
  y = SoftReciprocalStep(y, d);
  y = SoftReciprocalStep(y, d);  // mutation-point: divnewton
  uint64_t hi, lo;
  SoftMulWide(a << 10, y, &hi, &lo);
  return hi;  // floor(a * 2^10 * y / 2^64), about a * 2^73 / d
}

// floor(a * 2^62 / b) for a, b in [2^52, 2^53), in (2^61, 2^63), and the
// remainder. The estimate is at most a few units low, so the remainder a *
// 2^62 - q * b is below 2^64 and exact in 64-bit arithmetic (the products'
// high words cancel), and stepping q up while the remainder is b or more
// makes both exact.
S2C_HD uint64_t SoftQuotient(uint64_t a, uint64_t b, uint64_t* remainder) {
  uint64_t q = SoftQuotientEstimate(a, b);
  uint64_t r = (a << 62) - q * b;
  while (r >= b) {  // mutation-point: divcorrect
    r -= b;
    ++q;
  }
  *remainder = r;
  return q;
}

S2C_HD SoftDouble SoftDiv(SoftDouble a, SoftDouble b) {
  SoftDouble nan;
  if (SoftEitherNan(a, b, &nan)) return nan;
  const uint32_t neg = a.neg ^ b.neg;
  if (SoftIsInf(a)) return SoftIsInf(b) ? SoftDefaultNan() : SoftInf(neg);
  if (SoftIsInf(b)) return SoftZero(neg);
  if (b.sig == 0) return a.sig == 0 ? SoftDefaultNan() : SoftInf(neg);
  if (a.sig == 0) return SoftZero(neg);
  // The quotient, and the remainder's sign of life as the sticky bit.
  uint64_t r;
  const uint64_t q = SoftQuotient(a.sig, b.sig, &r);
  return SoftRound(neg, q | (r != 0), a.exp - b.exp - 62);  // mutation-point: jamdiv
}

// Operators, so that a soft expression reads like the double expression it
// reproduces (C++ keeps the precedence and the left-to-right grouping).
S2C_HD SoftDouble operator+(SoftDouble a, SoftDouble b) { return SoftAdd(a, b); }
S2C_HD SoftDouble operator-(SoftDouble a, SoftDouble b) { return SoftSub(a, b); }
S2C_HD SoftDouble operator*(SoftDouble a, SoftDouble b) { return SoftMul(a, b); }
S2C_HD SoftDouble operator/(SoftDouble a, SoftDouble b) { return SoftDiv(a, b); }
S2C_HD SoftDouble operator-(SoftDouble x) { return SoftNeg(x); }

// x * x. Where the square is normal and finite (x = sig * 2^e with e in
// [-563, 458]; subnormal inputs are held with e below -1074) the product
// rounds without SoftRound's general cases: sig * 2^11 squared lies in
// [2^126, 2^128), its top 53 bits are rounded on the 11 or 10 bits below
// them, with the low word as the sticky bit; elsewhere, SoftMul. The
// fourth powers of the terms take it (soft_terms.h, SoftQuartic).
S2C_HD SoftDouble SoftSquare(SoftDouble x) {
  if (SoftIsSpecial(x) || x.sig == 0 || x.exp < -563 || x.exp > 458) return x * x;
  const uint64_t a = x.sig << 11;
  uint64_t hi, lo;
  SoftMulWide(a, a, &hi, &lo);
  const int drop = static_cast<int>(hi >> 63) + 10;  // 11 where the top bit is 127, else 10
  uint64_t q = hi >> drop;
  const uint64_t rest = hi & ((uint64_t{1} << drop) - 1);
  const uint64_t half = uint64_t{1} << (drop - 1);
  q += rest > half || (rest == half && (lo != 0 || (q & 1)));  // mutation-point: square
  int exp = 2 * x.exp + 42 + drop;  // hi * 2^64 * 2^(2e - 22), its last kept bit
  if (q >> 53) {  // carried to 2^53
    q >>= 1;
    ++exp;
  }
  return {q, exp, 0};
}

}  // namespace s2c

#endif  // S2C_SOFT_DOUBLE_H_
