"""A rospy SimpleActionServer of tf2_msgs/LookupTransform, an action type installed by
Debian (python3-tf2-msgs, ros-tf2-msgs) that Skipper is not built with, on
/py/lookup_transform: it answers every goal with the transform target_frame ->
source_frame of (1.5, -2, 0), stamped with the goal's source_time. Runs until killed.

Usage: python3 py_lookup_server.py
"""
import rospy
from actionlib import SimpleActionServer
from tf2_msgs.msg import LookupTransformAction, LookupTransformResult


def main():
    rospy.init_node("py_lookup_server")
    server = None

    def execute(goal):
        r = LookupTransformResult()
        r.transform.header.frame_id = goal.target_frame
        r.transform.header.stamp = goal.source_time
        r.transform.child_frame_id = goal.source_frame
        r.transform.transform.translation.x = 1.5
        r.transform.transform.translation.y = -2.0
        r.transform.transform.rotation.w = 1.0
        server.set_succeeded(r, "looked up")

    server = SimpleActionServer("/py/lookup_transform", LookupTransformAction, execute, False)
    server.start()
    print("lookup server ready", flush=True)
    rospy.spin()


if __name__ == "__main__":
    main()
