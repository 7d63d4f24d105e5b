//! `skipper sim serve`'s simulator side as a MobileSim user's program meets it, checked
//! over TCP by a small client written here from the protocol facts alone (framing,
//! checksum, command arguments, packet layouts as `docs/p2os.md` states them), not with
//! skipper-p2os's codec: the simulator identity, the simulated laser exchange
//! (configuration, scans whose ranges match the world, start and stop, two robots at
//! once), pose setting and reset, SIMINFO, and the gripper as ARIA's General-I/O
//! gripper reads it.
//!
//! Every wait has a generous limit and no test asserts on timing.

use skipper_p2os::server::{self, ServerConfig, ServerHandle};
use skipper_simserve::SimFleet;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A 10 m × 6 m room (walls at x = ±5, y = ±3); robot a at the centre facing +x, robot
/// b 2 m ahead of it facing back. A laser sits 18 mm ahead of its robot's centre and a
/// robot's body has a 250 mm radius.
const ROOM: &str = "box 0 0 10 6\nrobot a 0 0 0\nrobot b 2 0 180\n";

fn start(text: &str) -> ServerHandle {
    let spec = skipper_sim::parse_world(text, "test.world", None).expect("world parses");
    let fleet = SimFleet::new(
        skipper_sim::GroundWorld::new(&spec, 0).expect("builds"),
        "p3dx",
    );
    let addrs: Vec<SocketAddr> = (0..spec.robots.len())
        .map(|_| "127.0.0.1:0".parse().unwrap())
        .collect();
    let config = ServerConfig {
        sip_cycle: Duration::from_millis(20),
        time_scale: 5.0,
        ..Default::default()
    };
    server::serve(server::bind(&addrs).unwrap(), Box::new(fleet), config).unwrap()
}

/// The client: frames by header and count, checks checksums, encodes commands.
struct Client {
    stream: TcpStream,
    buf: Vec<u8>,
}

fn checksum(payload: &[u8]) -> u16 {
    let mut sum = 0u16;
    let mut pairs = payload.chunks_exact(2);
    for p in &mut pairs {
        sum = sum.wrapping_add(u16::from_be_bytes([p[0], p[1]]));
    }
    if let [last] = pairs.remainder() {
        sum ^= u16::from(*last);
    }
    sum
}

fn u16le(d: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([d[at], d[at + 1]])
}

fn cstrings(d: &[u8]) -> Vec<String> {
    d.split(|&b| b == 0)
        .map(|s| String::from_utf8_lossy(s).into_owned())
        .collect()
}

impl Client {
    fn connect(addr: SocketAddr) -> Self {
        let stream = TcpStream::connect(addr).expect("connects");
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        let mut c = Self {
            stream,
            buf: Vec::new(),
        };
        for (n, want) in [(0u8, 0u8), (1, 1), (2, 2)] {
            c.send(n, None);
            let (id, data) = c.next();
            assert_eq!(id, want, "SYNC{n} answered");
            if n == 2 {
                assert_eq!(cstrings(&data)[1..3], ["Pioneer", "p3dx"]);
            }
        }
        c.send(1, Some(1)); // OPEN
        c
    }

    /// Command `n` with no argument or an integer one.
    fn send(&mut self, n: u8, arg: Option<i32>) {
        let mut payload = vec![n];
        if let Some(v) = arg {
            payload.push(if v < 0 { 0x1B } else { 0x3B });
            payload.extend_from_slice(&(v.unsigned_abs() as u16).to_le_bytes());
        }
        let mut p = vec![0xFA, 0xFB, payload.len() as u8 + 2];
        p.extend_from_slice(&payload);
        p.extend_from_slice(&checksum(&payload).to_be_bytes());
        self.stream.write_all(&p).unwrap();
    }

