//! A stream with 1 % of its bytes corrupted, fed in random pieces: every packet none of
//! whose bytes was touched comes out, in order, and nothing panics.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skipper_p2os::fuzzing;
use skipper_p2os::packets::{Sip, SipTail, SonarReading};
use skipper_p2os::{CommandId, CommandPacket, Framer, PacketBuf};

fn random_packet(rng: &mut ChaCha8Rng) -> PacketBuf {
    match rng.random_range(0..4) {
        0 => {
            let mut s = Sip::default();
            s.x = rng.random_range(0..0x8000);
            s.y = rng.random();
            s.th = rng.random();
            s.flags = rng.random();
            let n = rng.random_range(0..=16);
            s.set_sonar((0..n).map(|k| SonarReading {
                index: k,
                range: rng.random(),
            }));
            s.set_tail(&SipTail {
                grip_state: Some(rng.random()),
                anport: Some(5),
                analog: Some(rng.random()),
                digin: Some(rng.random()),
                digout: Some(rng.random()),
                ..Default::default()
            });
            s.encode().unwrap()
        }
        1 => CommandPacket::int(CommandId::Vel, rng.random_range(-2000..2000))
            .encode()
            .unwrap(),
        2 => PacketBuf::bare(rng.random_range(0..3)),
        _ => {
            let n = rng.random_range(0..=252);
            let data: Vec<u8> = (0..n).map(|_| rng.random()).collect();
            PacketBuf::build(rng.random(), |w| w.bytes(&data)).unwrap()
        }
    }
}

#[test]
fn one_percent_corruption_and_random_splits_lose_only_corrupted_packets() {
    for seed in 0..5u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let packets: Vec<PacketBuf> = (0..3000).map(|_| random_packet(&mut rng)).collect();
        let mut stream = Vec::new();
        let mut spans = Vec::new();
        for p in &packets {
            spans.push((stream.len(), stream.len() + p.as_bytes().len()));
            stream.extend_from_slice(p.as_bytes());
        }
        let mut corrupted = vec![false; stream.len()];
        let mut hits = 0;
        for (b, c) in stream.iter_mut().zip(corrupted.iter_mut()) {
            if rng.random_bool(0.01) {
                *b ^= rng.random_range(1..=255u8);
                *c = true;
                hits += 1;
            }
        }
        assert!(
            hits > stream.len() / 200,
            "about 1 % of the bytes corrupted"
        );
        let intact: Vec<&[u8]> = packets
            .iter()
            .zip(&spans)
            .filter(|(_, (a, b))| !corrupted[*a..*b].iter().any(|&c| c))
            .map(|(p, _)| p.as_bytes())
            .collect();
        assert!(intact.len() < packets.len(), "some packets were hit");

        let mut framer = Framer::new();
        let mut out: Vec<Vec<u8>> = Vec::new();
        let mut sip = Sip::default();
        let mut at = 0;
        while at < stream.len() {
            let n = rng.random_range(1..=300).min(stream.len() - at);
            framer.feed(&stream[at..at + n], |f| {
                fuzzing::decode_all(&f, &mut sip);
                out.push(f.bytes.to_vec());
            });
            at += n;
        }
        // the end of the stream: give up on partial packets as a read timeout would
        while framer.pending() > 0 {
            framer.expire();
            while let Some(f) = framer.next_frame() {
                out.push(f.bytes.to_vec());
            }
        }
        // every intact packet came out, in order
        let mut k = 0;
        for p in &intact {
            while k < out.len() && out[k] != *p {
                k += 1;
            }
            assert!(k < out.len(), "seed {seed}: an intact packet was lost");
            k += 1;
        }
        let stats = framer.stats();
        assert!(stats.bad_checksums > 0 && stats.skipped_bytes > 0);
        assert!(out.len() >= intact.len());
    }
}

proptest! {
    #[test]
    fn any_bytes_frame_and_decode_without_panicking(data in proptest::collection::vec(any::<u8>(), 0..2048)) {
        fuzzing::fuzz_stream(&data);
    }

    #[test]
    fn sips_round_trip(x in 0u16..0x8000, y in 0u16..0x8000, th: i16, l: i16, r: i16, bat: u8,
                       stall: u16, flags: u16, compass: u8,
                       sonar in proptest::collection::vec((any::<u8>(), any::<u16>()), 0..40),
                       tail_fields in 0usize..15, grip: u8, dig: u8, rot: i16) {
        let mut s = Sip::default();
        (s.x, s.y, s.th, s.left_vel, s.right_vel, s.battery) = (x, y, th, l, r, bat);
        (s.stall_bumpers, s.flags, s.compass, s.moving) = (stall, flags, compass, l != r);
        s.set_sonar(sonar.iter().map(|&(index, range)| SonarReading { index, range }));
        let full = SipTail { grip_state: Some(grip), anport: Some(5), analog: Some(dig), digin: Some(dig), digout: Some(!dig),
            battery_x10: Some(u16::from(bat)), charge_state: Some(1), rot_vel: Some(rot), fault_flags: Some(0), lat_vel: Some(0),
            temperature: Some(-127), state_of_charge: Some(90), uc_time: Some(123456), flags3: Some(7) };
        let opts: [&dyn Fn(&mut SipTail); 14] = [
            &|t| t.anport = None, &|t| t.grip_state = None, &|t| t.analog = None, &|t| t.digin = None, &|t| t.digout = None,
            &|t| t.battery_x10 = None, &|t| t.charge_state = None, &|t| t.rot_vel = None, &|t| t.fault_flags = None,
            &|t| t.lat_vel = None, &|t| t.temperature = None, &|t| t.state_of_charge = None, &|t| t.uc_time = None, &|t| t.flags3 = None];
        let mut tail = full;
        for clear in opts.iter().skip(tail_fields) { clear(&mut tail); }
        s.set_tail(&tail);
        let p = s.encode().unwrap();
        let mut framer = Framer::new();
        let mut got = None;
        framer.feed(p.as_bytes(), |f| got = Some(Sip::decode(&f).unwrap()));
        let got = got.unwrap();
        prop_assert_eq!(got, s);
        prop_assert_eq!(got.tail(), tail);
    }
}
