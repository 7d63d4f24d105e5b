"""A ROS 1 robot written with rospy, for `skipper run --vehicle ros1:/NS` to drive: the
differential-drive model of scripts/ros2-robot/model.py publishing NS/odom
(nav_msgs/Odometry), NS/scan (sensor_msgs/LaserScan) and, latched on /tf_static, where its
laser sits; it integrates what it gets on NS/cmd_vel (geometry_msgs/Twist) and logs every
command it receives (--log). Not Skipper: only rospy and the standard messages."""
import math, os, sys, time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ros2-robot"))
import model  # noqa: E402
import rospy  # noqa: E402
from geometry_msgs.msg import Twist, TransformStamped  # noqa: E402
from nav_msgs.msg import Odometry  # noqa: E402
from sensor_msgs.msg import LaserScan  # noqa: E402
from tf2_msgs.msg import TFMessage  # noqa: E402


def main():
    a, base, laser = model.options(rospy.myargv(sys.argv)[1:])
    ns = a.ns.rstrip("/")
    model.stop_on_signals()
    rospy.init_node("test_robot_" + (ns.strip("/").replace("/", "_") or "root"), disable_signals=True)
    rec = model.Recorder(a.log)
    f = a.frames
    odom_pub = rospy.Publisher(f"{ns}/odom", Odometry, queue_size=10)
    scan_pub = rospy.Publisher(f"{ns}/scan", LaserScan, queue_size=10)
    tf_static = rospy.Publisher("/tf_static", TFMessage, queue_size=1, latch=True)
    t = TransformStamped()
    t.header.stamp = rospy.Time.now()
    t.header.frame_id = f"{f}base_link"
    t.child_frame_id = f"{f}laser"
    t.transform.translation.x, t.transform.translation.y, t.transform.translation.z = laser.x, laser.y, 0.2
    q = laser.quaternion()
    t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z, t.transform.rotation.w = q
    tf_static.publish(TFMessage(transforms=[t]))
    first_command = [None]

    def on_cmd(m):
        if first_command[0] is None and (m.linear.x or m.angular.z):
            first_command[0] = time.monotonic()
        base.command(m.linear.x, m.angular.z)
        rec.command(m.linear.x, m.angular.z)

    rospy.Subscriber(f"{ns}/cmd_vel", Twist, on_cmd, queue_size=10)

    def silent():
        return a.silent_after > 0 and first_command[0] is not None and \
            time.monotonic() - first_command[0] > a.silent_after

    said = [False]

    def publish_odom(_):
        if silent():
            if not said[0]:
                said[0] = True
                rec.event("silent")
            return
        o = Odometry()
        o.header.stamp = rospy.Time.now()
        o.header.frame_id = f"{f}odom"
        o.child_frame_id = f"{f}base_link"
        o.pose.pose.position.x, o.pose.pose.position.y = base.x, base.y
        o.pose.pose.orientation.z, o.pose.pose.orientation.w = math.sin(base.yaw / 2), math.cos(base.yaw / 2)
        o.twist.twist.linear.x, o.twist.twist.angular.z = base.v, base.w
        odom_pub.publish(o)
        if a.bad:
            o.pose.pose.position.x = float("nan")
            odom_pub.publish(o)

    def publish_scan(_):
        if silent():
            return
        s = LaserScan()
        s.header.stamp = rospy.Time.now()
        s.header.frame_id = f"{f}laser"
        s.angle_min, s.angle_max, s.angle_increment = laser.amin, laser.amax, laser.inc
        s.scan_time = 1.0 / a.scan_hz
        s.range_min, s.range_max = laser.rmin, laser.rmax
        s.ranges = laser.scan((base.x, base.y, base.yaw), base.walls)
        scan_pub.publish(s)
        if a.bad:
            s.ranges = s.ranges[:-7]
            scan_pub.publish(s)

    last = [time.monotonic()]

    def step(_):
        now = time.monotonic()
        base.step(now - last[0])
        last[0] = now

    rospy.Timer(rospy.Duration(0.01), step)
    rospy.Timer(rospy.Duration(1.0 / a.odom_hz), publish_odom)
    rospy.Timer(rospy.Duration(1.0 / a.scan_hz), publish_scan)
    rospy.Timer(rospy.Duration(0.2), lambda _: rec.state(base))
    rec.event("up")
    print("robot up", flush=True)
    try:
        while not rospy.is_shutdown():
            time.sleep(0.1)
    except KeyboardInterrupt:
        pass
    finally:
        rec.state(base)
        rec.event("down")
        rospy.signal_shutdown("done")


if __name__ == "__main__":
    main()
