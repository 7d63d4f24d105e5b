//! Whole ROS 1 frames built from a structured description (for the `ros1_frames` fuzz
//! target and its corpus replay): a frame is a list of pieces (numbers, strings, element
//! counts, runs of one byte up to [`MAX_MESSAGE`](super::tcpros::MAX_MESSAGE)), so a few
//! bytes of fuzz input describe a frame of any size up to the limit, and a count can be
//! "the bytes that follow", the shape of an allocation amplification. Every message
//! decoder and the frame reader get the frame; the caller checks that none of them
//! allocated more than the frame's size allows.

use super::tcpros::{self, MAX_MESSAGE};
use crate::msg::actionlib_msgs::{
    ActionFeedback, ActionGoal, ActionResult, GoalId, GoalStatusArray,
};
use crate::msg::common::{Header, Odometry, PoseStamped, StringMsg, Twist};
use crate::msg::skipper_msgs::{
    GotoFeedback, GotoGoal, GotoResult, RunMissionGoal, RunOptionGoal, RunOptionResult,
};
use crate::msg::test_actions::TestRequestGoal;
use crate::msg::Message;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Read;

/// One piece of a frame body.
#[derive(Debug, Clone, arbitrary::Arbitrary)]
pub enum Piece {
    /// one byte
    U8(u8),
    /// a little-endian `u32` (a length, a count, a time's seconds)
    U32(u32),
    /// a little-endian `f64`
    F64(f64),
    /// a string: its length prefix, then its bytes
    Str(String),
    /// a `u32` count of the elements of width `width + 1` that the bytes after it could
    /// hold (the count an amplifying peer sends), patched in once the body is built
    CountOfRest {
        /// element width on the wire, minus one
        width: u8,
        /// added to the count (wrapping)
        extra: u8,
    },
    /// `len << (scale % 12)` copies of `byte` (up to the frame limit)
    Fill {
        /// the byte
        byte: u8,
        /// how many, before scaling
        len: u16,
        /// the scale (a power of two)
        scale: u8,
    },
}

/// A whole frame: which decoders see it first, and its body.
#[derive(Debug, Clone, arbitrary::Arbitrary)]
pub struct Frame {
    /// the message type tried first (all are tried)
    pub first: u8,
    /// the pieces of the body
    pub pieces: Vec<Piece>,
}

impl Frame {
    /// The body (at most `MAX_MESSAGE` bytes).
    pub fn body(&self) -> Vec<u8> {
        let mut b = Vec::new();
        self.body_into(&mut b);
        b
    }

    /// The body, written into `b` (cleared first; its capacity is reused, so that a
    /// fuzzer building one 64 MiB frame after another does not map fresh pages for each).
    pub fn body_into(&self, b: &mut Vec<u8>) {
        b.clear();
        let mut counts = Vec::new();
        for p in &self.pieces {
            let room = MAX_MESSAGE.saturating_sub(b.len());
            match p {
                Piece::U8(x) => b.push(*x),
                Piece::U32(x) => b.extend_from_slice(&x.to_le_bytes()),
                Piece::F64(x) => b.extend_from_slice(&x.to_le_bytes()),
                Piece::Str(s) => {
                    b.extend_from_slice(&(s.len() as u32).to_le_bytes());
                    b.extend_from_slice(s.as_bytes());
                }
                Piece::CountOfRest { width, extra } => {
                    counts.push((b.len(), usize::from(*width) + 1, u32::from(*extra)));
                    b.extend_from_slice(&[0; 4]);
                }
                Piece::Fill { byte, len, scale } => {
                    let n = (usize::from(*len) << (scale % 12)).min(room);
                    b.resize(b.len() + n, *byte);
                }
            }
            if b.len() >= MAX_MESSAGE {
                b.truncate(MAX_MESSAGE);
                break;
            }
        }
        for (at, width, extra) in counts {
            let rest = b.len().saturating_sub(at + 4);
            let n = ((rest / width) as u32).wrapping_add(extra);
            if let Some(slot) = b.get_mut(at..at + 4) {
                slot.copy_from_slice(&n.to_le_bytes());
            }
        }
    }
}

