//! The ROS 1 transport end to end on loopback, against a fake master (no ROS needed):
//! a SimpleActionServer and a SimpleActionClient on two nodes, and bad peers (malformed
//! TCPROS header, wrong md5sum, truncated message, garbage XML-RPC) that get an error and
//! a closed connection while the server keeps serving.

mod common;
use skipper_actionlib::ros1::action::server_config_from_params;
use skipper_actionlib::ros1::{ActionClientBinding, ActionServerBinding};
use skipper_actionlib::*;
use skipper_ros1_wire::msg::actionlib_msgs::ActionGoal;
use skipper_ros1_wire::msg::test_actions::{Test, TestFeedback, TestGoal, TestResult};
use skipper_ros1_wire::tcpros::{self, Header};
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::xmlrpc::{self, Value};
use skipper_ros1_wire::{Node, NodeConfig};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn node(m: &FakeMaster, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = m.uri.clone();
    c.advertise_host = "127.0.0.1".into();
    Node::new(c).unwrap()
}

struct Served {
    node: Node,
    _binding: ActionServerBinding,
    server: SimpleActionServer<Test>,
    /// set by the client when it saw the feedback: feedback and result travel on two
    /// connections, so the server waits for it before it succeeds
    fb_seen: Arc<AtomicBool>,
}

fn serve(m: &FakeMaster) -> Served {
    let node = node(m, "/srv");
    let a = ActionServer::<Test>::new(
        server_config_from_params(&node, "/act"),
        Arc::new(SystemClock),
    );
    assert_eq!(
        a.config().status_frequency,
        20.0,
        "read from the parameter server"
    );
    let binding = ActionServerBinding::new(&node, "/act", &a).unwrap();
    let fb_seen = Arc::new(AtomicBool::new(false));
    let seen = fb_seen.clone();
    let server = SimpleActionServer::with_execute_callback(
        a,
        move |s: &SimpleActionServer<Test>, g: TestGoal| {
            if g.goal == 4 {
                while !s.is_preempt_requested() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                return s.set_preempted(None, "stopped").map_err(|e| e.to_string());
            }
            s.publish_feedback(TestFeedback { feedback: g.goal })
                .map_err(|e| e.to_string())?;
            // (goal 7 comes from the fake publisher: nobody watches its feedback)
            for _ in 0..if g.goal == 7 { 0 } else { 1000 } {
                if seen.swap(false, Ordering::SeqCst) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            s.set_succeeded(Some(TestResult { result: g.goal * 2 }), "done")
                .map_err(|e| e.to_string())
        },
    );
    server.start();
    Served {
        node,
        _binding: binding,
        server,
        fb_seen,
    }
}

fn client(m: &FakeMaster, name: &str) -> (Node, ActionClientBinding, SimpleActionClient<Test>) {
    let n = node(m, name);
    let ac = ActionClient::<Test>::new(name, Arc::new(SystemClock));
    let b = ActionClientBinding::new(&n, "/act", &ac).unwrap();
    (n, b, SimpleActionClient::new(ac))
}

fn roundtrip(s: &Served, c: &SimpleActionClient<Test>, g: i32) {
    let fb = Arc::new(Mutex::new(Vec::new()));
    let (f2, seen) = (fb.clone(), s.fb_seen.clone());
    c.send_goal(
        TestGoal { goal: g },
        None,
        None,
        Some(Box::new(move |f: &TestFeedback| {
            f2.lock().unwrap().push(f.feedback);
            seen.store(true, Ordering::SeqCst);
        })),
    );
    assert!(c.wait_for_result(Some(Duration::from_secs(10))));
    assert_eq!(c.state(), StatusCode::Succeeded);
    assert_eq!(c.result(), Some(TestResult { result: g * 2 }));
    assert_eq!(c.goal_status_text(), "done");
    assert_eq!(*fb.lock().unwrap(), [g]);
}

fn master_with_params() -> FakeMaster {
    let m = FakeMaster::start().unwrap();
    m.set_param("/actionlib_status_frequency", Value::Double(20.0));
    m
}

#[test]
fn a_client_and_a_server_on_two_nodes() {
    let m = master_with_params();
    let s = serve(&m);
    let (_n, _b, c) = client(&m, "/cli");
    assert!(c.wait_for_server(Some(Duration::from_secs(10))));
    assert_eq!(c.action_client().server_id().as_deref(), Some("/srv"));
    roundtrip(&s, &c, 3);
    roundtrip(&s, &c, 5);
    // preempt by cancel
    c.send_goal(TestGoal { goal: 4 }, None, None, None);
    std::thread::sleep(Duration::from_millis(100));
    c.cancel_goal();
    assert!(c.wait_for_result(Some(Duration::from_secs(10))));
    assert_eq!(c.state(), StatusCode::Preempted);
    assert_eq!(s.node.stats().bad_messages.load(Ordering::SeqCst), 0);
}

fn subscribe_raw(addr: std::net::SocketAddr, h: &Header) -> (TcpStream, Result<Header, String>) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s.write_all(&h.encode()).unwrap();
    let r = Header::read(&mut s).map_err(|e| e.to_string());
    (s, r)
}

