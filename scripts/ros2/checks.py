"""Real rclpy (ROS 2 Jazzy wheels) against `skipper run --ros2`, inside the test's own
network namespace. Modes:
  ground   the default run (robot1): topics, types, frames, stamps, /tf against odom,
           /clock with use_sim_time, parameters, cmd_vel, goal_pose, goto goals
           (feedback, result, cancel, preemption)
  xabsl    an XABSL run: run_option goals (bad option aborted, feedback and success,
           preemption, cancel)
  mission  a mission run (tethys): its topics (depth, water, gps/fix), run_mission goals
  fleet N  every robot of every host in the fleet (namespaces /hostK) driven by one client
Prints one line per check; exits 1 on the first failure."""
import math, sys, time
import rclpy
from rclpy.node import Node
from rclpy.action import ActionClient
from rclpy.parameter import Parameter, parameter_value_to_python
from action_msgs.msg import GoalStatus
from geometry_msgs.msg import PoseStamped, Twist, TwistStamped
from nav_msgs.msg import Odometry
from sensor_msgs.msg import BatteryState, LaserScan, NavSatFix, Range
from rosgraph_msgs.msg import Clock
from rcl_interfaces.msg import Log
from rclpy.parameter_client import AsyncParameterClient
from tf2_msgs.msg import TFMessage
from skipper_msgs.action import Goto, RunMission, RunOption
from skipper_msgs.msg import Depth, WaterProperties

WAIT = 30.0
checks = 0


def ok(what):
    global checks
    checks += 1
    print(f"ok   {what}", flush=True)


def fail(what, detail=""):
    print(f"FAIL {what}: {detail}", flush=True)
    sys.exit(1)


def check(what, cond, detail=""):
    ok(what) if cond else fail(what, detail)


def spin_until(node, cond, timeout=WAIT):
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            return False
        rclpy.spin_once(node, timeout_sec=0.05)
    return True


class Collect:
    def __init__(self, node, ty, topic, keep=200):
        self.msgs = []
        self.keep = keep
        node.create_subscription(ty, topic, self.msgs.append, 50)


def collect(node, specs, n=1):
    subs = {t: Collect(node, ty, t) for t, ty in specs}
    if not spin_until(node, lambda: all(len(s.msgs) >= n for s in subs.values())):
        fail("topics", {t: len(s.msgs) for t, s in subs.items()})
    return {t: s.msgs for t, s in subs.items()}


def secs(t):
    return t.sec + t.nanosec * 1e-9


def stamp(h):
    return secs(h.stamp)


def goal(node, client, g, feedback=None, timeout=WAIT):
    f = client.send_goal_async(g, feedback_callback=feedback)
    if not spin_until(node, f.done, timeout):
        fail("goal response", g)
    return f.result()


def result(node, handle, timeout=WAIT):
    f = handle.get_result_async()
    if not spin_until(node, f.done, timeout):
        fail("goal result", handle.goal_id)
    return f.result()


def action(node, name, ty):
    c = ActionClient(node, ty, name)
    check(f"{name}: the action server is discovered", c.wait_for_server(timeout_sec=WAIT))
    return c


def params(node, server, names):
    """Values by rclpy's own parameter client (rclpy.parameter_client)."""
    c = AsyncParameterClient(node, server)
    check(f"{server}: parameter services ready", c.wait_for_services(timeout_sec=WAIT))
    f = c.get_parameters(names)
    spin_until(node, f.done)
    return [parameter_value_to_python(v) for v in f.result().values]


def set_param(node, server, name, value):
    c = AsyncParameterClient(node, server)
    c.wait_for_services(timeout_sec=WAIT)
    f = c.set_parameters([Parameter(name, value=value)])
    spin_until(node, f.done)
    return f.result().results[0]


