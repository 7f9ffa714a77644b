#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for tests and for trying the tools/slurm scripts.
#
#   tools/slurm/cluster.sh start  [--dir DIR]   start munged, slurmctld and slurmd; wait for the node to be idle
#   tools/slurm/cluster.sh stop   [--dir DIR]   cancel the cluster's jobs, stop the three daemons
#   tools/slurm/cluster.sh status [--dir DIR]   show the daemons and sinfo; exit 0 when all run, 3 when not
#
# Then point the Slurm commands at the cluster's configuration:
#   export SLURM_CONF=DIR/slurm.conf; sinfo; sbatch ...
#
# Needs root (the daemons run as root: SlurmUser=root) and Debian's packages `slurm-wlm` and
# `munge` (./dev.sh installs them). Everything lives in DIR (default /tmp/janus-slurm): the
# generated slurm.conf, a munge key, socket and log of the cluster's own munged, the controller's
# state, slurmd's spool, pid files and logs (DIR/log). Nothing in /etc is read or written, so it
# neither needs nor disturbs a munged or Slurm the machine may already run; but the cluster uses
# Slurm's default ports 6817 (slurmctld) and 6818 (slurmd), so it cannot run next to a real one.
# start and stop are idempotent: start with everything running only checks the node; start after
# a crash starts what is missing; stop with nothing running does nothing.
#
# The configuration is what Slurm 22.05 (Debian 12) needs on a machine without systemd and
# without cgroup access (a container), see the slurm.conf man page
# (https://slurm.schedmd.com/archive/slurm-22.05.8/slurm.conf.html):
#   ProctrackType=proctrack/linuxproc   tracks a job's processes by parent pid from /proc, no cgroups
#                                       (proctrack/cgroup, the default, needs a writable cgroup tree)
#   TaskPlugin=task/none                no CPU binding or cgroup confinement of tasks
#   JobAcctGatherType=jobacct_gather/none, AccountingStorageType=accounting_storage/none,
#   JobCompType=jobcomp/none            no accounting daemon (slurmdbd) or database; sacct is off,
#                                       so finished jobs are seen with scontrol/squeue (MinJobAge)
#   SelectType=select/cons_tres, SelectTypeParameters=CR_Core
#                                       a job array's tasks share the node, one per core
#   AuthInfo=socket=DIR/munge/munge.socket.2
#                                       auth/munge and cred/munge talk to this cluster's munged
#   SlurmctldHost=<hostname -s>(127.0.0.1), NodeAddr=127.0.0.1
#                                       everything over loopback, whatever the host name resolves to
#   NodeName=... from `slurmd -C`       the machine's real CPUs, sockets, cores and RealMemory
#   MailProg=/bin/true                  the default /bin/mail is not installed ("Configured MailProg is invalid")
set -euo pipefail

usage() { sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

cmd=${1:-}
[ -n "$cmd" ] || usage
shift
dir=/tmp/janus-slurm
while (($#)); do
  case "$1" in
    --dir) dir=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "cluster.sh: unknown argument: $1" >&2; usage ;;
  esac
done
case "$cmd" in start|stop|status) ;; *) echo "cluster.sh: unknown command: $cmd" >&2; usage ;; esac

die() { echo "cluster.sh: $*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (the one-node cluster's daemons run as root)"
for prog in munged mungekey munge unmunge slurmctld slurmd sinfo scontrol squeue scancel; do
  command -v "$prog" >/dev/null || die "$prog not found: apt-get install slurm-wlm munge (./dev.sh test installs them)"
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
conf=$dir/slurm.conf
mungeDir=$dir/munge
socket=$mungeDir/munge.socket.2
export SLURM_CONF=$conf

# pid of daemon NAME from its pid file if that process is alive and is NAME, else nothing.
daemon_pid() {
  local name=$1 pidfile=$2 pid
  [ -s "$pidfile" ] || return 0
  pid=$(<"$pidfile")
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  [ -r "/proc/$pid/comm" ] || return 0
  [ "$(<"/proc/$pid/comm")" = "$name" ] && echo "$pid"
  return 0
}
munged_pid() { daemon_pid munged "$mungeDir/munged.pid"; }
slurmctld_pid() { daemon_pid slurmctld "$dir/slurmctld.pid"; }
slurmd_pid() { daemon_pid slurmd "$dir/slurmd.pid"; }

# wait_for SECONDS DESCRIPTION COMMAND...: retries COMMAND every half second.
wait_for() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 0.5
  done
  echo "cluster.sh: $what" >&2
}

show_log() { echo "--- last lines of $1:" >&2; tail -n 20 "$1" >&2 || true; }

node_state() { sinfo -h -N -o '%T' 2>/dev/null | head -n 1; }
node_idle() { [[ "$(node_state)" =~ ^(idle|mixed|allocated)$ ]]; }
no_jobs() { [ -z "$(squeue -h -o %i)" ]; }
munge_ok() { munge -n -S "$socket" | unmunge -S "$socket"; }