fn closed(mut s: TcpStream) -> bool {
    let mut b = [0u8; 64];
    matches!(s.read(&mut b), Ok(0) | Err(_))
}

#[test]
fn bad_peers_are_refused_and_the_server_keeps_serving() {
    let m = master_with_params();
    let s = serve(&m);
    let (_n, _b, c) = client(&m, "/cli");
    assert!(c.wait_for_server(Some(Duration::from_secs(10))));
    let addr = s.node.tcpros_addr();
    let stats = s.node.stats();

    // a malformed header: a field without '='
    let mut raw = TcpStream::connect(addr).unwrap();
    raw.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    raw.write_all(&[7, 0, 0, 0, 3, 0, 0, 0, b'a', b'b', b'c'])
        .unwrap();
    let h = Header::read(&mut raw).unwrap();
    assert!(h.get("error").unwrap().contains("has no `=`"), "{h:?}");
    assert!(closed(raw));
    assert_eq!(stats.bad_headers.load(Ordering::SeqCst), 1);

    // a wrong md5sum
    let (sock, h) = subscribe_raw(
        addr,
        &Header::default()
            .with("callerid", "/bad")
            .with("topic", "/act/status")
            .with("md5sum", "0123456789abcdef0123456789abcdef")
            .with("type", "actionlib_msgs/GoalStatusArray"),
    );
    let e = h.unwrap();
    assert!(e.get("error").unwrap().contains("md5sum mismatch"), "{e:?}");
    assert!(closed(sock));

    // the wildcard md5 (rostopic) is accepted, and the latched status arrives at once
    let (mut sock, h) = subscribe_raw(
        addr,
        &Header::default()
            .with("callerid", "/echo")
            .with("topic", "/act/status")
            .with("md5sum", "*"),
    );
    let h = h.unwrap();
    assert_eq!(h.get("latching"), Some("1"));
    assert_eq!(h.get("md5sum"), Some("8b2b82f13216d0a8ea88bd3af735e619"));
    assert!(h
        .get("message_definition")
        .unwrap()
        .contains("MSG: actionlib_msgs/GoalID"));
    let mut buf = Vec::new();
    tcpros::read_frame(&mut sock, &mut buf).unwrap();
    assert!(GoalStatusArray::decode(&buf).is_ok());

    // garbage XML-RPC to the slave API
    let (host, port) = xmlrpc::split_url(s.node.uri()).unwrap();
    let mut x = TcpStream::connect((host.as_str(), port)).unwrap();
    x.write_all(b"POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\n<garbage>")
        .unwrap();
    let mut reply = String::new();
    x.read_to_string(&mut reply).unwrap();
    assert!(reply.contains("<fault>"), "{reply}");
    assert_eq!(stats.bad_xmlrpc.load(Ordering::SeqCst), 1);
    let v = xmlrpc::call(
        s.node.uri(),
        "getPid",
        &["/t".into()],
        Duration::from_secs(5),
    )
    .unwrap();
    assert_eq!(
        v.as_array().unwrap()[2],
        Value::Int(std::process::id() as i32)
    );

    // a publisher of goals that sends a truncated message, then a good one
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    m.fake_publisher(
        "/act/goal",
        "actionlib/TestActionGoal",
        l.local_addr().unwrap().port(),
    );
    let (mut p, _) = l.accept().unwrap();
    let _ = Header::read(&mut p).unwrap();
    Header::default()
        .with("callerid", "/evil")
        .with("topic", "/act/goal")
        .with("md5sum", ActionGoal::<TestGoal>::md5sum())
        .with("type", "actionlib/TestActionGoal")
        .write(&mut p)
        .unwrap();
    p.write_all(&tcpros::frame(&[1, 2, 3])).unwrap();
    let good = ActionGoal {
        goal_id: GoalId {
            stamp: Time::ZERO,
            id: "from-evil".into(),
        },
        goal: TestGoal { goal: 7 },
        ..Default::default()
    };
    p.write_all(&tcpros::frame(&good.to_bytes())).unwrap();
    for _ in 0..500 {
        if s.server
            .action_server()
            .status_list()
            .iter()
            .any(|g| g.goal_id.id == "from-evil" && g.status == StatusCode::Succeeded as u8)
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        stats.bad_messages.load(Ordering::SeqCst),
        1,
        "the truncated message was counted and skipped"
    );
    assert!(s
        .server
        .action_server()
        .status_list()
        .iter()
        .any(|g| g.goal_id.id == "from-evil"));

    // and the well-behaved client is still served
    roundtrip(&s, &c, 6);
}

