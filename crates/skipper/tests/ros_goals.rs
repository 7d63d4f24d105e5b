//! The `run_option`, `run_mission` and the AUV's `goto` action servers of `skipper run
//! --ros`: the servers skipper-ros1 makes from the goal kinds a robot's controller
//! declares, on a ROS 1 node (a fake master, loopback), Skipper's SimpleActionClients of
//! the compiled-in types sending goals from nodes of their own, and a real run (the
//! simulator paced by the wall clock, sped up) on a thread. Checks goals, feedback,
//! results, preemption by a newer goal, cancel (the robot stops; the AUV goes to the
//! default mission, or after a goto stops and its mission drives again) and bad goals.

use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::{Action, ActionClient, Clock, SimpleActionClient, StatusCode, SystemClock};
use skipper_core::goals::GoalPort;
use skipper_core::runner::CycleView;
use skipper_core::{Observer, RunConfig, RunControl, Runner};
use skipper_goals::pilot::AUV_TOLERANCE;
use skipper_goals::{BindOptions, GoalRunner};
use skipper_ros1::goals::GoalServer;
use skipper_ros1_wire::msg::skipper_msgs::{
    Goto, GotoGoal, RunMission, RunMissionGoal, RunOption, RunOptionGoal,
};
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::{Node, NodeConfig};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples")
}

/// What the test sees of robot 0 each cycle: (linear, angular velocity) of a ground
/// robot, or the AUV's setpoints and speed through the water.
#[derive(Default)]
struct Seen {
    velocity: Vec<(f64, f64)>,
    auv: Vec<skipper_core::AuvSetpoints>,
    auv_speed: Vec<f64>,
}

struct Watch(Arc<Mutex<Seen>>);

impl Observer for Watch {
    fn on_cycle(&mut self, v: &CycleView<'_>) {
        let Ok(mut seen) = self.0.lock() else { return };
        if let Some(s) = v.signals.first() {
            let get = |n: &str| s.id(n).and_then(|id| s.f64(id));
            if let (Some(l), Some(a)) = (get("velocity.linear"), get("velocity.angular")) {
                seen.velocity.push((l, a));
            }
            if let Some(v) = get("PLATFORM_SPEED_WRT_SEA_WATER") {
                seen.auv_speed.push(v);
            }
        }
        if let Some(sp) = v.actuation.first().and_then(|a| a.auv) {
            seen.auv.push(sp);
        }
    }
}

/// A run on a thread, the action server on a ROS node, and a way to stop both.
struct Fixture<A: Action> {
    master: FakeMaster,
    ns: String,
    _node: Node,
    _server: GoalServer,
    clients: Mutex<Vec<(Node, ActionClientBinding)>>,
    control: Arc<RunControl>,
    run: Option<JoinHandle<()>>,
    seen: Arc<Mutex<Seen>>,
    _action: std::marker::PhantomData<A>,
}

/// A node on the fake master.
fn node(master: &FakeMaster, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = master.uri.clone();
    c.advertise_host = "127.0.0.1".into();
    Node::new(c).unwrap()
}

impl<A: Action + Default> Fixture<A> {
    /// The `kind` server of the run's goals on a ROS node, under `/robot1`.
    fn serve(
        (control, run, seen): (Arc<RunControl>, JoinHandle<()>, Arc<Mutex<Seen>>),
        kind: &str,
        port: Arc<dyn GoalPort>,
    ) -> Self {
        let master = FakeMaster::start().unwrap();
        let server_node = node(&master, "/skipper");
        let kind = port.kinds().into_iter().find(|k| k.name == kind).unwrap();
        let server = GoalServer::host(&server_node, "/robot1", kind, port).unwrap();
        Fixture {
            master,
            ns: format!("/robot1/{}", kind.name),
            _node: server_node,
            _server: server,
            clients: Mutex::default(),
            control,
            run: Some(run),
            seen,
            _action: std::marker::PhantomData,
        }
    }

    fn client(&self, name: &str) -> SimpleActionClient<A> {
        let n = node(&self.master, name);
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        let c = ActionClient::<A>::new(name, clock);
        let binding = ActionClientBinding::new(&n, &self.ns, &c).unwrap();
        self.clients.lock().unwrap().push((n, binding));
        let s = SimpleActionClient::new(c);
        assert!(s.wait_for_server(Some(Duration::from_secs(10))));
        s
    }
}

