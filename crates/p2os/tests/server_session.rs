//! The server's session logic without sockets or wall time: a recording fleet behind it,
//! packets in, bytes out, time passed in by hand.

use skipper_core::{Actuation, Drive, GripperCommand, Pose2, Rotation, Translation};
use skipper_p2os::packets::{
    ids, ConfigPac, Identity, LaserPac, Playlist, SimDevice, SimInfo, SimStat, Sip, SoundRef,
};
use skipper_p2os::server::{
    OldLaserCommands, Outcome, Phase, RobotFleet, RobotIdentity, RobotStatus, ServerConfig,
    Session, Sound,
};
use skipper_p2os::{CommandId, CommandPacket, Frame, Framer, PacketBuf};
use std::time::Duration;

#[derive(Default)]
struct Recorder {
    acts: Vec<Actuation>,
    status: RobotStatus,
    poses: Vec<Pose2>,
    resets: usize,
    sounds: Vec<String>,
    playlist: Vec<SoundRef>,
    subtype: String,
    /// (first angle, step) of each laser scan asked for
    scans: Vec<(f64, f64)>,
}

impl RobotFleet for Recorder {
    fn len(&self) -> usize {
        1
    }
    fn identity(&self, _robot: usize) -> RobotIdentity {
        RobotIdentity {
            name: "amy".into(),
            class: "Pioneer".into(),
            subtype: self.subtype.clone(),
            serial: "42".into(),
        }
    }
    fn act(&mut self, _robot: usize, a: &Actuation) {
        self.acts.push(a.clone());
    }
    fn status(&mut self, _robot: usize, out: &mut RobotStatus) {
        *out = self.status.clone();
    }
    fn advance(&mut self, _dt: Duration) {}
    fn set_pose(&mut self, _robot: usize, pose: Pose2) -> Result<(), String> {
        self.poses.push(pose);
        Ok(())
    }
    fn reset(&mut self, _robot: usize) -> Result<(), String> {
        self.resets += 1;
        Ok(())
    }
    fn sound(&mut self, _robot: usize, s: Sound<'_>) {
        self.sounds.push(format!("{s:?}"));
    }
    fn playlist(&self, _robot: usize) -> Vec<SoundRef> {
        self.playlist.clone()
    }
    /// every beam reads its own angle: (angle + 180°) / 100 m, so the mm tell the angle
    fn laser_scan(&mut self, _robot: usize, first: f64, step: f64, out: &mut [f64]) -> bool {
        self.scans.push((first, step));
        for (k, r) in out.iter_mut().enumerate() {
            *r = (first + k as f64 * step + 180.0) / 100.0;
        }
        true
    }
    fn devices(&self, _robot: usize) -> Vec<SimDevice> {
        vec![SimDevice {
            name: "laser".into(),
            kind: "laser".into(),
            which: 0,
            status: 0,
        }]
    }
}

fn fleet() -> Recorder {
    Recorder {
        subtype: "p3dx-sh".into(),
        ..Default::default()
    }
}

/// Feed one command; return what came back as (type, data) packets.
fn send(
    s: &mut Session,
    f: &mut Recorder,
    p: &PacketBuf,
    now_ms: u64,
) -> (Outcome, Vec<(u8, Vec<u8>)>) {
    let frame = Frame {
        id: p.id(),
        data: p.data(),
        bytes: p.as_bytes(),
    };
    let mut out = Vec::new();
    let o = s.handle(&frame, Duration::from_millis(now_ms), f, &mut out);
    (o, frames(&out))
}

fn frames(bytes: &[u8]) -> Vec<(u8, Vec<u8>)> {
    let mut got = Vec::new();
    Framer::new().feed(bytes, |f| got.push((f.id, f.data.to_vec())));
    got
}

fn cmd(id: CommandId, v: i32) -> PacketBuf {
    CommandPacket::int(id, v).encode().unwrap()
}

