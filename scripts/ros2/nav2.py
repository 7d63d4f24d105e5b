"""nav2's NavigateToPose (Jazzy's nav2_msgs, built by run.sh from its definition) from a
real rclpy ActionClient against `skipper run --ros2`'s /robot1/navigate_to_pose, as
nav2_simple_commander's goToPose sends it: the graph lists the action with nav2's type;
a goal in `map` drives the robot there with feedback (current pose, falling distance
remaining, navigation time); a cancel ends CANCELED; a newer goal preempts (ABORTED);
a pose in another frame and a behavior tree are rejected, the reason on /rosout.
Prints one line per check; exits 1 on the first failure."""
import math, sys
import rclpy
from rclpy.action import ActionClient, get_action_names_and_types
from rclpy.node import Node
from action_msgs.msg import GoalStatus
from geometry_msgs.msg import PoseStamped
from nav_msgs.msg import Odometry
from rcl_interfaces.msg import Log
from nav2_msgs.action import NavigateToPose
from checks import WAIT, Collect, check, goal, result, spin_until
import checks


def pose(frame, x, y):
    p = PoseStamped()
    p.header.frame_id = frame
    p.pose.position.x, p.pose.position.y = x, y
    p.pose.orientation.w = 1.0
    return p


def secs(d):
    return d.sec + d.nanosec * 1e-9


def main():
    rclpy.init()
    node = Node("nav2_client")
    rosout = Collect(node, Log, "/rosout")
    odom = Collect(node, Odometry, "/robot1/odom")
    c = ActionClient(node, NavigateToPose, "/robot1/navigate_to_pose")
    check("navigate_to_pose: the action server is discovered", c.wait_for_server(timeout_sec=WAIT))
    listed = {}

    def has_it():
        listed.update(dict(get_action_names_and_types(node)))
        return "/robot1/navigate_to_pose" in listed

    spin_until(node, has_it)
    check("the graph lists /robot1/navigate_to_pose as nav2_msgs/action/NavigateToPose",
          listed.get("/robot1/navigate_to_pose") == ["nav2_msgs/action/NavigateToPose"], listed)

    # a goal in map: driven there with feedback
    spin_until(node, lambda: len(odom.msgs) > 0)
    start = odom.msgs[-1].pose.pose.position
    target = (start.x + 1.5, start.y + 1.0)
    fb = []
    h = goal(node, c, NavigateToPose.Goal(pose=pose("map", *target)), lambda f: fb.append(f.feedback))
    check("navigate_to_pose: a goal in map is accepted", h.accepted)
    r = result(node, h, 90)
    end = odom.msgs[-1].pose.pose.position
    check("navigate_to_pose: SUCCEEDED, error_code 0 (NONE), the robot at the pose",
          r.status == GoalStatus.STATUS_SUCCEEDED and r.result.error_code == NavigateToPose.Result.NONE
          and r.result.error_msg == "" and math.dist((end.x, end.y), target) < 0.5,
          (r.status, r.result, (end.x, end.y), target))
    dist = [f.distance_remaining for f in fb]
    check("navigate_to_pose: feedback with a falling distance_remaining",
          len(dist) > 2 and dist[-1] < dist[0] and all(b <= a + 0.05 for a, b in zip(dist, dist[1:])), dist[:5])
    last = fb[-1] if fb else None
    check("navigate_to_pose: feedback's current_pose in robot1/odom, navigation_time counting",
          last is not None and last.current_pose.header.frame_id == "robot1/odom"
          and secs(last.navigation_time) > 0 and last.number_of_recoveries == 0,
          last)

    # cancel one goal
    fb = []
    h = goal(node, c, NavigateToPose.Goal(pose=pose("robot1/odom", -4.0, -4.0)), lambda f: fb.append(f.feedback))
    spin_until(node, lambda: len(fb) > 1)
    cf = h.cancel_goal_async()
    spin_until(node, cf.done)
    r = result(node, h)
    check("navigate_to_pose: cancel ends CANCELED", len(cf.result().goals_canceling) == 1
          and r.status == GoalStatus.STATUS_CANCELED, (cf.result(), r.status))

    # preempt another
    fb = []
    a = goal(node, c, NavigateToPose.Goal(pose=pose("odom", 4.0, -4.0)), lambda f: fb.append(f.feedback))
    spin_until(node, lambda: len(fb) > 0)
    b = goal(node, c, NavigateToPose.Goal(pose=pose("odom", 0.0, 0.0)))
    ra, rb = result(node, a), result(node, b, 90)
    check("navigate_to_pose: a newer goal preempts the running one (ABORTED), the newer SUCCEEDED",
          ra.status == GoalStatus.STATUS_ABORTED and rb.status == GoalStatus.STATUS_SUCCEEDED
          and "preempted" in ra.result.error_msg, (ra.status, ra.result, rb.status))

    # frames and behavior trees Skipper does not have
    bad = goal(node, c, NavigateToPose.Goal(pose=pose("base_link", 1.0, 0.0)))
    check("navigate_to_pose: a pose in another frame (base_link) is rejected", not bad.accepted)
    bt = goal(node, c, NavigateToPose.Goal(pose=pose("map", 1.0, 0.0), behavior_tree="navigate.xml"))
    check("navigate_to_pose: a behavior tree is rejected", not bt.accepted)
    said = lambda: [l.msg for l in rosout.msgs if l.name == "skipper"]
    check("/rosout says why: the frame, and the frames this robot takes",
          spin_until(node, lambda: any("frame `base_link`" in m and "robot1/odom" in m for m in said())), said()[-3:])
    print(f"nav2: {checks.checks} checks passed", flush=True)
    node.destroy_node()
    rclpy.shutdown()


if __name__ == "__main__":
    main()
