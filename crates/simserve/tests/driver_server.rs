//! Skipper's P2OS driver against Skipper's P2OS server (the simulator behind it), over
//! real TCP sockets on loopback and a pseudo-terminal pair: the handshake, driving a
//! square, the gripper, DIGOUT, ADSEL, the packet streams, PLAYLIST, the watchdog,
//! reconnection, clients one after another, and a client that sends garbage.
//!
//! The server runs its simulation faster than real time (`time_scale`) so that these
//! tests take seconds; every wait has a generous limit and no test asserts on timing.

use skipper_core::{Actuation, Drive, Events, GripperCommand, Rotation, Translation, Vehicle};
use skipper_p2os::client::{ClientOptions, Connection, DriverOptions, LinkSpec, P2osVehicle};
use skipper_p2os::packets::{ids, GripperState, Sip};
use skipper_p2os::server::{self, ServerConfig, ServerHandle};
use skipper_p2os::{CommandId, CommandPacket};
use skipper_simserve::SimFleet;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

fn world(text: &str) -> SimFleet {
    let spec = skipper_sim::parse_world(text, "test.world", None).expect("world parses");
    let w = skipper_sim::GroundWorld::new(&spec, 0).expect("world builds");
    SimFleet::new(w, "p3dx")
}

fn fast() -> ServerConfig {
    ServerConfig {
        sip_cycle: Duration::from_millis(20),
        time_scale: 5.0, // 100 ms of simulation per 20 ms SIP cycle
        ..Default::default()
    }
}

fn start(fleet: SimFleet, config: ServerConfig) -> ServerHandle {
    let addrs: Vec<SocketAddr> = (0..skipper_p2os::server::RobotFleet::len(&fleet))
        .map(|_| "127.0.0.1:0".parse().unwrap())
        .collect();
    server::serve(server::bind(&addrs).unwrap(), Box::new(fleet), config).unwrap()
}

fn options() -> DriverOptions {
    DriverOptions {
        client: ClientOptions {
            encoders: true,
            io: true,
            tcm2: true,
            gripper_pac: true,
            ..Default::default()
        },
        ..Default::default()
    }
}

fn connect(addr: SocketAddr) -> P2osVehicle {
    P2osVehicle::connect(LinkSpec::Tcp(addr.to_string()), options()).expect("connects")
}

/// Act (nothing) every 20 ms, as a running controller does, until `done` or 30 s.
fn wait_for(v: &mut P2osVehicle, what: &str, mut done: impl FnMut(&P2osVehicle) -> bool) {
    let start = Instant::now();
    let mut events = Events::new();
    while !done(v) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "timed out waiting for {what}"
        );
        v.act(Duration::ZERO, &Actuation::default(), &mut events);
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn act(v: &mut P2osVehicle, a: Actuation) {
    v.act(Duration::ZERO, &a, &mut Events::new());
}

fn drive(v: &mut P2osVehicle, d: Drive) {
    act(
        v,
        Actuation {
            drive: Some(d),
            ..Default::default()
        },
    );
}

/// Wait until the robot has moved and stopped again.
fn settle(v: &mut P2osVehicle) {
    let mut moved = false;
    wait_for(v, "the move to finish", |v| {
        let s = v.state();
        let moving = s.wheels.0.abs() > 1e-3 || s.wheels.1.abs() > 1e-3;
        moved |= moving;
        moved && !moving
    });
}

#[test]
fn handshake_identity_config_and_sips() {
    let server = start(world("robot alpha 0 0 0 laser=no\n"), fast());
    let mut c = Connection::open(
        &LinkSpec::Tcp(server.addrs()[0].to_string()),
        &ClientOptions::default(),
    )
    .unwrap();
    assert_eq!(c.identity.name, "alpha");
    assert_eq!(c.identity.class, "Pioneer");
    assert_eq!(c.identity.subtype, "p3dx");
    assert_eq!(c.params.subtype, "p3dx");
    let cfg = c.config.clone().expect("a CONFIGpac");
    assert_eq!(cfg.watchdog, 2000);
    assert_eq!(cfg.subtype, "p3dx");
    assert_eq!(cfg.name, "alpha");
    assert_eq!(cfg.has_gripper, 1);
    assert_eq!(cfg.trans_vel_max, 1200);
    let mut sips = 0;
    let mut motors = false;
    let start = Instant::now();
    while sips < 5 && start.elapsed() < Duration::from_secs(10) {
        c.poll(Duration::from_millis(50), |f| {
            if ids::is_sip(f.id) {
                let s = Sip::decode(f).unwrap();
                motors = s.motors_enabled();
                sips += 1;
            }
        })
        .unwrap();
    }
    assert_eq!(sips, 5);
    assert!(motors, "ENABLE 1 was sent after connecting");
    c.close();
    drop(server);
}

