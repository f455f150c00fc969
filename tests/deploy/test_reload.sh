#!/usr/bin/env bash
# deploy/k8s/base/reload-on-change.sh: when the channel list changes it
# sends SIGHUP to a process whose program is ssimulacra2cmp-monitor, and to
# no other; an unchanged list sends nothing. The stand-in monitor is a copy
# of sleep(1) under that name, which SIGHUP ends. Usage:
#   test_reload.sh RELOAD_ON_CHANGE_SH
set -euo pipefail
reload=$1
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
cp "$(command -v sleep)" "$work/ssimulacra2cmp-monitor"
cp "$(command -v sleep)" "$work/other-program"
echo '[channel a]' > "$work/channels.conf"
# Both with SIGHUP's default action: a suite started under nohup would
# otherwise pass its ignored SIGHUP on to them, so that neither could show
# a signal (the real monitor installs its own handler).
env --default-signal=HUP "$work/ssimulacra2cmp-monitor" 60 & monitor=$!; pids+=($monitor)
env --default-signal=HUP "$work/other-program" 60 & other=$!; pids+=($other)
RELOAD_INTERVAL=0.2 sh "$reload" "$work/channels.conf" > "$work/log" & pids+=($!)
failures=0
expect() {  # expect WHAT ACTUAL EXPECTED
  if [ "$2" = "$3" ]; then echo "ok   $1"; else echo "FAIL $1: $2, expected $3"; failures=$((failures + 1)); fi
}
alive() { if kill -0 "$1" 2>/dev/null; then echo alive; else echo ended; fi; }
sleep 1
expect "no signal while the list is unchanged" "$(alive $monitor)" alive
printf '[channel a]\n[channel b]\n' > "$work/channels.conf.new"
mv "$work/channels.conf.new" "$work/channels.conf"  # as the kubelet swaps it
status=0
timeout 10 tail --pid=$monitor -f /dev/null || status=$?
expect "the monitor got its signal within 10 s" $status 0
if [ $status = 0 ]; then wait $monitor || status=$?; fi
expect "the signal was SIGHUP (status 128 + 1)" $status 129
expect "another program was left alone" "$(alive $other)" alive
# The script logs the change once it has looked at every process, a moment
# after the signal.
for _ in $(seq 50); do
  grep -q '"event":"config-changed"' "$work/log" && break
  sleep 0.2
done
expect "the change was logged" "$(grep -c '"event":"config-changed"' "$work/log")" 1
[ $failures = 0 ]
