"""rospy against `skipper run --vehicle ros1:/NS --ros` (a ROS 1 robot served again by
Skipper). Modes:
  goto NAME X Y             a goto goal from actionlib's SimpleActionClient to /NAME/goto;
                            prints the result as JSON, exits 1 unless SUCCEEDED
  geometry NAME BEAMS FIRST_DEG STEP_DEG LASER_X
                            /tf_static has NAME/base_link -> NAME/laser at LASER_X, and
                            /NAME/scan has BEAMS ranges from FIRST_DEG by STEP_DEG
  odom TOPIC                the latest odometry on TOPIC, as JSON {x, y, yaw}
Waits for what it needs with a generous bound (a hang guard, not a measure)."""
import json, math, sys, time
import rospy
from nav_msgs.msg import Odometry
from sensor_msgs.msg import LaserScan
from tf2_msgs.msg import TFMessage

WAIT = 60.0


def fail(what):
    print(f"FAIL {what}", flush=True)
    sys.exit(1)


def wait_until(cond, timeout=WAIT):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        time.sleep(0.05)
    return True


def goto(name, x, y):
    import actionlib
    from actionlib_msgs.msg import GoalStatus
    from skipper_msgs.msg import GotoAction, GotoGoal
    c = actionlib.SimpleActionClient(f"/{name}/goto", GotoAction)
    if not c.wait_for_server(rospy.Duration(WAIT)):
        fail(f"no action server /{name}/goto")
    c.send_goal(GotoGoal(x=x, y=y))
    if not c.wait_for_result(rospy.Duration(120.0)):
        fail("no result")
    if c.get_state() != GoalStatus.SUCCEEDED:
        fail(f"goal ended in state {c.get_state()}: {c.get_goal_status_text()}")
    r = c.get_result()
    print(json.dumps({"x": r.x, "y": r.y, "yaw": r.yaw}), flush=True)


def geometry(name, beams, first_deg, step_deg, laser_x):
    mounts, scans = {}, []

    def on_tf(m):
        for t in m.transforms:
            mounts[(t.header.frame_id, t.child_frame_id)] = t.transform

    rospy.Subscriber("/tf_static", TFMessage, on_tf)
    rospy.Subscriber(f"/{name}/scan", LaserScan, scans.append)
    key = (f"{name}/base_link", f"{name}/laser")
    if not wait_until(lambda: key in mounts and scans):
        fail(f"no {key} on /tf_static or no /{name}/scan: {list(mounts)}, {len(scans)} scans")
    t, s = mounts[key], scans[-1]
    got = (len(s.ranges), math.degrees(s.angle_min), math.degrees(s.angle_increment), t.translation.x)
    want = (beams, first_deg, step_deg, laser_x)
    if not (got[0] == want[0] and all(abs(a - b) < 1e-3 for a, b in zip(got[1:], want[1:]))):
        fail(f"served geometry (beams, first deg, step deg, laser x) {got}, expected {want}")
    print(f"ok   served as {name}: /tf_static {key[0]} -> {key[1]} at x {t.translation.x:.3f} m, "
          f"/{name}/scan {got[0]} beams from {got[1]:.1f} deg by {got[2]:.2f} deg", flush=True)


def sonars(name, count, k, x, y):
    mounts = {}

    def on_tf(m):
        for t in m.transforms:
            if t.header.frame_id == f"{name}/base_link" and "/sonar_" in t.child_frame_id:
                mounts[t.child_frame_id] = t.transform

    rospy.Subscriber("/tf_static", TFMessage, on_tf)
    if not wait_until(lambda: len(mounts) >= count):
        fail(f"{len(mounts)} sonar frames of {name} on /tf_static, expected {count}: {sorted(mounts)}")
    rospy.sleep(1.0)  # any frame beyond the ring
    want = {f"{name}/sonar_{i}" for i in range(count)}
    if set(mounts) != want:
        fail(f"sonar frames of {name}: {sorted(mounts)}, expected {sorted(want)}")
    t = mounts[f"{name}/sonar_{k}"].translation
    if abs(t.x - x) > 1e-3 or abs(t.y - y) > 1e-3:
        fail(f"{name}/sonar_{k} at ({t.x:.3f}, {t.y:.3f}), expected ({x}, {y})")
    print(f"ok   {name}'s own sonar ring on /tf_static: {count} transducers, sonar_{k} at "
          f"({t.x:.3f}, {t.y:.3f}) m", flush=True)


def odom(topic):
    seen = []
    rospy.Subscriber(topic, Odometry, seen.append)
    if not wait_until(lambda: len(seen) >= 3):
        fail(f"no odometry on {topic}")
    p = seen[-1].pose.pose
    q = p.orientation
    yaw = math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))
    print(json.dumps({"x": p.position.x, "y": p.position.y, "yaw": yaw}), flush=True)


def main():
    rospy.init_node("robot_test_client", anonymous=True, disable_signals=True)
    mode, *a = sys.argv[1:]
    if mode == "goto":
        goto(a[0], float(a[1]), float(a[2]))
    elif mode == "geometry":
        geometry(a[0], int(a[1]), float(a[2]), float(a[3]), float(a[4]))
    elif mode == "sonars":
        sonars(a[0], int(a[1]), int(a[2]), float(a[3]), float(a[4]))
    elif mode == "odom":
        odom(a[0])
    else:
        fail(f"unknown mode {mode}")
    rospy.signal_shutdown("done")


if __name__ == "__main__":
    main()
