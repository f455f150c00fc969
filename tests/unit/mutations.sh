#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Mutation test: each fault of a mutant table, injected into a copy of
# src/steps at the line marked "mutation-point: MARK", must make one of the
# table's tests fail. A mutant that passes means the tests cannot see that
# fault. The production headers have no switches for this; the faults are
# textual edits of temporary copies, and the tests are compiled against
# them standalone (tests/common/check.h is header-only).
#
# A table (ordered_sum.mutants, soft_double.mutants) has, besides comments
# (#) and blank lines:
#   headers: the headers of src/steps the marks are in
#   tests: the tests of TEST_DIR (TEST.cc) that must see the faults
#   NAME|MARK|sed expression applied to the lines marked MARK only
# Each fault must change exactly one header.
#
# Usage: mutations.sh TABLE SRC_DIR TEST_DIR CXX [CXX ARGS...]
set -u
table=$1
src_dir=$2
test_dir=$3
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

headers=$(sed -n 's/^headers: *//p' "$table")
tests=$(sed -n 's/^tests: *//p' "$table")
if [ -z "$headers" ] || [ -z "$tests" ]; then
  echo "$table: no headers: or tests: line"
  exit 1
fi

# The headers each test includes, directly or not (the preprocessor's
# list): a test that does not include the mutated header compiles to the
# same program with the fault as without it and cannot see it, so it is
# not built for that mutant.
for t in $tests; do
  "$@" -std=c++17 -MM -I"$src_dir" -I"$test_dir" "$test_dir/$t.cc" | tr -s ' \\\n' '\n' |
    sed -n 's|.*/steps/||p' >"$tmp/$t.deps"
  [ -s "$tmp/$t.deps" ] || { echo "$t: its includes of src/steps cannot be listed"; exit 1; }
done

status=0
grep -v -e '^#' -e '^$' -e '^headers:' -e '^tests:' "$table" >"$tmp/mutants"
mutants=0
while IFS='|' read -r name mark expr; do
  mutants=$((mutants + 1))
  dir=$tmp/$name
  mkdir -p "$dir/steps"
  cp "$src_dir"/steps/*.h "$dir/steps/"
  changed=0
  mutated=
  for h in $headers; do
    sed "/mutation-point: $mark\$/$expr" "$src_dir/steps/$h" >"$dir/steps/$h"
    cmp -s "$src_dir/steps/$h" "$dir/steps/$h" || { changed=$((changed + 1)); mutated=$h; }
  done
  if [ "$changed" -ne 1 ]; then
    echo "mutant $name: the edit did not apply to exactly one header (marker or code changed?)"
    status=1
    continue
  fi
  killed=0
  # The test named after the mutated header first (test_soft_terms for
  # soft_terms.h): it is the likeliest to see the fault, and a mutant is
  # killed by the first test that fails.
  ordered=$(for t in $tests; do [ "$t" = "test_${mutated%.h}" ] && echo "$t"; done
            for t in $tests; do [ "$t" = "test_${mutated%.h}" ] || echo "$t"; done)
  for t in $ordered; do
    grep -qx "$mutated" "$tmp/$t.deps" || continue
    if ! "$@" -std=c++17 -O2 -ffp-contract=off -pthread -w -I"$dir" -I"$test_dir" \
        "$test_dir/$t.cc" -o "$dir/$t" 2>"$dir/build.log"; then
      echo "mutant $name: $t does not compile:"
      cat "$dir/build.log"
      status=1
      killed=1
      break
    fi
    # A test ends at its first failed check (tests/common/check.h).
    if ! S2C_CHECK_EXIT_AT_FAILURE=1 "$dir/$t" >"$dir/$t.log" 2>&1; then
      killed=1
      echo "mutant $name: killed by $t ($(grep -m 1 '^FAIL' "$dir/$t.log" | cut -c 1-160))"
      break
    fi
  done
  if [ "$killed" -eq 0 ]; then
    echo "mutant $name: SURVIVED (the tests passed with the fault)"
    status=1
  fi
  rm -rf "$dir"
done <"$tmp/mutants"
if [ "$mutants" -eq 0 ]; then
  echo "$table: no mutants"
  exit 1
fi
echo "$mutants mutants of $(basename "$table")"
exit $status
