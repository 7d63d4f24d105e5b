//! The ROS 2 robots' benchmark (`scripts/ros2-robot/bench.sh` runs it inside a network
//! namespace of its own; not in CI):
//!
//! - `latency CYCLES`: a robot (a node of this process) publishes odometry at 20 Hz and
//!   scans at 10 Hz, each carrying a sequence number, and a driver (`skipper_ros2::vehicle`
//!   on the run's cycle at 10 Hz, wall-clock paced) whose controller echoes the latest
//!   odometry's x as the forward speed and the scan's first range as the turn rate; the
//!   robot times each message from its publishing to the first `cmd_vel` that carries its
//!   number (both DDS hops included) and prints p50/p90/p99/max per kind;
//! - `robots N`: N robots `/bot1` .. `/botN` (one node), each publishing odometry at
//!   20 Hz and a 360-beam scan at 10 Hz and integrating its `cmd_vel`, until stdin closes:
//!   what `skipper run --vehicle ros2:/bot1 ...` drives while its CPU is read.

use skipper_core::vehicle::remote::{Bounds, DriveParams};
use skipper_core::vocabulary::ground;
use skipper_core::{
    Controller, ControllerError, Cycle, Drive, RunConfig, Runner, SignalId, Signals, Status,
    VehicleInfo,
};
use skipper_ros2::args::RosArgs;
use skipper_ros2::cdr::Dropped;
use skipper_ros2::io::{Inbox, IoLoop};
use skipper_ros2::msg::geometry::{
    Odometry, Quaternion, TfMessage, Transform, TransformStamped, Twist,
};
use skipper_ros2::msg::sensor::LaserScan;
use skipper_ros2::msg::std::{Header, Time};
use skipper_ros2::node::{Discovery, NodeConfig, Ros2Node};
use skipper_ros2::vehicle::{connect, Options, RobotSpec};
use skipper_ros2::{qos, ParameterValue};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn node(name: &str) -> Ros2Node {
    Ros2Node::start(NodeConfig {
        name: name.into(),
        namespace: "/".into(),
        args: RosArgs::parse(
            &["--ros-args"],
            std::env::var("ROS_DOMAIN_ID").ok().as_deref(),
        )
        .expect("ROS_DOMAIN_ID"),
        discovery: Discovery::Localhost,
        parameters: Vec::<(String, ParameterValue)>::new(),
        on_set: None,
    })
    .expect("a node")
}

fn now() -> Time {
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    Time::from_duration(d)
}

/// A simulated robot's state: x, y, yaw, forward speed, turn rate.
type Motion = (f64, f64, f64, f64, f64);

/// What one simulated robot publishes and hears.
struct Bot {
    odom: ros2_client::Publisher<Odometry>,
    scan: ros2_client::Publisher<LaserScan>,
    pose: Arc<Mutex<Motion>>,
    beams: usize,
}

/// Robots `/bot1` .. `/botN` on `node`: their publishers, and their `cmd_vel` handlers.
fn bots(
    node: &mut Ros2Node,
    names: &[String],
    beams: usize,
    heard: impl Fn(usize, &Twist) + Send + Sync + Clone + 'static,
) -> (Vec<Bot>, IoLoop) {
    let mut handlers: Vec<Box<dyn skipper_ros2::io::Handler>> = Vec::new();
    let mut out = Vec::new();
    let tf_static = node
        .publisher::<TfMessage>("/tf_static", qos::latched())
        .expect("tf_static");
    let mut statics = Vec::new();
    for (i, ns) in names.iter().enumerate() {
        let pose = Arc::new(Mutex::new((0.0, 0.0, 0.0, 0.0, 0.0)));
        let sub = node
            .subscription::<Twist>(&format!("{ns}/cmd_vel"), qos::default())
            .expect("cmd_vel");
        let (p, h) = (pose.clone(), heard.clone());
        handlers.push(Box::new(Inbox::new(
            "cmd_vel",
            sub,
            Arc::new(Dropped::default()),
            None,
            move |t: Twist| {
                let mut g = p.lock().unwrap();
                g.3 = t.linear.x;
                g.4 = t.angular.z;
                h(i, &t);
            },
        )));
        let f = ns.trim_start_matches('/');
        statics.push(TransformStamped {
            header: Header {
                stamp: now(),
                frame_id: format!("{f}/base_link").into(),
            },
            child_frame_id: format!("{f}/laser").into(),
            transform: Transform {
                rotation: Quaternion::IDENTITY,
                ..Transform::default()
            },
        });
        out.push(Bot {
            odom: node
                .publisher(&format!("{ns}/odom"), qos::default())
                .expect("odom"),
            scan: node
                .publisher(&format!("{ns}/scan"), qos::default())
                .expect("scan"),
            pose,
            beams,
        });
    }
    let _ = tf_static.publish(TfMessage {
        transforms: statics.into(),
    });
    std::mem::forget(tf_static); // latched for the life of the process
    (out, IoLoop::start(handlers).expect("io"))
}

