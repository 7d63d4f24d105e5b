//! SIMSTAT's simulated GPS from a session, without sockets: a fleet whose status carries
//! a fix gets flag bit 1 and the fields ARIA's `ArSimulatedGPS` reads (degrees × 10⁷,
//! centimetres, DOP × 100 in the first byte of the quality); one without a fix says -1;
//! one without a geographic origin sends the packet as before, ending at the heading.

use skipper_core::Pose2;
use skipper_p2os::packets::simstat::FLAG_GEO;
use skipper_p2os::packets::{ids, SimStat};
use skipper_p2os::server::{GeoFix, RobotFleet, RobotIdentity, RobotStatus, ServerConfig, Session};
use skipper_p2os::{CommandId, CommandPacket, Frame, Framer, PacketBuf};
use std::time::Duration;

struct Fixed(RobotStatus);

impl RobotFleet for Fixed {
    fn len(&self) -> usize {
        1
    }
    fn identity(&self, _robot: usize) -> RobotIdentity {
        RobotIdentity {
            name: "amy".into(),
            class: "Pioneer".into(),
            subtype: "p3dx".into(),
            serial: "SIM".into(),
        }
    }
    fn act(&mut self, _robot: usize, _a: &skipper_core::Actuation) {}
    fn status(&mut self, _robot: usize, out: &mut RobotStatus) {
        *out = self.0.clone();
    }
    fn advance(&mut self, _dt: Duration) {}
}

fn feed(s: &mut Session, f: &mut Fixed, p: &PacketBuf) {
    let frame = Frame {
        id: p.id(),
        data: p.data(),
        bytes: p.as_bytes(),
    };
    s.handle(&frame, Duration::ZERO, f, &mut Vec::new());
}

/// The SIMSTAT of one cycle after SIM_STAT 1, and its raw data.
fn simstat(status: RobotStatus) -> (SimStat, Vec<u8>) {
    let mut f = Fixed(status);
    let mut s = Session::new(0, &f, &ServerConfig::default(), Duration::ZERO);
    for n in 0..3u8 {
        feed(&mut s, &mut f, &PacketBuf::bare(n));
    }
    feed(&mut s, &mut f, &PacketBuf::bare(1)); // OPEN
    let sim_stat = CommandPacket::int(CommandId::SimStat, 1).encode().unwrap();
    feed(&mut s, &mut f, &sim_stat);
    let mut out = Vec::new();
    s.cycle(&mut f, &mut out);
    let mut got = None;
    Framer::new().feed(&out, |fr| {
        if fr.id == ids::SIMSTAT {
            got = Some((SimStat::decode(&fr).unwrap(), fr.data.to_vec()));
        }
    });
    got.expect("a SIMSTAT after SIM_STAT 1")
}

fn status(geo: Option<GeoFix>) -> RobotStatus {
    RobotStatus {
        true_pose: Pose2::new(30.0, 40.0, 0.0),
        geo,
        ..Default::default()
    }
}

#[test]
fn a_fix_is_sent_in_arias_units_after_the_true_pose() {
    let fix = GeoFix {
        latitude: 42.000_359_876_54,
        longitude: -70.999_637_6,
        altitude: 60.134,
        dop: Some(1.0),
    };
    let (st, data) = simstat(status(Some(fix)));
    assert_eq!(st.flags & FLAG_GEO, FLAG_GEO);
    assert_eq!((st.x, st.y), (30_000, 40_000));
    let g = st.geo.expect("the GPS fields");
    assert_eq!(g.latitude, 420_003_599, "degrees × 10⁷, rounded");
    assert_eq!(g.longitude, -709_996_376);
    assert_eq!(g.altitude, 6_013, "centimetres");
    // ARIA reads one signed byte right after the altitude: DOP × 100
    assert_eq!(data.len(), 44);
    assert_eq!(data[40] as i8, 100);
    assert_eq!(f64::from(data[40] as i8) / 100.0, 1.0);
}

#[test]
fn no_fix_says_minus_one_and_no_origin_sends_no_gps_fields() {
    let fix = GeoFix {
        latitude: 1.0,
        longitude: 2.0,
        altitude: 3.0,
        dop: None,
    };
    let (st, data) = simstat(status(Some(fix)));
    assert_eq!(st.geo.map(|g| g.quality), Some(-1));
    assert_eq!(data[40] as i8, -1, "ArSimulatedGPS: NoFix");
    let (st, data) = simstat(status(None));
    assert_eq!(st.flags & FLAG_GEO, 0);
    assert_eq!(st.geo, None);
    assert_eq!(data.len(), 28, "the packet ends at the true heading");
}
