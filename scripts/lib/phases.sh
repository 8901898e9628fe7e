#!/usr/bin/env bash
# Phase timing for scripts/test: `source` this file, run each step as `phase NAME command...`
# (its exit status is the command's), and call `phase_report` at the end (from an EXIT trap, so a
# failing run still says where its time went). Prints one line per phase and the total.

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  echo "phases.sh: source this file, then call phase NAME COMMAND... and phase_report" >&2
  exit 2
fi

_PHASE_NAMES=()
_PHASE_SECONDS=()
_PHASE_STATUS=()
_PHASE_START_ALL=$SECONDS

phase() {
  local name="$1" start=$SECONDS status=0
  shift
  echo "test: phase $name: $*"
  "$@" || status=$?
  _PHASE_NAMES+=("$name")
  _PHASE_SECONDS+=($((SECONDS - start)))
  _PHASE_STATUS+=("$status")
  echo "test: phase $name took $((SECONDS - start)) s (exit $status)"
  return "$status"
}

phase_report() {
  [ "${#_PHASE_NAMES[@]}" -gt 0 ] || return 0
  echo "test: time by phase"
  local i
  for i in "${!_PHASE_NAMES[@]}"; do
    local mark=""
    [ "${_PHASE_STATUS[$i]}" = "0" ] || mark="  (failed: exit ${_PHASE_STATUS[$i]})"
    printf 'test:   %-20s %5d s  %s%s\n' "${_PHASE_NAMES[$i]}" "${_PHASE_SECONDS[$i]}" \
      "$(printf '%d:%02d' $((_PHASE_SECONDS[i] / 60)) $((_PHASE_SECONDS[i] % 60)))" "$mark"
  done
  local total=$((SECONDS - _PHASE_START_ALL))
  printf 'test:   %-20s %5d s  %s\n' total "$total" "$(printf '%d:%02d' $((total / 60)) $((total % 60)))"
}

# phase_start NAME COMMAND...: runs a phase in the background, its output kept aside until
# phase_finish NAME (so that it does not interleave with the phase run meanwhile), which waits for
# it, prints its output, records its time like `phase` and returns its exit status.
declare -A _PHASE_BG_PID=() _PHASE_BG_DIR=()
phase_start() {
  local name="$1" dir
  shift
  dir="$(mktemp -d)"
  echo "test: phase $name (beside the next phase, its output after it): $*"
  ( start=$SECONDS status=0; "$@" > "$dir/log" 2>&1 || status=$?
    echo "$((SECONDS - start)) $status" > "$dir/result" ) &
  _PHASE_BG_PID[$name]=$!
  _PHASE_BG_DIR[$name]="$dir"
}

phase_finish() {
  local name="$1" dir="${_PHASE_BG_DIR[$1]}" seconds status
  wait "${_PHASE_BG_PID[$name]}" || true
  cat "$dir/log"
  read -r seconds status < "$dir/result" || { seconds=0 status=1; }
  rm -rf "$dir"
  _PHASE_NAMES+=("$name")
  _PHASE_SECONDS+=("$seconds")
  _PHASE_STATUS+=("$status")
  echo "test: phase $name took $seconds s (exit $status)"
  return "$status"
}
