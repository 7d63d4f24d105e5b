//! Framing, decoding and encoding SIPs allocate nothing in steady state.

use skipper_core::alloc_count::allocations_in;
use skipper_p2os::packets::{Sip, SipTail, SonarReading};
use skipper_p2os::{Framer, PacketBuf};

#[global_allocator]
static GLOBAL: skipper_core::alloc_count::CountingAllocator =
    skipper_core::alloc_count::CountingAllocator;

#[test]
fn sip_decode_and_encode_do_not_allocate() {
    let mut sip = Sip::default();
    (sip.x, sip.y, sip.th, sip.left_vel, sip.right_vel) = (1234, 4321, 1024, 300, 310);
    (sip.battery, sip.flags, sip.moving) = (130, 0x1F, true);
    sip.set_sonar((0..16).map(|k| SonarReading {
        index: k,
        range: 1000 + u16::from(k),
    }));
    sip.set_tail(&SipTail {
        grip_state: Some(0x3C),
        anport: Some(5),
        analog: Some(0),
        digin: Some(0xFF),
        digout: Some(0),
        battery_x10: Some(130),
        ..Default::default()
    });
    let mut out = PacketBuf::default();
    let mut framer = Framer::new();
    let mut decoded = Sip::default();
    let mut wire = [0u8; 1024];
    let mut seen = 0u32;
    let ((), allocs) = allocations_in(|| {
        for k in 0..1000u16 {
            sip.x = k;
            let n = sip.encode_into(&mut out).unwrap().len();
            wire[..n].copy_from_slice(out.as_bytes());
            framer.feed(&wire[..n], |f| {
                decoded.decode_from(&f).unwrap();
                seen += 1;
            });
            assert_eq!(decoded.x, k);
        }
    });
    assert_eq!(seen, 1000);
    assert_eq!(decoded.sonar().len(), 16);
    assert_eq!(
        allocs, 0,
        "heap allocations in 1000 encode/frame/decode rounds"
    );
}
