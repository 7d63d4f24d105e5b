//! The golden bytes of the reference: SYNC replies, the first SIP and the CONFIGpac that
//! MobileSim/AMRISim sent, decode to what the reference says and encode back byte for byte.

use skipper_p2os::packets::{ids, ConfigPac, Identity, Sip};
use skipper_p2os::{Frame, Framer};

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The one packet in `bytes`, with its data copied out.
fn one(bytes: &[u8]) -> (u8, Vec<u8>) {
    let mut f = Framer::new();
    let mut got = Vec::new();
    f.feed(bytes, |fr| got.push((fr.id, fr.data.to_vec())));
    assert_eq!(got.len(), 1, "exactly one packet");
    assert_eq!(f.stats().skipped_bytes, 0);
    got.pop().unwrap()
}

const SIP_HEX: &str = "fafb56320000000000000000000082000000001e0000100088130188130288130388130488130588130688130788130888130988130a88130b88130c88130d88130e88130f8813000000fff08200000000000000008100d82b";
const CONFIG_HEX: &str = "fafb792050696f6e65657200703364780053494d00000f270f270f270f279001414d524953696d00640000000001000100000000d0070000000000000000009600b80b640064000000000000002c012c010000000000000000000002000000000000000000532e300000000000000f270f270000000000000000935f";

#[test]
fn sync_replies() {
    for (n, bytes) in [(0u8, hex("fafb03000000")), (1, hex("fafb03010001"))] {
        let (id, data) = one(&bytes);
        assert_eq!((id, data.len()), (n, 0));
        assert_eq!(skipper_p2os::PacketBuf::bare(n).as_bytes(), &bytes[..]);
    }
    let mut sync2 = hex("fafb1802");
    sync2.extend_from_slice(b"AMRISim\0Pioneer\0p3dx\0");
    sync2.extend_from_slice(&[0xEB, 0xBD]);
    assert_eq!(sync2.len(), 27);
    let (id, data) = one(&sync2);
    let ident = Identity::decode(&Frame {
        id,
        data: &data,
        bytes: &sync2,
    })
    .unwrap();
    assert_eq!(
        ident,
        Identity {
            name: "AMRISim".into(),
            class: "Pioneer".into(),
            subtype: "p3dx".into()
        }
    );
    assert_eq!(ident.encode().unwrap().as_bytes(), &sync2[..]);
}

#[test]
fn first_sip_from_amrisim() {
    let bytes = hex(SIP_HEX);
    assert_eq!(bytes.len(), 89);
    let (id, data) = one(&bytes);
    assert_eq!(id, ids::SIP_STOPPED);
    let s = Sip::decode(&Frame {
        id,
        data: &data,
        bytes: &bytes,
    })
    .unwrap();
    assert!(!s.moving);
    assert_eq!((s.x, s.y, s.th, s.left_vel, s.right_vel), (0, 0, 0, 0, 0));
    assert_eq!(s.battery, 0x82);
    assert_eq!(s.stall_bumpers, 0);
    assert_eq!(s.flags, 0x001E);
    assert!(s.sonar_enabled() && !s.motors_enabled() && !s.estop());
    assert_eq!(s.compass, 0);
    assert_eq!(s.sonar().len(), 16);
    for (k, r) in s.sonar().iter().enumerate() {
        assert_eq!((usize::from(r.index), r.range), (k, 5000));
    }
    let t = s.tail();
    assert_eq!(t.grip_state, Some(0));
    assert_eq!(t.anport, Some(0));
    assert_eq!(t.analog, Some(0));
    assert_eq!(t.digin, Some(0xFF));
    assert_eq!(t.digout, Some(0xF0));
    assert_eq!(t.battery_x10, Some(130));
    assert_eq!(t.charge_state, Some(0));
    assert_eq!(t.rot_vel, Some(0));
    assert_eq!(t.fault_flags, Some(0));
    assert_eq!(t.lat_vel, Some(0));
    assert_eq!(t.temperature, Some(-127));
    assert_eq!(t.state_of_charge, Some(0));
    assert_eq!(t.uc_time, None);
    assert_eq!(s.encode().unwrap().as_bytes(), &bytes[..]);
    // setting the same tail field by field gives the same bytes
    let mut again = s;
    again.set_tail(&t);
    assert_eq!(again.encode().unwrap().as_bytes(), &bytes[..]);
}

#[test]
fn configpac_from_amrisim() {
    let bytes = hex(CONFIG_HEX);
    assert_eq!(bytes.len(), 124);
    let (id, data) = one(&bytes);
    let c = ConfigPac::decode(&Frame {
        id,
        data: &data,
        bytes: &bytes,
    })
    .unwrap();
    assert_eq!(c.robot_type, "Pioneer");
    assert_eq!(c.subtype, "p3dx");
    assert_eq!(c.serial, "SIM");
    assert_eq!(
        (
            c.rot_vel_top,
            c.trans_vel_top,
            c.rot_acc_top,
            c.trans_acc_top
        ),
        (9999, 9999, 9999, 9999)
    );
    assert_eq!(c.pwm_max, 400);
    assert_eq!(c.name, "AMRISim");
    assert_eq!(c.sip_cycle, 100);
    assert_eq!((c.front_sonar, c.rear_sonar), (1, 1));
    assert_eq!(c.watchdog, 2000);
    assert_eq!((c.rot_vel_max, c.trans_vel_max), (150, 3000));
    assert_eq!((c.rot_accel, c.rot_decel), (100, 100));
    assert_eq!((c.trans_accel, c.trans_decel), (300, 300));
    assert_eq!(c.autobaud, 2);
    assert_eq!(c.firmware_version, "S.0");
    assert_eq!((c.lat_vel_top, c.lat_acc_top), (9999, 9999));
    assert_eq!(c.fields, ConfigPac::THROUGH_CHARGE_THRESHOLD);
    assert!(c.extra.is_empty());
    assert_eq!(c.encode().unwrap().as_bytes(), &bytes[..]);
}