impl Bot {
    fn publish_odom(&self, name: &str, x_override: Option<f64>) {
        let (x, y, yaw, v, w) = *self.pose.lock().unwrap();
        let f = name.trim_start_matches('/');
        let mut o = Odometry {
            header: Header {
                stamp: now(),
                frame_id: format!("{f}/odom").into(),
            },
            child_frame_id: format!("{f}/base_link").into(),
            ..Odometry::default()
        };
        o.pose.pose.position.x = x_override.unwrap_or(x);
        o.pose.pose.position.y = y;
        o.pose.pose.orientation = Quaternion::from_yaw(yaw);
        o.twist.twist.linear.x = v;
        o.twist.twist.angular.z = w;
        let _ = self.odom.publish(o);
    }

    fn publish_scan(&self, name: &str, value: f32) {
        let f = name.trim_start_matches('/');
        let inc = std::f32::consts::TAU / self.beams as f32;
        let s = LaserScan {
            header: Header {
                stamp: now(),
                frame_id: format!("{f}/laser").into(),
            },
            angle_min: -std::f32::consts::PI,
            angle_max: -std::f32::consts::PI + inc * (self.beams as f32 - 1.0),
            angle_increment: inc,
            range_min: 0.0,
            range_max: 1.0e9,
            ranges: vec![value; self.beams].into(),
            ..LaserScan::default()
        };
        let _ = self.scan.publish(s);
    }

    fn step(&self, dt: f64) {
        let mut g = self.pose.lock().unwrap();
        let (x, y, yaw, v, w) = *g;
        *g = (
            x + v * yaw.cos() * dt,
            y + v * yaw.sin() * dt,
            yaw + w * dt,
            v,
            w,
        );
    }
}

/// Sends back the latest odometry x as the forward speed and laser beam 0 as the turn
/// rate, so that each command names the messages it was made from.
struct Echo {
    x: Option<SignalId>,
    beam: Option<SignalId>,
}

impl Controller for Echo {
    fn name(&self) -> &str {
        "echo"
    }
    fn start(&mut self, _: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.x = ground::POSE_X.id(s);
        self.beam = ground::LASER.id(s, 0);
        Ok(())
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        let get = |id: Option<SignalId>| id.and_then(|id| c.signals.f64(id)).unwrap_or(0.0);
        c.actuation.drive = Some(Drive::velocity(get(self.x), get(self.beam)));
        Ok(Status::Running)
    }
}

fn percentiles(name: &str, mut v: Vec<f64>) {
    v.sort_by(f64::total_cmp);
    let at = |p: f64| v[((v.len() as f64 - 1.0) * p).round() as usize];
    if v.is_empty() {
        println!("{name}: no samples");
        return;
    }
    println!(
        "{name}: {} samples, p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        v.len(),
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0)
    );
}