def ground(node):
    rosout = Collect(node, Log, "/rosout")
    m = collect(node, [("/robot1/odom", Odometry), ("/robot1/pose", PoseStamped),
                       ("/robot1/scan", LaserScan), ("/robot1/sonar", Range),
                       ("/robot1/battery", BatteryState), ("/clock", Clock), ("/tf", TFMessage)], n=20)
    odom = m["/robot1/odom"]
    check("odom: nav_msgs/Odometry in robot1/odom, child robot1/base_link",
          odom[-1].header.frame_id == "robot1/odom" and odom[-1].child_frame_id == "robot1/base_link",
          odom[-1].header)
    steps = {round(stamp(b.header) - stamp(a.header), 6) for a, b in zip(odom, odom[1:])}
    check("odom: one message per 0.1 s of simulated time (10 Hz)", steps == {0.1}, steps)
    check("pose: geometry_msgs/PoseStamped in robot1/odom", m["/robot1/pose"][-1].header.frame_id == "robot1/odom")
    scan = m["/robot1/scan"][-1]
    check("scan: sensor_msgs/LaserScan, 180 beams from -90 deg to +89 deg, frame robot1/laser",
          len(scan.ranges) == 180 and abs(scan.angle_min + math.pi / 2) < 1e-6
          and abs(scan.angle_max - math.radians(89)) < 1e-5 and scan.header.frame_id == "robot1/laser",
          (len(scan.ranges), scan.angle_min, scan.angle_max, scan.header.frame_id))
    frames = {r.header.frame_id for r in m["/robot1/sonar"]}
    check("sonar: sensor_msgs/Range ULTRASOUND from 16 transducers robot1/sonar_0..15",
          frames == {f"robot1/sonar_{k}" for k in range(16)}
          and all(r.radiation_type == Range.ULTRASOUND for r in m["/robot1/sonar"]), frames)
    b = m["/robot1/battery"][-1]
    check("battery: sensor_msgs/BatteryState with a voltage", b.present and b.voltage > 0, b)
    # tf2-style lookup: the odom -> base_link transform at an odom message's stamp
    by_stamp = {}
    for tfm in m["/tf"]:
        for t in tfm.transforms:
            if t.header.frame_id == "robot1/odom" and t.child_frame_id == "robot1/base_link":
                by_stamp[(t.header.stamp.sec, t.header.stamp.nanosec)] = t.transform
    matched = 0
    for o in odom:
        t = by_stamp.get((o.header.stamp.sec, o.header.stamp.nanosec))
        if t is None:
            continue
        p, q = o.pose.pose.position, o.pose.pose.orientation
        if max(abs(t.translation.x - p.x), abs(t.translation.y - p.y), abs(t.rotation.z - q.z),
               abs(t.rotation.w - q.w)) > 1e-9:
            fail("/tf agrees with odom", (t, o.pose.pose))
        matched += 1
    check(f"/tf: robot1/odom -> robot1/base_link agrees with odom at {matched} stamps", matched >= 10, matched)
    st = collect(node, [("/tf_static", TFMessage)])["/tf_static"][-1]
    kids = {t.child_frame_id for t in st.transforms if t.header.frame_id == "robot1/base_link"}
    check("/tf_static (latched): robot1/base_link -> robot1/laser and the sonars",
          "robot1/laser" in kids and "robot1/sonar_0" in kids, kids)
    clocks = [secs(c.clock) for c in m["/clock"]]
    check("/clock: simulated time advancing by the period", all(
        abs(b - a - 0.1) < 1e-6 for a, b in zip(clocks, clocks[1:])), clocks[:5])
    # a node with use_sim_time follows /clock
    sim = Node("sim_time_follower", parameter_overrides=[Parameter("use_sim_time", value=True)])
    last = []
    sim.create_subscription(Clock, "/clock", lambda c: last.append(secs(c.clock)), 10)
    spin_until(sim, lambda: len(last) > 3)
    now = sim.get_clock().now().nanoseconds * 1e-9
    check("a node with use_sim_time follows /clock", abs(now - last[-1]) <= 0.2 and now < 1e6, (now, last[-1]))
    sim.destroy_node()
    # parameters with rclpy's parameter services
    robots, rate, speed = params(node, "/skipper", ["robots", "rate", "speed"])
    check("parameters: robots, rate, speed read by a parameter client",
          list(robots) == ["robot1"] and rate == 10.0 and speed == 1.0, (robots, rate, speed))
    r = set_param(node, "/skipper", "speed", 2.0)
    check("parameters: speed set to 2.0", r.successful and params(node, "/skipper", ["speed"])[0] == 2.0, r)
    r = set_param(node, "/skipper", "speed", -1.0)
    check("parameters: a negative speed is refused with a reason", not r.successful and r.reason, r)
    r = set_param(node, "/skipper", "rate", 5.0)
    check("parameters: rate is read-only", not r.successful, r)
    set_param(node, "/skipper", "speed", 1.0)
    # goto: feedback, result
    c = action(node, "/robot1/goto", Goto)
    fb = []
    h = goal(node, c, Goto.Goal(x=1.0, y=0.5), lambda f: fb.append(f.feedback.distance))
    check("goto: goal accepted", h.accepted)
    res = result(node, h, 60)
    check("goto: feedback then SUCCEEDED with the pose reached",
          res.status == GoalStatus.STATUS_SUCCEEDED and len(fb) > 1 and fb[-1] < fb[0]
          and math.hypot(res.result.x - 1.0, res.result.y - 0.5) < 0.5, (res.status, fb[:3], res.result))
    bad = goal(node, c, Goto.Goal(x=float("nan"), y=0.0))
    check("goto: a goal that is not finite is rejected", not bad.accepted)
    # preemption: a newer goal aborts the older one (ROS 2 has no PREEMPTED)
    a = goal(node, c, Goto.Goal(x=-3.0, y=2.0))
    spin_until(node, lambda: False, 0.5)
    b = goal(node, c, Goto.Goal(x=1.5, y=-0.5))
    ra = result(node, a)
    check("goto: a newer goal preempts the running one (ABORTED)", ra.status == GoalStatus.STATUS_ABORTED, ra.status)
    rb = result(node, b, 60)
    check("goto: the newer goal SUCCEEDED", rb.status == GoalStatus.STATUS_SUCCEEDED, rb.status)
    # cancel
    fb = []
    h = goal(node, c, Goto.Goal(x=-4.0, y=-4.0), lambda f: fb.append(f.feedback.distance))
    spin_until(node, lambda: len(fb) > 2)
    cf = h.cancel_goal_async()
    spin_until(node, cf.done)
    check("goto: cancel accepted (CANCELING)", len(cf.result().goals_canceling) == 1, cf.result())
    rc = result(node, h)
    check("goto: a canceled goal ends CANCELED", rc.status == GoalStatus.STATUS_CANCELED, rc.status)
    # cmd_vel
    pub = node.create_publisher(Twist, "/robot1/cmd_vel", 10)
    seen = []
    node.create_subscription(Odometry, "/robot1/odom", lambda o: seen.append(o.twist.twist.linear.x), 10)
    end = time.monotonic() + WAIT
    while time.monotonic() < end and not (seen and abs(seen[-1] - 0.3) < 0.02):
        t = Twist(); t.linear.x = 0.3
        pub.publish(t)
        rclpy.spin_once(node, timeout_sec=0.05)
    check("cmd_vel (geometry_msgs/Twist) drives the robot", seen and abs(seen[-1] - 0.3) < 0.02, seen[-3:])
    spin_until(node, lambda: False, 1.0)  # let the command time out
    # goal_pose
    pos = []
    node.create_subscription(Odometry, "/robot1/odom", lambda o: pos.append((o.pose.pose.position.x, o.pose.pose.position.y)), 10)
    spin_until(node, lambda: len(pos) > 0)
    gp = node.create_publisher(PoseStamped, "/robot1/goal_pose", 10)
    target = (pos[-1][0] + 1.0, pos[-1][1] - 1.0)
    m = PoseStamped(); m.header.frame_id = "robot1/odom"
    m.pose.position.x, m.pose.position.y = target
    end = time.monotonic() + 5
    while time.monotonic() < end and gp.get_subscription_count() == 0:
        rclpy.spin_once(node, timeout_sec=0.05)
    gp.publish(m)
    check("goal_pose (geometry_msgs/PoseStamped) drives the robot there",
          spin_until(node, lambda: math.dist(pos[-1], target) < 0.3, 60), (pos[-1], target))
    check("/rosout: the preemption is logged (rcl_interfaces/Log)",
          any(l.name == "skipper" and "preempted by a newer goal" in l.msg for l in rosout.msgs),
          [(l.name, l.msg) for l in rosout.msgs][:3])


