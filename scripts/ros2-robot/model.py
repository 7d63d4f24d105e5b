"""The test robots' world, shared by the rclpy robot (scripts/ros2-robot/robot.py) and
the rospy one (scripts/ros1-robot/robot.py): a differential-drive base integrating the
velocity it is sent, in a room of wall segments, with a laser mounted on it (any
position, heading, beam count and angle range, upside down or not) whose ranges are
ray-cast against the walls in the laser's own frame. Plain Python, no ROS."""
import json, math, signal, time

RADIUS = 0.2  # the base's radius (m): closer to a wall than this is a collision


def parse_walls(text):
    """`x1,y1,x2,y2;...` -> segments."""
    out = []
    for part in filter(None, text.split(";")):
        x1, y1, x2, y2 = (float(v) for v in part.split(","))
        out.append((x1, y1, x2, y2))
    return out


def room(half):
    """A square room of walls `half` m from the origin."""
    h = half
    return [(-h, -h, h, -h), (h, -h, h, h), (h, h, -h, h), (-h, h, -h, -h)]


def ray(px, py, dx, dy, seg):
    """Distance along (dx, dy) from (px, py) to segment `seg`, or None."""
    x1, y1, x2, y2 = seg
    ex, ey = x2 - x1, y2 - y1
    den = dx * ey - dy * ex
    if abs(den) < 1e-12:
        return None
    t = ((x1 - px) * ey - (y1 - py) * ex) / den
    u = ((x1 - px) * dy - (y1 - py) * dx) / den
    if t >= 0.0 and 0.0 <= u <= 1.0:
        return t
    return None


def seg_distance(px, py, seg):
    x1, y1, x2, y2 = seg
    ex, ey = x2 - x1, y2 - y1
    L = ex * ex + ey * ey
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((px - x1) * ex + (py - y1) * ey) / L))
    return math.hypot(px - (x1 + t * ex), py - (y1 + t * ey))


class Laser:
    """A laser on the base: mount (x, y, yaw, upside_down), beams over [amin, amax]."""

    def __init__(self, x, y, yaw, flip, beams, amin, amax, rmin=0.05, rmax=8.0):
        self.x, self.y, self.yaw, self.flip = x, y, yaw, flip
        self.beams, self.amin, self.amax = beams, amin, amax
        self.inc = (amax - amin) / (beams - 1)
        self.rmin, self.rmax = rmin, rmax

    def quaternion(self):
        """The mount's rotation: yaw about z, then (upside down) pi about x."""
        cy, sy = math.cos(self.yaw / 2), math.sin(self.yaw / 2)
        if not self.flip:
            return (0.0, 0.0, sy, cy)
        # q_yaw * q_roll(pi) with q_roll = (1, 0, 0, 0)
        return (cy, sy, 0.0, 0.0)

    def scan(self, base, walls):
        """Ranges in the laser's beam order, seen from `base` = (x, y, yaw)."""
        bx, by, byaw = base
        c, s = math.cos(byaw), math.sin(byaw)
        lx, ly = bx + c * self.x - s * self.y, by + s * self.x + c * self.y
        out = []
        for i in range(self.beams):
            a = self.amin + i * self.inc
            # the beam in the base frame: upside down mirrors the laser's angles
            b = self.yaw + (-a if self.flip else a)
            dx, dy = math.cos(byaw + b), math.sin(byaw + b)
            hits = [d for d in (ray(lx, ly, dx, dy, w) for w in walls) if d is not None]
            r = min(hits) if hits else float("inf")
            out.append(r if r <= self.rmax else float("inf"))
        return out


class Base:
    """A differential-drive base integrating (v, w)."""

    def __init__(self, x=0.0, y=0.0, yaw=0.0, walls=()):
        self.x, self.y, self.yaw = x, y, yaw
        self.v = self.w = 0.0
        self.walls = list(walls)
        self.collisions = 0
        self.touching = False
        self.min_clearance = float("inf")
        self.travelled = 0.0

    def command(self, v, w):
        self.v, self.w = v, w

    def step(self, dt):
        nx = self.x + self.v * math.cos(self.yaw) * dt
        ny = self.y + self.v * math.sin(self.yaw) * dt
        clear = min((seg_distance(nx, ny, s) for s in self.walls), default=float("inf"))
        if clear < RADIUS:
            if not self.touching:
                self.collisions += 1
            self.touching = True
        else:
            self.touching = False
            self.travelled += math.hypot(nx - self.x, ny - self.y)
            self.x, self.y = nx, ny
            self.min_clearance = min(self.min_clearance, clear)
        self.yaw = math.atan2(math.sin(self.yaw + self.w * dt), math.cos(self.yaw + self.w * dt))

    def state(self):
        return {"x": self.x, "y": self.y, "yaw": self.yaw, "collisions": self.collisions,
                "min_clearance": self.min_clearance, "travelled": self.travelled}


class Recorder:
    """Every command received (time, v, w), and the base's state, as JSON lines."""

    def __init__(self, path):
        self.f = open(path, "w", buffering=1) if path else None

    def command(self, v, w):
        if self.f:
            self.f.write(json.dumps({"t": time.time(), "cmd": [v, w]}) + "\n")

    def event(self, what, **kw):
        if self.f:
            self.f.write(json.dumps({"t": time.time(), "event": what, **kw}) + "\n")

    def state(self, base):
        if self.f:
            self.f.write(json.dumps({"t": time.time(), "state": base.state()}) + "\n")


def options(argv):
    """The robots' command line, shared by both robots."""
    import argparse
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--ns", default="/bot", help="the robot's namespace")
    p.add_argument("--frames", default="", help="prefix of its frame names (bot1/)")
    p.add_argument("--pose", default="0,0,0", help="start pose x,y,yaw")
    p.add_argument("--room", type=float, default=2.0, help="walls this far from the origin")
    p.add_argument("--walls", default="", help="extra walls x1,y1,x2,y2;...")
    p.add_argument("--beams", type=int, default=241)
    p.add_argument("--fov", type=float, default=240.0, help="degrees, centred on the laser's x")
    p.add_argument("--mount", default="0.15,0,0,0", help="laser x,y,yaw,upside_down(0/1)")
    p.add_argument("--stamped", action="store_true", help="take geometry_msgs/TwistStamped")
    p.add_argument("--odom-hz", type=float, default=20.0)
    p.add_argument("--scan-hz", type=float, default=10.0)
    p.add_argument("--odom-best-effort", action="store_true")
    p.add_argument("--silent-after", type=float, default=0.0,
                   help="stop publishing odometry and scans this many seconds after the first command")
    p.add_argument("--bad", action="store_true", help="also publish bad messages (NaN odometry, a short scan)")
    p.add_argument("--log", default="", help="JSON lines: commands received, state")
    a = p.parse_args(argv)
    x, y, yaw = (float(v) for v in a.pose.split(","))
    mx, my, myaw, flip = a.mount.split(",")
    half = math.radians(a.fov) / 2
    laser = Laser(float(mx), float(my), float(myaw), flip.strip() == "1", a.beams, -half, half)
    walls = room(a.room) + parse_walls(a.walls)
    return a, Base(x, y, yaw, walls), laser


def stop_on_signals():
    """SIGINT and SIGTERM raise KeyboardInterrupt. A script's background job starts with
    SIGINT ignored, and Python then installs no handler of its own for it."""
    def interrupt(*_):
        raise KeyboardInterrupt
    for s in (signal.SIGINT, signal.SIGTERM):
        signal.signal(s, interrupt)