#[test]
fn drives_a_square_and_comes_back() {
    let server = start(world("box 0 0 10 10\nrobot r -2 -2 0 laser=no\n"), fast());
    let mut v = connect(server.addrs()[0]);
    wait_for(&mut v, "the first SIP", |v| v.sips() > 0);
    let start = v.state().pose;
    for _ in 0..4 {
        drive(
            &mut v,
            Drive::Channels {
                translation: Some(Translation::Move(1.0)),
                rotation: None,
            },
        );
        settle(&mut v);
        drive(
            &mut v,
            Drive::Channels {
                translation: None,
                rotation: Some(Rotation::DeltaHeading(std::f64::consts::FRAC_PI_2)),
            },
        );
        settle(&mut v);
    }
    let end = v.state().pose;
    let d = (end.x - start.x).hypot(end.y - start.y);
    assert!(
        d < 0.05,
        "back within 5 cm of the start, not {d:.3} m ({start:?} -> {end:?})"
    );
    let dyaw = skipper_core::geometry::wrap_rad(end.yaw - start.yaw).abs();
    assert!(dyaw < 0.05, "facing the same way (off by {dyaw:.3} rad)");
    let mut signals = skipper_core::Signals::new();
    v.sense(Duration::ZERO, &mut signals, &mut Events::new());
    assert_eq!(
        signals
            .get_named("p2os.connected")
            .and_then(|x| x.as_bool()),
        Some(true)
    );
    let x = signals
        .get_named("pose.x")
        .and_then(|x| x.as_f64())
        .unwrap();
    assert!((x - end.x).abs() < 1e-9, "pose.x is the driver's odometry");
    drop(v);
    drop(server);
}

#[test]
fn gripper_grasp_lift_release_shows_table_10_bits() {
    let server = start(world("robot r 0 0 0 laser=no\ncan 0.28 0\n"), fast());
    let mut v = connect(server.addrs()[0]);
    wait_for(&mut v, "a GRIPPERpac", |v| v.state().gripper_pac.is_some());
    let grip = |v: &P2osVehicle| GripperState(v.state().grip_state.unwrap_or(0));
    let pac = |v: &P2osVehicle| v.state().gripper_pac.map(|g| g.state).unwrap_or_default();
    assert_eq!(
        v.state().gripper_pac.unwrap().kind,
        2,
        "a General I/O gripper"
    );
    let g = grip(&v);
    assert!(g.paddles_open() && g.lift_at_limit());
    assert!(
        g.inner_beam_obstructed(),
        "the can breaks the inner beam: {:08b}",
        g.0
    );
    assert!(!g.left_paddle_grasping() && !g.right_paddle_grasping());
    // grasp
    act(
        &mut v,
        Actuation {
            gripper: Some(GripperCommand::Close),
            ..Default::default()
        },
    );
    wait_for(&mut v, "the paddles to move", |v| grip(v).gripper_moving());
    wait_for(&mut v, "the grasp", |v| {
        let g = grip(v);
        g.left_paddle_grasping() && g.right_paddle_grasping() && !g.gripper_moving()
    });
    assert!(!grip(&v).paddles_open());
    // lift
    act(
        &mut v,
        Actuation {
            gripper: Some(GripperCommand::LiftUp),
            ..Default::default()
        },
    );
    wait_for(&mut v, "the lift to move", |v| {
        let g = grip(v);
        g.lift_moving() && !g.lift_at_limit()
    });
    wait_for(&mut v, "the lift at the top", |v| {
        let g = grip(v);
        !g.lift_moving() && g.lift_at_limit()
    });
    assert!(
        grip(&v).left_paddle_grasping(),
        "still holding the can up there"
    );
    // release
    act(
        &mut v,
        Actuation {
            gripper: Some(GripperCommand::Open),
            ..Default::default()
        },
    );
    wait_for(&mut v, "the release", |v| {
        let g = grip(v);
        !g.left_paddle_grasping() && !g.right_paddle_grasping()
    });
    wait_for(&mut v, "the paddles open", |v| {
        grip(v).paddles_open() && !grip(v).gripper_moving()
    });
    // the GRIPPERpac stream says the same as the SIP byte
    wait_for(&mut v, "the GRIPPERpac to agree", |v| pac(v) == grip(v));
}

