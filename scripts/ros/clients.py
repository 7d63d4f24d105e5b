"""The real Python actionlib clients (rospy, Debian's python3-actionlib) against
Skipper's action servers (crates/actionlib/examples/reference_servers.rs):
the reference's scenarios 1-4, the behaviours observed on real ROS (preemption by a
newer goal without PREEMPTING on the wire, a bumped queued goal RECALLED, cancel-all,
a stale goal RECALLED at once) and a bounded stress test with several clients sending
and cancelling at random. Prints one line per check and exits non-zero on a failure.

Usage: python3 clients.py [STRESS_SECONDS]
"""
import random
import sys
import threading
import time

import actionlib
import rospy
from actionlib import ActionClient, CommState, SimpleActionClient
from actionlib.msg import (TestAction, TestActionFeedback, TestActionGoal, TestActionResult,
                           TestGoal, TestRequestAction, TestRequestGoal)
from actionlib_msgs.msg import GoalID, GoalStatusArray, GoalStatus as S

passed, failed = 0, 0
# wall seconds for any one state the protocol guarantees to come (a hang guard, not a
# measure: under load the machine may be slow, and nothing here is timed)
DEADLINE = 30.0
WAIT = rospy.Duration(DEADLINE)


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("ok   %s" % name)
    else:
        failed += 1
        print("FAIL %s %s" % (name, detail))
    sys.stdout.flush()


def wait_until(f, timeout=DEADLINE):
    """Wait for a state the protocol guarantees will come (never a fixed sleep)."""
    end = time.time() + timeout
    while time.time() < end:
        if f():
            return True
        time.sleep(0.01)
    return False


def simple(name, action):
    c = SimpleActionClient(name, action)
    check("wait_for_server %s" % name, c.wait_for_server(WAIT))
    return c


def scenario1():
    """ref simple server: 1 SUCCEEDED, 2 ABORTED, 3 ABORTED (no reject), 9 feedback then SUCCEEDED."""
    c = simple("reference_simple_action", TestAction)
    c.send_goal(TestGoal(1))
    check("s1 goal 1 result", c.wait_for_result(WAIT))
    check("s1 goal 1 SUCCEEDED", c.get_state() == S.SUCCEEDED, c.get_state())
    c.send_goal(TestGoal(2))
    c.wait_for_result(WAIT)
    check("s1 goal 2 ABORTED", c.get_state() == S.ABORTED, c.get_state())
    c.send_goal(TestGoal(3))
    c.wait_for_result(WAIT)
    check("s1 goal 3 ABORTED (a simple server cannot reject)", c.get_state() == S.ABORTED, c.get_state())
    # The feedback (at 1 s) and the result (at 2 s) travel on two connections, and the
    # client drops a feedback it reads after the result (comm state DONE): that the
    # callback gets it is likely, not guaranteed. What is guaranteed: the server publishes
    # feedback 9 (a subscriber of the feedback topic, connected before the goal, gets it),
    # the goal SUCCEEDS, and the callback gets nothing else.
    wire = []
    sub = rospy.Subscriber("reference_simple_action/feedback", TestActionFeedback,
                           lambda m: wire.append(m.feedback.feedback))
    wait_until(lambda: sub.get_num_connections() > 0)
    fb = []
    c.send_goal(TestGoal(9), feedback_cb=lambda f: fb.append(f.feedback))
    c.wait_for_result(WAIT)
    wait_until(lambda: wire)
    check("s1 goal 9: feedback 9 published, then SUCCEEDED",
          c.get_state() == S.SUCCEEDED and wire == [9] and fb in ([9], []), (c.get_state(), wire, fb))
    sub.unregister()


def scenario2():
    """simple client test: texts, done callback, send_goal_and_wait with preemption, cancels."""
    c = simple("reference_simple_action", TestAction)
    done = []
    c.send_goal(TestGoal(1), done_cb=lambda st, res: done.append(st))
    c.wait_for_result(WAIT)
    check("s2 SUCCEEDED text", c.get_goal_status_text() == "The ref server has succeeded", c.get_goal_status_text())
    check("s2 done callback SUCCEEDED", done == [S.SUCCEEDED], done)
    c.send_goal(TestGoal(2))
    c.wait_for_result(WAIT)
    check("s2 ABORTED text", c.get_goal_status_text() == "The ref server has aborted", c.get_goal_status_text())
    # Goal 4 ends only when preempted (else ABORTED after 10 s): send_goal_and_wait cancels
    # it after 2 s. Whether the result comes within the 1 s it then waits is timing, so
    # the state it returns may still be ACTIVE; the goal must end PREEMPTED.
    st = c.send_goal_and_wait(TestGoal(4), rospy.Duration(2), rospy.Duration(1))
    c.wait_for_result(WAIT)
    check("s2 send_goal_and_wait(4, 2 s, 1 s) cancels: PREEMPTED",
          st in (S.PREEMPTED, S.ACTIVE, S.PENDING) and c.get_state() == S.PREEMPTED, (st, c.get_state()))
    # cancel_all_goals stops a running goal; cancel_goals_at_and_before_time(1 s) cancels
    # nothing sent since, whichever connection is read first: a new goal still runs
    c.send_goal(TestGoal(4))
    wait_until(lambda: c.get_state() == S.ACTIVE)
    c.cancel_all_goals()
    c.wait_for_result(WAIT)
    preempted = c.get_state()
    c.cancel_goals_at_and_before_time(rospy.Time(1.0))
    c.send_goal(TestGoal(1))
    c.wait_for_result(WAIT)
    check("s2 cancel_all_goals: PREEMPTED; after cancel_goals_at_and_before_time(1 s) a new goal SUCCEEDS",
          preempted == S.PREEMPTED and c.get_state() == S.SUCCEEDED, (preempted, c.get_state()))