write_conf() {
  local host node
  host=$(hostname -s)
  # `slurmd -C` prints the node line (NodeName=... CPUs=... RealMemory=...) and an UpTime line.
  node=$(slurmd -C | grep '^NodeName=') || die "slurmd -C printed no NodeName line"
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  cat >"$conf.tmp" <<EOF
# Generated by tools/slurm/cluster.sh: a one-node cluster (see that script's header).
ClusterName=janus
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=6817
SlurmdPort=6818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
KillWait=5
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  mv "$conf.tmp" "$conf"
}

start_munged() {
  if [ -n "$(munged_pid)" ] && munge_ok >/dev/null 2>&1; then return; fi
  # munged insists that the socket's directory is searchable by everyone and the key is private
  # to the user it runs as (munged(8)); the key is this cluster's own (mungekey(8)).
  mkdir -p "$mungeDir"
  chmod 755 "$dir" "$mungeDir"
  if [ ! -s "$mungeDir/munge.key" ]; then
    mungekey --create --keyfile="$mungeDir/munge.key" || die "mungekey could not create $mungeDir/munge.key"
  fi
  chmod 600 "$mungeDir/munge.key"
  rm -f "$socket" "$socket.lock"
  munged --socket="$socket" --key-file="$mungeDir/munge.key" --pid-file="$mungeDir/munged.pid" \
    --log-file="$mungeDir/munged.log" --seed-file="$mungeDir/munged.seed" </dev/null >/dev/null 2>&1 ||
    { show_log "$mungeDir/munged.log"; die "munged did not start (its log is above)"; }
  wait_for 10 "munged running ($socket)" munge_ok ||
    { show_log "$mungeDir/munged.log"; die "munged does not answer on $socket"; }
}

# port_busy PORT: something accepts TCP connections on 127.0.0.1:PORT (bash's /dev/tcp).
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start() {
  if [ -z "$(slurmctld_pid)" ] && [ -z "$(slurmd_pid)" ]; then
    for port in 6817 6818; do
      ! port_busy "$port" ||
        die "port $port is in use (another Slurm, e.g. a cluster.sh cluster with another --dir: stop it first)"
    done
    write_conf
  else
    [ -f "$conf" ] || die "Slurm daemons run with pid files in $dir but $conf is missing; stop them first"
  fi
  start_munged
  if [ -z "$(slurmctld_pid)" ]; then
    slurmctld -f "$conf" </dev/null >>"$dir/log/slurmctld.out" 2>&1 ||
      { show_log "$dir/log/slurmctld.log"; die "slurmctld did not start (its log is above)"; }
  fi
  wait_for 30 "slurmctld running" scontrol ping ||
    { show_log "$dir/log/slurmctld.log"; die "slurmctld does not answer (scontrol ping; its log is above)"; }
  if [ -z "$(slurmd_pid)" ]; then
    slurmd -f "$conf" </dev/null >>"$dir/log/slurmd.out" 2>&1 ||
      { show_log "$dir/log/slurmd.log"; die "slurmd did not start (its log is above)"; }
  fi
  if ! wait_for 60 "node $(hostname -s) up" node_idle; then
    # A node that was down (e.g. slurmd killed earlier) may need to be resumed by hand.
    scontrol update NodeName="$(hostname -s)" State=RESUME >/dev/null 2>&1 || true
    wait_for 30 "node $(hostname -s) up after State=RESUME" node_idle || {
      sinfo -N -l >&2 || true
      show_log "$dir/log/slurmd.log"
      show_log "$dir/log/slurmctld.log"
      die "the node did not become idle (state '$(node_state)'; logs above)"
    }
  fi
  sinfo
  echo "cluster.sh: one-node cluster up; use it with: export SLURM_CONF=$conf"
}

# stop_daemon NAME PID: SIGTERM, then SIGKILL after 15 s.
stop_daemon() {
  local name=$1 pid=$2 i
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 30; i++)); do
    [ -d "/proc/$pid" ] || { echo "cluster.sh: stopped $name (pid $pid)"; return 0; }
    sleep 0.5
  done
  kill -9 "$pid" 2>/dev/null || true
  echo "cluster.sh: killed $name (pid $pid) after 15 s" >&2
}

stop() {
  if [ -n "$(slurmctld_pid)" ] && scontrol ping >/dev/null 2>&1; then
    # Jobs first: their processes (slurmstepd and the tasks) outlive slurmd otherwise.
    if [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
      scancel --full --quiet --user=root 2>/dev/null || true
      wait_for 30 "jobs cancelled" no_jobs ||
        echo "cluster.sh: warning: jobs still listed after scancel: $(squeue -h -o '%i %T' | tr '\n' ' ')" >&2
    fi
  fi
  stop_daemon slurmd "$(slurmd_pid)"
  stop_daemon slurmctld "$(slurmctld_pid)"
  stop_daemon munged "$(munged_pid)"
}

status() {
  local all=0 name pid
  for name in munged slurmctld slurmd; do
    pid=$("${name}_pid")
    if [ -n "$pid" ]; then echo "$name: running (pid $pid)"; else echo "$name: not running"; all=3; fi
  done
  if ((all == 0)); then sinfo; echo "SLURM_CONF=$conf"; fi
  return "$all"
}

"$cmd"