def xabsl(node):
    c = action(node, "/robot1/run_option", RunOption)
    h = goal(node, c, RunOption.Goal(option="fly", parameters=""))
    r = result(node, h)
    check("run_option: an unknown option is ABORTED", h.accepted and r.status == GoalStatus.STATUS_ABORTED, r.status)
    fb = []
    h = goal(node, c, RunOption.Goal(option="turn_to", parameters='{"yaw": 1.0, "direction": "left"}'),
             lambda f: fb.append(f.feedback.active_path))
    r = result(node, h, 60)
    check("run_option turn_to: feedback turn_to.turning, SUCCEEDED, reached_target_state",
          r.status == GoalStatus.STATUS_SUCCEEDED and r.result.reached_target_state and fb[:1] == ["turn_to.turning"],
          (r.status, fb))
    fb = []
    a = goal(node, c, RunOption.Goal(option="circle", parameters='{"speed": 0.3}'), lambda f: fb.append(f.feedback.active_path))
    spin_until(node, lambda: "circle.driving" in fb)
    b = goal(node, c, RunOption.Goal(option="turn_to", parameters='{"yaw": -1.0, "direction": "right"}'))
    ra, rb = result(node, a), result(node, b, 60)
    check("run_option: a newer goal preempts the running one (ABORTED), the newer SUCCEEDED",
          ra.status == GoalStatus.STATUS_ABORTED and rb.status == GoalStatus.STATUS_SUCCEEDED, (ra.status, rb.status))
    fb = []
    h = goal(node, c, RunOption.Goal(option="circle", parameters='{"speed": 0.3}'), lambda f: fb.append(f.feedback.active_path))
    spin_until(node, lambda: len(fb) > 0)
    cf = h.cancel_goal_async(); spin_until(node, cf.done)
    r = result(node, h)
    check("run_option: cancel ends CANCELED", r.status == GoalStatus.STATUS_CANCELED, r.status)


