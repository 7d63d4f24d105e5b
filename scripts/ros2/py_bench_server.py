"""The rclpy side of bench.sh: an rclpy ActionServer of skipper_msgs/Goto on /bench/goto
doing the same work as crates/ros2/examples/ros2_bench_server.rs (one feedback, then
SUCCEEDED with the goal as the result). Runs until stdin closes."""
import sys, threading
import rclpy
from rclpy.action import ActionServer
from rclpy.node import Node
from skipper_msgs.action import Goto


def execute(handle):
    g = handle.request
    handle.publish_feedback(Goto.Feedback(distance=(g.x ** 2 + g.y ** 2) ** 0.5))
    handle.succeed()
    return Goto.Result(x=g.x, y=g.y, yaw=0.0)


rclpy.init()
node = Node("py_bench_server")
ActionServer(node, Goto, "/bench/goto", execute)
threading.Thread(target=lambda: (sys.stdin.read(), rclpy.try_shutdown()), daemon=True).start()
print("rclpy bench server ready", flush=True)
try:
    rclpy.spin(node)
except Exception:
    pass
