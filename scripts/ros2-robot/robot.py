"""A ROS 2 robot written with rclpy, for `skipper run --vehicle ros2:/NS` to drive: a
differential-drive model (model.py) that publishes NS/odom (nav_msgs/Odometry),
NS/scan (sensor_msgs/LaserScan, best effort, as laser drivers publish it) and, on
/tf_static, where its laser sits; it integrates what it gets on NS/cmd_vel (Twist, or
TwistStamped with --stamped) and logs every command it receives (--log). Not Skipper:
only rclpy and the standard messages."""
import math, sys, time
import rclpy
from rclpy.node import Node
from rclpy.qos import QoSProfile, DurabilityPolicy, ReliabilityPolicy, qos_profile_sensor_data
from geometry_msgs.msg import Twist, TwistStamped, TransformStamped
from nav_msgs.msg import Odometry
from sensor_msgs.msg import LaserScan
from tf2_msgs.msg import TFMessage
import model


def main():
    a, base, laser = model.options(sys.argv[1:])
    model.stop_on_signals()
    rclpy.init()
    ns = a.ns.rstrip("/")
    node = Node("test_robot", namespace=ns or "/")
    rec = model.Recorder(a.log)
    f = a.frames
    odom_qos = qos_profile_sensor_data if a.odom_best_effort else 10
    odom_pub = node.create_publisher(Odometry, f"{ns}/odom", odom_qos)
    scan_pub = node.create_publisher(LaserScan, f"{ns}/scan", qos_profile_sensor_data)
    latched = QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                         reliability=ReliabilityPolicy.RELIABLE)
    tf_static = node.create_publisher(TFMessage, "/tf_static", latched)
    t = TransformStamped()
    t.header.stamp = node.get_clock().now().to_msg()
    t.header.frame_id = f"{f}base_link"
    t.child_frame_id = f"{f}laser"
    t.transform.translation.x, t.transform.translation.y, t.transform.translation.z = laser.x, laser.y, 0.2
    q = laser.quaternion()
    t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z, t.transform.rotation.w = q
    tf_static.publish(TFMessage(transforms=[t]))

    first_command = [None]

    def on_cmd(m):
        tw = m.twist if a.stamped else m
        if first_command[0] is None and (tw.linear.x or tw.angular.z):
            first_command[0] = time.monotonic()
        base.command(tw.linear.x, tw.angular.z)
        rec.command(tw.linear.x, tw.angular.z)

    node.create_subscription(TwistStamped if a.stamped else Twist, f"{ns}/cmd_vel", on_cmd, 10)

    def silent():
        return a.silent_after > 0 and first_command[0] is not None and \
            time.monotonic() - first_command[0] > a.silent_after

    said_silent = [False]

    def publish_odom():
        if silent():
            if not said_silent[0]:
                said_silent[0] = True
                rec.event("silent")
            return
        o = Odometry()
        o.header.stamp = node.get_clock().now().to_msg()
        o.header.frame_id = f"{f}odom"
        o.child_frame_id = f"{f}base_link"
        o.pose.pose.position.x, o.pose.pose.position.y = base.x, base.y
        o.pose.pose.orientation.z, o.pose.pose.orientation.w = math.sin(base.yaw / 2), math.cos(base.yaw / 2)
        o.twist.twist.linear.x, o.twist.twist.angular.z = base.v, base.w
        odom_pub.publish(o)
        if a.bad:
            o.pose.pose.position.x = float("nan")
            odom_pub.publish(o)

    def publish_scan():
        if silent():
            return
        s = LaserScan()
        s.header.stamp = node.get_clock().now().to_msg()
        s.header.frame_id = f"{f}laser"
        s.angle_min, s.angle_max, s.angle_increment = laser.amin, laser.amax, laser.inc
        s.scan_time = 1.0 / a.scan_hz
        s.range_min, s.range_max = laser.rmin, laser.rmax
        s.ranges = [float(r) for r in laser.scan((base.x, base.y, base.yaw), base.walls)]
        scan_pub.publish(s)
        if a.bad:
            s.ranges = s.ranges[:-7]
            scan_pub.publish(s)

    last = [time.monotonic()]

    def step():
        now = time.monotonic()
        base.step(now - last[0])
        last[0] = now

    node.create_timer(0.01, step)
    node.create_timer(1.0 / a.odom_hz, publish_odom)
    node.create_timer(1.0 / a.scan_hz, publish_scan)
    node.create_timer(0.2, lambda: rec.state(base))
    rec.event("up")
    print("robot up", flush=True)
    try:
        rclpy.spin(node)
    except KeyboardInterrupt:
        pass
    finally:
        rec.state(base)
        rec.event("down")


if __name__ == "__main__":
    main()