#[test]
fn names_are_checked() {
    let m = FakeMaster::start().unwrap();
    let mut c = NodeConfig::from_env("no slash");
    c.master_uri = m.uri.clone();
    assert!(Node::new(c).is_err());
    let n = node(&m, "/ok");
    assert!(n
        .advertise("/bad topic", "std_msgs/String", "*", "", false)
        .is_err());
    // no master at all: a clear error
    let mut c = NodeConfig::from_env("/lonely");
    c.master_uri = "http://127.0.0.1:1/".into();
    let e = Node::new(c).err().unwrap().to_string();
    assert!(
        e.starts_with("no ROS master at http://127.0.0.1:1/ ("),
        "{e}"
    );
    assert!(e.contains("start roscore"), "{e}");
}

/// std_msgs/String: type, md5sum, definition.
const STRING: (&str, &str, &str) = (
    "std_msgs/String",
    "992ce8a1687cec8c8bd883ec73ca41d1",
    "string data\n",
);

/// A message body: its number, then bytes that repeat it (so a frame cut or mixed with
/// another shows).
fn numbered(i: u32, len: usize) -> Vec<u8> {
    let mut b = i.to_le_bytes().to_vec();
    b.resize(len, i as u8);
    b
}

fn number_of(b: &[u8]) -> u32 {
    let i = u32::from_le_bytes(b[..4].try_into().unwrap());
    assert!(
        b[4..].iter().all(|&x| x == i as u8),
        "message {i} is corrupt"
    );
    i
}

