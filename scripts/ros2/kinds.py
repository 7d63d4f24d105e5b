"""Goal kinds served as ROS 2 actions of types made at run time, seen from real rclpy
clients built on the interface packages `skipper interfaces --ros2` wrote. Modes:
  types HASHES NAME=PKG/Name...  the graph lists each action NAME with its type, as
           `ros2 action list -t` reads it; the type hashes agree three ways: the one
           Skipper printed (HASHES, the output of `skipper interfaces`), the one rosidl
           gave the built package (share/PKG/action/Name.json), and the one rclpy's own
           endpoints of the action announce (their type support's)
  advance  tutorial 3's `advance` goal on /r1/advance (tutorial_msgs/action/Advance):
           feedback, result, a goal the controller refuses, preemption, cancel
Prints one line per check; exits 1 on the first failure."""
import json, os, sys
import rclpy
from rclpy.action import ActionClient, get_action_names_and_types
from rclpy.node import Node
from action_msgs.msg import GoalStatus
from checks import WAIT, check, fail, goal, result, spin_until
import checks


def hash_text(h):
    return f"RIHS{h.version:02d}_{h.value.hex()}"


def rosidl_hashes(type_name):
    """The hashes rosidl wrote for action PKG/action/Name and its types (the package is
    installed in this venv)."""
    pkg, _, name = type_name.split("/")
    path = os.path.join(sys.prefix, "share", pkg, "action", name + ".json")
    with open(path) as f:
        return {t["type_name"]: t["hash_string"] for t in json.load(f)["type_hashes"]}


def action_class(type_name):
    pkg, _, name = type_name.split("/")
    return getattr(__import__(f"{pkg}.action", fromlist=[name]), name)


def types(node, printed, pairs):
    wanted = dict(p.split("=", 1) for p in pairs)
    clients = {n: ActionClient(node, action_class(t), n) for n, t in wanted.items()}
    for n, c in clients.items():
        check(f"{n}: the action server is discovered", c.wait_for_server(timeout_sec=WAIT))
    listed = {}

    def all_listed():
        listed.update(dict(get_action_names_and_types(node)))
        return all(n in listed for n in wanted)

    spin_until(node, all_listed)
    for n, t in wanted.items():
        check(f"{n}: the graph lists it as {t} (as `ros2 action list -t` does)",
              listed.get(n) == [t], listed.get(n))
        topics = dict(node.get_topic_names_and_types())
        check(f"{n}: its feedback topic carries {t}_FeedbackMessage",
              topics.get(f"{n}/_action/feedback") == [f"{t}_FeedbackMessage"], topics.get(f"{n}/_action/feedback"))
        built = rosidl_hashes(t)
        check(f"{n}: the type hash Skipper printed is rosidl's for the built package ({built[t][:20]}...)",
              printed.get(t) == built[t], (printed.get(t), built[t]))
        # the hash rclpy's own endpoints announce: their type support's
        subs = node.get_subscriptions_info_by_topic(f"{n}/_action/feedback")
        mine = [hash_text(s.topic_type_hash) for s in subs if s.node_name == node.get_name()]
        check(f"{n}: rclpy's feedback reader announces rosidl's {t}_FeedbackMessage hash",
              mine == [built[f"{t}_FeedbackMessage"]], (mine, built[f"{t}_FeedbackMessage"]))
    return clients


def advance(node):
    from tutorial_msgs.action import Advance
    c = checks.action(node, "/r1/advance", Advance)
    fb = []
    h = goal(node, c, Advance.Goal(distance=1.0), lambda f: fb.append(f.feedback.left))
    check("advance: goal accepted", h.accepted)
    r = result(node, h, 60)
    check("advance: feedback (distance left, falling) then SUCCEEDED, travelled 1 m",
          r.status == GoalStatus.STATUS_SUCCEEDED and len(fb) > 1 and fb[-1] < fb[0]
          and abs(r.result.travelled - 1.0) < 0.1, (r.status, fb[:3], r.result))
    h = goal(node, c, Advance.Goal(distance=-1.0))
    r = result(node, h)
    check("advance: a distance the controller refuses is ABORTED", h.accepted and r.status == GoalStatus.STATUS_ABORTED, r.status)
    bad = goal(node, c, Advance.Goal(distance=float("inf")))
    check("advance: a distance that is not finite is rejected", not bad.accepted)
    fb = []
    a = goal(node, c, Advance.Goal(distance=20.0), lambda f: fb.append(f.feedback.left))
    spin_until(node, lambda: len(fb) > 0)
    b = goal(node, c, Advance.Goal(distance=0.5))
    ra, rb = result(node, a), result(node, b, 60)
    check("advance: a newer goal preempts the running one (ABORTED), the newer SUCCEEDED",
          ra.status == GoalStatus.STATUS_ABORTED and rb.status == GoalStatus.STATUS_SUCCEEDED, (ra.status, rb.status))
    fb = []
    h = goal(node, c, Advance.Goal(distance=20.0), lambda f: fb.append(f.feedback.left))
    spin_until(node, lambda: len(fb) > 1)
    cf = h.cancel_goal_async()
    spin_until(node, cf.done)
    r = result(node, h)
    check("advance: cancel ends CANCELED", r.status == GoalStatus.STATUS_CANCELED, r.status)


def main():
    rclpy.init()
    node = Node("skipper_kinds")
    mode = sys.argv[1]
    if mode == "types":
        printed = {}
        for line in open(sys.argv[2]):
            # "  goal kind goto: skipper_msgs/action/Goto, type hash RIHS01_..."
            if "type hash" in line:
                t = line.split(": ", 1)[1].split(",")[0]
                printed[t] = line.split("type hash ")[1].strip()
        types(node, printed, sys.argv[3:])
    elif mode == "advance":
        advance(node)
    else:
        fail("mode", mode)
    print(f"{mode}: {checks.checks} checks passed", flush=True)
    node.destroy_node()
    rclpy.shutdown()


if __name__ == "__main__":
    main()
