#!/usr/bin/env bash
# A real single-node Slurm cluster in a folder, for testing `cugrade grade --slurm` (the slurm
# CTest) and measuring it on a GPU machine: its own munge key and socket, its own slurm.conf
# (SLURM_CONF), state and spool folders, logs and pid files; nothing under /etc is read or written.
#
#   scripts/local-slurm.sh start DIR [--gpus N] [--cpus N] [--max-array-size N]
#   scripts/local-slurm.sh stop DIR
#   . DIR/env.sh    # then sbatch, squeue, scontrol and cugrade grade --slurm talk to it
#
# start: munged, slurmctld and slurmd (node "cugrade-node" on 127.0.0.1), no accounting,
#        ProctrackType=proctrack/linuxproc, TaskPlugin=task/none, ReturnToService=1 (a node an
#        administrator set DOWN stays down until `scontrol update state=resume`), a cgroup.conf
#        that lets slurmd start in a container (see below), and N GPUs as
#        generic resources (default: every /dev/nvidiaN of the machine, else 2): /dev/nvidia0..N-1
#        where the machine has them, else character devices made with mknod (as root; a job then
#        sees CUDA_VISIBLE_DEVICES set as on a real node). Waits until the node is idle; exits 77 (and stops what it started) when
#        Slurm is not installed or cannot start, saying why.
# stop:  cancels every job, then ends each daemon it started by the pid in its pid file.
#
# SLURM_PREFIX: where Slurm and munge are when they are not installed, e.g. Debian's packages
# unpacked with `dpkg -x slurm-wlm*.deb DIR` (slurmctld, slurmd, slurm-client, slurm-wlm-basic-plugins,
# libslurm*, munge, libmunge2): binaries under $SLURM_PREFIX/usr/{bin,sbin}, libraries and plugins
# under $SLURM_PREFIX/usr/lib/<arch>/. Default: the installed packages (/).
set -euo pipefail

usage() { sed -n '6,9p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 1; }
[ $# -ge 2 ] || usage
action=$1 dir=$2
shift 2
gpus="" cpus=4 max_array_size=4
while [ $# -gt 0 ]; do
  case $1 in
    --gpus) gpus=$2; shift 2 ;;
    --cpus) cpus=$2; shift 2 ;;
    --max-array-size) max_array_size=$2; shift 2 ;;
    *) usage ;;
  esac
done
prefix=${SLURM_PREFIX:-}
node=cugrade-node

# Ends the process of pid file $1 (TERM, then KILL after 10 s); nothing when it is not running.
end_pid_file() {
  local file=$1 pid
  [ -s "$file" ] || return 0
  pid=$(cat "$file")
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.2; done
  kill -KILL "$pid" 2>/dev/null || true
}

stop() {
  [ -f "$dir/env.sh" ] || return 0
  # shellcheck source=/dev/null
  . "$dir/env.sh"
  # Jobs first, while slurmd can still end their steps: no slurmstepd outlives the cluster.
  if [ -s "$dir/run/slurmctld.pid" ] && kill -0 "$(cat "$dir/run/slurmctld.pid")" 2>/dev/null; then
    # Root cancels everyone's jobs in the partition; another user, their own (the only ones there).
    scancel --quiet --partition=debug 2>/dev/null || true
    for _ in $(seq 50); do
      [ -z "$(squeue --noheader 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  end_pid_file "$dir/run/slurmd.pid"
  end_pid_file "$dir/run/slurmctld.pid"
  end_pid_file "$dir/munge/munged.pid"
}

if [ "$action" = stop ]; then
  stop
  exit 0
fi
[ "$action" = start ] || usage

skip() {
  echo "local-slurm: $*" >&2
  stop 2>/dev/null || true
  exit 77
}

arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo x86_64-linux-gnu)
libdir=$prefix/usr/lib/$arch
plugindir=$libdir/slurm-wlm
[ -f "$plugindir/select_cons_tres.so" ] || skip "no Slurm plugins in $plugindir"

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
# Ordinary users submit jobs here: they reach the munge socket and read the configuration.
chmod 755 "$dir"
mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/log" "$dir/run" "$dir/dev"
chmod 700 "$dir/state" "$dir/spool"
chmod 755 "$dir/munge" "$dir/log" "$dir/run" "$dir/dev"
# A daemon by its name, or through a link of that name to Debian's own file (slurmd-wlm: the
# packages' postinst links slurmd to it, which `dpkg -x` does not run). The name matters: Slurm
# tells its daemons apart by the name they were started under (slurmd-wlm reads no GPUs).
daemon() {
  if [ -x "$prefix/usr/sbin/$1" ]; then
    echo "$prefix/usr/sbin/$1"
  else
    mkdir -p "$dir/bin"
    ln -sfn "$prefix/usr/sbin/$1-wlm" "$dir/bin/$1"
    echo "$dir/bin/$1"
  fi
}
munged=$prefix/usr/sbin/munged slurmctld=$(daemon slurmctld) slurmd=$(daemon slurmd) slurmstepd=$(daemon slurmstepd)
for program in "$munged" "$slurmctld" "$slurmd" "$slurmstepd" "$prefix/usr/bin/sbatch"; do
  [ -x "$program" ] ||
    skip "no $program (apt-get install slurm-wlm munge, or scripts/install-deps.sh --test-tools; or SLURM_PREFIX)"
