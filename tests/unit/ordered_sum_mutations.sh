#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Mutation test of the exact ordered sum: each fault below, injected into a
# copy of src/ordered_sum.h at the line marked "mutation-point: NAME", must
# make test_ordered_sum fail. A mutant that passes means the tests cannot see
# that fault. The production header has no switches for this; the faults are
# textual edits of a temporary copy.
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
fastneg|s/if (!(lowest >= 0.0)) return false;//
fastbound|s/return units < kSumTwo53;/return true;/
rest|s/sum += x\[i\];/sum += x[nterms - 1 - (i - first)];/'

status=0
echo "$mutants" | while IFS='|' read -r name expr; do
  mkdir -p "$tmp/$name"
  sed "/mutation-point: $name\$/$expr" "$src_dir/ordered_sum.h" >"$tmp/$name/ordered_sum.h"
  cp "$src_dir/hd.h" "$tmp/$name/"
  if cmp -s "$src_dir/ordered_sum.h" "$tmp/$name/ordered_sum.h"; then
    echo "mutant $name: the edit did not apply (marker or code changed?)"
    exit 1
  fi
  if ! "$@" -std=c++17 -O2 -ffp-contract=off -w -I"$tmp/$name" -I"$test_dir" \
      "$test_dir/test_ordered_sum.cc" -o "$tmp/$name/test" 2>"$tmp/$name/build.log"; then
    echo "mutant $name: does not compile:"
    cat "$tmp/$name/build.log"
    exit 1
  fi
  if "$tmp/$name/test" >"$tmp/$name/run.log" 2>&1; then
    echo "mutant $name: SURVIVED (test_ordered_sum passed with the fault)"
    exit 1
  fi
  echo "mutant $name: killed ($(grep -c '^FAIL' "$tmp/$name/run.log") failure lines)"
done || status=1
exit $status
