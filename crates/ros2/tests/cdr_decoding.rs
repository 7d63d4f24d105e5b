//! Bounded decoding of every message type a Skipper node receives: random bytes and
//! mutated samples never panic, a sequence length past the sample's end is an error
//! (not an allocation), and encoded messages decode back to themselves.

use proptest::prelude::*;
use ros2_client::dds::rustdds::cdr_encoding;
use skipper_ros2::cdr::{decode, decode_received, DecodeError, RECEIVED};
use skipper_ros2::msg::geometry::{PoseStamped, Twist, TwistStamped};
use skipper_ros2::msg::std::Header;

fn sample<T: serde::Serialize>(v: &T) -> Vec<u8> {
    let mut out = vec![0, 1, 0, 0];
    out.extend(cdr_encoding::to_vec::<_, byteorder::LittleEndian>(v).unwrap());
    out
}

#[test]
fn encoded_messages_decode_back() {
    let t = TwistStamped {
        header: Header {
            frame_id: "robot1/base_link".into(),
            ..Header::default()
        },
        twist: Twist::default(),
    };
    assert_eq!(decode::<TwistStamped>(&sample(&t)).unwrap(), t);
    let p = PoseStamped::default();
    assert_eq!(decode::<PoseStamped>(&sample(&p)).unwrap(), p);
}

#[test]
fn a_length_past_the_end_is_an_error() {
    // a frame_id that claims 4 GiB
    let mut s = vec![0, 1, 0, 0];
    s.extend([0u8; 8]);
    s.extend(0xFFFF_FFF0u32.to_le_bytes());
    s.extend(b"abc");
    assert!(matches!(
        decode::<TwistStamped>(&s),
        Err(DecodeError::Malformed(_))
    ));
}

#[test]
fn not_finite_and_unknown_encapsulations_are_refused() {
    let mut t = Twist::default();
    t.angular.z = f64::NAN;
    assert!(matches!(
        decode::<Twist>(&sample(&t)),
        Err(DecodeError::OutOfBounds(_))
    ));
    let mut s = sample(&Twist::default());
    s[1] = 9;
    assert!(matches!(
        decode::<Twist>(&s),
        Err(DecodeError::Encapsulation(_))
    ));
    assert!(matches!(
        decode::<Twist>(&[0, 1]),
        Err(DecodeError::Encapsulation(_))
    ));
}

proptest! {
    #[test]
    fn random_bytes_never_panic(k in 0..RECEIVED.len(), bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        let _ = decode_received(k, &bytes);
    }

    #[test]
    fn mutated_samples_never_panic(pos in 0usize..80, byte in any::<u8>(), k in 0..RECEIVED.len()) {
        let mut s = sample(&TwistStamped { header: Header { frame_id: "odom".into(), ..Header::default() }, twist: Twist::default() });
        if pos < s.len() { s[pos] = byte; }
        let _ = decode_received(k, &s);
    }
}