#[test]
fn digout_adsel_analog_and_the_packet_streams() {
    let server = start(
        world("robot r 0 0 0 laser=no digin=0xa5 analog3=800 analog5=123\n"),
        fast(),
    );
    let mut v = connect(server.addrs()[0]);
    wait_for(&mut v, "IOpac, ENCODERpac and TCM2pac", |v| {
        let s = v.state();
        s.io.is_some() && s.encoders.is_some() && s.tcm2.is_some()
    });
    let s = v.state();
    assert_eq!(s.digin, Some(0xA5));
    assert_eq!(s.io.as_ref().unwrap().digin, vec![0xA5]);
    assert_eq!(s.anport, Some(5), "P2OS selects port 5 by default");
    assert_eq!(s.analog, Some((123 >> 2) as u8));
    // DIGOUT sets only the masked outputs
    act(
        &mut v,
        Actuation {
            digital_out: Some((0x0F, 0x05)),
            ..Default::default()
        },
    );
    wait_for(&mut v, "DIGOUT 0x05", |v| v.state().digout == Some(0x05));
    act(
        &mut v,
        Actuation {
            digital_out: Some((0xF0, 0xAF)),
            ..Default::default()
        },
    );
    wait_for(&mut v, "DIGOUT 0xA5", |v| {
        let s = v.state();
        s.digout == Some(0xA5) && s.io.is_some_and(|io| io.digout == vec![0xA5])
    });
    // ADSEL picks the port the SIP reports; the IOpac has every port in 10 bits
    act(
        &mut v,
        Actuation {
            analog_select: Some(3),
            ..Default::default()
        },
    );
    wait_for(&mut v, "ADSEL 3", |v| v.state().anport == Some(3));
    let s = v.state();
    assert_eq!(s.analog, Some((800 >> 2) as u8));
    assert_eq!(s.io.unwrap().analog[3], 800);
    // encoders count as the robot drives; the TCM2 heading follows the compass
    let e0 = v.state().encoders.unwrap();
    drive(
        &mut v,
        Drive::Channels {
            translation: Some(Translation::Move(0.3)),
            rotation: None,
        },
    );
    settle(&mut v);
    let e1 = v.state().encoders.unwrap();
    assert!(
        e1.left - e0.left > 30_000 && e1.right - e0.right > 30_000,
        "{e0:?} -> {e1:?}"
    );
    let t = v.state().tcm2.unwrap();
    assert_eq!(
        t.heading, 900,
        "facing +x is 90 degrees clockwise from north"
    );
    // sonar readings arrive
    assert!(v.state().sonar_fresh.iter().any(|f| *f) || v.state().sonar.iter().any(|r| *r > 0.0));
}

#[test]
fn playlist_reply_is_25_nul_bytes() {
    let server = start(world("robot r 0 0 0 laser=no\n"), fast());
    let mut v = connect(server.addrs()[0]);
    wait_for(&mut v, "the first SIP", |v| v.sips() > 0);
    v.send(&CommandPacket::int(CommandId::Playlist, 0)).unwrap();
    wait_for(&mut v, "the PLAYLIST reply", |v| {
        v.state().playlist.is_some()
    });
    assert_eq!(v.state().playlist.unwrap(), vec![0u8; 25]);
}

#[test]
fn the_watchdog_stops_a_robot_whose_client_went_silent() {
    let config = ServerConfig {
        watchdog: Some(Duration::from_millis(400)),
        ..fast()
    };
    let server = start(world("box 0 0 30 30\nrobot r 0 0 0 laser=no\n"), config);
    let mut c = Connection::open(
        &LinkSpec::Tcp(server.addrs()[0].to_string()),
        &ClientOptions::default(),
    )
    .unwrap();
    c.send(&CommandPacket::int(CommandId::Vel, 300)).unwrap();
    // then silence: read SIPs only
    let mut moving_seen = false;
    let mut stopped_after_moving = false;
    let start = Instant::now();
    while !stopped_after_moving && start.elapsed() < Duration::from_secs(10) {
        c.poll(Duration::from_millis(20), |f| {
            if let (true, Ok(s)) = (ids::is_sip(f.id), Sip::decode(f)) {
                if s.left_vel > 100 {
                    moving_seen = true;
                }
                if moving_seen && s.left_vel == 0 && s.right_vel == 0 {
                    stopped_after_moving = true;
                }
            }
        })
        .unwrap();
    }
    assert!(moving_seen, "VEL 300 moved the robot");
    assert!(stopped_after_moving, "the watchdog stopped it");
    assert!(server.stats().watchdog_stops >= 1);
}

