//! Framing, decoding and encoding SIPs allocate nothing in steady state.

use skipper_p2os::packets::{Sip, SipTail, SonarReading};
use skipper_p2os::{Framer, PacketBuf};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Count only this test's thread (the test harness allocates on its own threads).
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.with(|c| c.get()) {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

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
    let before = ALLOCS.load(Ordering::SeqCst);
    COUNTING.with(|c| c.set(true));
    let mut seen = 0u32;
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
    COUNTING.with(|c| c.set(false));
    let allocs = ALLOCS.load(Ordering::SeqCst) - before;
    assert_eq!(seen, 1000);
    assert_eq!(decoded.sonar().len(), 16);
    assert_eq!(
        allocs, 0,
        "heap allocations in 1000 encode/frame/decode rounds"
    );
}
