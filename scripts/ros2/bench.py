"""bench.sh's client: an rclpy ActionClient sends GOALS goto goals to /bench/goto one at
a time (send, accepted, feedback, result) and prints the round trips' p50/p90/p99, and
the server's CPU per goal, net of what it used idle for the same time before.

The CPU is the time on CPU of SERVER_PID's threads from /proc/PID/task/*/schedstat, in
nanoseconds (the servers' threads live as long as they do). The clock ticks of
/proc/PID/stat, which earlier figures used, count in 10 ms steps: about 5 % of a
Skipper round of 500 goals, and 3 s of idle usually read as 0 or 1 tick. Both are
printed; the ticks include threads that ended, so a gap between them would show one."""
import os, sys, time
import rclpy
from rclpy.action import ActionClient
from rclpy.node import Node
from skipper_msgs.action import Goto

goals, pid, label = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
tick = os.sysconf("SC_CLK_TCK")


def ticks():
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / tick


def cpu():
    ns = 0
    for t in os.listdir(f"/proc/{pid}/task"):
        try:
            ns += int(open(f"/proc/{pid}/task/{t}/schedstat").read().split()[0])
        except (OSError, ValueError):  # a thread that ended meanwhile
            pass
    return ns / 1e9


rclpy.init()
node = Node("bench_client")
c = ActionClient(node, Goto, "/bench/goto")
assert c.wait_for_server(timeout_sec=30), "no server"


def one(k):
    f = c.send_goal_async(Goto.Goal(x=float(k), y=1.0), feedback_callback=lambda m: None)
    rclpy.spin_until_future_complete(node, f, timeout_sec=10)
    h = f.result()
    r = h.get_result_async()
    rclpy.spin_until_future_complete(node, r, timeout_sec=10)
    assert r.result().status == 4, r.result().status


for k in range(20):  # warm up (discovery of every endpoint, first allocations)
    one(k)
idle0, t0 = cpu(), time.monotonic()
time.sleep(3)
idle = (cpu() - idle0) / (time.monotonic() - t0)
rtts = []
c0, k0, w0 = cpu(), ticks(), time.monotonic()
for k in range(goals):
    t = time.perf_counter()
    one(k)
    rtts.append((time.perf_counter() - t) * 1e3)
wall, used, used_ticks = time.monotonic() - w0, cpu() - c0, ticks() - k0
rtts.sort()
q = lambda p: rtts[min(len(rtts) - 1, int(p * len(rtts)))]
net = max(0.0, used - idle * wall)
print(f"{label:8s} goals {goals}  round trip p50 {q(0.5):.2f} p90 {q(0.9):.2f} p99 {q(0.99):.2f} ms  "
      f"server CPU per goal {used / goals * 1e3:.3f} ms (net of idle {net / goals * 1e3:.3f} ms; "
      f"by clock ticks {used_ticks / goals * 1e3:.2f} ms)", flush=True)
