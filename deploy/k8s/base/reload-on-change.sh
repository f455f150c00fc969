#!/bin/sh
# Sends ssimulacra2cmp-monitor SIGHUP when its channel list changes, so that
# it starts the new channels, stops the removed ones and leaves the others
# running. The kubelet replaces a mounted ConfigMap's files at once, a
# minute or so after the ConfigMap changed. Runs beside the monitor in a
# pod whose containers share one process namespace. Usage:
#   reload-on-change.sh CONFIG     (RELOAD_INTERVAL: seconds between looks, 10)
set -eu
config=$1
interval=${RELOAD_INTERVAL:-10}
last=$(cksum < "$config")
while sleep "$interval"; do
  now=$(cksum < "$config" 2>/dev/null) || continue
  [ "$now" != "$last" ] || continue
  last=$now
  signalled=
  for cmdline in /proc/[0-9]*/cmdline; do
    # A process may end between the glob and the read: quietly skipped.
    program=$({ tr '\0' '\n' < "$cmdline"; } 2>/dev/null | head -n 1) || continue
    [ "${program##*/}" = ssimulacra2cmp-monitor ] || continue
    pid=${cmdline#/proc/}; pid=${pid%/cmdline}
    kill -HUP "$pid" && signalled="$signalled $pid"
  done
  printf '{"event":"config-changed","config":"%s","signalled":"%s"}\n' "$config" "${signalled# }"
done