/// Decode `body` with every message decoder of the transport, starting with the one
/// `first` picks, and read it as a subscriber would ([`read_as_subscriber`]); returns
/// how many accepted it.
pub fn decode_all(first: u8, body: &[u8]) -> usize {
    let decoders: [fn(&[u8]) -> bool; 15] = [
        |b| GoalStatusArray::decode(b).is_ok(),
        |b| ActionGoal::<TestRequestGoal>::decode(b).is_ok(),
        |b| ActionGoal::<GotoGoal>::decode(b).is_ok(),
        |b| ActionGoal::<RunOptionGoal>::decode(b).is_ok(),
        |b| ActionGoal::<RunMissionGoal>::decode(b).is_ok(),
        |b| ActionResult::<GotoResult>::decode(b).is_ok(),
        |b| ActionResult::<RunOptionResult>::decode(b).is_ok(),
        |b| ActionFeedback::<GotoFeedback>::decode(b).is_ok(),
        |b| GoalId::decode(b).is_ok(),
        |b| Header::decode(b).is_ok(),
        |b| StringMsg::decode(b).is_ok(),
        |b| Odometry::decode(b).is_ok(),
        |b| PoseStamped::decode(b).is_ok(),
        |b| Twist::decode(b).is_ok(),
        |b| tcpros::Header::decode(b).is_ok(),
    ];
    let start = usize::from(first) % decoders.len();
    let decoded = (0..decoders.len())
        .filter(|k| decoders[(start + k) % decoders.len()](body))
        .count();
    decoded + usize::from(read_as_subscriber(first, body))
}

/// Bodies up to this size are read into a fresh buffer (so that a reservation from the
/// announced length would be measured); larger ones into the one buffer a subscriber
/// keeps for its connection (growing a fresh 64 MiB buffer for every input was two
/// thirds of the target's time, and says nothing more than growing it once).
const FRESH_READ: usize = 1 << 20;

/// The body behind its length prefix, as a subscriber reads it from a socket (chained,
/// not copied behind the prefix); a small body also behind a prefix that announces the
/// most a frame may hold (a peer that lies about the length and then closes). A body
/// larger than [`FRESH_READ`] is read whole when `first < 16` (one input in 16, chosen
/// by the input, so the fuzzer can reach it); otherwise its true length is announced and
/// the peer closes after the first [`FRESH_READ`] bytes. Copying every byte of a 64 MiB
/// frame for every input was two fifths of the target's time and checks nothing the
/// frame's first megabyte does not.
fn read_as_subscriber(first: u8, b: &[u8]) -> bool {
    thread_local! {
        static KEPT: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let len = (b.len() as u32).to_le_bytes();
    if b.len() > FRESH_READ {
        let sent = if first < 16 { b } else { &b[..FRESH_READ] };
        let read =
            KEPT.with(|k| tcpros::read_frame(&mut (&len[..]).chain(sent), &mut k.borrow_mut()));
        assert_eq!(read.is_ok(), sent.len() == b.len(), "{read:?}");
        return read.is_ok();
    }
    let lie = (MAX_MESSAGE as u32).to_le_bytes();
    let _ = tcpros::read_frame(&mut (&lie[..]).chain(b), &mut Vec::new());
    tcpros::read_frame(&mut (&len[..]).chain(b), &mut Vec::new()).is_ok()
}

/// The system allocator, remembering each thread's largest single request since
/// [`check`] last reset it on that thread (so a test running beside a measurement, on
/// another thread, is not counted in it).
pub struct LargestAlloc;

thread_local! {
    // const-initialised and without a destructor: reading it never allocates
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

/// Note an allocation of `size` bytes on this thread.
fn note(size: usize) {
    let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
}

// SAFETY: every call is passed to the system allocator unchanged.
unsafe impl GlobalAlloc for LargestAlloc {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        note(l.size());
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        note(l.size());
        unsafe { System.alloc_zeroed(l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        note(new);
        unsafe { System.realloc(p, l, new) }
    }
}

/// The most one decode may ask for at once, for a body of `len` bytes: the decoded
/// values of its smallest elements (a `GoalStatus` is 17 bytes on the wire and 64 in
/// memory; a TCPROS header field 6 and 48), doubled for a vector's growth, and a little.
pub fn allowed(len: usize) -> usize {
    16 * len + (64 << 10)
}

/// Build the frame, decode it every way, and panic if a decode asked for more memory
/// at once than [`allowed`] (with [`LargestAlloc`] installed; without it nothing is
/// measured). Returns how many decoders accepted it.
pub fn check(frame: &Frame) -> usize {
    thread_local! {
        static BODY: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BODY.with(|b| {
        let mut body = b.borrow_mut();
        frame.body_into(&mut body);
        check_body(frame.first, &body)
    })
}

/// [`check`] of a body already built.
fn check_body(first: u8, body: &[u8]) -> usize {
    LARGEST.with(|l| l.set(0));
    let decoded = decode_all(first, body);
    let largest = LARGEST.with(Cell::get);
    assert!(
        largest <= allowed(body.len()),
        "a {}-byte frame made one allocation of {largest} bytes",
        body.len()
    );
    decoded
}