fn open(f: &mut Recorder, config: &ServerConfig) -> Session {
    let mut s = Session::new(0, f, config, Duration::ZERO);
    for n in 0..3u8 {
        let (_, r) = send(&mut s, f, &PacketBuf::bare(n), 0);
        assert_eq!(r[0].0, n);
        if n == 2 {
            let ident = Identity::decode(&Frame {
                id: 2,
                data: &r[0].1,
                bytes: &[],
            })
            .unwrap();
            assert_eq!(
                (ident.name.as_str(), ident.subtype.as_str()),
                ("amy", "p3dx-sh")
            );
        }
    }
    assert_eq!(s.phase(), Phase::Synced);
    send(&mut s, f, &cmd(CommandId::Open, 1), 0);
    assert_eq!(s.phase(), Phase::Open);
    f.acts.clear();
    s
}

#[test]
fn sync_jumps_to_the_clients_number_and_open_takes_an_argument_or_none() {
    let mut f = fleet();
    let config = ServerConfig::default();
    let mut s = Session::new(0, &f, &config, Duration::ZERO);
    // a client that starts at SYNC1 is answered, then SYNC2
    assert_eq!(send(&mut s, &mut f, &PacketBuf::bare(1), 0).1[0].0, 1);
    assert_eq!(send(&mut s, &mut f, &PacketBuf::bare(2), 0).1[0].0, 2);
    // commands before OPEN are not executed
    send(&mut s, &mut f, &cmd(CommandId::Vel, 100), 0);
    assert!(f.acts.is_empty());
    send(&mut s, &mut f, &PacketBuf::bare(1), 0); // OPEN without an argument
    assert_eq!(s.phase(), Phase::Open);
    assert_eq!(f.acts[0].motors_enabled, Some(false), "motors off at OPEN");
    // CLOSE 1 ends the session
    assert_eq!(
        send(&mut s, &mut f, &cmd(CommandId::Close, 1), 0).0,
        Outcome::Close
    );
}

#[test]
fn motion_commands_become_actuation() {
    let mut f = fleet();
    let config = ServerConfig::default();
    let mut s = open(&mut f, &config);
    let deg = |d: f64| d.to_radians();
    let cases: Vec<(PacketBuf, Actuation)> = vec![
        (
            cmd(CommandId::Vel, -250),
            Actuation {
                drive: Some(Drive::Channels {
                    translation: Some(Translation::Velocity(-0.25)),
                    rotation: None,
                }),
                ..Default::default()
            },
        ),
        (
            cmd(CommandId::RVel, 30),
            Actuation {
                drive: Some(Drive::Channels {
                    translation: None,
                    rotation: Some(Rotation::Velocity(deg(30.0))),
                }),
                ..Default::default()
            },
        ),
        (
            cmd(CommandId::Head, 270),
            Actuation {
                drive: Some(Drive::Channels {
                    translation: None,
                    rotation: Some(Rotation::Heading(deg(270.0))),
                }),
                ..Default::default()
            },
        ),
        (
            cmd(CommandId::Move, 500),
            Actuation {
                drive: Some(Drive::Channels {
                    translation: Some(Translation::Move(0.5)),
                    rotation: None,
                }),
                ..Default::default()
            },
        ),
        (
            CommandPacket::two_bytes(CommandId::Vel2, 0xF6, 10)
                .encode()
                .unwrap(),
            Actuation {
                drive: Some(Drive::Wheels {
                    left: -0.2,
                    right: 0.2,
                }),
                ..Default::default()
            },
        ),
        (
            PacketBuf::bare(CommandId::Estop as u8),
            Actuation {
                drive: Some(Drive::Estop),
                ..Default::default()
            },
        ),
        (
            cmd(CommandId::SetA, -400),
            Actuation {
                limits: Some(skipper_core::MotionLimits {
                    decel: Some(0.4),
                    ..Default::default()
                }),
                ..Default::default()
            },
        ),
        (
            CommandPacket::two_bytes(CommandId::DigOut, 0xFF, 0x05)
                .encode()
                .unwrap(),
            Actuation {
                digital_out: Some((0xFF, 0x05)),
                ..Default::default()
            },
        ),
        (
            cmd(CommandId::Adsel, 6),
            Actuation {
                analog_select: Some(6),
                ..Default::default()
            },
        ),
        (
            cmd(CommandId::BumpStall, 3),
            Actuation {
                bump_stall: Some(3),
                ..Default::default()
            },
        ),
    ];
    for (p, want) in cases {
        f.acts.clear();
        send(&mut s, &mut f, &p, 10);
        assert_eq!(f.acts, vec![want], "command {}", p.id());
    }
}

