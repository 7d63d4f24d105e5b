//! Decoding goals of types made at run time from a goal kind's fields: the fuzz target's
//! corpus (fuzz/corpus/ros2_run_time_types) replayed — the named seeds (goal requests
//! serialized by rclpy, and two written by hand: an empty goal and one field of each
//! type) decode, the inputs the fuzzer found need not, and no input or truncation of one
//! panics — and property tests: any record of any shape reads back as written, and any
//! bytes decode or fail without a panic.

use proptest::prelude::*;
use skipper_core::fuzz_corpus::found_by_the_fuzzer;
use skipper_ros2::dynamic::{decode_shaped, SHAPED_FIELDS};

#[test]
fn corpus_replays() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fuzz/corpus/ros2_run_time_types"
    );
    let mut seeds = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !found_by_the_fuzzer(&path) {
            assert_eq!(decode_shaped(&bytes), Ok(()), "seed {name}");
            seeds += 1;
        }
        for cut in 0..bytes.len() {
            let _ = decode_shaped(&bytes[..cut]);
        }
    }
    assert!(seeds >= 5, "{seeds} seeds");
}

/// One field's value, of any of the four types.
#[derive(Debug, Clone)]
enum V {
    B(bool),
    I(i64),
    F(f64),
    T(String),
}

fn value() -> impl Strategy<Value = V> {
    prop_oneof![
        any::<bool>().prop_map(V::B),
        any::<i64>().prop_map(V::I),
        (-1e12f64..1e12).prop_map(V::F),
        "\\PC{0,40}".prop_map(V::T),
    ]
}

/// The input `decode_shaped` reads for a goal of these values: shape, then the request.
fn encode(values: &[V]) -> Vec<u8> {
    let mut out = vec![values.len() as u8];
    out.extend(values.iter().map(|v| match v {
        V::B(_) => 0u8,
        V::I(_) => 1,
        V::F(_) => 2,
        V::T(_) => 3,
    }));
    let mut body: Vec<u8> = (0..16).collect();
    let pad = |b: &mut Vec<u8>, n: usize| {
        while b.len() % n != 0 {
            b.push(0);
        }
    };
    if values.is_empty() {
        body.push(0);
    }
    for v in values {
        match v {
            V::B(b) => body.push(u8::from(*b)),
            V::I(i) => {
                pad(&mut body, 8);
                body.extend(i.to_le_bytes());
            }
            V::F(f) => {
                pad(&mut body, 8);
                body.extend(f.to_le_bytes());
            }
            V::T(t) => {
                pad(&mut body, 4);
                body.extend((t.len() as u32 + 1).to_le_bytes());
                body.extend(t.as_bytes());
                body.push(0);
            }
        }
    }
    out.extend([0, 1, 0, 0]);
    out.extend(body);
    out
}

proptest! {
    #[test]
    fn any_goal_of_any_shape_decodes(values in prop::collection::vec(value(), 0..=SHAPED_FIELDS)) {
        prop_assert_eq!(decode_shaped(&encode(&values)), Ok(()));
    }

    #[test]
    fn any_bytes_decode_or_fail_without_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let _ = decode_shaped(&bytes);
    }

    #[test]
    fn a_goal_cut_short_is_refused(values in prop::collection::vec(value(), 1..=SHAPED_FIELDS)) {
        let full = encode(&values);
        // cut inside the goal (past the shape, header and id)
        let start = 1 + values.len() + 4 + 16;
        for cut in start..full.len() {
            prop_assert!(decode_shaped(&full[..cut]).is_err(), "cut at {}", cut);
        }
    }
}
