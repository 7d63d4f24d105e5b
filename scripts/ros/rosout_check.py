"""/rosout of `skipper run --ros` with rospy (Debian's python3-rospy): a rospy subscriber
of /rosout (rosgraph_msgs/Log), once Skipper's node is connected to it (getBusInfo),
gets the warning Skipper logs when a move_base_simple/goal in a frame it does not take
arrives: name /skipper, level WARN, the text naming the frame, and the place in the code.
Prints ok lines; exit 1 on a failure."""
import os
import sys
import time
import xmlrpc.client

import rospy
from geometry_msgs.msg import PoseStamped
from rosgraph_msgs.msg import Log

TIMEOUT = 20.0


def wait(what, cond):
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        if cond():
            return
        time.sleep(0.05)
    print(f"FAIL waiting for {what}", file=sys.stderr)
    sys.exit(1)


def main():
    rospy.init_node("rosout_check")
    me = rospy.get_name()
    logs = []
    rospy.Subscriber("/rosout", Log, logs.append)
    master = xmlrpc.client.ServerProxy(os.environ["ROS_MASTER_URI"])
    _, _, uri = master.lookupNode(me, "/skipper")
    slave = xmlrpc.client.ServerProxy(uri)
    wait("/skipper's /rosout to connect to this node",
         lambda: any(c[1] == me and c[4] == "/rosout" for c in slave.getBusInfo(me)[2]))
    pub = rospy.Publisher("/robot1/move_base_simple/goal", PoseStamped, queue_size=1)
    wait("the goal publisher to connect", lambda: pub.get_num_connections() > 0)
    goal = PoseStamped()
    goal.header.frame_id = "robot9/odom"
    goal.pose.orientation.w = 1.0
    pub.publish(goal)

    def warned():
        return [m for m in list(logs) if m.name == "/skipper" and "robot9/odom" in m.msg]
    wait("the warning on /rosout", lambda: warned())
    m = warned()[0]
    if m.level != Log.WARN or "refused" not in m.msg or not m.file.endswith("navigation.rs") or m.line == 0:
        print(f"FAIL /rosout line: {m}", file=sys.stderr)
        return 1
    print(f"ok   /rosout (rospy subscriber): WARN from /skipper at {m.file}:{m.line}: {m.msg}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