def req(**kw):
    g = TestRequestGoal(terminate_status=TestRequestGoal.TERMINATE_SUCCESS, the_result=42)
    for k, v in kw.items():
        setattr(g, k, v)
    return g


def scenario3():
    """exercise_simple_client against the TestRequest server."""
    c = simple("test_request_action", TestRequestAction)

    def run(name, goal, want, want_result, cancel=False):
        c.send_goal(goal)
        if cancel:
            # cancel the running goal (not one the server has yet to take)
            wait_until(lambda: c.get_state() == S.ACTIVE)
            c.cancel_goal()
        ok = c.wait_for_result(WAIT)
        r = c.get_result()
        got = r.the_result if r else None
        check("s3 %s" % name, ok and c.get_state() == want and got == want_result, (c.get_state(), got))

    run("just_succeed", req(), S.SUCCEEDED, 42)
    run("just_abort", req(terminate_status=TestRequestGoal.TERMINATE_ABORTED), S.ABORTED, 42)
    run("just_preempt", req(delay_terminate=rospy.Duration(1000)), S.PREEMPTED, 42, cancel=True)
    run("drop", req(terminate_status=TestRequestGoal.TERMINATE_DROP), S.ABORTED, 0)
    run("exception", req(terminate_status=TestRequestGoal.TERMINATE_EXCEPTION), S.ABORTED, 0)
    run("ignore_cancel_and_succeed", req(delay_terminate=rospy.Duration(2.0), ignore_cancel=True), S.SUCCEEDED, 42,
        cancel=True)
    c.send_goal(req(terminate_status=TestRequestGoal.TERMINATE_LOSE))
    ok = c.wait_for_result(WAIT)
    check("s3 lose -> LOST", ok and c.get_state() == S.LOST, c.get_state())


class Tracker:
    """A raw ActionClient goal and every status it showed."""

    def __init__(self, client, goal):
        self.statuses, self.comm, self.feedback = [], [], []
        self.gh = client.send_goal(goal, transition_cb=self.on_transition,
                                   feedback_cb=lambda gh, f: self.feedback.append(f.feedback))

    def on_transition(self, gh):
        self.comm.append(gh.get_comm_state())
        st = gh.get_goal_status()
        if not self.statuses or self.statuses[-1] != st:
            self.statuses.append(st)

    def wait_done(self, timeout=DEADLINE):
        end = time.time() + timeout
        while time.time() < end:
            if self.gh.get_comm_state() == CommState.DONE:
                return True
            time.sleep(0.01)
        return False


