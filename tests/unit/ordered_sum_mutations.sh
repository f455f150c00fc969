#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Mutation test of the exact ordered sum: each fault below, injected into a
# copy of src/steps/ordered_sum.h, ordered_sum_signed.h or pixel_steps.h
# (the clamps that ClampedTerms relies on) at the line marked
# "mutation-point: NAME", must make test_ordered_sum or
# test_ordered_sum_signed fail. A mutant that passes means the tests cannot
# see that fault. The production headers have no switches for this; the
# faults are textual edits of temporary copies.
#
# Usage: ordered_sum_mutations.sh SRC_DIR TEST_DIR CXX [CXX ARGS...]
set -u
src_dir=$1
test_dir=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME|sed expression applied to the marked lines only
mutants='tie|s/return {q + (q \& 1), q + ((q \& 1) ^ 1)};/return {q + 1, q + 1};/
binade|s/if (BinadeKey(\*s) != plan) return false;//
bound|s/if (m + step > kSumMaxStep) return false;//
parity|s/(after_\(even\|odd\) ? b.odd : b.even)/b.even/
fasttie|s/if (tie) return false;//
fastneg|s/if (negative) return false;//
fastbound|s/return units < kSumTwo53;/return true;/
clampedtie|s/return FastRuleTaken(f.units, f.tie, false);/return FastRuleTaken(f.units, false, false);/
clamp|s/-e < 0.0 ? 0.0 : -e;/-e;/
rest|s/sum += x\[i\];/sum += x[nterms - 1 - (i - first)];/
sign|s/const bool toward_zero = .*;/const bool toward_zero = (b \& kSumSignBit) != 0;/
signedparity|s/(after_even ? b.odd : b.even)/b.even/
signedbinade|s/if (SignedKey(\*s) != plan) return false;//
up|s/if (m + r.hi > kSumMaxReach) return false;//
down|s/if (m + r.lo <= first) return false;//
shift|s/const int64_t b_hi = most + b.hi, b_lo = least + b.lo;/const int64_t b_hi = b.hi, b_lo = b.lo;/
fastreach|s/f.hi = whole > 0.0 ? fmax(f.hi, f.units) : f.hi;/f.hi = whole > 0.0 ? fmax(f.hi, whole) : f.hi;/
awayzero|s/if (toward_zero) return {-even, -odd, -kSumNoReach, -most};/if (toward_zero) return most == 0 ? kSignedNothing : SignedIncrement{-even, -odd, -kSumNoReach, -most};/
fastdown|s/f.lo = down ? fmin(f.lo, f.units) : f.lo;/f.lo = whole < 0.0 ? fmin(f.lo, f.units) : f.lo;/
signedfasttie|s/f.tie |= !whole_units;/f.tie |= !whole_units \&\& fabs(y - whole) != 0.5;/
signedfastnan|s/fabs(y - whole) < 0.5;/fabs(y - whole) != 0.5;/
signedfastbound|s/return !f.tie \&\& span < kSumTwo53;/return !f.tie;/'

headers='ordered_sum.h ordered_sum_signed.h pixel_steps.h'
tests='test_ordered_sum test_ordered_sum_signed'

status=0
echo "$mutants" | while IFS='|' read -r name expr; do
  dir=$tmp/$name
  mkdir -p "$dir/steps"
  cp "$src_dir/steps/hd.h" "$dir/steps/"
  changed=0
  for h in $headers; do
    sed "/mutation-point: $name\$/$expr" "$src_dir/steps/$h" >"$dir/steps/$h"
    cmp -s "$src_dir/steps/$h" "$dir/steps/$h" || changed=$((changed + 1))
  done
  if [ "$changed" -ne 1 ]; then
    echo "mutant $name: the edit did not apply to exactly one header (marker or code changed?)"
    exit 1
  fi
  killed=0
  for t in $tests; do
    if ! "$@" -std=c++17 -O2 -ffp-contract=off -w -I"$dir" -I"$test_dir" \
        "$test_dir/$t.cc" -o "$dir/$t" 2>"$dir/build.log"; then
      echo "mutant $name: $t does not compile:"
      cat "$dir/build.log"
      exit 1
    fi
    if ! "$dir/$t" >"$dir/$t.log" 2>&1; then
      killed=1
      echo "mutant $name: killed by $t ($(grep -c '^FAIL' "$dir/$t.log") failure lines)"
      break
    fi
  done
  if [ "$killed" -eq 0 ]; then
    echo "mutant $name: SURVIVED (both tests passed with the fault)"
    exit 1
  fi
done || status=1
exit $status