impl<A: Action> Drop for Fixture<A> {
    fn drop(&mut self) {
        self.control.request_stop();
        if let Some(t) = self.run.take() {
            let _ = t.join();
        }
    }
}

/// A run started on its thread: its control, the thread, what the test sees of it, and
/// where its goals go.
type Started = (
    Arc<RunControl>,
    JoinHandle<()>,
    Arc<Mutex<Seen>>,
    Arc<dyn GoalPort>,
);

type Built = (
    Box<dyn skipper_core::World>,
    Box<dyn skipper_core::Controller>,
    Arc<dyn GoalPort>,
);

/// Build a world and its controller on a thread of their own and run them there.
fn start_run(
    period: Duration,
    speed: f64,
    build: impl FnOnce() -> Built + Send + 'static,
) -> Started {
    let seen: Arc<Mutex<Seen>> = Arc::default();
    let s2 = seen.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    let t = std::thread::spawn(move || {
        let (world, controller, h) = build();
        let mut runner = Runner::new(
            world,
            RunConfig {
                period,
                until: Some(Duration::from_secs(7200)),
                realtime: true,
                speed,
            },
        );
        runner.set_controller(0, controller);
        runner.add_observer(Box::new(Watch(s2)));
        let _ = tx.send((runner.control(), h));
        runner.run();
    });
    let (control, h) = rx.recv().unwrap();
    (control, t, seen, h)
}

fn option_fixture() -> Fixture<RunOption> {
    let (control, run, seen, handle) = start_run(Duration::from_millis(100), 4.0, || {
        let agents = examples().join("xabsl/goals/agents.xabsl");
        let world = Box::new(skipper::vehicles::ground_world(None, None, 0, false).unwrap())
            as Box<dyn skipper_core::World>;
        let (_, xabsl) = skipper::controllers::xabsl_controllers(&agents, &*world)
            .unwrap()
            .into_iter()
            .next()
            .unwrap();
        let (runner, handle) = GoalRunner::new("robot1", Box::new(xabsl));
        (
            world,
            Box::new(runner) as Box<dyn skipper_core::Controller>,
            handle as Arc<dyn GoalPort>,
        )
    });
    Fixture::serve((control, run, seen), "run_option", handle)
}