#[test]
fn the_driver_reconnects_after_the_server_restarts() {
    let fleet = world("robot r 0 0 0 laser=no\n");
    let server = start(fleet, fast());
    let addr = server.addrs()[0];
    let opts = DriverOptions {
        link_timeout: Duration::from_millis(1000),
        backoff: Duration::from_millis(50),
        ..options()
    };
    let mut v = P2osVehicle::connect(LinkSpec::Tcp(addr.to_string()), opts).unwrap();
    wait_for(&mut v, "the first SIP", |v| v.sips() > 0);
    server.stop();
    wait_for(&mut v, "the link to drop", |v| !v.connected());
    let server = server::serve(
        server::bind(&[addr]).expect("the same port again"),
        Box::new(world("robot r 0 0 0 laser=no\n")),
        fast(),
    )
    .unwrap();
    wait_for(&mut v, "the reconnection", |v| v.connected());
    assert_eq!(v.reconnects(), 1);
    let before = v.sips();
    wait_for(&mut v, "SIPs again", |v| v.sips() > before + 3);
    // the controller's commands flow again
    drive(&mut v, Drive::velocity(0.2, 0.0));
    wait_for(&mut v, "motion after reconnecting", |v| {
        v.state().wheels.0 > 0.05
    });
    let mut e = Events::new();
    v.sense(Duration::ZERO, &mut skipper_core::Signals::new(), &mut e);
    assert!(e.as_slice().iter().any(|e| e.kind == "link"));
    drop(server);
}

#[test]
fn clients_one_after_another_and_a_garbage_client_is_dropped_alone() {
    let server = start(
        world("robot a 0 0 0 laser=no\nrobot b 3 0 0 laser=no\n"),
        fast(),
    );
    let (a, b) = (server.addrs()[0], server.addrs()[1]);
    for _ in 0..2 {
        let mut v = connect(a);
        wait_for(&mut v, "SIPs", |v| v.sips() > 2);
    }
    let mut v = connect(a);
    wait_for(&mut v, "SIPs", |v| v.sips() > 2);
    let before = v.sips();
    // robot b's client sends garbage
    let mut bad = TcpStream::connect(b).unwrap();
    bad.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let junk: Vec<u8> = (0..4000u32).map(|k| (k * 7919 % 251) as u8).collect();
    let _ = bad.write_all(&junk);
    let mut buf = [0u8; 256];
    let closed = loop {
        match bad.read(&mut buf) {
            Ok(0) => break true,
            Ok(_) => continue,
            Err(_) => break false,
        }
    };
    assert!(closed, "the garbage client was disconnected");
    assert_eq!(server.stats().garbage_disconnects, 1);
    wait_for(&mut v, "robot a's SIPs to go on", |v| v.sips() > before + 5);
    assert!(v.connected());
    // and robot b takes a proper client afterwards
    let mut w = connect(b);
    wait_for(&mut w, "robot b's SIPs", |w| w.sips() > 2);
    assert_eq!(w.info().name, "b");
}