def scenario4():
    """ref multi-goal ActionServer with a raw ActionClient."""
    ac = ActionClient("reference_action", TestAction)
    check("wait_for_server reference_action", ac.wait_for_server(WAIT))
    t1 = Tracker(ac, TestGoal(1))
    t2 = Tracker(ac, TestGoal(2))
    t3 = Tracker(ac, TestGoal(3))
    for t in (t1, t2, t3):
        t.wait_done()
    check("s4 1 SUCCEEDED / 2 ABORTED / 3 REJECTED",
          [t.gh.get_terminal_state() for t in (t1, t2, t3)] == [S.SUCCEEDED, S.ABORTED, S.REJECTED],
          [t.gh.get_terminal_state() for t in (t1, t2, t3)])
    check("s4 texts", t1.gh.get_goal_status_text() == "The ref server has succeeded"
          and t3.gh.get_goal_status_text() == "The ref server has rejected")
    kept = [Tracker(ac, TestGoal(4)) for _ in range(3)]
    wait_until(lambda: all(k.gh.get_comm_state() == CommState.ACTIVE for k in kept))
    check("s4 kept goals ACTIVE", all(k.gh.get_comm_state() == CommState.ACTIVE for k in kept),
          [k.gh.get_comm_state() for k in kept])
    t7 = Tracker(ac, TestGoal(7))
    t7.wait_done()
    # feedback and result travel on two connections: wait for the feedback itself
    wait_until(lambda: all(k.feedback for k in kept))
    check("s4 goal 7 feedback n-i", [k.feedback for k in kept] == [[3], [2], [1]], [k.feedback for k in kept])
    t8 = Tracker(ac, TestGoal(8))
    t8.wait_done()
    for k in kept:
        k.wait_done()
    got = [(k.gh.get_terminal_state(), k.gh.get_result().result) for k in kept]
    check("s4 goal 8 alternates SUCCEEDED/ABORTED with n-i",
          got == [(S.SUCCEEDED, 3), (S.ABORTED, 2), (S.SUCCEEDED, 1)], got)
    kept = [Tracker(ac, TestGoal(4)) for _ in range(2)]
    wait_until(lambda: all(k.gh.get_comm_state() == CommState.ACTIVE for k in kept))
    Tracker(ac, TestGoal(6)).wait_done()
    for k in kept:
        k.wait_done()
    check("s4 goal 6 aborts every kept goal", [k.gh.get_terminal_state() for k in kept] == [S.ABORTED] * 2)
    kept = [Tracker(ac, TestGoal(4))]
    wait_until(lambda: kept[0].gh.get_comm_state() == CommState.ACTIVE)
    Tracker(ac, TestGoal(5)).wait_done()
    kept[0].wait_done()
    check("s4 goal 5 succeeds every kept goal", kept[0].gh.get_terminal_state() == S.SUCCEEDED)


def observed():
    """What the reference saw on real ROS with rospy's SimpleActionServer."""
    ac = ActionClient("reference_simple_action", TestAction)
    ac.wait_for_server(WAIT)
    old = Tracker(ac, TestGoal(4))
    wait_until(lambda: old.gh.get_comm_state() == CommState.ACTIVE)
    new = Tracker(ac, TestGoal(1))
    old.wait_done()
    new.wait_done()
    check("preempt by newer goal: old ACTIVE then PREEMPTED, never PREEMPTING on the wire",
          old.statuses[-2:] == [S.ACTIVE, S.PREEMPTED] and S.PREEMPTING not in old.statuses, old.statuses)
    check("preempt by newer goal: old comm ... ACTIVE, PREEMPTING, WAITING_FOR_RESULT, DONE",
          old.comm[-4:] == [CommState.ACTIVE, CommState.PREEMPTING, CommState.WAITING_FOR_RESULT, CommState.DONE],
          old.comm)
    check("preempt by newer goal: new SUCCEEDED", new.gh.get_terminal_state() == S.SUCCEEDED)

    # `bumped` is queued behind a running goal that ignores preempts for 2 s, and `last`
    # follows it on the same connection: the server has `last` while `running` runs, and
    # then recalls `bumped`. Nothing can hold `running` until `last` has arrived, though:
    # should the server take `last` only after `running` ended (a 2 s stall), `bumped` ran
    # and the protocol says it ends as it was asked to (SUCCEEDED) or PREEMPTED by `last`.
    # The status topic tells which happened (a server publishes every ACTIVE), and each
    # case is checked for what the protocol guarantees in it.
    wire = []
    status_sub = rospy.Subscriber("test_request_action/status", GoalStatusArray,
                                  lambda m: wire.extend((s.goal_id.id, s.status) for s in m.status_list))
    wait_until(lambda: status_sub.get_num_connections() > 0)
    rac = ActionClient("test_request_action", TestRequestAction)
    rac.wait_for_server(WAIT)
    running = Tracker(rac, req(delay_terminate=rospy.Duration(2.0), ignore_cancel=True))
    wait_until(lambda: running.gh.get_comm_state() == CommState.ACTIVE)
    bumped = Tracker(rac, req())
    last = Tracker(rac, req())
    for t in (bumped, last, running):
        t.wait_done()
    bid = bumped.gh.comm_state_machine.action_goal.goal_id.id
    wait_until(lambda: any(i == bid and st in (S.RECALLED, S.SUCCEEDED, S.PREEMPTED) for i, st in list(wire)))
    bumped_ran = (bid, S.ACTIVE) in wire
    if not bumped_ran:
        check("a bumped queued goal is RECALLED with the reference text",
              bumped.gh.get_terminal_state() == S.RECALLED and bumped.gh.get_goal_status_text() ==
              "This goal was canceled because another goal was received by the simple action server",
              (bumped.gh.get_terminal_state(), bumped.gh.get_goal_status_text()))
    else:
        check("a queued goal the server took before the next came (it stalled 2 s) ran: SUCCEEDED or PREEMPTED",
              bumped.gh.get_terminal_state() in (S.SUCCEEDED, S.PREEMPTED), bumped.gh.get_terminal_state())
    check("the last of them runs", last.gh.get_terminal_state() == S.SUCCEEDED)
    status_sub.unregister()

    # Whether the client's transition callback sees PREEMPTING depends on whether the
    # status list that carries it is read before the result (two connections), so the
    # check reads the status topic itself: the server must publish the goal PREEMPTING
    # (rule A-9: on every cancel-request change), and the goal must end PREEMPTED.
    wire = []
    status_sub = rospy.Subscriber("reference_simple_action/status", GoalStatusArray,
                                  lambda m: wire.extend((s.goal_id.id, s.status) for s in m.status_list))
    t = Tracker(ac, TestGoal(4))
    wait_until(lambda: t.gh.get_comm_state() == CommState.ACTIVE)
    wait_until(lambda: (t.gh.comm_state_machine.action_goal.goal_id.id, S.ACTIVE) in wire)
    ac.cancel_all_goals()
    t.wait_done()
    gid = t.gh.comm_state_machine.action_goal.goal_id.id
    wait_until(lambda: (gid, S.PREEMPTING) in wire)
    check("cancel_all: the server publishes PREEMPTING, then the goal ends PREEMPTED",
          (gid, S.PREEMPTING) in wire and t.gh.get_terminal_state() == S.PREEMPTED,
          (t.statuses, [st for i, st in wire if i == gid][-5:]))
    status_sub.unregister()

    # a goal stamped 5 s in the past after cancel_goals_at_and_before_time(now)
    results = []
    sub = rospy.Subscriber("reference_simple_action/result", TestActionResult, results.append)
    pub = rospy.Publisher("reference_simple_action/goal", TestActionGoal, queue_size=10)
    wait_until(lambda: pub.get_num_connections() > 0 and sub.get_num_connections() > 0)
    # the cancel and the goal travel on two connections: a running goal that the cancel
    # stops shows (on the status topic) that the server has taken the cancel before the
    # stale goal is sent
    marker = Tracker(ac, TestGoal(4))
    wait_until(lambda: marker.gh.get_comm_state() == CommState.ACTIVE)
    ac.cancel_goals_at_and_before_time(rospy.Time.now())
    marker.wait_done()
    g = TestActionGoal()
    g.header.stamp = rospy.Time.now()
    g.goal_id = GoalID(stamp=rospy.Time.now() - rospy.Duration(5), id="stale-goal")
    g.goal = TestGoal(1)
    pub.publish(g)
    wait_until(lambda: any(r.status.goal_id.id == "stale-goal" for r in results))
    mine = [r for r in results if r.status.goal_id.id == "stale-goal"]
    check("a stale goal is RECALLED without running",
          len(mine) == 1 and mine[0].status.status == S.RECALLED and "last cancel request" in mine[0].status.text,
          [(r.status.status, r.status.text) for r in mine])
    sub.unregister()
    pub.unregister()


