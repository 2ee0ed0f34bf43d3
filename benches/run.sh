#!/usr/bin/env bash
# plugctl's benchmarks, each figure measured side by side with its baseline
# in the same run, so that the ratios hold on any machine.
#
#   benches/run.sh            prints a Markdown table (progress on stderr)
#   RUNS_SCALE=2 benches/run.sh   twice as many runs per figure
#   NO_HYPERFINE=1 NO_GNU_TIME=1 benches/run.sh   the fallbacks below
#   BASELINE_PLUGCTL=old/plugctl benches/run.sh   also against an earlier build
#
# Needs: cargo, a C compiler (cc), bash, coreutils, xargs. Uses hyperfine
# when installed (median of its runs), else benches/timeit.c (median of N
# runs); GNU time for peak RSS when installed, else benches/maxrss.c.
# Takes about 3-5 minutes after the release build. Not run by cargo test.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
TARGET=${CARGO_TARGET_DIR:-$REPO/target}
RUNS_SCALE=${RUNS_SCALE:-1}

log() { printf '%s\n' "$*" >&2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/plugctl-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

log "building (release)..."
# The helpers first and plugctl by itself last: built in one cargo call,
# plugctl would get the features the examples' dev-dependencies turn on
# (tokio's multi-thread runtime, ...), 1.5 MB more than the binary a node
# installs.
cargo build --release --quiet --example registry_floor --example clap_floor \
  --example follow >&2
# The usage accounting's row measures one binary with and without it: a
# build with the bench-knobs feature reads PLUGCTL_BENCH_NO_USAGE (the
# binary a node installs does not). Built before the plain one, so that
# target/release/plugctl is that one.
cargo build --release --quiet --bin plugctl --features bench-knobs >&2
install -d "$WORK/bin"
cp "$TARGET/release/plugctl" "$WORK/bin/plugctl-knobs"
cargo build --release --quiet --bin plugctl >&2
# Every program timed runs from a copy in $WORK, as a node runs an
# installed binary (cargo install and dpkg copy it). The linker writes its
# output in small pieces, and the page cache keeps a file the way it was
# written: a 9 MB plugctl started from target/ takes ~30 more page faults
# (about a fifth of its start) than the same bytes copied, which would
# weigh the startup rows by how the file was written, not by what it runs.
for prog in "$TARGET/release/plugctl" "$TARGET/release/examples/registry_floor" \
  "$TARGET/release/examples/follow" "$TARGET/release/examples/clap_floor"; do
  cp "$prog" "$WORK/bin/"
done
PLUGCTL=$WORK/bin/plugctl
KNOBS=$WORK/bin/plugctl-knobs
REGISTRY_FLOOR=$WORK/bin/registry_floor
FOLLOW=$WORK/bin/follow
CLAP_FLOOR=$WORK/bin/clap_floor
for prog in floor_spawn timeit maxrss; do
  cc -O2 -o "$WORK/$prog" "benches/$prog.c"
done

if [ -z "${NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null 2>&1; then
  TIMER="hyperfine $(hyperfine --version | awk '{print $2}')"
else
  TIMER="benches/timeit.c"
fi

# times RUNS WARMUP PREPARE COMMAND: the wall time of each of RUNS runs of
# COMMAND in ms, one per line (no shell; words split as a shell would).
# WARMUP 1: one untimed run first. PREPARE (may be empty) runs before every
# run, untimed.
times() {
  local runs=$1 warmup=$2 prepare=$3 cmd=$4
  if [[ $TIMER == hyperfine* ]]; then
    local json=$WORK/hyperfine.json
    local args=(-N --style none --export-json "$json" --runs "$runs" --warmup "$warmup")
    [ -n "$prepare" ] && args+=(--prepare "$prepare")
    hyperfine "${args[@]}" "$cmd" >/dev/null
    tr -d ' \n' <"$json" | grep -o '"times":\[[^]]*\]' | head -1 |
      sed 's/.*\[//; s/\]//' | tr ',' '\n' | awk 'NF { printf "%.3f\n", $1 * 1000 }'
  else
    local argv opts=(-a -n "$runs")
    eval "argv=($cmd)"
    [ "$warmup" = 0 ] && opts+=(-W)
    [ -n "$prepare" ] && opts+=(-p "$prepare")
    "$WORK/timeit" "${opts[@]}" -- "${argv[@]}"
  fi
}

# compare RUNS PREPARE COMMAND...: the median wall time (ms) of each
# COMMAND, in MEDIANS. The commands take turns, a few runs each, so that
# whatever else the machine does falls on all of them alike.
compare() {
  local runs=$(( $1 * RUNS_SCALE )) prepare=$2
  shift 2
  local rounds=$(( runs < 5 ? runs : 5 ))
  local per=$(( (runs + rounds - 1) / rounds ))
  local i r cmd warmup
  for (( i = 1; i <= $#; i++ )); do : >"$WORK/times.$i"; done
  for (( r = 1; r <= rounds; r++ )); do
    # a warm-up run in the first round, unless a run is long anyway
    warmup=0
    [ "$r" = 1 ] && [ "$runs" -gt 1 ] && warmup=1
    i=0
    for cmd in "$@"; do
      i=$((i + 1))
      times "$per" "$warmup" "$prepare" "$cmd" >>"$WORK/times.$i"
    done
  done
  MEDIANS=()
  for (( i = 1; i <= $#; i++ )); do
    MEDIANS+=("$(sort -n "$WORK/times.$i" |
      awk '{ t[NR] = $1 } END { print (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }')")
  done
}

ROWS=()
# row FIGURE PLUGCTL_MS BASELINE_NAME BASELINE_MS TARGET_RATIO|-
row() {
  local figure=$1 ours=$2 name=$3 base=$4 target=$5
  local ratio result
  ratio=$(awk -v a="$ours" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
  if [ "$target" = - ]; then
    result="-"
    target="-"
  else
    result=$(awk -v r="$ratio" -v t="$target" 'BEGIN { print (r <= t) ? "pass" : "**miss**" }')
    target="≤ ${target}×"
  fi
  ROWS+=("| $figure | $(ms "$ours") | $name $(ms "$base") | ${ratio}× | $target | $result |")
  log "  $figure: plugctl $(ms "$ours") vs $name $(ms "$base") = ${ratio}×"
}

# 1234.5 -> "1.23 s", 12.3 -> "12.3 ms", 1.234 -> "1.23 ms"
ms() {
  awk -v t="$1" 'BEGIN {
    if (t >= 1000) printf "%.2f s", t / 1000;
    else if (t >= 100) printf "%.0f ms", t;
    else if (t >= 10) printf "%.1f ms", t;
    else printf "%.2f ms", t }'
}

# peak_kib COMMAND...: the peak RSS (KiB) of one run of COMMAND, stdout
# and stderr discarded, through GNU time when installed, else maxrss.c.
if [ -z "${NO_GNU_TIME:-}" ] && /usr/bin/time -f %M true >/dev/null 2>&1; then
  RSS_TOOL="GNU time"
else
  RSS_TOOL="benches/maxrss.c"
fi
peak_kib() {
  if [ "$RSS_TOOL" = "GNU time" ]; then
    /usr/bin/time -f %M -o "$WORK/rss" "$@" >/dev/null 2>&1 || true
  else
    "$WORK/maxrss" "$@" 2>"$WORK/rss" >/dev/null || true
  fi
  tail -1 "$WORK/rss"
}

# rss_row FIGURE KIB LIMIT_KIB LIMIT_TEXT: a memory row against a limit.
rss_row() {
  local figure=$1 kib=$2 limit=$3 text=$4 mib result
  mib=$(awk -v k="$kib" 'BEGIN { printf "%.1f", k / 1024 }')
  result=$(awk -v k="$kib" -v l="$limit" 'BEGIN { print (k <= l) ? "pass" : "**miss**" }')
  ROWS+=("| $figure | $mib MiB | - | - | $text | $result |")
  log "  $figure: $mib MiB (limit: $text)"
}

# A plugin tree with N host-volume plugins: plugins/host-volume/pNNN.
plugin_tree() {
  local dir=$1 n=$2 body=$3 i
  mkdir -p "$dir/host-volume"
  for i in $(seq -w 1 "$n"); do
    printf '#!/bin/sh\n%s\n' "$body" >"$dir/host-volume/p$i"
    chmod 755 "$dir/host-volume/p$i"
  done
}

ANSWER="echo '{\"version\": \"1.0.0\"}'"

# --- fingerprint: 40 plugins that each take 0.5 s -------------------------
log "fingerprint: 40 plugins of 0.5 s each..."
SLOW=$WORK/slow
plugin_tree "$SLOW" 40 "sleep 0.5; $ANSWER"
FP="$PLUGCTL --plugin-dir $SLOW --registry $WORK/slow-registry.json fingerprint --type host-volume"
compare 5 "" "$FP" "$SLOW/host-volume/p01 fingerprint"
row "fingerprint, 40 plugins × 0.5 s" "${MEDIANS[0]}" "one plugin" "${MEDIANS[1]}" 1.2
ours=${MEDIANS[0]}
compare 1 "" "sh -c 'for p in $SLOW/host-volume/*; do \$p fingerprint >/dev/null; done'"
row "fingerprint, 40 plugins × 0.5 s" "$ours" "sequential shell loop" "${MEDIANS[0]}" -

# --- fingerprint: 200 trivial sh plugins ----------------------------------
log "fingerprint: 200 trivial plugins..."
FAST=$WORK/fast
plugin_tree "$FAST" 200 "$ANSWER"
FP="$PLUGCTL --plugin-dir $FAST --registry $WORK/fast-registry.json fingerprint --type host-volume"
# xargs cannot exec a command named by its input (GNU xargs does not replace
# {} in the command name): one helper exec per plugin (env, the lightest).
compare 20 "" "$FP" \
  "sh -c 'ls -d $FAST/host-volume/* | xargs -P 64 -I{} env {} fingerprint >/dev/null'" \
  "$WORK/floor_spawn -P 64 -d $FAST/host-volume"
row "fingerprint, 200 trivial sh plugins" "${MEDIANS[0]}" "xargs -P 64 (+ env)" "${MEDIANS[1]}" 0.8
row "fingerprint, 200 trivial sh plugins" "${MEDIANS[0]}" "floor (C, posix_spawn, 64 at once)" "${MEDIANS[2]}" 1.2
# Against an earlier plugctl (a release build of another commit), measured
# side by side: what a change to the hot path costs, e.g. the trust gate's
# walks (BASELINE_PLUGCTL=/path/to/old/plugctl benches/run.sh).
if [ -n "${BASELINE_PLUGCTL:-}" ]; then
  cp "$BASELINE_PLUGCTL" "$WORK/bin/plugctl-baseline"
  FPB="$WORK/bin/plugctl-baseline --plugin-dir $FAST --registry $WORK/fast-registry-base.json fingerprint --type host-volume"
  compare 20 "" "$FP" "$FPB"
  row "fingerprint, 200 trivial sh plugins" "${MEDIANS[0]}" "the same by \$BASELINE_PLUGCTL" "${MEDIANS[1]}" 1.05
fi

# --- the sandbox: the same 200 plugins under trim and strict ----------------
# Against --sandbox none in the same run. The tree lies outside /tmp (as a
# node's plugin directory does): under strict, a plugin in /tmp costs each
# call a mount namespace of its own (the last row, without a target).
log "fingerprint: 200 trivial plugins under each sandbox level..."
if [ "$(id -u)" = 0 ]; then
  SB=$TARGET/bench-sandbox
  rm -rf "$SB"
  plugin_tree "$SB" 200 "$ANSWER"
  chmod 755 "$SB"
  SBFP="$PLUGCTL --nomad-config none --plugin-dir $SB --registry $WORK/sb-registry.json fingerprint --type host-volume"
  compare 20 "" "$SBFP --sandbox none" "$SBFP --sandbox trim" "$SBFP --sandbox strict" \
    "$SBFP --sandbox trim --files-max 4096"
  row "fingerprint, 200 plugins, --sandbox trim" "${MEDIANS[1]}" "--sandbox none" "${MEDIANS[0]}" 1.05
  row "fingerprint, 200 plugins, --sandbox strict" "${MEDIANS[2]}" "--sandbox none" "${MEDIANS[0]}" 1.3
  row "fingerprint, 200 plugins, trim with a cap (fork and exec)" "${MEDIANS[3]}" "--sandbox none" "${MEDIANS[0]}" -
  compare 10 "" "$FP --sandbox none" "$FP --sandbox strict"
  row "fingerprint, 200 plugins in /tmp, --sandbox strict" "${MEDIANS[1]}" "--sandbox none" "${MEDIANS[0]}" -
  rm -rf "$SB"
else
  log "  not root: the sandbox rows need root (namespaces, cgroups)"
fi

# --- what each call cost: the usage accounting ------------------------------
# The same binary, with the accounting (a pidfd and a waitid per call, the
# orphans' usage, the tally in the registry) and without it; each with a
# registry of its own, as it is after its first run. Both through env, so
# that neither pays for an exec the other does not.
log "fingerprint of 200 plugins with and without the usage accounting..."
ACC="--plugin-dir $FAST fingerprint --type host-volume"
compare 20 "" "env PLUGCTL_BENCH_NO_USAGE=0 $KNOBS --registry $WORK/acc-on.json $ACC" \
  "env PLUGCTL_BENCH_NO_USAGE=1 $KNOBS --registry $WORK/acc-off.json $ACC"
row "fingerprint, 200 plugins, usage accounting" "${MEDIANS[0]}" "the same without it" \
  "${MEDIANS[1]}" 1.02

# --- fleet: the textfile written by fingerprint ----------------------------
log "fingerprint --textfile on 200 plugins..."
mkdir -p "$WORK/textfile"
compare 20 "" "$FP --textfile $WORK/textfile" "$FP"
row "fingerprint --textfile, 200 plugins" "${MEDIANS[0]}" "fingerprint alone" "${MEDIANS[1]}" 1.05

# --- provenance: pin --check, volume audit --------------------------------
log "pin --check on 200 plugins..."
"$PLUGCTL" --plugin-dir "$FAST" --registry "$WORK/fast-registry.json" pin >/dev/null 2>&1
# The honest floor: hashing the same files in one process.
compare 20 "" "$PLUGCTL --plugin-dir $FAST --registry $WORK/fast-registry.json pin --check" \
  "sh -c 'sha256sum $FAST/host-volume/* >/dev/null'"
row "pin --check, 200 plugins" "${MEDIANS[0]}" "sha256sum of the same files" "${MEDIANS[1]}" 1.5
log "volume audit on 100 volumes of 1,000 files..."
AUD=$WORK/audit
mkdir -p "$AUD/none"
for i in $(seq 1 100); do
  "$PLUGCTL" --plugin-dir "$AUD/none" --registry "$AUD/registry.json" --volumes-dir "$AUD/volumes" \
    volume create --plugin mkdir --name "v$i" >/dev/null
done
for d in "$AUD"/volumes/*/; do
  (cd "$d" && seq 1 1000 | xargs touch && head -c 100000 /dev/zero >data)
done
compare 10 "" "$PLUGCTL --plugin-dir $AUD/none --registry $AUD/registry.json --volumes-dir $AUD/volumes volume audit" \
  "du -s $AUD/volumes"
row "volume audit, 100k files" "${MEDIANS[0]}" "du -s" "${MEDIANS[1]}" 1.3

# --- peak RSS while a plugin prints 300 MB --------------------------------
log "peak RSS under a 300 MB stdout flood..."
FLOOD=$WORK/flood
mkdir -p "$FLOOD/host-volume"
printf '#!/bin/sh\nyes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx | head -c 300000000\n' \
  >"$FLOOD/host-volume/flood"
chmod 755 "$FLOOD/host-volume/flood"
FP=("$PLUGCTL" --plugin-dir "$FLOOD" --registry "$WORK/flood-registry.json" fingerprint flood)
rss_row "peak RSS, a plugin prints 300 MB" "$(peak_kib "${FP[@]}")" $((64 * 1024)) "≤ 64 MiB"

# --- the registry with 1,000 / 10,000 / 100,000 volumes -------------------
# Baselines, measured on the same file in the same run: a typed serde parse
# (the floor of any command that reads the registry: list writes nothing),
# and a typed parse plus one atomic write (the floor of one that changes it).
# An empty plugin directory: one that is named must exist (mkdir is built in).
mkdir -p "$WORK/none"
GROWTH=()
for sized in 1000:1,000 10000:10,000 100000:100,000; do
  n=${sized%%:*} label=${sized#*:}
  log "registry with $label volumes..."
  runs=10
  [ "$n" -ge 100000 ] && runs=5
  base=$WORK/registry-$n.base.json
  reg=$WORK/registry-$n.json
  vols=$WORK/volumes-$n
  mkdir -p "$vols"
  "$REGISTRY_FLOOR" gen "$n" "$base" "$vols"
  P="$PLUGCTL --registry $reg --volumes-dir $vols --plugin-dir $WORK/none"
  # As a node's registry is after its first write: one plugctl write (a
  # registration, which adds no volume) made its journal. Every timed run
  # starts from the same file and journal (create adds a volume and
  # appends, the floor rewrites the file); the copy is not timed.
  first=$WORK/registry-$n.first.json
  cp "$base" "$first"
  cold="sh -c 'cp $first $reg; rm -f $reg.journal.*'"
  eval "$cold"
  $P plugin register --type bench --name warm --alloc-id a --socket "$WORK/none.sock" >/dev/null
  journal=$WORK/journal-$n
  mkdir -p "$journal"
  cp "$reg" "$base"
  cp "$reg".journal.* "$journal/"
  fresh="sh -c 'cp $base $reg; rm -f $reg.journal.*; cp $journal/* $WORK/'"
  size_bytes=$(stat -c %s "$base")
  size=$(awk -v b="$size_bytes" 'BEGIN {printf "%.1f MB", b / 1048576}')
  compare "$runs" "$fresh" "$P volume list" "$P --json volume list" \
    "$P volume create --plugin mkdir --name bench-new" \
    "$REGISTRY_FLOOR parse $reg" "$REGISTRY_FLOOR $reg"
  list=${MEDIANS[0]} json=${MEDIANS[1]} create=${MEDIANS[2]} parse=${MEDIANS[3]} floor=${MEDIANS[4]}
  row "volume list, $label volumes ($size)" "$list" "floor: typed parse" "$parse" 1.2
  row "volume list --json, $label volumes" "$json" "floor: typed parse" "$parse" 1.3
  row "volume create, $label volumes" "$create" "floor: typed parse + atomic write" "$floor" 1.2
  if [ "$n" = 1000 ]; then
    # The registry's very first write also makes its journal (its header
    # and the file that records it, each durable): once per registry.
    compare "$runs" "$cold" \
      "$P volume create --plugin mkdir --name bench-new" "$REGISTRY_FLOOR $reg"
    row "volume create, the registry's first write, $label volumes" "${MEDIANS[0]}" \
      "floor: typed parse + atomic write" "${MEDIANS[1]}" -
  fi
  if [ "$n" -ge 100000 ]; then
    compare "$runs" "$fresh" "$P metrics" "$P volume list"
    row "metrics, $label volumes" "${MEDIANS[0]}" "volume list" "${MEDIANS[1]}" 1.5
    # Memory: every command at most twice the file plus 32 MiB; the JSON
    # list at most 1.3 times what the typed parse alone takes.
    eval "$fresh"
    limit=$(( size_bytes * 2 / 1024 + 32 * 1024 ))
    limit_text="≤ 2 × file + 32 MiB = $(( limit / 1024 )) MiB"
    parse_kib=$(peak_kib "$REGISTRY_FLOOR" parse "$reg")
    log "  floor: typed parse peaks at $(( parse_kib / 1024 )) MiB"
    for cmd in "volume list" "--json volume list" "volume show volume-7" "metrics" "plugin list" \
      "volume audit" "volume create --plugin mkdir --name bench-rss"; do
      # shellcheck disable=SC2086
      rss_row "peak RSS, $cmd, $label volumes" "$(peak_kib $P $cmd)" "$limit" "$limit_text"
    done
    # shellcheck disable=SC2086
    kib=$(peak_kib $P --json volume list)
    rss_row "peak RSS, --json volume list vs typed parse ($(( parse_kib / 1024 )) MiB)" \
      "$kib" $(( parse_kib * 13 / 10 )) "≤ 1.3 × parse"
    log "  volume restore of $label volumes (once)..."
    eval "$fresh"
    # shellcheck disable=SC2086
    rss_row "peak RSS, volume restore, $label volumes" "$(peak_kib $P volume restore)" \
      "$limit" "$limit_text"
    rm -rf "$vols"
  fi
  GROWTH+=("| $label | $size | $(ms "$parse") | $(ms "$floor") | $(ms "$list") | $(ms "$json") | $(ms "$create") |")
  rm -rf "$base" "$first" "$reg" "$reg".journal.* "$journal"
done

# --- the event log: 1,000,000 events -------------------------------------
log "events on a journal of 1,000,000 events..."
EV=$WORK/events/registry.json
mkdir -p "$WORK/events"
"$REGISTRY_FLOOR" events 1000000 "$EV"
rss_row "peak RSS, events, 1,000,000 events" \
  "$(peak_kib "$PLUGCTL" --registry "$EV" --json events)" $((64 * 1024)) "≤ 64 MiB"
rss_row "peak RSS, events --since 999000, 1,000,000 events" \
  "$(peak_kib "$PLUGCTL" --registry "$EV" --json events --since 999000)" $((64 * 1024)) "≤ 64 MiB"
rm -rf "$WORK/events"

# --- a follower of a 15 MB registry ---------------------------------------
log "events --follow on a 15 MB registry: 20 s idle, then 50 writes..."
FR=$WORK/follow/registry.json
mkdir -p "$WORK/follow"
"$REGISTRY_FLOOR" gen 22500 "$FR" "$WORK/follow/volumes"
read -r idle_cpu median_ms max_ms < <("$FOLLOW" "$PLUGCTL" "$FR" 20 50)
ok=$(awk -v c="$idle_cpu" 'BEGIN { print (c <= 0.1) ? "pass" : "**miss**" }')
ROWS+=("| idle follower, 15 MB registry, CPU over 20 s | ${idle_cpu} % of a core | - | - | ≤ 0.1 % | $ok |")
ok=$(awk -v m="$median_ms" 'BEGIN { print (m <= 10) ? "pass" : "**miss**" }')
ROWS+=("| a write seen by a follower (median of 50; max ${max_ms} ms) | ${median_ms} ms | - | - | ≤ 10 ms | $ok |")
log "  follower: idle ${idle_cpu} % CPU, write seen in ${median_ms} ms (max ${max_ms} ms)"
rm -rf "$WORK/follow"

# --- startup --------------------------------------------------------------
log "startup..."
EMPTY="--registry $WORK/empty/registry.json --plugin-dir $WORK/none"
compare 300 "" "$PLUGCTL --version" "$CLAP_FLOOR --version" \
  "$PLUGCTL $EMPTY plugin list" "$CLAP_FLOOR plugin list"
row "startup: --version" "${MEDIANS[0]}" "clap-only binary" "${MEDIANS[1]}" 2
row "startup: plugin list, empty registry" "${MEDIANS[2]}" "clap-only binary" "${MEDIANS[3]}" 2

# --- the report -----------------------------------------------------------
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)
cat <<EOF
Machine: $(nproc) CPUs ($cpu), Linux $(uname -r), $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo) RAM; load average at the end $(cut -d' ' -f1-3 /proc/loadavg).
Timer: $TIMER (median); peak RSS: $RSS_TOOL; $(rustc --version).

| figure | plugctl | baseline | ratio | target | result |
|---|---|---|---|---|---|
EOF
printf '%s\n' "${ROWS[@]}"
cat <<EOF

Registry cost by size (median wall time of the whole process):

| volumes | file | floor: parse | floor: parse + atomic write | volume list | volume list --json | volume create |
|---|---|---|---|---|---|---|
EOF
printf '%s\n' "${GROWTH[@]}"