fn latency(cycles: u64) {
    let mut robot_node = node("bench_robot");
    let sent: Arc<Mutex<HashMap<(u8, u64), Instant>>> = Arc::default();
    let seen: Arc<Mutex<HashMap<(u8, u64), f64>>> = Arc::default();
    let (s2, seen2) = (sent.clone(), seen.clone());
    let names = vec!["/bot".to_string()];
    let (bots, _io) = bots(&mut robot_node, &names, 360, move |_, t: &Twist| {
        let at = Instant::now();
        for (kind, v) in [(0u8, t.linear.x), (1u8, t.angular.z)] {
            let k = (kind, v as u64);
            if let Some(t0) = s2.lock().unwrap().get(&k) {
                seen2
                    .lock()
                    .unwrap()
                    .entry(k)
                    .or_insert_with(|| at.duration_since(*t0).as_secs_f64() * 1e3);
            }
        }
    });
    let bot = Arc::new(bots.into_iter().next().expect("a robot"));
    let stop = Arc::new(AtomicBool::new(false));
    let (b2, st, s3) = (bot.clone(), stop.clone(), sent.clone());
    let publisher = std::thread::spawn(move || {
        let mut k = 1u64;
        while !st.load(Ordering::SeqCst) {
            // odometry every 50 ms, a scan every other time; the first numbers are
            // what the robot is awaited with
            s3.lock().unwrap().insert((0, k), Instant::now());
            b2.publish_odom("/bot", Some(k as f64));
            if k % 2 == 0 {
                s3.lock().unwrap().insert((1, k / 2), Instant::now());
                b2.publish_scan("/bot", (k / 2) as f32);
            }
            k += 1;
            std::thread::sleep(Duration::from_millis(50));
        }
    });
    let spec = RobotSpec {
        namespace: "/bot".into(),
        name: "bot".into(),
        stamped: Some(false),
        drive: DriveParams::default(),
        bounds: Bounds {
            // the echoed numbers are large "speeds": no limits here
            stale_after: Duration::from_secs(5),
            give_up_after: Duration::from_secs(30),
            ..Bounds::default()
        },
    };
    let options = Options {
        discovery: Discovery::Localhost,
        use_sim_time: false,
    };
    let (world, found) = connect(&[spec], &options).expect("the robot");
    eprintln!("{}", found[0].summary);
    let mut runner = Runner::new(
        Box::new(world),
        RunConfig {
            period: Duration::from_millis(100),
            until: Some(Duration::from_millis(100 * cycles)),
            realtime: true,
            speed: 1.0,
        },
    );
    runner.set_controller(
        0,
        Box::new(Echo {
            x: None,
            beam: None,
        }),
    );
    let report = runner.run();
    drop(runner);
    stop.store(true, Ordering::SeqCst);
    let _ = publisher.join();
    eprintln!("{} cycles ({:?})", report.cycles, report.outcome);
    let seen = seen.lock().unwrap();
    let of = |kind: u8| -> Vec<f64> {
        seen.iter()
            .filter(|((k, n), _)| *k == kind && *n > 20)
            .map(|(_, ms)| *ms)
            .collect()
    };
    percentiles("odom -> cmd_vel", of(0));
    percentiles("scan -> cmd_vel", of(1));
}

fn robots(n: usize) {
    let mut robot_node = node("bench_robots");
    let names: Vec<String> = (1..=n).map(|i| format!("/bot{i}")).collect();
    let (bots, _io) = bots(&mut robot_node, &names, 360, |_, _| {});
    let stop = Arc::new(AtomicBool::new(false));
    let st = stop.clone();
    std::thread::spawn(move || {
        let mut line = String::new();
        while std::io::stdin()
            .read_line(&mut line)
            .map(|n| n > 0)
            .unwrap_or(false)
        {
            line.clear();
        }
        st.store(true, Ordering::SeqCst);
    });
    println!("{n} robots up");
    let mut tick = 0u64;
    while !stop.load(Ordering::SeqCst) {
        std::thread::sleep(Duration::from_millis(50));
        tick += 1;
        for (b, name) in bots.iter().zip(&names) {
            b.step(0.05);
            b.publish_odom(name, None);
            if tick % 2 == 0 {
                b.publish_scan(name, 5.0);
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("latency") => latency(args.get(2).and_then(|v| v.parse().ok()).unwrap_or(600)),
        Some("robots") => robots(args.get(2).and_then(|v| v.parse().ok()).unwrap_or(10)),
        _ => eprintln!("usage: ros2_vehicle_bench latency [CYCLES] | robots [N]"),
    }
}
