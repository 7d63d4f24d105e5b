#!/usr/bin/env python3
"""Navigation clients against `skipper run --ros` (run by run.sh): rospy's
SimpleActionClient of move_base_msgs/MoveBaseAction on /robot1/move_base gets feedback
(the robot's pose, base_position) while a goal runs, cancels it, and drives the robot to
another target; a geometry_msgs/PoseStamped on /robot1/move_base_simple/goal as rviz
publishes it drives it to a third. Each check waits for the state it needs.

The feedback is checked on a goal 8 m away that only the cancel ends: rospy's client
drops a feedback it reads after the result (two connections), so on a goal that ends by
itself whether its callback sees any feedback would depend on timing."""
import math
import sys
import time

import actionlib
import rospy
from actionlib_msgs.msg import GoalStatus
from geometry_msgs.msg import PoseStamped
from move_base_msgs.msg import MoveBaseAction, MoveBaseGoal

DEADLINE = 60.0


def fail(why):
    print("FAIL", why, file=sys.stderr)
    sys.exit(1)


def target(x, y, frame):
    p = PoseStamped()
    p.header.frame_id = frame
    p.pose.position.x, p.pose.position.y = x, y
    p.pose.orientation.w = 1.0
    return p


def wait_until_near(x, y, within=0.3):
    end = time.monotonic() + DEADLINE
    while time.monotonic() < end:
        p = rospy.wait_for_message("/robot1/pose", PoseStamped, DEADLINE).pose.position
        if ((p.x - x) ** 2 + (p.y - y) ** 2) ** 0.5 < within:
            return
    fail("the robot never came within %.1f m of (%.1f, %.1f)" % (within, x, y))


def wait_for(what, cond):
    end = time.monotonic() + DEADLINE
    while not cond():
        if time.monotonic() > end:
            fail("timed out waiting for " + what)
        time.sleep(0.02)


def main():
    rospy.init_node("skipper_navigation_check")
    client = actionlib.SimpleActionClient("/robot1/move_base", MoveBaseAction)
    if not client.wait_for_server(rospy.Duration(DEADLINE)):
        fail("no move_base server")
    feedback = []
    client.send_goal(MoveBaseGoal(target_pose=target(8.0, 0.0, "map")), feedback_cb=feedback.append)
    wait_for("move_base feedback", lambda: feedback or client.get_state() not in (GoalStatus.PENDING, GoalStatus.ACTIVE))
    if not feedback:
        fail("the goal ended %d without feedback" % client.get_state())
    fb = feedback[-1].base_position
    if fb.header.frame_id != "robot1/odom" or abs(math.hypot(fb.pose.orientation.z, fb.pose.orientation.w) - 1) > 1e-6:
        fail("move_base feedback: %s" % fb)
    client.cancel_goal()
    if not client.wait_for_result(rospy.Duration(DEADLINE)) or client.get_state() != GoalStatus.PREEMPTED:
        fail("the cancelled move_base goal ended %d: %s" % (client.get_state(), client.get_goal_status_text()))
    print("ok   rospy SimpleActionClient move_base_msgs/MoveBase: feedback base_position in robot1/odom "
          "(%.2f, %.2f) while the goal runs; cancelled: PREEMPTED" % (fb.pose.position.x, fb.pose.position.y))
    client.send_goal(MoveBaseGoal(target_pose=target(-1.0, 1.0, "map")))
    if not client.wait_for_result(rospy.Duration(DEADLINE)):
        fail("move_base goal did not end")
    if client.get_state() != GoalStatus.SUCCEEDED:
        fail("move_base goal ended %d: %s" % (client.get_state(), client.get_goal_status_text()))
    wait_until_near(-1.0, 1.0)
    print("ok   rospy SimpleActionClient move_base_msgs/MoveBase: SUCCEEDED, the robot at (-1, 1)")

    pub = rospy.Publisher("/robot1/move_base_simple/goal", PoseStamped, queue_size=1)
    end = time.monotonic() + 30
    while pub.get_num_connections() == 0:
        if time.monotonic() > end:
            fail("Skipper never subscribed to /robot1/move_base_simple/goal")
        time.sleep(0.02)
    pub.publish(target(0.5, -1.0, "robot1/odom"))
    wait_until_near(0.5, -1.0)
    print("ok   /robot1/move_base_simple/goal (rviz's 2D Nav Goal) drives the robot to (0.5, -1)")


if __name__ == "__main__":
    main()
