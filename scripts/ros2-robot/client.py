"""rclpy against `skipper run --vehicle ros2:/NS --ros2` (a ROS 2 robot served again
by Skipper), inside the test's network namespace. Modes:
  goto NAME X Y             a goto goal from an rclpy ActionClient to /NAME/goto; prints
                            the result as JSON, exits 1 unless SUCCEEDED
  geometry NAME BEAMS FIRST_DEG STEP_DEG LASER_X
                            the served robot's own geometry: /tf_static has
                            NAME/base_link -> NAME/laser at LASER_X, /NAME/scan has BEAMS
                            ranges from FIRST_DEG by STEP_DEG
  sonars NAME COUNT K X Y   the served sonar ring: /tf_static has NAME/base_link ->
                            NAME/sonar_0 .. sonar_COUNT-1 (no more), sonar_K at (X, Y)
  odom TOPIC                the latest odometry on TOPIC, as JSON {x, y, yaw}
Waits for what it needs with a generous bound (a hang guard, not a measure)."""
import json, math, sys, time
import rclpy
from rclpy.node import Node
from rclpy.action import ActionClient
from rclpy.qos import QoSProfile, DurabilityPolicy, ReliabilityPolicy
from action_msgs.msg import GoalStatus
from nav_msgs.msg import Odometry
from sensor_msgs.msg import LaserScan
from tf2_msgs.msg import TFMessage

WAIT = 60.0


def spin_until(node, cond, timeout=WAIT):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        rclpy.spin_once(node, timeout_sec=0.05)
    return True


def fail(what):
    print(f"FAIL {what}", flush=True)
    sys.exit(1)


def goto(node, name, x, y):
    from skipper_msgs.action import Goto
    c = ActionClient(node, Goto, f"/{name}/goto")
    if not c.wait_for_server(timeout_sec=WAIT):
        fail(f"no action server /{name}/goto")
    f = c.send_goal_async(Goto.Goal(x=x, y=y))
    if not spin_until(node, f.done):
        fail("no goal response")
    h = f.result()
    if not h.accepted:
        fail("goal rejected")
    r = h.get_result_async()
    if not spin_until(node, r.done, 120.0):
        fail("no result")
    res = r.result()
    if res.status != GoalStatus.STATUS_SUCCEEDED:
        fail(f"goal ended with status {res.status}")
    print(json.dumps({"x": res.result.x, "y": res.result.y, "yaw": res.result.yaw}), flush=True)


def geometry(node, name, beams, first_deg, step_deg, laser_x):
    latched = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                         reliability=ReliabilityPolicy.RELIABLE)
    mounts, scans = {}, []

    def on_tf(m):
        for t in m.transforms:
            mounts[(t.header.frame_id, t.child_frame_id)] = t.transform

    node.create_subscription(TFMessage, "/tf_static", on_tf, latched)
    node.create_subscription(LaserScan, f"/{name}/scan", scans.append, 10)
    key = (f"{name}/base_link", f"{name}/laser")
    if not spin_until(node, lambda: key in mounts and scans):
        fail(f"no {key} on /tf_static or no /{name}/scan: {list(mounts)}, {len(scans)} scans")
    t = mounts[key]
    s = scans[-1]
    got = (len(s.ranges), math.degrees(s.angle_min), math.degrees(s.angle_increment), t.translation.x)
    want = (beams, first_deg, step_deg, laser_x)
    good = got[0] == want[0] and all(abs(a - b) < 1e-3 for a, b in zip(got[1:], want[1:]))
    if not good:
        fail(f"served geometry (beams, first deg, step deg, laser x) {got}, expected {want}")
    print(f"ok   served as {name}: /tf_static {key[0]} -> {key[1]} at x {t.translation.x:.3f} m, "
          f"/{name}/scan {got[0]} beams from {got[1]:.1f} deg by {got[2]:.2f} deg", flush=True)


def sonars(node, name, count, k, x, y):
    latched = QoSProfile(depth=100, durability=DurabilityPolicy.TRANSIENT_LOCAL,
                         reliability=ReliabilityPolicy.RELIABLE)
    mounts = {}

    def on_tf(m):
        for t in m.transforms:
            if t.header.frame_id == f"{name}/base_link" and "/sonar_" in t.child_frame_id:
                mounts[t.child_frame_id] = t.transform

    node.create_subscription(TFMessage, "/tf_static", on_tf, latched)
    if not spin_until(node, lambda: len(mounts) >= count):
        fail(f"{len(mounts)} sonar frames of {name} on /tf_static, expected {count}: {sorted(mounts)}")
    spin_until(node, lambda: False, timeout=1.0)  # any frame beyond the ring
    want = {f"{name}/sonar_{i}" for i in range(count)}
    if set(mounts) != want:
        fail(f"sonar frames of {name}: {sorted(mounts)}, expected {sorted(want)}")
    t = mounts[f"{name}/sonar_{k}"].translation
    if abs(t.x - x) > 1e-3 or abs(t.y - y) > 1e-3:
        fail(f"{name}/sonar_{k} at ({t.x:.3f}, {t.y:.3f}), expected ({x}, {y})")
    print(f"ok   {name}'s own sonar ring on /tf_static: {count} transducers, sonar_{k} at "
          f"({t.x:.3f}, {t.y:.3f}) m", flush=True)


def odom(node, topic):
    seen = []
    node.create_subscription(Odometry, topic, seen.append, 10)
    if not spin_until(node, lambda: len(seen) >= 3):
        fail(f"no odometry on {topic}")
    p = seen[-1].pose.pose
    q = p.orientation
    yaw = math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))
    print(json.dumps({"x": p.position.x, "y": p.position.y, "yaw": yaw}), flush=True)


def main():
    rclpy.init()
    node = Node("robot_test_client")
    mode, *a = sys.argv[1:]
    if mode == "goto":
        goto(node, a[0], float(a[1]), float(a[2]))
    elif mode == "geometry":
        geometry(node, a[0], int(a[1]), float(a[2]), float(a[3]), float(a[4]))
    elif mode == "sonars":
        sonars(node, a[0], int(a[1]), int(a[2]), float(a[3]), float(a[4]))
    elif mode == "odom":
        odom(node, a[0])
    else:
        fail(f"unknown mode {mode}")


if __name__ == "__main__":
    main()
