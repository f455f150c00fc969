#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Mutation test of the soft double and of what is written in it: each fault
# below, injected into a copy of src/steps/soft_double.h, soft_terms.h or
# ordered_sum_bits.h at the line marked "mutation-point: MARK", must make
# test_soft_double, test_soft_terms or test_ordered_sum_bits fail (at their
# default number of draws). A mutant that passes means the tests cannot see that fault. The
# production headers have no switches for this; the faults are textual edits
# of temporary copies.
#
# Usage: soft_double_mutations.sh SRC_DIR TEST_DIR CXX [CXX ARGS...]
set -u
src_dir=$1
test_dir=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# NAME|MARK|sed expression applied to the marked lines only
mutants='truncate|round|s/q += rest > half || (rest == half \&\& (q \& 1));//
tieaway|round|s/rest == half \&\& (q \& 1)/rest == half/
tietozero|round|s/ || (rest == half \&\& (q \& 1))//
tieodd|round|s/(q \& 1));/!(q \& 1));/
jamshift|jamshift|s/ | ((x << (64 - d)) != 0)//
jammul|jammul|s/ | ((lo << 22) != 0)//
jamdiv|jamdiv|s/q | (r != 0)/q/
squaresticky|square|s/lo != 0 || //
divseed|divseed|s/(t << 24) - (t << 3)/t << 24/
divnewton|divnewton|s/y = SoftReciprocalStep(y, d);//
divcorrect|divcorrect|s/while (r >= b)/if (r >= b)/
subnormal|subnormal|s/if (e + shift < -1074) shift = -1074 - e;//
overflow|overflow|s/exp > 971/exp > 972/
quiet|quiet|s/nan.sig |= kSoftQuietBit;//
nanorder|nanorder|s/if (SoftIsNan(a)) {/if (SoftIsNan(a) \&\& !SoftIsNan(b)) {/
zerosign|zerosign|s/SoftZero(a.neg \& b.neg)/SoftZero(a.neg | b.neg)/
cancel|cancel|s/return SoftZero(0);/return SoftZero(x.neg);/
edge|edge|s/SoftMinusOne(SoftOnePlus(a2) \/ SoftOnePlus(a1))/(SoftFromFloat(a2) - SoftFromFloat(a1)) \/ SoftOnePlus(a1)/
oneplus|oneplus|s/biased > 179/biased > 180/
oneminus|oneminus|s/m = neg ? x - unit : unit - x;/m = x - unit;/
minusone|minusone|s/below_one ? 1u : 0u/0u/
quartic|quartic|s/return SoftSquare(SoftSquare(x));/return x * x * x * x;/
softclamp|softclamp|s/SoftBelowZero(-e) ? zero : -e;/-e;/
ssimorder|ssimorder|s/x2w - mx2 + y2w - my2 + c2/x2w + y2w - mx2 - my2 + c2/
bitsparity|bitsadd|s/TermIncrementBits(x, key))/SumIncrement{TermIncrementBits(x, key).even, TermIncrementBits(x, key).even})/
bitsbinade|bitsadd|s/TermIncrementBits(x, key))/TermIncrementBits(x, key + 1))/
codetie|codestep|s/return q + (code \& (m ^ q) \& 1);/return q;/
codebound|codebound|s/m + step <= kSumMaxStep/m + step <= 2 * kSumMaxStep/
plainbits|plainbits|s/if (!(tie \& 1)) return/return/'

headers='soft_double.h soft_terms.h ordered_sum_bits.h'
tests='test_soft_double test_soft_terms test_ordered_sum_bits'

status=0
echo "$mutants" | while IFS='|' read -r name mark expr; do
  dir=$tmp/$name
  mkdir -p "$dir/steps"
  cp "$src_dir"/steps/*.h "$dir/steps/"
  changed=0
  for h in $headers; do
    sed "/mutation-point: $mark\$/$expr" "$src_dir/steps/$h" >"$dir/steps/$h"
    cmp -s "$src_dir/steps/$h" "$dir/steps/$h" || changed=$((changed + 1))
  done
  if [ "$changed" -ne 1 ]; then
    echo "mutant $name: the edit did not apply to exactly one header (marker or code changed?)"
    exit 1
  fi
  killed=0
  for t in $tests; do
    if ! "$@" -std=c++17 -O2 -ffp-contract=off -pthread -w -I"$dir" -I"$test_dir" \
        "$test_dir/$t.cc" -o "$dir/$t" 2>"$dir/build.log"; then
      echo "mutant $name: $t does not compile:"
      cat "$dir/build.log"
      exit 1
    fi
    if ! "$dir/$t" >"$dir/$t.log" 2>&1; then
      killed=1
      echo "mutant $name: killed by $t ($(grep -o '^[0-9]* failures' "$dir/$t.log"))"
      break
    fi
  done
  if [ "$killed" -eq 0 ]; then
    echo "mutant $name: SURVIVED (the tests passed with the fault)"
    exit 1
  fi
done || status=1
exit $status
