#!/usr/bin/env python3
"""Skipper's frames, time and sensors as real ROS 1 nodes see them (run by run.sh
against `skipper run --ros`): a node with use_sim_time follows /clock (it advances, by
whole cycles of 100 ms); Debian's tf2 listener gets robot1/odom -> robot1/base_link equal
to /robot1/pose at the pose's stamp, and robot1/base_link -> robot1/laser from
/tf_static; scan, sonar and battery arrive in the robot's frames, and so do the bumpers
and the gripper (skipper_msgs, the classes of interfaces/ros1/genpy.sh on PYTHONPATH):
the robot stands in the middle of an empty room, so no bumper is pressed and nothing
is held. Every check waits for
the state it needs (with a deadline); none sleeps and hopes."""
import sys

import rospy
import tf2_ros
from geometry_msgs.msg import PoseStamped
from sensor_msgs.msg import BatteryState, LaserScan, Range
from skipper_msgs.msg import BumperState, GripperState

DEADLINE = 30.0  # wall seconds for any one state to be reached


def fail(why):
    print("FAIL", why, file=sys.stderr)
    sys.exit(1)


def wait_wall(what, done):
    """Wait (wall clock) until done() is true."""
    import time
    end = time.monotonic() + DEADLINE
    while not done():
        if time.monotonic() > end:
            fail("timed out waiting for " + what)
        time.sleep(0.02)


def main():
    # rospy reads /use_sim_time once, in init_node; unset it at once so that the
    # checks run after this one keep wall time
    rospy.set_param("/use_sim_time", True)
    rospy.init_node("skipper_frames_check")
    rospy.delete_param("/use_sim_time")

    # time: /clock drives rospy's clock
    wait_wall("/clock", lambda: not rospy.Time.now().is_zero())
    t0 = rospy.Time.now()
    wait_wall("/clock to advance", lambda: rospy.Time.now() > t0)
    t1 = rospy.Time.now()
    for t in (t0, t1):
        if t.to_nsec() % 100_000_000 != 0:
            fail("simulated time %s is not a whole number of 100 ms cycles" % t)
    print("ok   use_sim_time: rospy.Time.now() follows /clock (%.1f s -> %.1f s)" % (t0.to_sec(), t1.to_sec()))

    # tf2: odom -> base_link agrees with /robot1/pose at the same stamp
    buf = tf2_ros.Buffer()
    tf2_ros.TransformListener(buf)
    # the listener holds every transform after its first one, so a pose stamped after
    # that first one has its transform coming (the same stamp, on /tf after the pose)
    try:
        first = buf.lookup_transform("robot1/odom", "robot1/base_link", rospy.Time(0), rospy.Duration(DEADLINE))
    except tf2_ros.TransformException as e:
        fail("no robot1/odom -> robot1/base_link on /tf: %s" % e)
    poses = []
    rospy.Subscriber("/robot1/pose", PoseStamped, poses.append)
    wait_wall("a pose after the first transform", lambda: any(p.header.stamp > first.header.stamp for p in poses))
    pose = next(p for p in poses if p.header.stamp > first.header.stamp)
    if pose.header.frame_id != "robot1/odom":
        fail("pose frame %r" % pose.header.frame_id)
    try:
        t = buf.lookup_transform("robot1/odom", "robot1/base_link", pose.header.stamp, rospy.Duration(DEADLINE))
    except tf2_ros.TransformException as e:
        fail("tf2 lookup robot1/odom -> robot1/base_link at %s: %s" % (pose.header.stamp, e))
    p, q = pose.pose.position, pose.pose.orientation
    tr, rot = t.transform.translation, t.transform.rotation
    err = max(abs(tr.x - p.x), abs(tr.y - p.y), abs(tr.z - p.z), abs(rot.z - q.z), abs(rot.w - q.w))
    if err > 1e-9:
        fail("tf2 says %s, /robot1/pose says %s" % (t.transform, pose.pose))
    print("ok   tf2 listener: robot1/odom -> robot1/base_link equals /robot1/pose at stamp %.1f s" % pose.header.stamp.to_sec())
    try:
        laser = buf.lookup_transform("robot1/base_link", "robot1/laser", rospy.Time(0), rospy.Duration(DEADLINE))
    except tf2_ros.TransformException as e:
        fail("tf2 lookup robot1/base_link -> robot1/laser: %s" % e)
    if laser.transform.translation.x <= 0:
        fail("the laser is not ahead of the robot's centre: %s" % laser.transform)
    print("ok   tf2 listener: robot1/base_link -> robot1/laser from /tf_static (x = %.3f m)" % laser.transform.translation.x)

    # sensors, in the robot's frames
    scan = rospy.wait_for_message("/robot1/scan", LaserScan, DEADLINE)
    if scan.header.frame_id != "robot1/laser" or len(scan.ranges) < 2:
        fail("scan: frame %r, %d ranges" % (scan.header.frame_id, len(scan.ranges)))
    sonar = rospy.wait_for_message("/robot1/sonar", Range, DEADLINE)
    if not sonar.header.frame_id.startswith("robot1/sonar_") or sonar.radiation_type != Range.ULTRASOUND:
        fail("sonar: %s" % sonar.header)
    battery = rospy.wait_for_message("/robot1/battery", BatteryState, DEADLINE)
    if battery.header.frame_id != "robot1/base_link" or not battery.voltage > 0:
        fail("battery: %s" % battery)
    print("ok   scan (%d beams), sonar (sensor_msgs/Range per transducer), battery (%.1f V)" % (len(scan.ranges), battery.voltage))
    bumpers = rospy.wait_for_message("/robot1/bumpers", BumperState, DEADLINE)
    if (bumpers.header.frame_id != "robot1/base_link" or not bumpers.front_bumpers
            or len(bumpers.rear_bumpers) != len(bumpers.front_bumpers)
            or any(bumpers.front_bumpers) or any(bumpers.rear_bumpers)):
        fail("bumpers: %s" % bumpers)
    gripper = rospy.wait_for_message("/robot1/gripper", GripperState, DEADLINE)
    if (gripper.header.frame_id != "robot1/base_link" or not 0 <= gripper.paddles <= 1
            or not 0 <= gripper.lift <= 1 or gripper.holding):
        fail("gripper: %s" % gripper)
    print("ok   bumpers (skipper_msgs/BumperState: %d front, %d rear segments, none pressed), gripper "
          "(skipper_msgs/GripperState: paddles %.2f, lift %.2f, nothing held)"
          % (len(bumpers.front_bumpers), len(bumpers.rear_bumpers), gripper.paddles, gripper.lift))


if __name__ == "__main__":
    main()
