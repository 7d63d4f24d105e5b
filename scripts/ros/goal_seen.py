"""rospy's SimpleActionClient of skipper_msgs/Goto (the classes of interfaces/ros1/genpy.sh
on PYTHONPATH) sends one goal (X, Y) to SERVER once the node PEER is connected to its
goal publisher (a goal is published once, to the subscribers it has then: run.sh's
`rostopic echo SERVER/goal __name:=PEER` must be one of them), and waits for the goal
to succeed. Exit 0 when it did, 1 otherwise. Every wait has a deadline (a hang guard).
usage: goal_seen.py SERVER X Y PEER"""
import sys
import time

import rospy
from actionlib import SimpleActionClient
from actionlib_msgs.msg import GoalStatus
from skipper_msgs.msg import GotoAction, GotoGoal

DEADLINE = 60.0


def main():
    server, x, y, peer = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    rospy.init_node("goal_seen", anonymous=True)
    c = SimpleActionClient(server, GotoAction)
    if not c.wait_for_server(rospy.Duration(DEADLINE)):
        print(f"FAIL no action server {server}", file=sys.stderr)
        return 1
    end = time.monotonic() + DEADLINE
    while not c.action_client.pub_goal.impl.has_connection(peer):
        if time.monotonic() > end:
            print(f"FAIL {peer} never subscribed to {server}/goal", file=sys.stderr)
            return 1
        time.sleep(0.02)
    c.send_goal(GotoGoal(x=x, y=y))
    if not c.wait_for_result(rospy.Duration(DEADLINE)) or c.get_state() != GoalStatus.SUCCEEDED:
        print(f"FAIL the goal ({x}, {y}) ended {c.get_state()}: {c.get_goal_status_text()}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