#[test]
fn gripper_pressure_and_lift_carry_take_the_following_gripperval() {
    let mut f = fleet();
    let mut s = open(&mut f, &ServerConfig::default());
    send(&mut s, &mut f, &cmd(CommandId::Gripper, 17), 0);
    assert!(f.acts.is_empty(), "LIFT_CARRY waits for its value");
    send(&mut s, &mut f, &cmd(CommandId::GripperVal, -50), 0);
    assert_eq!(f.acts[0].gripper, Some(GripperCommand::LiftCarry(-50)));
    send(&mut s, &mut f, &cmd(CommandId::Gripper, 7), 0);
    assert_eq!(f.acts[1].gripper, Some(GripperCommand::Store));
}

#[test]
fn the_watchdog_stops_the_robot_once_until_commands_come_again() {
    let mut f = fleet();
    let config = ServerConfig {
        watchdog: Some(Duration::from_millis(2000)),
        ..Default::default()
    };
    let mut s = open(&mut f, &config);
    send(&mut s, &mut f, &cmd(CommandId::Vel, 300), 1000);
    f.acts.clear();
    assert!(!s.check_watchdog(Duration::from_millis(2900), &mut f));
    assert!(s.check_watchdog(Duration::from_millis(3001), &mut f));
    assert_eq!(f.acts[0].drive, Some(Drive::Stop));
    assert!(
        !s.check_watchdog(Duration::from_millis(9000), &mut f),
        "once"
    );
    send(&mut s, &mut f, &PacketBuf::bare(0), 9100); // PULSE resets the timer
    send(&mut s, &mut f, &cmd(CommandId::Vel, 300), 9100);
    assert!(!s.check_watchdog(Duration::from_millis(11000), &mut f));
    assert!(s.check_watchdog(Duration::from_millis(11200), &mut f));
}

#[test]
fn sips_and_streams_after_each_cycle() {
    let mut f = fleet();
    f.status.pose = Pose2::new(1.5, -0.25, std::f64::consts::FRAC_PI_2);
    f.status.gripper = Some(0x3C);
    f.status.analog = [0, 0, 0, 1023, 0, 512, 0, 0];
    f.status.sonar_fresh[3] = true;
    f.status.sonar[3] = 1.234;
    f.status.motors_enabled = true;
    let mut s = open(&mut f, &ServerConfig::default());
    for (c, v) in [
        (CommandId::GripperPacRequest, 1),
        (CommandId::IoRequest, 2),
        (CommandId::Encoder, 2),
        (CommandId::Tcm2, 2),
        (CommandId::SimStat, 1),
    ] {
        send(&mut s, &mut f, &cmd(c, v), 0);
    }
    let mut out = Vec::new();
    s.cycle(&mut f, &mut out);
    let got = frames(&out);
    let kinds: Vec<u8> = got.iter().map(|g| g.0).collect();
    assert_eq!(
        kinds,
        vec![
            ids::SIP_STOPPED,
            ids::GRIPPER,
            ids::IO,
            ids::ENCODER,
            ids::TCM2,
            ids::SIMSTAT
        ]
    );
    let sip = Sip::decode(&Frame {
        id: got[0].0,
        data: &got[0].1,
        bytes: &[],
    })
    .unwrap();
    assert_eq!((sip.x, sip.y & 0x7FFF), (1500, 0x8000 - 250));
    assert_eq!(sip.th, 1024);
    assert!(sip.motors_enabled());
    assert_eq!(sip.sonar().len(), 1);
    assert_eq!((sip.sonar()[0].index, sip.sonar()[0].range), (3, 1234));
    let t = sip.tail();
    // port 5, then Table 10's 0x3C (open, beams clear) as ARIA's General-I/O gripper
    // reads it: the beam bits mean 1 = broken, so both are 0
    assert_eq!(
        (t.anport, t.grip_state, t.analog),
        (Some(5), Some(0x30), Some(128))
    );
    // once-only packets are not repeated; continuous ones are
    let mut out = Vec::new();
    s.cycle(&mut f, &mut out);
    let kinds: Vec<u8> = frames(&out).iter().map(|g| g.0).collect();
    assert_eq!(kinds, vec![ids::SIP_STOPPED, ids::IO, ids::ENCODER]);
    let st = SimStat::decode(&Frame {
        id: ids::SIMSTAT,
        data: &got[5].1,
        bytes: &[],
    })
    .unwrap();
    assert_eq!(st.sim_interval, 100);
}

