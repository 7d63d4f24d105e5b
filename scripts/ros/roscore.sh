# Sourced by run.sh and bench.sh: a scratch directory ($tmp), the pids to stop ($pids,
# newest first, on exit: SIGINT, then SIGKILL after 10 s), and roscore on a free port of
# 127.0.0.1 ($ROS_MASTER_URI), waited for. Needs $ROS_PY.
tmp="$(mktemp -d)"
pids=()
cleanup() {
  # newest first; roscore stops its master and rosout itself on SIGINT
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -INT "${pids[i]}" 2>/dev/null || true; done
  for _ in $(seq 50); do
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && break
    sleep 0.2
  done
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
port="$($ROS_PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export ROS_MASTER_URI="http://127.0.0.1:$port" ROS_IP=127.0.0.1 ROS_HOME="$tmp/home"
roscore -p "$port" >"$tmp/roscore.log" 2>&1 &
pids+=($!)
master_up=0
for _ in $(seq 300); do   # a hang guard of 60 s
  $ROS_PY -c "import xmlrpc.client as x; x.ServerProxy('$ROS_MASTER_URI').getUri('/probe')" 2>/dev/null && { master_up=1; break; }
  sleep 0.2
done
[ "$master_up" = 1 ] || { echo "FAIL roscore did not answer on $ROS_MASTER_URI within 60 s" >&2; tail -20 "$tmp/roscore.log" >&2; exit 1; }
