"""Memory of an action server after a burst: CLIENTS Python
SimpleActionClients (one process, as a Python node has them) send goals back to back to
the server at SERVER_NS for SECONDS, so that the status lists grow long (every goal of
the last 5 s) and the clients, decoding them under one GIL, read slower than the server
publishes; then nothing happens for IDLE seconds. Prints the server process's resident
memory (VmRSS, /proc/PID/status) before, its peak while the burst ran (sampled every
0.5 s), and after the idle time. Not a check: bench.sh runs it beside rospy's server.

Usage: python3 bench_memory.py NAME SERVER_NS SERVER_PID [SECONDS [IDLE [CLIENTS]]]
"""
import sys
import threading
import time

import rospy
from actionlib import SimpleActionClient
from actionlib.msg import TestAction, TestGoal


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def main():
    name, ns, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 45
    idle = float(sys.argv[5]) if len(sys.argv) > 5 else 15
    n_clients = int(sys.argv[6]) if len(sys.argv) > 6 else 5
    rospy.init_node("bench_memory", anonymous=True, disable_signals=True)
    clients = [SimpleActionClient(ns, TestAction) for _ in range(n_clients)]
    for c in clients:
        if not c.wait_for_server(rospy.Duration(10)):
            sys.exit("no server at %s" % ns)
    before = rss_mb(pid)
    stop = time.time() + seconds
    goals = [0] * n_clients

    def worker(k):
        c = clients[k]
        while time.time() < stop:
            c.send_goal(TestGoal(k))
            c.wait_for_result(rospy.Duration(5))
            goals[k] += 1

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(n_clients)]
    for t in threads:
        t.start()
    peak = before
    while any(t.is_alive() for t in threads):
        peak = max(peak, rss_mb(pid))
        time.sleep(0.5)
    end = rss_mb(pid)
    time.sleep(idle)
    after = rss_mb(pid)
    print("%-26s memory: %d goals from %d clients in %.0f s; RSS before %.1f MB, peak %.1f MB, at the end %.1f MB, after %.0f s idle %.1f MB"
          % (name, sum(goals), n_clients, seconds, before, peak, end, idle, after))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
