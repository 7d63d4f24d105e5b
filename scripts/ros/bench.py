"""Goal round trip over ROS 1 on loopback with the Python SimpleActionClient (rospy,
Debian's python3-actionlib): send a goal, the server accepts it, publishes one feedback
and succeeds; the client waits for the result. Compares Skipper's SimpleActionServer
with rospy's (goal-callback and execute-callback modes) under the same client, by the
client's round-trip percentiles and the server process's CPU per goal (from
/proc/PID/stat). Compared with: performance-anchors.md, "actionlib in Python".

Usage: python3 bench.py NAME SERVER_NS SERVER_PID [GOALS]
"""
import os
import sys
import time

import rospy
from actionlib import SimpleActionClient
from actionlib.msg import TestAction, TestGoal
from actionlib_msgs.msg import GoalStatus


def cpu(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    name, ns, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 500
    rospy.init_node("bench_client", anonymous=True, disable_signals=True)
    c = SimpleActionClient(ns, TestAction)
    if not c.wait_for_server(rospy.Duration(10)):
        sys.exit("no server at %s" % ns)
    for _ in range(20):  # warm up
        c.send_goal(TestGoal(10))
        c.wait_for_result(rospy.Duration(5))
    times = []
    failures = 0
    cpu0, client0, wall0 = cpu(pid), time.process_time(), time.time()
    for _ in range(n):
        t = time.perf_counter()
        c.send_goal(TestGoal(10))
        ok = c.wait_for_result(rospy.Duration(5))
        times.append(time.perf_counter() - t)
        if not ok or c.get_state() != GoalStatus.SUCCEEDED:
            failures += 1
    wall = time.time() - wall0
    server_cpu = (cpu(pid) - cpu0) / n
    client_cpu = (time.process_time() - client0) / n
    times.sort()
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1e3
    print("%-34s goals %d  failures %d  round trip p50 %.2f  p90 %.2f  p99 %.2f  max %.2f ms  "
          "server CPU/goal %.3f ms  client CPU/goal %.3f ms  %.0f goals/s"
          % (name, n, failures, p(0.5), p(0.9), p(0.99), times[-1] * 1e3, server_cpu * 1e3, client_cpu * 1e3, n / wall))
    sys.stdout.flush()
    os._exit(1 if failures else 0)


if __name__ == "__main__":
    main()
