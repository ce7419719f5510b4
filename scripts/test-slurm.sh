#!/bin/sh
# Runs docs/CLUSTER.md's Slurm recipe on a real Slurm on this machine, and checks that the
# joined file is byte-identical to the same parts rendered and joined locally.
# Opt-in (not in CI): installs munge, slurmctld and slurmd with apt, writes a one-node
# slurm.conf in a temporary folder (this machine's CPUs, no cgroup plugins), starts munged,
# slurmctld and slurmd by hand (no systemd), submits the array job and its afterok join,
# waits, compares, and stops the daemons it started. Run as root (or it uses sudo).
#   sh scripts/test-slurm.sh [path/to/specviz]     (default: specviz on PATH, else .build/release)
# KEEP=1 keeps the work folder (logs, parts). SECONDS_OF_AUDIO (default 4) sets the input.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$(command -v specviz || echo "$here/.build/release/specviz")}
[ -x "$bin" ] || { echo "test-slurm: no specviz binary at '$bin' (swift build -c release, or give its path)" >&2; exit 1; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"

missing=""
for p in munge slurmctld slurmd slurm-client; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "test-slurm: installing$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

work=$(mktemp -d /tmp/specviz-slurm.XXXXXX)
chmod 755 "$work"
started_munged=""
cleanup() {
  status=$?
  [ -n "${SLURM_CONF:-}" ] && $SUDO env SLURM_CONF="$SLURM_CONF" scancel --quiet --user="$(id -un)" 2>/dev/null || true
  pids=""
  for f in "$work/slurmd.pid" "$work/slurmctld.pid"; do [ -f "$f" ] && pids="$pids $(cat "$f")"; done
  [ -n "$started_munged" ] && [ -f /run/munge/munged.pid ] && pids="$pids $(cat /run/munge/munged.pid)"
  for pid in $pids; do $SUDO kill "$pid" 2>/dev/null || true; done
  # Each saves its state and exits: wait (at most 20 s) before removing their folder.
  n=0
  for pid in $pids; do
    while $SUDO kill -0 "$pid" 2>/dev/null && [ "$n" -lt 200 ]; do sleep 0.1; n=$((n + 1)); done
  done
  if [ "$status" -ne 0 ]; then
    for f in "$work"/*.log "$work"/run/slurm-*.out; do [ -f "$f" ] && { echo "--- $f"; tail -n 20 "$f"; }; done
    echo "test-slurm: FAILED (work folder kept: $work)" >&2
  elif [ "${KEEP:-}" = 1 ]; then
    echo "test-slurm: work folder kept: $work"
  else
    $SUDO rm -rf "$work" || true
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# munge: the key the package made, the daemon as its own user (unless one already answers).
if ! munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
  $SUDO mkdir -p /run/munge /var/log/munge /var/lib/munge
  $SUDO chown munge:munge /run/munge /var/log/munge /var/lib/munge
  [ -s /etc/munge/munge.key ] || $SUDO runuser -u munge -- mungekey --create
  $SUDO runuser -u munge -- /usr/sbin/munged
  started_munged=1
  munge -n | unmunge >/dev/null
fi

cpus=$(nproc)
mkdir -p "$work/state" "$work/spool" "$work/run" "$work/bin"
cat >"$work/slurm.conf" <<EOF
ClusterName=specviz-test
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
NodeName=localhost NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
$SUDO env SLURM_CONF="$SLURM_CONF" slurmctld -i
$SUDO env SLURM_CONF="$SLURM_CONF" slurmd -N localhost
n=0
until sinfo -h -N -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; do
  n=$((n + 1))
  [ "$n" -le 60 ] || { echo "test-slurm: the node did not come up" >&2; sinfo -N >&2 || true; exit 1; }
  sleep 1
done
echo "test-slurm: slurm up, 1 node with $cpus CPUs"

# The recipe from the docs: the sbatch script (the ```sh block after "**Slurm array**") and
# the indented submit lines after it.
awk '/^\*\*Slurm array\*\*/ { on = 1 } on && /^```sh/ { grab = 1; next } grab && /^```/ { exit } grab' \
  "$here/docs/CLUSTER.md" >"$work/run/segments.sbatch"
awk '/^\*\*Slurm array\*\*/ { on = 1 } on && /^```/ { fences++; next } on && fences == 2 && /^    [^ ]/ { print substr($0, 5); got = 1; next }
  got && !/^    / { exit }' "$here/docs/CLUSTER.md" >"$work/run/submit.sh"
grep -q -- '--array=' "$work/run/segments.sbatch" && grep -q 'afterok' "$work/run/submit.sh" ||
  { echo "test-slurm: cannot find the Slurm recipe in docs/CLUSTER.md" >&2; exit 1; }
parts=$(sed -n 's/.*--array=1-\([0-9]*\).*/\1/p' "$work/run/segments.sbatch")
echo "test-slurm: the recipe renders $parts segments; submitting:"
sed 's/^/    /' "$work/run/submit.sh"

ln -s "$bin" "$work/bin/specviz"
export PATH="$work/bin:$PATH"
cd "$work/run"
specviz tone A2 E3 A3 --duration "${SECONDS_OF_AUDIO:-4}" -o set.flac >/dev/null
sh ./submit.sh
n=0
while [ -n "$(squeue -h -o %i)" ]; do
  if squeue -h -o %r | grep -q DependencyNeverSatisfied; then
    echo "test-slurm: a segment failed, so the afterok join can never run" >&2
    exit 1
  fi
  n=$((n + 1))
  [ "$n" -le 900 ] || { echo "test-slurm: the jobs did not finish in 15 minutes" >&2; squeue >&2; exit 1; }
  sleep 1
done
[ -s set.mp4 ] || { echo "test-slurm: the join wrote no set.mp4" >&2; exit 1; }

# The same parts rendered here, without Slurm, and joined the same way.
mkdir -p "$work/local" && cd "$work/local"
ln -s ../run/set.flac set.flac
for k in $(seq 1 "$parts"); do specviz render set.flac --segment "$k/$parts" -o "part$k.mp4" --quiet; done
join=$(sed -n "s/.*--wrap '\\(.*\\)'.*/\\1/p" "$work/run/submit.sh" | sed 's#parts/part#part#g')
sh -c "$join"
if cmp "$work/run/set.mp4" "$work/local/set.mp4"; then
  echo "test-slurm: ok: the Slurm array's joined set.mp4 ($(stat -c %s "$work/run/set.mp4") bytes) equals the local join"
else
  echo "test-slurm: the Slurm join differs from the local join" >&2
  exit 1
fi
