"""rospy's own action servers (Debian's python3-actionlib) for Skipper's client to talk to:
the reference's simple server (execute callback), the TestRequest mock server and the
multi-goal reference server, under /py/... . Written for this project after
ros/actionlib's test servers. Runs until killed.

Usage: python3 py_servers.py
"""
import time

import rospy
from actionlib import ActionServer, SimpleActionServer
from actionlib.server_goal_handle import ServerGoalHandle
from actionlib.msg import (TestAction, TestFeedback, TestRequestAction, TestRequestGoal,
                           TestRequestResult, TestResult)


class Simple:
    """1 succeeds, 2 aborts, 4 waits for a preempt, 9 sends feedback 9 then succeeds."""

    def __init__(self, name):
        self.s = SimpleActionServer(name, TestAction, self.execute, False)
        self.s.start()

    def execute(self, goal):
        if goal.goal == 1:
            self.s.set_succeeded(TestResult(1), "The ref server has succeeded")
        elif goal.goal == 2:
            self.s.set_aborted(None, "The ref server has aborted")
        elif goal.goal == 4:
            for _ in range(100):
                if self.s.is_preempt_requested():
                    self.s.set_preempted()
                    return
                time.sleep(0.1)
            self.s.set_aborted()
        elif goal.goal == 9:
            self.s.publish_feedback(TestFeedback(9))
            time.sleep(0.2)
            self.s.set_succeeded(TestResult(9))
        else:
            self.s.set_aborted()


class Request:
    """Ends each goal as its TestRequest fields ask."""

    def __init__(self, name):
        self.s = SimpleActionServer(name, TestRequestAction, self.execute, False)
        self.s.start()

    def execute(self, goal):
        result = TestRequestResult(goal.the_result, True)
        end = time.time() + goal.delay_terminate.to_sec()
        while time.time() < end:
            time.sleep(0.02)
            if not goal.ignore_cancel and self.s.is_preempt_requested():
                self.s.set_preempted(result, goal.result_text)
                return
        if goal.terminate_status == TestRequestGoal.TERMINATE_SUCCESS:
            self.s.set_succeeded(result, goal.result_text)
        elif goal.terminate_status == TestRequestGoal.TERMINATE_ABORTED:
            self.s.set_aborted(result, goal.result_text)
        elif goal.terminate_status == TestRequestGoal.TERMINATE_DROP:
            return
        elif goal.terminate_status == TestRequestGoal.TERMINATE_EXCEPTION:
            raise Exception("asked to throw")
        elif goal.terminate_status == TestRequestGoal.TERMINATE_LOSE:
            with self.s.action_server.lock:
                self.s.action_server.status_list = [
                    st for st in self.s.action_server.status_list
                    if st.status.goal_id.id != self.s.current_goal.get_goal_id().id]
            # an empty handle: the simple server's "no terminal state" abort goes nowhere
            self.s.current_goal = ServerGoalHandle()
        else:
            self.s.set_aborted()


class Multi:
    """1 succeeds, 2 aborts, 3 is rejected, 4 is kept, 5 succeeds the kept ones, 7 sends
    each kept goal feedback n-i (as the reference multi-goal server does)."""

    def __init__(self, name):
        self.kept = []
        self.s = ActionServer(name, TestAction, self.goal, lambda gh: None, False)
        self.s.start()

    def goal(self, gh):
        g = gh.get_goal().goal
        if g == 1:
            gh.set_accepted()
            gh.set_succeeded(None, "The ref server has succeeded")
        elif g == 2:
            gh.set_accepted()
            gh.set_aborted(None, "The ref server has aborted")
        elif g == 3:
            gh.set_rejected(None, "The ref server has rejected")
        elif g == 4:
            gh.set_accepted()
            self.kept.append(gh)
        elif g == 5:
            gh.set_accepted()
            for k in self.kept:
                k.set_succeeded()
            self.kept = []
            gh.set_succeeded()
        elif g == 7:
            gh.set_accepted()
            for i, k in enumerate(self.kept):
                k.publish_feedback(TestFeedback(len(self.kept) - i))
            gh.set_succeeded()


if __name__ == "__main__":
    rospy.init_node("py_servers")
    servers = [Simple("/py/simple"), Request("/py/request"), Multi("/py/multi")]
    print("python servers ready", flush=True)
    rospy.spin()