#[test]
fn config_playlist_sim_commands_and_sounds() {
    let mut f = fleet();
    f.playlist = (0..12)
        .map(|k| SoundRef::new(&format!("sound{k}"), 100 * k, 100))
        .collect();
    let mut s = open(&mut f, &ServerConfig::default());
    let (_, r) = send(&mut s, &mut f, &cmd(CommandId::Config, 1), 0);
    let c = ConfigPac::decode(&Frame {
        id: r[0].0,
        data: &r[0].1,
        bytes: &[],
    })
    .unwrap();
    assert_eq!(
        (c.watchdog, c.sip_cycle, c.serial.as_str()),
        (2000, 100, "42")
    );
    // an AmigoBot-style playlist: 12 sounds in packets of at most 10
    let (_, r) = send(&mut s, &mut f, &cmd(CommandId::Playlist, 0), 0);
    let lists: Vec<Playlist> = r
        .iter()
        .map(|(id, d)| {
            Playlist::decode(&Frame {
                id: *id,
                data: d,
                bytes: &[],
            })
            .unwrap()
        })
        .collect();
    assert_eq!(lists.len(), 2);
    assert_eq!(lists[0].sounds.len() + lists[1].sounds.len(), 12);
    assert_eq!(lists[1].sounds[1].name(), "sound11");
    assert_eq!(r[0].1.len(), 1 + 10 * 24);
    let (_, r) = send(&mut s, &mut f, &cmd(CommandId::Playlist, 3), 0);
    assert_eq!(r.len(), 1);
    assert_eq!(&r[0].1[1..7], b"sound2");
    // SIM_SET_POSE, SIM_RESET
    send(
        &mut s,
        &mut f,
        &CommandPacket::encode_sim_set_pose(2000, -1000, 90).unwrap(),
        0,
    );
    assert_eq!(f.poses.len(), 1);
    assert!(
        (f.poses[0].x - 2.0).abs() < 1e-9
            && (f.poses[0].yaw - std::f64::consts::FRAC_PI_2).abs() < 1e-9
    );
    send(
        &mut s,
        &mut f,
        &PacketBuf::bare(CommandId::SimReset as u8),
        0,
    );
    assert_eq!(f.resets, 1);
    // SAY (with ARIA's trailing NUL), SOUND, SOUNDTOG
    send(
        &mut s,
        &mut f,
        &CommandPacket::str(CommandId::Say, &[10, 50])
            .encode()
            .unwrap(),
        0,
    );
    send(&mut s, &mut f, &cmd(CommandId::SoundTog, 0), 0);
    send(&mut s, &mut f, &cmd(CommandId::Sound, 4), 0);
    assert_eq!(f.sounds, vec!["Tones([10, 50])".to_string()]);
    // SIM_EXIT
    assert_eq!(
        send(&mut s, &mut f, &cmd(CommandId::SimExit, 3), 0).0,
        Outcome::Exit(3)
    );
}

#[test]
fn a_robot_without_sounds_answers_25_nul_bytes() {
    let mut f = fleet();
    let mut s = open(&mut f, &ServerConfig::default());
    let (_, r) = send(
        &mut s,
        &mut f,
        &PacketBuf::bare(CommandId::Playlist as u8),
        0,
    );
    assert_eq!(r, vec![(ids::PLAYLIST, vec![0u8; 25])]);
}