fn wait_until(what: &str, timeout: Duration, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn option_goal(option: &str, parameters: &str) -> RunOptionGoal {
    RunOptionGoal {
        option: option.into(),
        parameters: parameters.into(),
    }
}

type Feedback = Arc<Mutex<Vec<String>>>;

fn send_option(c: &SimpleActionClient<RunOption>, g: RunOptionGoal) -> Feedback {
    let fb: Feedback = Arc::default();
    let f2 = fb.clone();
    c.send_goal(
        g,
        None,
        None,
        Some(Box::new(move |f| {
            if let Ok(mut v) = f2.lock() {
                v.push(f.active_path.clone())
            }
        })),
    );
    fb
}

#[test]
fn run_option_goals_choose_the_agents_option() {
    let fx = option_fixture();
    let a = fx.client("/client_a");
    let b = fx.client("/client_b");
    let long = Some(Duration::from_secs(20));

    // bad goals are aborted with the reason
    send_option(&a, option_goal("fly", ""));
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Aborted);
    assert!(
        a.goal_status_text()
            .contains("there is no option called `fly` (options: circle, stand, turn_to)"),
        "{}",
        a.goal_status_text()
    );
    assert_eq!(a.result().map(|r| r.reached_target_state), Some(false));
    send_option(&a, option_goal("turn_to", "{\"yaw\": 1"));
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Aborted);
    assert!(a.goal_status_text().contains("not valid JSON"));
    send_option(&a, option_goal("turn_to", r#"{"direction": "up"}"#));
    assert!(a.wait_for_result(long));
    assert!(
        a.goal_status_text()
            .contains("must be one of left, right, not `up`"),
        "{}",
        a.goal_status_text()
    );

    // an option with parameters runs to its target state, with the path as feedback
    let fb = send_option(
        &a,
        option_goal("turn_to", r#"{"yaw": 1.2, "direction": "left"}"#),
    );
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Succeeded, "{}", a.goal_status_text());
    assert_eq!(a.result().map(|r| r.reached_target_state), Some(true));
    assert!(
        a.goal_status_text()
            .contains("`turn_to` reached a target state (turn_to.there)"),
        "{}",
        a.goal_status_text()
    );
    // feedback and result come on two connections: the feedback may arrive after it
    wait_until("turn_to's feedback", Duration::from_secs(10), || {
        !fb.lock().unwrap().is_empty()
    });
    let fb = fb.lock().unwrap().clone();
    assert_eq!(
        fb.first().map(String::as_str),
        Some("turn_to.turning"),
        "{fb:?}"
    );
    // it turned left (counter-clockwise), the way it was asked to
    let turned_left = fx.seen.lock().unwrap().velocity.iter().any(|v| v.1 > 0.3);
    assert!(turned_left);

    // a newer goal preempts the running one; the new option takes over
    let fb = send_option(&a, option_goal("circle", r#"{"speed": 0.3}"#));
    wait_until("circle feedback", Duration::from_secs(10), || {
        fb.lock().unwrap().iter().any(|p| p == "circle.driving")
    });
    send_option(
        &b,
        option_goal("turn_to", r#"{"yaw": -1.0, "direction": "right"}"#),
    );
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Preempted);
    assert_eq!(a.goal_status_text(), "preempted by a newer goal");
    assert!(b.wait_for_result(long));
    assert_eq!(b.state(), StatusCode::Succeeded, "{}", b.goal_status_text());

    // a cancel stops the robot
    let fb = send_option(&a, option_goal("circle", r#"{"speed": 0.4}"#));
    wait_until("the robot circling", Duration::from_secs(10), || {
        !fb.lock().unwrap().is_empty()
            && fx
                .seen
                .lock()
                .unwrap()
                .velocity
                .last()
                .is_some_and(|v| v.0 > 0.3)
    });
    a.cancel_goal();
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Preempted);
    assert_eq!(a.goal_status_text(), "canceled; the robot stopped");
    // the robot decelerates to a stand (how many cycles that takes is the robot's, not
    // the protocol's): wait for it, then it must stay stopped
    let stopped = |v: &(f64, f64)| v.0.abs() < 0.01 && v.1.abs() < 0.01;
    wait_until("the robot to stop", Duration::from_secs(20), || {
        fx.seen.lock().unwrap().velocity.last().is_some_and(stopped)
    });
    let n = fx.seen.lock().unwrap().velocity.len();
    wait_until("a few more cycles", Duration::from_secs(10), || {
        fx.seen.lock().unwrap().velocity.len() > n + 10
    });
    let last = *fx.seen.lock().unwrap().velocity.last().unwrap();
    assert!(
        last.0.abs() < 0.01 && last.1.abs() < 0.01,
        "still moving: {last:?}"
    );
}

fn mission_fixture(dir: &Path) -> Fixture<RunMission> {
    let first = dir.join("first.lua");
    // 5 Hz, 60 times real time: a simulated minute takes a second
    let (control, run, seen, handle) = start_run(Duration::from_millis(200), 60.0, move || {
        let m = skipper::controllers::mission::load(&first).unwrap();
        let world = skipper::controllers::mission::world(&m, None, 0).unwrap();
        let mission = skipper_mission::MissionController::new(m);
        let (runner, handle) = GoalRunner::new("tethys", Box::new(mission));
        (
            Box::new(world) as Box<dyn skipper_core::World>,
            Box::new(runner) as Box<dyn skipper_core::Controller>,
            handle as Arc<dyn GoalPort>,
        )
    });
    Fixture::serve((control, run, seen), "run_mission", handle)
}

fn send_mission(c: &SimpleActionClient<RunMission>, path: &Path) -> Arc<Mutex<Vec<String>>> {
    let fb: Arc<Mutex<Vec<String>>> = Arc::default();
    let f2 = fb.clone();
    c.send_goal(
        RunMissionGoal {
            mission: path.display().to_string(),
        },
        None,
        None,
        Some(Box::new(move |f| {
            if let Ok(mut v) = f2.lock() {
                v.push(f.active_items.clone())
            }
        })),
    );
    fb
}

const DIVE: &str = r#"NAME = "Dive"
STACK = {
    { COMMAND = Guidance.Pitch,
      Guidance.Pitch.DEPTH:SET(Units.METER(30)),
      Guidance.Pitch.SPEED:SET(Units.METER_PER_SECOND, 1) };
    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.HOUR(2)) };
}
"#;

#[test]
fn run_mission_goals_fly_missions_on_the_auv() {
    let dir = tempfile::tempdir().unwrap();
    let w = |name: &str, text: &str| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    w("first.lua", DIVE);
    let short = w(
        "short.lua",
        "NAME = \"Short\"\nSTACK = {\n    { ID = \"Pause\";\n      { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.MINUTE(1)) };\n    };\n}\n",
    );
    let late = w(
        "late.lua",
        "NAME = \"Late\"\nSTACK = {\n    WITHIN = Units.MINUTE(1);\n    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.HOUR(1)) };\n}\n",
    );
    let bad = w(
        "bad.lua",
        "NAME = \"Bad\"\nSTACK = {\n    { COMMAND = Guidance.Teleport };\n}\n",
    );
    let dive = w("dive.lua", DIVE);
    let fx = mission_fixture(dir.path());
    let a = fx.client("/client_a");
    let b = fx.client("/client_b");
    let long = Some(Duration::from_secs(30));

    // a mission that does not check: aborted with the file:line message
    send_mission(&a, &bad);
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Aborted);
    assert_eq!(a.result().map(|r| r.outcome), Some("error".to_string()));
    let text = a.goal_status_text();
    assert!(text.contains("bad.lua:3"), "{text}");
    send_mission(&a, &dir.path().join("missing.lua"));
    assert!(a.wait_for_result(long));
    assert!(a.goal_status_text().contains("cannot read the mission"));

    // a mission completes: SUCCEEDED, outcome completed, active items as feedback
    let fb = send_mission(&a, &short);
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Succeeded, "{}", a.goal_status_text());
    assert_eq!(a.result().map(|r| r.outcome), Some("completed".to_string()));
    // feedback and result come on two connections: the feedback may arrive after it
    wait_until("the mission's feedback", Duration::from_secs(10), || {
        fb.lock().unwrap().iter().any(|f| f.contains("Pause"))
    });

    // the top-level WITHIN expires: ABORTED, outcome timed_out
    send_mission(&a, &late);
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Aborted);
    assert_eq!(a.result().map(|r| r.outcome), Some("timed_out".to_string()));

    // a newer goal preempts; a cancel hands the vehicle to the default mission
    send_mission(&a, &dive);
    wait_until("the dive", Duration::from_secs(10), || {
        a.state() == StatusCode::Active
    });
    send_mission(&b, &dive);
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Preempted);
    assert_eq!(a.result().map(|r| r.outcome), Some("preempted".to_string()));
    wait_until("the second dive", Duration::from_secs(10), || {
        b.state() == StatusCode::Active
            && fx
                .seen
                .lock()
                .unwrap()
                .auv
                .last()
                .is_some_and(|sp| sp.buoyancy != Some(1.0))
    });
    b.cancel_goal();
    assert!(b.wait_for_result(long));
    assert_eq!(b.state(), StatusCode::Preempted);
    assert_eq!(b.result().map(|r| r.outcome), Some("canceled".to_string()));
    let n = fx.seen.lock().unwrap().auv.len();
    wait_until("a few more cycles", Duration::from_secs(10), || {
        fx.seen.lock().unwrap().auv.len() > n + 5
    });
    let sp = *fx.seen.lock().unwrap().auv.last().unwrap();
    // the default mission: full positive buoyancy, GPS and comms requested
    assert_eq!(sp.buoyancy, Some(1.0), "{sp:?}");
    assert_ne!(sp.sample, 0, "{sp:?}");
}