    /// The next packet: (type, data).
    fn next(&mut self) -> (u8, Vec<u8>) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(p) = self.take() {
                return p;
            }
            assert!(Instant::now() < deadline, "no packet from the server");
            let mut chunk = [0u8; 4096];
            match self.stream.read(&mut chunk) {
                Ok(0) => panic!("the server closed the connection"),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
                Err(e) => panic!("read: {e}"),
            }
        }
    }

    fn take(&mut self) -> Option<(u8, Vec<u8>)> {
        let start = self.buf.windows(2).position(|w| w == [0xFA, 0xFB])?;
        self.buf.drain(..start);
        let n = usize::from(*self.buf.get(2)?);
        if self.buf.len() < 3 + n {
            return None;
        }
        let packet: Vec<u8> = self.buf.drain(..3 + n).collect();
        let payload = &packet[3..1 + n];
        assert_eq!(
            checksum(payload).to_be_bytes(),
            [packet[1 + n], packet[2 + n]],
            "checksum"
        );
        Some((payload[0], payload[1..].to_vec()))
    }

    /// Packets until one of type `id`.
    fn until(&mut self, id: u8) -> Vec<u8> {
        loop {
            let (got, data) = self.next();
            if got == id {
                return data;
            }
        }
    }

    /// CONFIG 1 and its CONFIGpac: everything after it was sent after the commands
    /// before it took effect.
    fn sync_point(&mut self) -> Vec<u8> {
        self.send(18, Some(1));
        self.until(0x20)
    }

    /// The next whole scan (from its first packet): extended?, ranges (mm), flags.
    fn scan(&mut self) -> (bool, Vec<u16>, u8) {
        let mut ranges: Vec<u16> = Vec::new();
        let mut flags = 0;
        loop {
            let (id, d) = self.next();
            let extended = match id {
                0x60 => false,
                0x61 => true,
                _ => continue,
            };
            let head = if extended { 0 } else { 6 }; // plain packets carry the pose
            let (total, first, count) = (
                usize::from(u16le(&d, head)),
                usize::from(u16le(&d, head + 2)),
                usize::from(d[head + 4]),
            );
            if first != ranges.len() {
                ranges.clear(); // joined in the middle of a scan: wait for the next
                continue;
            }
            let size = if extended { 5 } else { 2 };
            let readings = &d[head + 5..head + 5 + count * size];
            ranges.extend(readings.chunks(size).map(|r| u16le(r, 0)));
            if extended {
                flags = d[head + 5 + count * size + 1];
            }
            if ranges.len() >= total {
                assert_eq!(ranges.len(), total);
                return (extended, ranges, flags);
            }
        }
    }
}

fn near(got: u16, want_mm: f64, what: &str) {
    assert!(
        (f64::from(got) - want_mm).abs() <= 1.0,
        "{what}: {got} mm, expected {want_mm:.0}"
    );
}

#[test]
fn the_laser_exchange_for_two_robots_at_once() {
    let server = start(ROOM);
    let mut a = Client::connect(server.addrs()[0]);
    let mut b = Client::connect(server.addrs()[1]);
    // ARIA takes serial number SIM for a simulator's; the name stays the robot's
    let config = a.sync_point();
    let strings = cstrings(&config);
    assert_eq!(strings[..3], ["Pioneer", "p3dx", "SIM"]);
    // type, subtype, serial, a byte and five 16-bit tops, then the robot's name
    let name_at = strings[..3].iter().map(|s| s.len() + 1).sum::<usize>() + 11;
    assert_eq!(
        config[name_at..name_at + 2],
        *b"a\0",
        "the robot's own name"
    );

    // robot a: the commands ARIA's simulated laser sends (start, end, increment in
    // hundredths, 2 = extended packets)
    for (n, v) in [(36, -90), (37, 90), (38, 100), (35, 2)] {
        a.send(n, Some(v));
    }
    // robot b: the simulator's own laser commands, half a degree, plain packets
    for (n, v) in [(231, -90), (232, 90), (233, 50), (230, 1)] {
        b.send(n, Some(v));
    }
    let (extended, r, _) = a.scan();
    assert!(extended);
    assert_eq!(r.len(), 181, "-90° .. 90° at 1°");
    near(r[0], 3000.0, "a, right: the wall at y = -3");
    near(r[90], 2000.0 - 250.0 - 18.0, "a, ahead: robot b's body");
    near(
        r[135],
        3000.0 / 45f64.to_radians().sin(),
        "a, 45° left: the wall y = 3",
    );
    near(r[180], 3000.0, "a, left");
    let (extended, r, _) = b.scan();
    assert!(!extended);
    assert_eq!(r.len(), 361, "-90° .. 90° at 0.5°");
    near(r[180], 2000.0 - 250.0 - 18.0, "b, ahead: robot a's body");
    near(r[0], 3000.0, "b, right (world +y)");
    near(r[90], 3000.0 / 45f64.to_radians().sin(), "b, 45° right");

    // a scan every SIP cycle until the laser is switched off
    assert_eq!(a.scan().1.len(), 181);
    a.send(230, Some(0));
    a.sync_point();
    for _ in 0..5 {
        let (id, _) = a.next();
        assert!(id != 0x60 && id != 0x61, "a scan after SIM_LRF_ENABLE 0");
    }
    assert_eq!(b.scan().1.len(), 361, "robot b's laser goes on");
}