#[test]
fn a_subscriber_that_never_reads_holds_up_nobody_and_frames_stay_whole() {
    let m = FakeMaster::start().unwrap();
    let publisher_node = node(&m, "/talker");
    let p = publisher_node
        .advertise("/big", STRING.0, STRING.1, STRING.2, false)
        .unwrap();
    // a subscriber that reads every message, one that reads slowly, one that never reads
    let got = Arc::new(Mutex::new(Vec::<u32>::new()));
    let g = got.clone();
    let listener = node(&m, "/listener");
    let _sub = listener
        .subscribe(
            "/big",
            STRING.0,
            STRING.1,
            STRING.2,
            Arc::new(move |b: &[u8], _: &str| {
                g.lock().unwrap().push(number_of(b));
                Ok(())
            }),
        )
        .unwrap();
    let h = Header::default()
        .with("callerid", "/stalled")
        .with("topic", "/big")
        .with("md5sum", STRING.1)
        .with("type", STRING.0);
    let (stalled, reply) = subscribe_raw(publisher_node.tcpros_addr(), &h);
    assert!(reply.is_ok(), "{reply:?}");
    let (mut slow, reply) = subscribe_raw(
        publisher_node.tcpros_addr(),
        &h.clone().with("callerid", "/slow"),
    );
    assert!(reply.is_ok(), "{reply:?}");
    let slow_reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = Vec::new();
        slow.set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        while tcpros::read_frame(&mut slow, &mut buf).is_ok() {
            seen.push(number_of(&buf));
            if seen.len() < 300 {
                std::thread::sleep(Duration::from_millis(2));
            }
            if seen.last() == Some(&1999) {
                break;
            }
        }
        seen
    });
    // wait until the listener is connected
    for _ in 0..500 {
        if p.subscribers().len() == 3 {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(p.subscribers().len(), 3, "{:?}", p.subscribers());
    // 2000 messages of 64 KiB (125 MiB): far more than the stalled subscriber's socket
    // buffers; publishing goes on, paced by the listener that reads everything
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let g = got.clone();
    std::thread::spawn(move || {
        for i in 0..2000u32 {
            p.publish(&numbered(i, 64 << 10));
            for _ in 0..1000 {
                if g.lock().unwrap().len() > i as usize {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let _ = done_tx.send(p);
    });
    let p = done_rx
        .recv_timeout(Duration::from_secs(120))
        .expect("publishing got stuck behind the subscriber that never reads");
    let got = got.lock().unwrap().clone();
    assert_eq!(
        got,
        (0..2000).collect::<Vec<u32>>(),
        "the listener got every message in order"
    );
    assert!(
        publisher_node.stats().dropped.load(Ordering::Relaxed) > 0,
        "the stalled subscriber's queue overflowed"
    );
    let seen = slow_reader.join().unwrap();
    assert!(
        seen.windows(2).all(|w| w[0] < w[1]),
        "the slow subscriber got them in order"
    );
    assert!(!seen.is_empty());
    drop(stalled);
    drop(p);
}

/// With a dispatch, what arrives for a server or a client waits in the application's
/// queue: the state machines change, and their callbacks run, on the thread that runs
/// the queue (a callback queue, as a roscpp spinner runs one).
#[test]
fn a_dispatch_queue_runs_the_state_machines_on_its_own_thread() {
    type Job = Box<dyn FnOnce() + Send>;
    let m = master_with_params();
    let (tx, rx) = std::sync::mpsc::channel::<Job>();
    let tx = Mutex::new(tx);
    let d: skipper_actionlib::ros1::action::Dispatch = Some(Arc::new(move |j: Job| {
        let _ = tx.lock().unwrap().send(j);
    }));
    let sn = node(&m, "/qsrv");
    let a = ActionServer::<Test>::new(server_config_from_params(&sn, "/q"), Arc::new(SystemClock));
    let _sb = ActionServerBinding::with_dispatch(&sn, "/q", &a, d.clone()).unwrap();
    let server = SimpleActionServer::new(a);
    let me = std::thread::current().id();
    let called_here = Arc::new(AtomicBool::new(false));
    let (s2, here) = (server.clone(), called_here.clone());
    server.register_goal_callback(move || {
        here.store(std::thread::current().id() == me, Ordering::SeqCst);
        let g = s2.accept_new_goal().unwrap();
        s2.set_succeeded(Some(TestResult { result: g.goal + 1 }), "queued")
            .unwrap();
    });
    server.start();
    let cn = node(&m, "/qcli");
    let ac = ActionClient::<Test>::new("/qcli", Arc::new(SystemClock));
    let _cb = ActionClientBinding::with_dispatch(&cn, "/q", &ac, d).unwrap();
    let c = SimpleActionClient::new(ac);
    // run the queue until the client is done (the test thread is the queue's)
    let run_until = |done: &dyn Fn() -> bool| {
        while !done() {
            if let Ok(job) = rx.recv_timeout(Duration::from_secs(10)) {
                job();
            } else {
                panic!("nothing arrived");
            }
        }
    };
    run_until(&|| c.action_client().is_server_connected());
    c.send_goal(TestGoal { goal: 41 }, None, None, None);
    run_until(&|| c.simple_state() == SimpleGoalState::Done);
    assert!(
        called_here.load(Ordering::SeqCst),
        "the goal callback ran on the queue's thread"
    );
    assert_eq!(c.state(), StatusCode::Succeeded);
    assert_eq!(c.result(), Some(TestResult { result: 42 }));
    assert_eq!(c.goal_status_text(), "queued");
}

#[test]
fn parameters_are_set_read_and_deleted() {
    let m = FakeMaster::start().unwrap();
    let n = node(&m, "/params");
    assert!(!n.has_param("/p/speed"));
    n.set_param("/p/speed", Value::Double(0.5)).unwrap();
    assert!(n.has_param("/p/speed"));
    assert_eq!(n.get_param("/p/speed"), Some(Value::Double(0.5)));
    assert!(n.delete_param("/p/speed"));
    assert!(!n.delete_param("/p/speed"), "it was deleted already");
    assert_eq!(n.get_param("/p/speed"), None);
}

/// Two handles on one topic in one node share the publication or the subscription (as
/// roscpp's do): each publisher reaches every subscriber, each subscriber's handler gets
/// every message, and the topic stays until its last handle is dropped.
#[test]
fn handles_on_the_same_topic_share_it() {
    use skipper_ros1_wire::msg::actionlib_msgs::GoalId;
    use skipper_ros1_wire::topics::subscribe;
    use skipper_ros1_wire::TypedPublisher;
    let m = FakeMaster::start().unwrap();
    let (pn, sn) = (node(&m, "/pubs"), node(&m, "/subs"));
    let got: Arc<Mutex<Vec<(u8, String)>>> = Arc::default();
    let sub = |k: u8| {
        let g = got.clone();
        subscribe::<GoalId>(&sn, "/shared", move |msg, _| {
            g.lock().unwrap().push((k, msg.id))
        })
        .unwrap()
    };
    let (s1, s2) = (sub(1), sub(2));
    let p1 = TypedPublisher::<GoalId>::advertise(&pn, "/shared", false).unwrap();
    let p2 = TypedPublisher::<GoalId>::advertise(&pn, "/shared", false).unwrap();
    let wait = |n: usize| {
        for _ in 0..2000 {
            if got.lock().unwrap().len() >= n {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("only {:?}", got.lock().unwrap());
    };
    for _ in 0..2000 {
        if p1.raw().subscribers().len() == 1 && s1.publishers().len() == 1 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let msg = |id: &str| GoalId {
        stamp: Time::ZERO,
        id: id.into(),
    };
    p1.publish(&msg("a"));
    p2.publish(&msg("b"));
    wait(4);
    let mut all = got.lock().unwrap().clone();
    all.sort();
    assert_eq!(
        all,
        [
            (1, "a".into()),
            (1, "b".into()),
            (2, "a".into()),
            (2, "b".into())
        ]
    );
    got.lock().unwrap().clear();
    drop(p1);
    drop(s1);
    p2.publish(&msg("c"));
    wait(1);
    assert_eq!(*got.lock().unwrap(), [(2, "c".into())]);
    assert_eq!(s2.publishers().len(), 1, "still subscribed");
    assert!(
        TypedPublisher::<GoalStatus>::advertise(&pn, "/shared", false).is_err(),
        "another type on the same topic is refused"
    );
}

/// `rosnode kill` tells the node's owner who asked and why, whether the owner's callback
/// was registered before the request came or after it.
#[test]
fn a_shutdown_request_says_who_asked_before_and_after_the_callback() {
    let m = FakeMaster::start().unwrap();
    let kill = |n: &Node| {
        xmlrpc::call(
            n.uri(),
            "shutdown",
            &["/rosnode".into(), "user request".into()],
            Duration::from_secs(5),
        )
        .unwrap()
    };
    // the request first, the callback after it
    let early = node(&m, "/early");
    kill(&early);
    let (tx, rx) = std::sync::mpsc::channel();
    early.on_shutdown(move |why| tx.send(why).unwrap());
    assert_eq!(
        rx.recv_timeout(Duration::from_secs(10)).unwrap(),
        "/rosnode asked node /early to shut down: user request"
    );
    // the callback first
    let late = node(&m, "/late");
    let (tx, rx) = std::sync::mpsc::channel();
    late.on_shutdown(move |why| tx.send(why).unwrap());
    kill(&late);
    assert_eq!(
        rx.recv_timeout(Duration::from_secs(10)).unwrap(),
        "/rosnode asked node /late to shut down: user request"
    );
}