#[test]
fn tcm2_modes_switch_the_compass_calibrate_and_reset() {
    use skipper_p2os::packets::Tcm2Pac;
    let mut f = fleet();
    f.status.compass_deg = Some(90.0);
    f.status.tcm2 = [90.0, 1.5, -2.0, 21.0];
    let mut s = open(&mut f, &ServerConfig::default());
    // one cycle: the SIP's compass byte (heading / 2) and, if asked for, a TCM2pac
    let cycle = |s: &mut Session, f: &mut Recorder| {
        let mut out = Vec::new();
        s.cycle(f, &mut out);
        let got = frames(&out);
        fn frame(g: &(u8, Vec<u8>)) -> Frame<'_> {
            Frame {
                id: g.0,
                data: &g.1,
                bytes: &[],
            }
        }
        let sip = Sip::decode(&frame(&got[0])).unwrap();
        let pac = got
            .iter()
            .find(|g| g.0 == ids::TCM2)
            .map(|g| Tcm2Pac::decode(&frame(g)).unwrap());
        (sip.compass, pac)
    };
    assert_eq!(cycle(&mut s, &mut f), (45, None));
    // 0: off (no compass in the SIP), 1: compass only
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 0), 0);
    assert_eq!(cycle(&mut s, &mut f), (0, None));
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 1), 0);
    assert_eq!(cycle(&mut s, &mut f), (45, None));
    // 2: one TCM2pac, uncalibrated
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 2), 0);
    let (c, pac) = cycle(&mut s, &mut f);
    let pac = pac.unwrap();
    assert_eq!(
        (c, pac.heading, pac.pitch, pac.roll, pac.temperature),
        (45, 900, 15, -20, 210)
    );
    assert_eq!((pac.cal_h, pac.cal_v), (0, 0));
    assert_eq!(cycle(&mut s, &mut f).1, None);
    // 3: continuous; 5 starts a calibration (scores 0 while it runs), 6 stops it
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 3), 0);
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 5), 0);
    let p = cycle(&mut s, &mut f).1.unwrap();
    assert_eq!((p.cal_h, p.cal_v), (0, 0));
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 6), 0);
    let p = cycle(&mut s, &mut f).1.unwrap();
    assert_eq!((p.cal_h, p.cal_v, p.cal_m), (9, 9, 0));
    // 4 (user calibration) restarts it
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 4), 0);
    let p = cycle(&mut s, &mut f).1.unwrap();
    assert_eq!((p.cal_h, p.cal_v), (0, 0));
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 6), 0);
    assert_eq!(cycle(&mut s, &mut f).1.unwrap().cal_h, 9);
    // 7: soft reset: compass on, no TCM2pac, the calibration forgotten
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 0), 0);
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 7), 0);
    assert_eq!(cycle(&mut s, &mut f), (45, None));
    send(&mut s, &mut f, &cmd(CommandId::Tcm2, 2), 0);
    assert_eq!(cycle(&mut s, &mut f).1.unwrap().cal_h, 0);
}

/// One cycle's laser packets: (extended, total, every reading's angle in degrees).
fn scan(s: &mut Session, f: &mut Recorder) -> Option<(bool, u16, Vec<f64>)> {
    let mut out = Vec::new();
    s.cycle(f, &mut out);
    let mut got: Option<(bool, u16, Vec<f64>)> = None;
    Framer::new().feed(&out, |fr| {
        if let Ok(p) = LaserPac::decode(&fr) {
            let g = got.get_or_insert((p.extended, p.total, Vec::new()));
            assert_eq!(usize::from(p.first), g.2.len(), "packets in order");
            g.2.extend(p.readings().map(|(mm, _)| f64::from(mm) / 10.0 - 180.0));
        }
    });
    got
}

fn sends(s: &mut Session, f: &mut Recorder, cmds: &[(u8, i32)]) -> Vec<(u8, Vec<u8>)> {
    let mut replies = Vec::new();
    for &(n, v) in cmds {
        let p = CommandPacket {
            number: n,
            arg: skipper_p2os::Arg::Int(v),
        }
        .encode()
        .unwrap();
        replies.extend(send(s, f, &p, 10).1);
    }
    replies
}

/// What ARIA's simulated laser sends to configure and start the laser.
const ARIA_LASER: [(u8, i32); 4] = [(36, -90), (37, 90), (38, 50), (35, 2)];