const LOITER: &str = "NAME = \"Loiter\"\nSTACK = {\n    { COMMAND = Guidance.Wait, Guidance.Wait.DURATION:SET(Units.HOUR(2)) };\n}\n";

/// The AUV at the worksite's origin under a goal runner over a loitering mission (it
/// waits, propeller off), and its goto server.
fn auv_goto_fixture(dir: &Path) -> Fixture<Goto> {
    let loiter = dir.join("loiter.lua");
    std::fs::write(&loiter, LOITER).unwrap();
    // 5 Hz, 100 times real time
    let (control, run, seen, handle) = start_run(Duration::from_millis(200), 100.0, move || {
        use skipper::controllers::mission;
        let m = mission::load(&loiter).unwrap();
        let world = mission::world(&m, None, 0).unwrap();
        let c = mission::controller(m, &world);
        let options = BindOptions {
            goto: true,
            velocity: false,
        };
        let b = skipper_goals::bind(&world, 0, Some(Box::new(c)), options);
        (
            Box::new(world) as Box<dyn skipper_core::World>,
            b.controller,
            b.goals as Arc<dyn GoalPort>,
        )
    });
    Fixture::serve((control, run, seen), "goto", handle)
}

fn send_goto(c: &SimpleActionClient<Goto>, x: f64, y: f64) -> Arc<Mutex<Vec<f64>>> {
    let fb: Arc<Mutex<Vec<f64>>> = Arc::default();
    let f2 = fb.clone();
    c.send_goal(
        GotoGoal {
            x,
            y,
            tolerance: 0.0,
        },
        None,
        None,
        Some(Box::new(move |f| {
            if let Ok(mut v) = f2.lock() {
                v.push(f.distance)
            }
        })),
    );
    fb
}

