"""Goal round trip over ROS 1 on loopback with the Python SimpleActionClient (rospy,
Debian's python3-actionlib): send a goal, the server accepts it, publishes one feedback
and succeeds; the client waits for the result. Also counted: goals whose feedback reached
the client's feedback callback, and the client's own
send_goal race (ros/actionlib#206) and the transitions it ignores in that window.
Compares Skipper's SimpleActionServer
with rospy's (goal-callback and execute-callback modes) under the same client, by the
client's round-trip percentiles and the server process's CPU per goal (the sum of its
threads' /proc schedstat), also less what the server uses without goals (measured
for 5 s before, when goals are paced). Compared with: published figures of rospy's actionlib.

Goals are sequential (one at a time, the next sent when the result is in). RATE paces
them (goals per second; 0 sends the next at once). The pace decides how long the status
list is: every finished goal stays in it for status_list_timeout (5 s), so back to back
at 500 goals/s it holds ~2,500 goals and the Python client spends its time decoding
them, whatever the server. The largest list the client saw is printed.

BENCH_TIMES=FILE writes every round trip (ms); BENCH_NO_GC=1 turns the client's garbage
collector off while measuring (a diagnostic of where the tail comes from).

Usage: python3 bench.py NAME SERVER_NS SERVER_PID [GOALS [RATE]]
"""
import gc
import os
import sys
import time

import actionlib.action_client
import rospy
from actionlib import CommState, SimpleActionClient
from actionlib.msg import TestAction, TestGoal
from actionlib_msgs.msg import GoalStatus


def cpu(pid):
    """CPU time of a process (s): the sum over its threads' schedstat (nanoseconds; the
    clock ticks of /proc/PID/stat are 10 ms, too coarse for a fast server), falling back
    to /proc/PID/stat."""
    total, seen = 0, False
    try:
        for t in os.listdir("/proc/%d/task" % pid):
            try:
                with open("/proc/%d/task/%s/schedstat" % (pid, t)) as f:
                    total += int(f.read().split()[0])
                    seen = True
            except OSError:
                pass  # the thread ended
    except OSError:
        pass
    if seen:
        return total / 1e9
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


longest = [0]
status_msgs = [0]
# transition callbacks the SimpleActionClient ignored because they came for a goal
# handle it did not hold yet (the window of ros/actionlib#206: send_goal stores the
# handle only after publishing the goal); a race is when the ignored one was DONE
ignored_transitions = [0]


def watch_transitions():
    """Count the transitions the SimpleActionClient drops as not its goal's."""
    cb = actionlib.SimpleActionClient._handle_transition

    def handle_transition(self, gh):
        if gh != self.gh:
            ignored_transitions[0] += 1
        return cb(self, gh)
    actionlib.SimpleActionClient._handle_transition = handle_transition


def watch_status_lists():
    """Record the longest status list the client's ActionClient receives."""
    cb = actionlib.action_client.ActionClient._status_cb

    def status_cb(self, msg):
        status_msgs[0] += 1
        if len(msg.status_list) > longest[0]:
            longest[0] = len(msg.status_list)
        return cb(self, msg)
    actionlib.action_client.ActionClient._status_cb = status_cb


def main():
    name, ns, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
    n = int(sys.argv[4]) if len(sys.argv) > 4 else 500
    rate = float(sys.argv[5]) if len(sys.argv) > 5 else 0.0
    watch_status_lists()
    watch_transitions()
    rospy.init_node("bench_client", anonymous=True, disable_signals=True)
    c = SimpleActionClient(ns, TestAction)
    if not c.wait_for_server(rospy.Duration(10)):
        sys.exit("no server at %s" % ns)
    for _ in range(20):  # warm up
        c.send_goal(TestGoal(10))
        c.wait_for_result(rospy.Duration(5))
    idle = 0.0
    if rate > 0:
        # the warm-up goals leave the status list (status_list_timeout 5 s); meanwhile the
        # server's CPU without goals (its status timers) is measured
        time.sleep(1)
        i0, w0 = cpu(pid), time.time()
        time.sleep(5)
        idle = (cpu(pid) - i0) / (time.time() - w0)
    if os.environ.get("BENCH_NO_GC"):
        # a diagnostic: the client's garbage collector out of the tail
        gc.collect()
        gc.disable()
    longest[0] = 0
    status_msgs[0] = 0
    ignored_transitions[0] = 0
    times = []
    failures = 0
    races = 0
    # goals whose one feedback reached the client's feedback callback (the simple client
    # drops a feedback that comes after the result)
    fed = [0]
    cpu0, client0, wall0 = cpu(pid), time.process_time(), time.time()
    period = 1.0 / rate if rate > 0 else 0.0
    next_at = time.perf_counter()
    for _ in range(n):
        if period:
            next_at += period
        t = time.perf_counter()
        got = [False]

        def on_feedback(_fb, got=got):
            got[0] = True
        c.send_goal(TestGoal(10), feedback_cb=on_feedback)
        ok = c.wait_for_result(rospy.Duration(5))
        fed[0] += got[0]
        times.append(time.perf_counter() - t)
        if not ok and c.gh is not None and c.gh.get_comm_state() == CommState.DONE:
            # the client's own send_goal race (ros/actionlib#206): its ActionClient got the
            # result, the simple client ignored it; counted apart, not as a failure
            races += 1
            times.pop()  # its round trip is unknown
        elif not ok or c.get_state() != GoalStatus.SUCCEEDED:
            failures += 1
            sys.stderr.write("goal %d: %s, state %d, text %r\n" % (
                len(times), "result" if ok else "no result within 5 s", c.get_state(), c.get_goal_status_text()))
        if period:
            time.sleep(max(0.0, next_at - time.perf_counter()))
    wall = time.time() - wall0
    server_cpu = (cpu(pid) - cpu0) / n
    server_net = server_cpu - idle * wall / n
    client_cpu = (time.process_time() - client0) / n
    if os.environ.get("BENCH_TIMES"):
        with open(os.environ["BENCH_TIMES"], "w") as f:
            f.write("\n".join("%.3f" % (t * 1e3) for t in times) + "\n")
    times.sort()
    p = lambda q: times[min(len(times) - 1, int(q * len(times)))] * 1e3
    print("%-26s goals %d  failures %d  client races %d  ignored transitions %d  feedback delivered %.1f %%  round trip p50 %.2f  p90 %.2f  p99 %.2f  max %.2f ms  "
          "server CPU/goal %.3f ms (less idle %.3f)  client CPU/goal %.3f ms  %.0f goals/s  status list <= %d  status msgs/goal %.2f"
          % (name, n, failures, races, ignored_transitions[0], 100.0 * fed[0] / n, p(0.5), p(0.9), p(0.99), times[-1] * 1e3, server_cpu * 1e3, server_net * 1e3, client_cpu * 1e3,
             n / wall, longest[0], status_msgs[0] / n))
    sys.stdout.flush()
    os._exit(1 if failures else 0)


if __name__ == "__main__":
    main()