#[test]
fn the_serial_path_over_a_pseudo_terminal() {
    use serialport::{SerialPort, TTYPort};
    let server = start(world("robot r 0 0 0 laser=no\n"), fast());
    let (master, slave) = TTYPort::pair().expect("a pseudo-terminal pair");
    let path = slave.name().expect("the slave has a name");
    drop(slave);
    // bridge: pty master <-> the server's TCP port
    let tcp = TcpStream::connect(server.addrs()[0]).unwrap();
    let (mut m_in, mut m_out) = (master.try_clone_native().unwrap(), master);
    let (mut t_in, mut t_out) = (tcp.try_clone().unwrap(), tcp);
    std::thread::spawn(move || {
        let mut buf = [0u8; 512];
        loop {
            match std::io::Read::read(&mut m_in, &mut buf) {
                Ok(0) => std::thread::sleep(Duration::from_millis(5)),
                Ok(n) => {
                    if t_out.write_all(&buf[..n]).is_err() {
                        break;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    });
    std::thread::spawn(move || {
        let mut buf = [0u8; 512];
        while let Ok(n) = t_in.read(&mut buf) {
            if n == 0 || std::io::Write::write_all(&mut m_out, &buf[..n]).is_err() {
                break;
            }
        }
    });
    let mut v = P2osVehicle::connect(
        LinkSpec::Serial {
            path: path.clone(),
            baud: 9600,
        },
        options(),
    )
    .unwrap_or_else(|e| panic!("connects over {path}: {e}"));
    wait_for(&mut v, "SIPs over the serial line", |v| v.sips() > 3);
    drive(&mut v, Drive::velocity(0.3, 0.0));
    wait_for(&mut v, "motion", |v| v.state().wheels.0 > 0.1);
}

#[test]
fn a_steady_command_keeps_the_watchdog_fed_and_estop_stops_at_once() {
    let config = ServerConfig {
        watchdog: Some(Duration::from_millis(1000)),
        ..fast()
    };
    let server = start(world("box 0 0 60 60\nrobot r -25 0 0 laser=no\n"), config);
    let mut v = connect(server.addrs()[0]);
    drive(&mut v, Drive::velocity(0.2, 0.0));
    wait_for(&mut v, "motion", |v| v.state().wheels.0 > 0.15);
    // the controller goes on acting (without new commands) for three watchdog periods:
    // the driver's refresh keeps the robot going
    let start = Instant::now();
    wait_for(&mut v, "three seconds", |_| {
        start.elapsed() > Duration::from_secs(3)
    });
    assert!(v.state().wheels.0 > 0.15, "still moving");
    assert_eq!(server.stats().watchdog_stops, 0);
    drive(&mut v, Drive::Estop);
    wait_for(&mut v, "the estop", |v| v.state().wheels == (0.0, 0.0));
    // and it stays stopped: the driver now refreshes zero velocities
    let start = Instant::now();
    wait_for(&mut v, "a second", |_| {
        start.elapsed() > Duration::from_secs(1)
    });
    assert_eq!(v.state().wheels, (0.0, 0.0));
}

#[test]
fn a_controller_that_stops_acting_gets_its_robot_stopped() {
    let config = ServerConfig {
        watchdog: None, // so that only the driver can stop it
        ..fast()
    };
    let server = start(world("box 0 0 60 60\nrobot r -25 0 0 laser=no\n"), config);
    let opts = DriverOptions {
        controller_timeout: Duration::from_millis(500),
        ..options()
    };
    let mut v = P2osVehicle::connect(LinkSpec::Tcp(server.addrs()[0].to_string()), opts).unwrap();
    drive(&mut v, Drive::velocity(0.3, 0.0));
    wait_for(&mut v, "motion", |v| v.state().wheels.0 > 0.2);
    // no more act(): the controller is gone
    let start = Instant::now();
    while v.state().wheels.0 > 0.0 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the robot never stopped"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(v.connected(), "the link stays up");
}

#[test]
fn a_client_silent_past_the_watchdog_gives_way_to_a_new_one() {
    let config = ServerConfig {
        watchdog: Some(Duration::from_millis(300)),
        ..fast()
    };
    let server = start(world("robot r 0 0 0 laser=no\n"), config);
    let addr = server.addrs()[0];
    // a client that opens and then neither sends nor closes (a crashed program whose
    // socket stays open)
    let silent =
        Connection::open(&LinkSpec::Tcp(addr.to_string()), &ClientOptions::default()).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let mut v = connect(addr);
    wait_for(&mut v, "SIPs for the new client", |v| v.sips() > 3);
    assert_eq!(server.stats().refused, 0);
    drop(silent);
}

#[test]
fn a_p3at_is_described_with_its_own_sonar_ring_by_the_subtype_it_reports() {
    let spec = skipper_sim::parse_world("robot at 0 0 0 model=p3at\n", "test.world", None)
        .expect("world parses");
    let w = skipper_sim::GroundWorld::new(&spec, 0).expect("world builds");
    let simulated = w.robots()[0].sensors();
    let server = start(SimFleet::new(w, "p3at"), fast());
    let v = connect(server.addrs()[0]);
    assert_eq!(v.info().model, "p3at");
    let seen = v.sensors();
    assert_eq!(seen.sonar.len(), 16);
    for (k, (a, b)) in seen.sonar.iter().zip(&simulated.sonar).enumerate() {
        let same =
            (a.x - b.x).abs() < 1e-9 && (a.y - b.y).abs() < 1e-9 && (a.yaw - b.yaw).abs() < 1e-9;
        assert!(
            same,
            "sonar {k}: the driver says {a:?}, the simulated P3-AT has {b:?}"
        );
    }
    // the P3-AT's front transducer sits 0.245 m ahead, the P3-DX's 0.166 m
    assert!((seen.sonar[3].x - 0.245).abs() < 1e-9);
    drop(v);
    drop(server);
}