#[test]
fn goto_goals_fly_the_auv_and_its_mission_drives_again_after() {
    let dir = tempfile::tempdir().unwrap();
    let fx = auv_goto_fixture(dir.path());
    let a = fx.client("/client_a");
    let b = fx.client("/client_b");
    let long = Some(Duration::from_secs(30));

    // to a point 144 m away, within the default tolerance, the distance left as feedback
    let fb = send_goto(&a, -120.0, 80.0);
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Succeeded, "{}", a.goal_status_text());
    assert_eq!(a.goal_status_text(), "reached");
    let r = a.result().unwrap();
    assert!((r.x + 120.0).hypot(r.y - 80.0) <= AUV_TOLERANCE, "{r:?}");
    // feedback and result come on two connections: the last feedback may arrive after
    // it (the goal's last report carries the distance at arrival)
    wait_until("the feedback at arrival", Duration::from_secs(10), || {
        fb.lock()
            .unwrap()
            .last()
            .is_some_and(|d| *d <= AUV_TOLERANCE + 1.0)
    });
    let fb = fb.lock().unwrap().clone();
    assert!(fb.first().is_some_and(|d| *d > 140.0), "{fb:?}");
    // once heading there, the distance only shrinks
    let near: Vec<f64> = fb.iter().copied().skip_while(|d| *d > 120.0).collect();
    assert!(near.len() > 3, "{fb:?}");
    assert!(near.windows(2).all(|w| w[1] <= w[0]), "{fb:?}");
    assert!(
        near.last().is_some_and(|d| *d <= AUV_TOLERANCE + 1.0),
        "{fb:?}"
    );
    // the mission drives again: it loiters, propeller off
    wait_until("the mission again", Duration::from_secs(10), || {
        fx.seen
            .lock()
            .unwrap()
            .auv
            .last()
            .is_some_and(|sp| sp.pitch == Some(0.0) && sp.speed == Some(0.0))
    });

    // a newer goal preempts the running one; the AUV flies on to the new one
    let fa = send_goto(&a, -2000.0, 0.0);
    wait_until("goal a under way", Duration::from_secs(10), || {
        fa.lock().unwrap().len() > 3
    });
    let fb = send_goto(&b, 0.0, -2000.0);
    assert!(a.wait_for_result(long));
    assert_eq!(a.state(), StatusCode::Preempted);
    assert_eq!(a.goal_status_text(), "preempted by a newer goal");
    // b's own feedback: the controller flies b (ACTIVE on the wire and the speed of goal a
    // do not show that b has begun; a cancel before it began is answered differently)
    wait_until("goal b at speed", Duration::from_secs(10), || {
        b.state() == StatusCode::Active
            && !fb.lock().unwrap().is_empty()
            && fx
                .seen
                .lock()
                .unwrap()
                .auv_speed
                .last()
                .is_some_and(|v| *v > 0.9)
    });

    // a cancel stops it: the propeller off, then the loitering mission holds it there
    let n = fx.seen.lock().unwrap().auv.len();
    b.cancel_goal();
    assert!(b.wait_for_result(long));
    assert_eq!(b.state(), StatusCode::Preempted);
    assert_eq!(b.goal_status_text(), "canceled; the robot stopped");
    let off = skipper_core::AuvSetpoints {
        speed: Some(0.0),
        ..Default::default()
    };
    wait_until("the AUV stopped", Duration::from_secs(10), || {
        let seen = fx.seen.lock().unwrap();
        seen.auv[n..].contains(&off) && seen.auv_speed.last().is_some_and(|v| *v < 0.01)
    });
}
