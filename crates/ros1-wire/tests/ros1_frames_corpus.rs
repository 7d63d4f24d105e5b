//! The corpus of the structured `ros1_frames` fuzz target (fuzz/corpus/ros1_frames)
//! replayed as a regular test, and the shape of a crash it found built by hand: a
//! status list whose count is the bytes that follow, in a frame of 4 MiB. No decode may
//! ask for more memory at once than the frame's size allows.

use arbitrary::{Arbitrary, Unstructured};
use skipper_ros1_wire::fuzz_frames::{check, Frame, LargestAlloc, Piece};
use skipper_ros1_wire::msg::actionlib_msgs::GoalStatusArray;
use skipper_ros1_wire::msg::Message;

#[global_allocator]
static A: LargestAlloc = LargestAlloc;

#[test]
fn corpus_replays_within_the_allocation_bound() {
    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus/ros1_frames");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        if let Ok(f) = Frame::arbitrary_take_rest(Unstructured::new(&data)) {
            check(&f);
            n += 1;
        }
    }
    assert!(n >= 10, "only {n} frames in {}", dir.display());
}

#[test]
fn a_status_list_counting_every_byte_that_follows_stays_within_the_bound() {
    // header (seq, stamp, frame_id), then a count of one element per byte that follows
    let pieces = |width| {
        vec![
            Piece::U32(1),
            Piece::U32(0),
            Piece::U32(0),
            Piece::Str(String::new()),
            Piece::CountOfRest { width, extra: 0 },
            // 65535 * 32 zero bytes: 123360 empty entries of 17 bytes
            Piece::Fill {
                byte: 0,
                len: 65535,
                scale: 5,
            },
        ]
    };
    for width in [0, 16] {
        let f = Frame {
            first: 0,
            pieces: pieces(width),
        };
        let body = f.body();
        assert_eq!(body.len(), 16 + 4 + 65535 * 32);
        check(&f);
        // the list decodes when its count is right (17-byte entries)
        let list = GoalStatusArray::decode(&body);
        assert_eq!(list.is_ok(), width == 16, "width {}", width + 1);
    }
}

#[test]
fn a_frame_over_a_megabyte_is_read_whole_by_one_input_in_sixteen() {
    // 2 MiB of zeros: past the size read into a fresh buffer
    let frame = |first| Frame {
        first,
        pieces: vec![Piece::Fill {
            byte: 0,
            len: 1024,
            scale: 11,
        }],
    };
    let whole = check(&frame(0));
    let cut = check(&frame(16));
    // the same decoders accept it; only the whole read succeeds as a subscriber's read
    assert_eq!(whole, cut + 1);
}
