"""rospy's SimpleActionServer for the round-trip benchmark (bench.py): each goal is
accepted, gets one feedback and succeeds. MODE is `goal_cb` (goal callback) or
`execute_cb` (execute-callback thread).

Usage: python3 py_bench_server.py NS MODE
"""
import sys

import rospy
from actionlib import SimpleActionServer
from actionlib.msg import TestAction, TestFeedback, TestResult


def main():
    ns, mode = sys.argv[1], sys.argv[2]
    rospy.init_node("py_bench_server_" + mode)
    if mode == "execute_cb":
        def execute(goal):
            s.publish_feedback(TestFeedback(goal.goal))
            s.set_succeeded(TestResult(goal.goal))
        s = SimpleActionServer(ns, TestAction, execute, False)
    else:
        s = SimpleActionServer(ns, TestAction, None, False)

        def on_goal():
            g = s.accept_new_goal()
            s.publish_feedback(TestFeedback(g.goal))
            s.set_succeeded(TestResult(g.goal))
        s.register_goal_callback(on_goal)
    s.start()
    print("ready", flush=True)
    rospy.spin()


if __name__ == "__main__":
    main()
