"""The services of `skipper run --ros` with rospy's ServiceProxy (Debian's python3-rospy,
python3-std-srvs; skipper_msgs' classes from interfaces/ros1/genpy.sh on PYTHONPATH):
/add_two_ints adds; /robot1/estop stops robot1 while rospy's SimpleActionClient drives it
to a goal (the goal ends PREEMPTED, and every odometry message stamped after the cycle
the answer names is at rest); /robot1/reset releases it. Prints ok lines; exit 1 on a
failure."""
import re
import sys
import time

import actionlib
import rospy
from actionlib_msgs.msg import GoalStatus
from nav_msgs.msg import Odometry
from skipper_msgs.msg import GotoAction, GotoGoal
from skipper_msgs.srv import AddTwoInts
from std_srvs.srv import Trigger

TIMEOUT = 30.0


def fail(text):
    print(f"FAIL {text}", file=sys.stderr)
    sys.exit(1)


def wait(what, cond):
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.02)
    fail(f"waiting for {what}")


def main():
    rospy.init_node("services_check")
    for name in ("/add_two_ints", "/robot1/estop", "/robot1/reset"):
        rospy.wait_for_service(name, TIMEOUT)
    add = rospy.ServiceProxy("/add_two_ints", AddTwoInts)
    if add(2, 3).sum != 5 or add(-7, 4).sum != -3:
        fail("add_two_ints")
    try:
        add(2 ** 63 - 1, 1)
        fail("add_two_ints took a sum beyond int64")
    except rospy.ServiceException as e:
        if "does not fit" not in str(e):
            fail(f"add_two_ints overflow: {e}")
    print("ok   rospy ServiceProxy /add_two_ints (skipper_msgs/AddTwoInts): 2 + 3 = 5, overflow refused")

    odoms = []
    rospy.Subscriber("/robot1/odom", Odometry,
                     lambda o: odoms.append((o.header.stamp.to_sec(), o.twist.twist.linear.x)))
    client = actionlib.SimpleActionClient("/robot1/goto", GotoAction)
    if not client.wait_for_server(rospy.Duration(TIMEOUT)):
        fail("no goto server")
    client.send_goal(GotoGoal(x=6.0, y=0.0))
    wait("robot1 to drive", lambda: odoms and odoms[-1][1] > 0.1)
    answer = rospy.ServiceProxy("/robot1/estop", Trigger)()
    m = re.search(r"stopped in cycle \d+ \(t=([0-9.]+) s\)", answer.message)
    if not answer.success or not m:
        fail(f"estop: {answer}")
    t = float(m.group(1))
    if not client.wait_for_result(rospy.Duration(TIMEOUT)) or client.get_state() != GoalStatus.PREEMPTED:
        fail(f"the goal did not end PREEMPTED: {client.get_state()}")
    wait("odometry 1 s after the estop", lambda: odoms[-1][0] > t + 1.0)
    moving = [o for o in list(odoms) if o[0] > t + 1e-6 and o[1] != 0.0]
    if moving:
        fail(f"odometry after the estop's cycle (t={t}) is not at rest: {moving[:3]}")
    print(f"ok   rospy ServiceProxy /robot1/estop (std_srvs/Trigger): {answer.message}; goal PREEMPTED, odometry at rest after it")
    reset = rospy.ServiceProxy("/robot1/reset", Trigger)()
    if not reset.success or reset.message != "estop released":
        fail(f"reset: {reset}")
    client.send_goal(GotoGoal(x=0.0, y=0.0))
    if not client.wait_for_result(rospy.Duration(60)) or client.get_state() != GoalStatus.SUCCEEDED:
        fail(f"after reset the goal did not succeed: {client.get_state()}")
    print("ok   rospy ServiceProxy /robot1/reset: estop released, a goal SUCCEEDS again")
    return 0


if __name__ == "__main__":
    sys.exit(main())