def mission(node):
    m = collect(node, [("/tethys/odom", Odometry), ("/tethys/depth", Depth), ("/tethys/water", WaterProperties)], n=3)
    o, d = m["/tethys/odom"][-1], m["/tethys/depth"][-1]
    check("AUV odom in world, depth (skipper_msgs/Depth) agrees with -z",
          o.header.frame_id == "world" and abs(o.pose.pose.position.z + d.depth) < 1.0, (o.pose.pose.position, d.depth))
    w = m["/tethys/water"][-1]
    check("AUV water properties (skipper_msgs/WaterProperties)", 0 < w.temperature < 40 and w.salinity > 0, w)
    c = action(node, "/tethys/run_mission", RunMission)
    h = goal(node, c, RunMission.Goal(mission="examples/missions/no_such_mission.lua"))
    r = result(node, h)
    check("run_mission: a mission that does not load is ABORTED", r.status == GoalStatus.STATUS_ABORTED, r.status)
    fb = []
    a = goal(node, c, RunMission.Goal(mission="examples/missions/surface_and_report.lua"), lambda f: fb.append(f.feedback.active_items))
    check("run_mission: feedback (the active items)", spin_until(node, lambda: len(fb) > 0), fb)
    b = goal(node, c, RunMission.Goal(mission="examples/missions/circle_profile.lua"))
    ra = result(node, a)
    check("run_mission: a newer goal preempts the running one (ABORTED)", ra.status == GoalStatus.STATUS_ABORTED, ra.status)
    cf = b.cancel_goal_async(); spin_until(node, cf.done)
    rb = result(node, b)
    check("run_mission: cancel ends CANCELED, outcome canceled",
          rb.status == GoalStatus.STATUS_CANCELED and rb.result.outcome == "canceled", (rb.status, rb.result))
    fix = collect(node, [("/tethys/gps/fix", NavSatFix)], n=1)["/tethys/gps/fix"][-1]
    check("AUV GPS fix at the surface (sensor_msgs/NavSatFix)", abs(fix.latitude) > 0 and fix.status.status == 0, fix)


def fleet(node, hosts, robots):
    clients, handles, fb, names = [], [], {}, []
    for h in range(1, hosts + 1):
        for r in range(1, robots + 1):
            names.append(f"/host{h}/robot{r}")
            clients.append(action(node, f"{names[-1]}/goto", Goto))
    # where each robot starts (the robots are spread over the room)
    poses = collect(node, [(f"{n}/pose", PoseStamped) for n in names])
    # half a metre ahead of each, done within 0.4 m: every robot must drive, none meets
    # another
    for k, c in enumerate(clients):
        p = poses[f"{names[k]}/pose"][-1].pose
        q = p.orientation
        yaw = math.atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))
        g = Goto.Goal(x=p.position.x + 0.5 * math.cos(yaw), y=p.position.y + 0.5 * math.sin(yaw),
                      tolerance=0.4)
        handles.append(goal(node, c, g,
                            lambda m, k=k: fb.setdefault(k, []).append(m.feedback.distance)))
    check(f"fleet: {len(handles)} goals accepted", all(h.accepted for h in handles))
    futures = [h.get_result_async() for h in handles]
    if not spin_until(node, lambda: all(f.done() for f in futures), 120):
        fail("fleet: every result", [(k, handles[k].status, fb.get(k, [])[-1:]) for k, f in enumerate(futures) if not f.done()])
    results = [f.result() for f in futures]
    # (feedback sent before rclpy has processed the goal response is dropped by rclpy,
    # so a short goal's feedback is not asserted per robot; the ground checks assert it)
    check(f"fleet: every robot of {hosts} hosts x {robots} drove to its goal (SUCCEEDED)",
          all(r.status == GoalStatus.STATUS_SUCCEEDED for r in results) and len(fb) > 0,
          ([r.status for r in results], len(fb)))


def main():
    rclpy.init()
    node = Node("skipper_checks")
    mode = sys.argv[1]
    if mode == "ground":
        ground(node)
    elif mode == "xabsl":
        xabsl(node)
    elif mode == "mission":
        mission(node)
    elif mode == "fleet":
        fleet(node, int(sys.argv[2]), int(sys.argv[3]))
    print(f"{mode}: {checks} checks passed", flush=True)
    node.destroy_node()
    rclpy.shutdown()


if __name__ == "__main__":
    main()
