#!/bin/sh
# Runs docs/CLUSTER.md's GNU parallel recipe without a shared folder (--sshlogin,
# --basefile, --return, --cleanup) against a real sshd on this machine, and checks that
# the joined file is byte-identical to the same parts rendered and joined locally.
# Opt-in (not in CI): installs openssh-server, rsync and parallel with apt when missing,
# starts a loopback sshd on a high port with a throwaway host key and a throwaway
# authorized key (logins land in a folder of their own, standing in for the other host),
# runs the recipe with the host list replaced by that login, compares, and stops the sshd
# it started. Run as root (or it uses sudo).
#   sh scripts/test-ssh.sh [path/to/specviz]     (default: specviz on PATH, else .build/release)
# KEEP=1 keeps the work folder (logs, parts). SECONDS_OF_AUDIO (default 4) sets the input;
# PORT (default 22000 + pid % 1000) the sshd's port; JOBS (default 2) the jobs on the host.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$(command -v specviz || echo "$here/.build/release/specviz")}
[ -x "$bin" ] || { echo "test-ssh: no specviz binary at '$bin' (swift build -c release, or give its path)" >&2; exit 1; }
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
port=${PORT:-$((22000 + $$ % 1000))}

missing=""
for p in openssh-server openssh-client rsync parallel; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "test-ssh: installing$missing"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

work=$(mktemp -d /tmp/specviz-ssh.XXXXXX)
chmod 755 "$work"
cleanup() {
  status=$?
  if [ -f "$work/sshd.pid" ]; then
    pid=$(cat "$work/sshd.pid")
    $SUDO kill "$pid" 2>/dev/null || true
    n=0
    while $SUDO kill -0 "$pid" 2>/dev/null && [ "$n" -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
  fi
  if [ "$status" -ne 0 ]; then
    [ -f "$work/sshd.log" ] && { echo "--- $work/sshd.log"; tail -n 20 "$work/sshd.log"; }
    echo "test-ssh: FAILED (work folder kept: $work)" >&2
  elif [ "${KEEP:-}" = 1 ]; then
    echo "test-ssh: work folder kept: $work"
  else
    $SUDO rm -rf "$work" || true
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Throwaway keys: the server's host key and the client's login key.
mkdir -p "$work/bin" "$work/run" "$work/remote" "$work/local"
ssh-keygen -q -t ed25519 -N '' -C specviz-test-host -f "$work/host_key"
ssh-keygen -q -t ed25519 -N '' -C specviz-test-login -f "$work/id"
cp "$work/id.pub" "$work/authorized_keys"
chmod 600 "$work/authorized_keys"
ln -s "$bin" "$work/bin/specviz"
user=$(id -un)

# The sshd: loopback only, this key only, specviz on the session's PATH, and every command
# (the recipe's and rsync's) run in $work/remote, the "other host"'s home.
cat >"$work/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $work/host_key
PidFile $work/sshd.pid
AuthorizedKeysFile $work/authorized_keys
AllowUsers $user
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
X11Forwarding no
SetEnv PATH=$work/bin:/usr/local/bin:/usr/bin:/bin
ForceCommand cd $work/remote && exec "\$SHELL" -c "\$SSH_ORIGINAL_COMMAND"
EOF
$SUDO mkdir -p /run/sshd
$SUDO /usr/sbin/sshd -t -f "$work/sshd_config"
$SUDO /usr/sbin/sshd -f "$work/sshd_config" -E "$work/sshd.log"

cat >"$work/ssh_config" <<EOF
Host specviz-loop
  HostName 127.0.0.1
  Port $port
  User $user
  IdentityFile $work/id
  IdentitiesOnly yes
  BatchMode yes
  StrictHostKeyChecking yes
  UserKnownHostsFile $work/known_hosts
EOF
echo "[127.0.0.1]:$port $(cut -d' ' -f1,2 "$work/host_key.pub")" >"$work/known_hosts"
n=0
until ssh -F "$work/ssh_config" specviz-loop true 2>/dev/null; do
  n=$((n + 1))
  [ "$n" -le 50 ] || { echo "test-ssh: cannot log in to the loopback sshd on port $port" >&2; exit 1; }
  sleep 0.2
done
[ "$(ssh -F "$work/ssh_config" specviz-loop pwd)" = "$work/remote" ] || { echo "test-ssh: the login does not land in $work/remote" >&2; exit 1; }
echo "test-ssh: sshd up on 127.0.0.1:$port"

# The recipe from the docs: the indented lines after "Without a shared folder", with the
# hosts replaced by the loopback login.
awk '/Without a shared folder/ { on = 1; next } on && /^    / { print substr($0, 5); got = 1; next }
  on && got && !/^    / { exit }' "$here/docs/CLUSTER.md" >"$work/recipe.sh"
grep -q -- '--basefile' "$work/recipe.sh" && grep -q -- '--return' "$work/recipe.sh" ||
  { echo "test-ssh: cannot find the parallel recipe without a shared folder in docs/CLUSTER.md" >&2; exit 1; }
sed -i "s#-S [^ ]*#-S ${JOBS:-2}/specviz-loop#" "$work/recipe.sh"
parts=$(sed -n 's#.*--segment {}/\([0-9]*\).*#\1#p' "$work/recipe.sh" | head -n 1)
echo "test-ssh: the recipe renders $parts segments; running:"
sed 's/^/    /' "$work/recipe.sh"

export PATH="$work/bin:$PATH"
export PARALLEL_SSH="ssh -F $work/ssh_config"
export PARALLEL_HOME="$work/parallel-home"
cd "$work/run"
specviz tone A2 E3 A3 --duration "${SECONDS_OF_AUDIO:-4}" -o set.flac >/dev/null
sh -eu ./../recipe.sh
[ -s set.mp4 ] || { echo "test-ssh: the recipe wrote no set.mp4" >&2; exit 1; }
for k in $(seq 1 "$parts"); do
  [ -s "part$k.mp4" ] || { echo "test-ssh: part$k.mp4 did not come back (--return)" >&2; exit 1; }
done
left=$(find "$work/remote" -type f | wc -l)
[ "$left" -eq 0 ] || { echo "test-ssh: --cleanup left $left files on the host" >&2; find "$work/remote" -type f >&2; exit 1; }

# The same parts and sound rendered here, without ssh, and joined the same way.
cd "$work/local"
ln -s ../run/set.flac set.flac
for k in $(seq 1 "$parts"); do specviz render set.flac --segment "$k/$parts" -o "part$k.mp4" --quiet; done
specviz render set.flac --audio-only -o audio.m4a --quiet
grep '^specviz join' "$work/recipe.sh" >join.sh
sh -eu ./join.sh
if cmp "$work/run/set.mp4" "$work/local/set.mp4"; then
  echo "test-ssh: ok: the joined set.mp4 of parts rendered over ssh ($(stat -c %s "$work/run/set.mp4") bytes) equals the local join"
else
  echo "test-ssh: the ssh recipe's join differs from the local join" >&2
  exit 1
fi
