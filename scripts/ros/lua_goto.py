"""rospy's SimpleActionClient against examples/lua/04_goto_server.lua driving robot1 of
`skipper run --ros` (scripts/ros/lua_check.sh): a goal that is running (feedback, the
robot moving) is preempted by a newer goal from a second client, which succeeds with
the robot's odometry within the goal's tolerance. The skipper_msgs/Goto classes come
from genpy as in goals.py. Written for this project.
"""
import math
import sys

import rospy
from actionlib import GoalStatus, SimpleActionClient
from nav_msgs.msg import Odometry
from goals import action_classes

WAIT = rospy.Duration(60)
GotoAction, GotoGoal = action_classes("skipper_msgs", "Goto")


def check(cond, what):
    if not cond:
        print("FAIL lua goto: " + what, file=sys.stderr, flush=True)
        sys.exit(1)
    print("ok   lua goto: " + what, flush=True)


def wait_for(cond, what):
    end = rospy.Time.now() + WAIT
    while not cond():
        if rospy.Time.now() > end or rospy.is_shutdown():
            check(False, "timed out waiting for " + what)
        rospy.sleep(0.02)


rospy.init_node("py_lua_goto")
odom = []
rospy.Subscriber("/robot1/odom", Odometry, lambda m: odom.append(m.pose.pose.position))
first, second = SimpleActionClient("/lua_goto", GotoAction), SimpleActionClient("/lua_goto", GotoAction)
check(first.wait_for_server(WAIT) and second.wait_for_server(WAIT), "the Lua goto server is up")
wait_for(lambda: odom, "robot1's odometry")
start = odom[-1]
feedback = []
first.send_goal(GotoGoal(-3.0, 2.0, 0.0), feedback_cb=lambda f: feedback.append(f.distance))
wait_for(lambda: feedback, "feedback of the first goal")
wait_for(lambda: math.hypot(odom[-1].x - start.x, odom[-1].y - start.y) > 0.05,
         "the robot moving under the Lua behavior")
check(True, "the first goal runs: feedback distance %.2f m, the robot moves" % feedback[0])
target = (start.x + 0.8, start.y + 0.4)
second.send_goal(GotoGoal(target[0], target[1], 0.15))
check(first.wait_for_result(WAIT) and first.get_state() == GoalStatus.PREEMPTED,
      "a newer goal preempts the first")
check(second.wait_for_result(WAIT) and second.get_state() == GoalStatus.SUCCEEDED
      and second.get_goal_status_text() == "reached", "the newer goal succeeds: reached")
r = second.get_result()
check(math.hypot(r.x - target[0], r.y - target[1]) <= 0.15,
      "the robot stands within 0.15 m of the goal (%.2f, %.2f)" % (r.x, r.y))
