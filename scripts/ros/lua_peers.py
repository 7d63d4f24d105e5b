"""rospy peers of Skipper's Lua scripts (scripts/ros/lua_check.sh). Written for this
project after ros/actionlib's test scenarios.

  python3 lua_peers.py serve     /py_set (std_srvs/SetBool) and a talker on /py_chatter,
                                 until killed (for lua_clients.lua)
  python3 lua_peers.py clients   rospy's SimpleActionClient and ActionClient against
                                 lua_servers.lua (/lua/simple, /lua/multi), a call of its
                                 /lua_set and its echo on /lua_chatter; status 0 when
                                 every check held
"""
import sys
import threading

import rospy
from actionlib import ActionClient, GoalStatus, SimpleActionClient
from actionlib.msg import TestAction, TestGoal
from actionlib_msgs.msg import GoalStatus as GS
from std_msgs.msg import String
from std_srvs.srv import SetBool, SetBoolResponse

WAIT = rospy.Duration(30)


def check(cond, what):
    if not cond:
        print("FAIL rospy peer: " + what, file=sys.stderr, flush=True)
        sys.exit(1)
    print("ok   rospy peer: " + what, flush=True)


def serve():
    rospy.init_node("py_lua_peer")
    rospy.Service("/py_set", SetBool,
                  lambda req: SetBoolResponse(True, "rospy got " + str(req.data).lower()))
    def talker_connected():
        return sub.get_num_connections() == 1

    pub = rospy.Publisher("/py_chatter", String, queue_size=10)
    print("rospy peer ready", flush=True)
    n = 0
    rate = rospy.Rate(20)
    while not rospy.is_shutdown():
        n += 1
        pub.publish(String("hello from rospy %d" % n))
        rate.sleep()


def wait_for(cond, what):
    """Wait until cond() holds (the bound only turns a broken build into a failure)."""
    end = rospy.Time.now() + WAIT
    while not cond():
        if rospy.Time.now() > end or rospy.is_shutdown():
            check(False, "timed out waiting for " + what)
        rospy.sleep(0.01)


def simple_clients():
    ac = SimpleActionClient("/lua/simple", TestAction)
    check(ac.wait_for_server(WAIT), "SimpleActionClient connects to the Lua /lua/simple")
    ac.send_goal(TestGoal(1))
    check(ac.wait_for_result(WAIT) and ac.get_state() == GoalStatus.SUCCEEDED
          and ac.get_result().result == 10
          and ac.get_goal_status_text() == "the Lua server has succeeded",
          "goal 1 succeeds with result and text")
    ac.send_goal(TestGoal(2))
    check(ac.wait_for_result(WAIT) and ac.get_state() == GoalStatus.ABORTED
          and ac.get_goal_status_text() == "the Lua server has aborted", "goal 2 aborts with text")
    ac.send_goal(TestGoal(3))
    check(ac.wait_for_result(WAIT) and ac.get_state() == GoalStatus.ABORTED
          and "lua_servers.lua:" in ac.get_goal_status_text()
          and "goal 3 raises" in ac.get_goal_status_text(),
          "a Lua error in the goal callback aborts goal 3: " + ac.get_goal_status_text())
    heard = []
    ac.send_goal(TestGoal(7), feedback_cb=lambda f: heard.append(f.feedback))
    wait_for(lambda: heard, "feedback of goal 7")
    check(heard[0] == 7, "feedback 7 while goal 7 runs")
    ac.cancel_goal()
    check(ac.wait_for_result(WAIT) and ac.get_state() == GoalStatus.PREEMPTED
          and ac.get_result().result == -1, "a cancel preempts goal 7 (result -1)")
    other = SimpleActionClient("/lua/simple", TestAction)
    check(other.wait_for_server(WAIT), "a second SimpleActionClient connects")
    ac.send_goal(TestGoal(8))
    wait_for(lambda: ac.get_state() == GoalStatus.ACTIVE, "goal 8 active")
    other.send_goal(TestGoal(1))
    check(ac.wait_for_result(WAIT) and ac.get_state() == GoalStatus.PREEMPTED,
          "a newer goal preempts goal 8")
    check(other.wait_for_result(WAIT) and other.get_state() == GoalStatus.SUCCEEDED,
          "the newer goal succeeds")


def action_client():
    c = ActionClient("/lua/multi", TestAction)
    check(c.wait_for_server(WAIT), "ActionClient connects to the Lua /lua/multi")
    g1, g3, g4 = c.send_goal(TestGoal(1)), c.send_goal(TestGoal(3)), c.send_goal(TestGoal(4))
    wait_for(lambda: g1.get_goal_status() == GS.SUCCEEDED, "multi goal 1 succeeded")
    wait_for(lambda: g3.get_goal_status() == GS.REJECTED, "multi goal 3 rejected")
    check(g3.get_goal_status_text() == "the Lua server has rejected", "rejected with its text")
    wait_for(lambda: g4.get_goal_status() == GS.ACTIVE, "multi goal 4 active")
    g4.cancel()
    wait_for(lambda: g4.get_goal_status() == GS.PREEMPTED, "multi goal 4 canceled")
    check(g4.get_goal_status_text() == "canceled", "the cancel callback's setCanceled")


def topics_and_service():
    rospy.wait_for_service("/lua_set", 30)
    resp = rospy.ServiceProxy("/lua_set", SetBool)(True)
    check(resp.success is False and resp.message == "lua got true", "called the Lua service /lua_set")
    echoed = threading.Event()
    sub = rospy.Subscriber("/lua_chatter", String,
                     lambda m: m.data == "lua heard: ping" and echoed.set())
    def talker_connected():
        return sub.get_num_connections() == 1

    pub = rospy.Publisher("/py_chatter", String, queue_size=10)
    wait_for(lambda: pub.get_num_connections() == 1, "the Lua listener on /py_chatter")
    wait_for(lambda: talker_connected(), "the Lua talker on /lua_chatter")
    pub.publish(String("ping"))
    check(echoed.wait(30), "the Lua listener heard /py_chatter and its talker answered on /lua_chatter")


def clients():
    rospy.init_node("py_lua_clients")
    simple_clients()
    action_client()
    topics_and_service()


if __name__ == "__main__":
    {"serve": serve, "clients": clients}[sys.argv[1]]()