#[test]
fn pose_setting_and_reset_move_the_scan_and_siminfo_lists_the_laser() {
    let server = start(ROOM);
    let mut a = Client::connect(server.addrs()[0]);
    for (n, v) in [(36, -90), (37, 90), (38, 100), (35, 2)] {
        a.send(n, Some(v));
    }
    near(a.scan().1[90], 1732.0, "ahead: robot b");
    // SIM_SET_POSE: a zero type byte and three 4-byte integers (1 m left, facing +y)
    let mut payload = vec![224u8, 0];
    for v in [0i32, 1000, 90] {
        payload.extend_from_slice(&v.to_le_bytes());
    }
    let mut p = vec![0xFA, 0xFB, payload.len() as u8 + 2];
    p.extend_from_slice(&payload);
    p.extend_from_slice(&checksum(&payload).to_be_bytes());
    a.stream.write_all(&p).unwrap();
    // the first scan cast after the move says so (flags bit 0), and only that one
    let r = loop {
        let (_, r, flags) = a.scan();
        if flags & 1 == 1 {
            break r;
        }
    };
    near(
        r[90],
        3000.0 - 1000.0 - 18.0,
        "ahead after SIM_SET_POSE: the wall y = 3",
    );
    assert_eq!(a.scan().2 & 1, 0, "only once");
    a.send(225, None); // SIM_RESET
    a.sync_point();
    near(a.scan().1[90], 1732.0, "back at the start");

    a.send(236, Some(6)); // SIM_CTRL 6: SIMINFO
    let info = a.until(0x63);
    let strings = cstrings(&info);
    assert_eq!(strings[0], "Skipper");
    assert!(info.windows(6).any(|w| w == b"laser\0"), "{strings:?}");
}

#[test]
fn the_gripper_as_arias_default_type_query_reads_it() {
    let server = start("box 0 0 10 10\nrobot r 0 0 0 laser=no\ncan 0.28 0\n");
    let mut c = Client::connect(server.addrs()[0]);
    // ARIA's query: GRIPPERPACREQUEST 2, the type, then GRIPPERPACREQUEST 0
    c.send(37, Some(2));
    let pac = c.until(0xE0);
    assert_eq!(pac[0], 2, "a General I/O gripper");
    assert_eq!(
        pac[1] & 0b1100,
        0b0100,
        "Table 10: inner beam 0 = obstructed"
    );
    c.send(37, Some(0));
    // from now on the switches are the second byte after the sonar readings, read
    // with the break beams meaning 1 = broken
    let switches = |c: &mut Client| {
        let d = c.until(0x32);
        let sonars = usize::from(d[18]);
        (d[19 + 3 * sonars], d[20 + 3 * sonars]) // (analog port, gripper switches)
    };
    let (port, g) = switches(&mut c);
    assert_eq!(port, 5, "the selected analog port comes first");
    assert_eq!(g & 1, 0, "paddles open");
    assert_eq!(g & 0b1100, 0b1000, "the can breaks the inner beam only");
    assert_eq!(g & 0b11_0000, 0b11_0000, "nothing grasped yet");
    c.send(33, Some(2)); // GRIP_CLOSE
    let deadline = Instant::now() + Duration::from_secs(30);
    while switches(&mut c).1 & 0b1011_0000 != 0 {
        assert!(
            Instant::now() < deadline,
            "the paddles did not close on the can"
        );
    }
    c.send(33, Some(4)); // LIFT_UP
    while switches(&mut c).1 & 0b0100_0000 == 0 {
        assert!(Instant::now() < deadline, "the lift did not start");
    }
    let g = loop {
        let g = switches(&mut c).1;
        if g & 0b0100_0000 == 0 {
            break g;
        }
        assert!(Instant::now() < deadline, "the lift did not stop");
    };
    assert_eq!(g & 0b10, 0, "lift at its limit");
    assert_eq!(g & 0b11_0000, 0, "still holding the can");
    assert_eq!(
        g & 0b1000,
        0b1000,
        "the held can still breaks the inner beam"
    );
}
