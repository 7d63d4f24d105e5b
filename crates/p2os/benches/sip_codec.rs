//! SIP decode and encode throughput, compared with what the link and the robot need:
//! a P2OS robot sends one SIP every 100 ms, and a serial link at 115200 baud carries
//! about 130 SIPs of 89 bytes a second (the P2OS manual's control rates). The
//! target set for the codec is 10 million SIPs per second per core. Every benchmark
//! here runs without heap allocation (`tests/alloc.rs` proves it).
//!
//! - `decode`: a SIP frame (16 sonar readings and the ARCOS tail, 89 bytes, as MobileSim
//!   sends it) into a reused `Sip`;
//! - `encode`: the same SIP into a reused packet buffer, checksum included;
//! - `frame_and_decode`: bytes through the streaming framer (header hunt, count,
//!   checksum) and then decoded, 64 SIPs per batch.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use skipper_p2os::packets::{Sip, SipTail, SonarReading};
use skipper_p2os::{Frame, Framer, PacketBuf};
use std::hint::black_box;

fn sample() -> Sip {
    let mut s = Sip::default();
    (s.x, s.y, s.th, s.left_vel, s.right_vel) = (1234, 4321, 1024, 300, 310);
    (s.battery, s.flags, s.moving) = (130, 0x1F, true);
    s.set_sonar((0..16).map(|k| SonarReading {
        index: k,
        range: 1000 + 37 * u16::from(k),
    }));
    s.set_tail(&SipTail {
        grip_state: Some(0x3C),
        anport: Some(5),
        analog: Some(0),
        digin: Some(0xFF),
        digout: Some(0),
        battery_x10: Some(130),
        charge_state: Some(0),
        rot_vel: Some(0),
        fault_flags: Some(0),
        lat_vel: Some(0),
        temperature: Some(-127),
        state_of_charge: Some(0),
        ..Default::default()
    });
    s
}

fn sip_vs_p2os_link(c: &mut Criterion) {
    let sip = sample();
    let packet = sip.encode().expect("fits");
    assert_eq!(packet.as_bytes().len(), 89);
    let mut g = c.benchmark_group("sip_vs_p2os_link");
    g.throughput(Throughput::Elements(1));
    let frame = Frame {
        id: packet.id(),
        data: packet.data(),
        bytes: packet.as_bytes(),
    };
    let mut out = Sip::default();
    g.bench_function("decode", |b| {
        b.iter(|| {
            out.decode_from(black_box(&frame)).expect("valid");
            black_box(&out);
        })
    });
    let mut buf = PacketBuf::default();
    g.bench_function("encode", |b| {
        b.iter(|| {
            let bytes = black_box(&sip).encode_into(&mut buf).expect("fits");
            black_box(bytes.len());
        })
    });
    let stream: Vec<u8> = (0..64).flat_map(|_| packet.as_bytes().to_vec()).collect();
    let mut framer = Framer::new();
    g.throughput(Throughput::Elements(64));
    g.bench_function("frame_and_decode_64", |b| {
        b.iter(|| {
            let mut n = 0u32;
            framer.feed(black_box(&stream), |f| {
                if out.decode_from(&f).is_ok() {
                    n += 1;
                }
            });
            assert_eq!(n, 64);
        })
    });
    g.finish();
}

criterion_group!(benches, sip_vs_p2os_link);
criterion_main!(benches);