#[test]
fn arias_laser_sequence_starts_the_laser_and_lone_commands_keep_their_p2os_meaning() {
    let mut f = fleet();
    let mut s = open(&mut f, &ServerConfig::default());
    // ARIA's gripper query (37 2) and an ADSEL 3 alone are P2OS commands
    sends(&mut s, &mut f, &[(37, 2), (35, 3)]);
    assert!(f.acts.iter().any(|a| a.analog_select == Some(3)));
    let mut out = Vec::new();
    s.cycle(&mut f, &mut out);
    assert!(
        frames(&out).iter().any(|p| p.0 == ids::GRIPPER),
        "GRIPPERpac streams"
    );
    assert!(scan(&mut s, &mut f).is_none(), "no laser yet");
    f.acts.clear();
    // the simulated laser's four commands, back to back
    sends(&mut s, &mut f, &ARIA_LASER);
    assert!(
        f.acts.is_empty(),
        "no ADSEL, no gripper command: {:?}",
        f.acts
    );
    let (extended, total, angles) = scan(&mut s, &mut f).unwrap();
    assert!(extended, "35 2 asks for extended packets");
    assert_eq!((total, angles.len()), (361, 361));
    for (k, a) in angles.iter().enumerate() {
        assert!(
            (a - (-90.0 + 0.5 * k as f64)).abs() < 0.051,
            "reading {k} at {a}°"
        );
    }
    assert_eq!(f.scans.last(), Some(&(-90.0, 0.5)));
    // a scan every cycle, until SIM_LRF_ENABLE 0
    assert!(scan(&mut s, &mut f).is_some());
    sends(&mut s, &mut f, &[(230, 0)]);
    assert!(scan(&mut s, &mut f).is_none());
    // the new commands: 1° from -45 to 45, plain packets
    sends(
        &mut s,
        &mut f,
        &[(231, -45), (232, 45), (233, 100), (230, 1)],
    );
    let (extended, total, angles) = scan(&mut s, &mut f).unwrap();
    assert!(!extended);
    assert_eq!((total, angles.first().copied()), (91, Some(-45.0)));
    // a GRIPPERVAL that completes GRIP_PRESSURE is not a laser angle
    f.acts.clear();
    sends(&mut s, &mut f, &[(33, 16), (36, 20)]);
    assert_eq!(f.acts.len(), 1, "{:?}", f.acts);
    assert_eq!(
        scan(&mut s, &mut f).unwrap().2.first().copied(),
        Some(-45.0)
    );
}

#[test]
fn mobilesim_reads_35_to_38_as_laser_commands_p2os_never() {
    let mut f = fleet();
    let config = ServerConfig {
        old_laser_commands: OldLaserCommands::Always,
        ..Default::default()
    };
    let mut s = open(&mut f, &config);
    sends(&mut s, &mut f, &[(37, 2), (35, 1)]);
    assert!(f.acts.is_empty());
    let (extended, total, _) = scan(&mut s, &mut f).unwrap();
    assert!(!extended);
    assert_eq!(
        total, 93,
        "-90 .. 2 at 1°: the gripper query became the end angle"
    );

    let mut f = fleet();
    let config = ServerConfig {
        old_laser_commands: OldLaserCommands::Never,
        ..Default::default()
    };
    let mut s = open(&mut f, &config);
    sends(&mut s, &mut f, &ARIA_LASER);
    assert!(f.acts.iter().any(|a| a.analog_select == Some(2)));
    assert!(scan(&mut s, &mut f).is_none());
}

#[test]
fn siminfo_and_a_moved_robot_in_the_next_extended_scan() {
    let mut f = fleet();
    let mut s = open(&mut f, &ServerConfig::default());
    let replies = sends(&mut s, &mut f, &[(236, 6)]);
    let (id, data) = &replies[0];
    let info = SimInfo::decode(&Frame {
        id: *id,
        data,
        bytes: &[],
    })
    .unwrap();
    assert_eq!(info.app, "Skipper");
    assert_eq!(info.devices[0].name, "laser");
    sends(&mut s, &mut f, &ARIA_LASER);
    let flags = |s: &mut Session, f: &mut Recorder| {
        let mut out = Vec::new();
        s.cycle(f, &mut out);
        let mut fl = Vec::new();
        Framer::new().feed(&out, |fr| {
            if let Ok(p) = LaserPac::decode(&fr) {
                fl.push(p.flags);
            }
        });
        fl
    };
    assert!(flags(&mut s, &mut f).iter().all(|&b| b == 0));
    let pose = CommandPacket::encode_sim_set_pose(1000, 2000, 90).unwrap();
    send(&mut s, &mut f, &pose, 20);
    let fl = flags(&mut s, &mut f);
    assert_eq!(fl.len(), 12, "361 readings in 12 packets");
    assert!(fl.iter().all(|&b| b == 1), "moved: {fl:?}");
    assert!(flags(&mut s, &mut f).iter().all(|&b| b == 0));
}
