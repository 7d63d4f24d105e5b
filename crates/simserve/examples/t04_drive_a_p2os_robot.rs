//! Tutorial 4: drive a P2OS robot from Rust.
//!
//! skipper-p2os speaks P2OS, the protocol of Pioneer robots (and MobileSim): its client
//! driver is a Skipper vehicle, so any controller drives a real Pioneer through it. So
//! that the tutorial runs anywhere, the robot is Skipper's own P2OS server with a
//! simulated Pioneer behind it (`skipper sim serve` does the same); on a robot, the link
//! is `LinkSpec::Serial { path: "/dev/ttyS0".into(), baud: 9600 }` or MobileSim's TCP port.
//!
//! Run it: `cargo run -p skipper-simserve --example t04_drive_a_p2os_robot`

use skipper_core::vocabulary::ground::PoseReader;
use skipper_core::{
    Controller, ControllerError, Cycle, Drive, RunConfig, Runner, Signals, Status, Vehicle,
    VehicleInfo,
};
use skipper_p2os::client::{DriverOptions, LinkSpec, P2osVehicle, P2osWorld};
use skipper_p2os::server::{self, ServerConfig};
use skipper_simserve::SimFleet;
use std::time::Duration;

/// Drives ahead at 0.3 m/s for two seconds, then stops; notes how far it got.
struct Ahead {
    pose: Option<PoseReader>,
    x: f64,
}

impl Controller for Ahead {
    fn name(&self) -> &str {
        "ahead"
    }
    fn start(&mut self, _: &VehicleInfo, s: &Signals) -> Result<(), ControllerError> {
        self.pose = PoseReader::bind(s);
        Ok(())
    }
    fn step(&mut self, c: &mut Cycle<'_>) -> Result<Status, ControllerError> {
        if let Some(p) = self.pose.and_then(|r| r.pose(c.signals)) {
            self.x = p.x;
        }
        c.actuation.drive = Some(if c.now < Duration::from_secs(2) {
            Drive::velocity(0.3, 0.0)
        } else {
            Drive::Stop
        });
        Ok(Status::Running)
    }
    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        out.insert("odometry_x_m".into(), self.x.into());
    }
}

/// Serve a simulated Pioneer over P2OS on a free port, connect to it, and drive; the
/// odometry x (m) at the end and the robot's name.
pub fn run() -> (f64, String) {
    // the robot: a P2OS server on 127.0.0.1 with a simulated Pioneer behind it
    let spec = skipper_sim::parse_world("box 0 0 20 20\nrobot pioneer 0 0 0\n", "room.world", None)
        .expect("the world");
    let sim = skipper_sim::GroundWorld::new(&spec, 0).expect("the robot fits");
    let listeners = server::bind(&["127.0.0.1:0".parse().expect("an address")]).expect("a port");
    let robot = server::serve(
        listeners,
        Box::new(SimFleet::new(sim, "p3dx-sh")),
        ServerConfig::default(),
    )
    .expect("the server");
    let addr = robot.addrs()[0];

    // Skipper's side: the P2OS driver as a vehicle, in a world of real robots
    let vehicle = P2osVehicle::connect(LinkSpec::Tcp(addr.to_string()), DriverOptions::default())
        .expect("the robot answers");
    let world = P2osWorld::new(vehicle);
    let name = world.vehicle().info().name.clone();
    // a real robot lives in real time
    let config = RunConfig {
        until: Some(Duration::from_secs(3)),
        realtime: true,
        ..Default::default()
    };
    let mut runner = Runner::new(Box::new(world), config);
    runner.set_controller(0, Box::new(Ahead { pose: None, x: 0.0 }));
    let report = runner.run();
    robot.stop();
    let x = report.extra["odometry_x_m"].as_f64().unwrap_or(f64::NAN);
    println!("{name} drove {x:.2} m ahead ({} cycles)", report.cycles);
    (x, name)
}

fn main() {
    run();
}

#[test]
fn the_driver_drives_the_served_robot_ahead() {
    let (x, name) = run();
    assert_eq!(name, "pioneer");
    // it went ahead (how far depends on how the wall clock went: not checked)
    assert!(x > 0.1, "{x}");
}