done
user=$(id -un)

cat >"$dir/env.sh" <<EOF
# Sourced to use the Slurm in $dir.
export SLURM_CONF=$dir/slurm.conf
export PATH=$prefix/usr/bin:$prefix/usr/sbin:\$PATH
export LD_LIBRARY_PATH=$plugindir:$libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
EOF
chmod 644 "$dir/env.sh"
# shellcheck source=/dev/null
. "$dir/env.sh"

# munge: a key of its own; the daemon found through the socket named in AuthInfo.
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
"$munged" --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" ||
  skip "munged did not start: $(tail -n 3 "$dir/munge/munged.log" 2>/dev/null)"
for _ in $(seq 50); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$dir/munge/munge.socket" ] || skip "munged made no socket"

# GPUs: the machine's own, else character devices whose names end in distinct numbers (a
# regular file would give jobs an empty CUDA_VISIBLE_DEVICES).
gres_line="" gres_conf="AutoDetect=off"
if [ -z "$gpus" ]; then  # default: the machine's GPUs, else two fake ones
  gpus=2
  if [ -c /dev/nvidia0 ]; then
    gpus=0
    while [ -c "/dev/nvidia$gpus" ]; do gpus=$((gpus + 1)); done
  fi
fi
if [ "$gpus" -gt 0 ]; then
  real=true
  for i in $(seq 0 $((gpus - 1))); do [ -c "/dev/nvidia$i" ] || real=false; done
  if $real; then
    device_glob="/dev/nvidia[0-$((gpus - 1))]"
  else
    for i in $(seq 0 $((gpus - 1))); do
      [ -c "$dir/dev/gpu$i" ] || mknod "$dir/dev/gpu$i" c 1 3 2>/dev/null ||
        skip "cannot make the fake GPU devices (mknod needs root): start with --gpus 0"
    done
    device_glob="$dir/dev/gpu[0-$((gpus - 1))]"
  fi
  gres_line="Gres=gpu:$gpus"
  gres_conf="$gres_conf
NodeName=$node Name=gpu File=$device_glob"
fi
printf '%s\n' "$gres_conf" >"$dir/gres.conf"

# Ports of its own, so that it neither meets a real cluster's daemons nor another test's.
port=$((20000 + RANDOM % 20000))
memory_mb=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
cat >"$dir/slurm.conf" <<EOF
ClusterName=cugrade-local
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
PluginDir=$plugindir
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
GresTypes=gpu
ReturnToService=1
MaxArraySize=$max_array_size
MinJobAge=60
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$cpus RealMemory=$memory_mb $gres_line State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
chmod 644 "$dir/slurm.conf" "$dir/gres.conf"

"$slurmctld" -c -f "$dir/slurm.conf" ||
  skip "slurmctld did not start: $(tail -n 5 "$dir/log/slurmctld.log" 2>/dev/null)"
# slurmd loads a cgroup plugin even though this cluster constrains nothing (linuxproc, task/none).
# On a cgroup v2 host, v2's plugin asks systemd over D-Bus for a scope, which a container lacks:
# then it makes the scope itself (IgnoreSystemd), and where the container forbids that too, the
# v1 plugin, which creates no cgroup unless a constraining plugin asks, is loaded instead.
for cgroup_conf in "" "IgnoreSystemd=yes" "CgroupPlugin=cgroup/v1"; do
  printf '%s\n' "$cgroup_conf" >"$dir/cgroup.conf"
  chmod 644 "$dir/cgroup.conf"
  "$slurmd" -N "$node" -f "$dir/slurm.conf" -d "$slurmstepd" && break
  grep -q cgroup "$dir/log/slurmd.log" 2>/dev/null ||
    skip "slurmd did not start: $(tail -n 5 "$dir/log/slurmd.log" 2>/dev/null)"
  echo "local-slurm: slurmd did not start with cgroup.conf '$cgroup_conf' ($(grep -m1 -i 'cgroup' "$dir/log/slurmd.log" | cut -c1-160))" >&2
  [ "$cgroup_conf" = "CgroupPlugin=cgroup/v1" ] &&
    skip "slurmd did not start with any cgroup plugin: $(tail -n 5 "$dir/log/slurmd.log" 2>/dev/null)"
  : >"$dir/log/slurmd.log"
done
for _ in $(seq 150); do
  state=$(sinfo --noheader --nodes="$node" --format=%T 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || skip "the node is '$state', not idle, after 30 s: $(tail -n 5 "$dir/log/slurmd.log" "$dir/log/slurmctld.log" 2>/dev/null)"
echo "local-slurm: up in $dir (node $node: $cpus CPUs, $gpus GPUs, MaxArraySize=$max_array_size, cgroup.conf '$cgroup_conf'); . $dir/env.sh"