def stress(seconds):
    """Several clients send and cancel at random for SECONDS (each sends one goal at
    least); every goal must end and the server must still answer at the end. How many
    goals that is depends on the machine, so only that they all ended is checked."""
    stop = time.time() + seconds
    counts = {"goals": 0, "ended": 0, "hung": 0, "client_race": 0}
    lock = threading.Lock()

    def worker(k):
        rnd = random.Random(k)
        c = SimpleActionClient("test_request_action", TestRequestAction)
        c.wait_for_server(WAIT)
        first = True
        while first or time.time() < stop:
            first = False
            c.send_goal(req(delay_terminate=rospy.Duration(rnd.uniform(0, 0.2))))
            if rnd.random() < 0.4:
                time.sleep(rnd.uniform(0, 0.1))
                c.cancel_goal()
            ok = c.wait_for_result(WAIT)
            # The Python SimpleActionClient's own race (ros/actionlib#206): send_goal stores
            # the goal handle only after publishing, so a result that arrives in between is
            # ignored by the simple client although its ActionClient got it (comm state DONE).
            # A goal whose result never arrived stays "hung".
            race = not ok and c.gh is not None and c.gh.get_comm_state() == CommState.DONE
            with lock:
                counts["goals"] += 1
                counts["ended" if ok else "client_race" if race else "hung"] += 1

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + 3 * DEADLINE)
    check("stress: %d goals from 5 clients in %d s, none hung" % (counts["goals"], seconds),
          counts["goals"] >= 5 and counts["hung"] == 0 and not any(t.is_alive() for t in threads), counts)
    c = simple("test_request_action", TestRequestAction)
    c.send_goal(req())
    check("stress: the server still answers", c.wait_for_result(WAIT) and c.get_state() == S.SUCCEEDED)


if __name__ == "__main__":
    rospy.init_node("python_clients", disable_signals=True)
    stress_seconds = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    scenario1()
    scenario2()
    scenario3()
    scenario4()
    observed()
    stress(stress_seconds)
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)
