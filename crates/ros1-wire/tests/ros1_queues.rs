//! Publisher queues sized from `queue_size`, and memory after a burst (fake master; the
//! heap is measured by a counting allocator, so the figures are exact): a subscriber
//! that never reads holds at most `queue_size` messages (and what the sockets' buffers
//! take); one with a larger queue (500) holds that many; when the stalled subscribers go, the
//! live heap is back near where it was before the burst.

use skipper_ros1_wire::tcpros::Header;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::{Node, NodeConfig};
use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::net::TcpStream;
use std::sync::atomic::{AtomicIsize, Ordering};
use std::time::{Duration, Instant};

struct Counting;
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new as isize - l.size() as isize, Ordering::Relaxed);
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static A: Counting = Counting;

const STRING: (&str, &str) = ("std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1");
const FRAME: usize = 64 << 10;
const BURST: usize = 2000;

fn node(m: &FakeMaster, name: &str) -> Node {
    let mut c = NodeConfig::from_env(name);
    c.master_uri = m.uri.clone();
    c.advertise_host = "127.0.0.1".into();
    Node::new(c).unwrap()
}

/// A TCPROS subscriber that never reads after the handshake.
fn stalled(n: &Node, topic: &str) -> TcpStream {
    let mut s = TcpStream::connect(n.tcpros_addr()).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let h = Header::default()
        .with("callerid", "/stalled")
        .with("topic", topic)
        .with("md5sum", STRING.1)
        .with("type", STRING.0);
    s.write_all(&h.encode()).unwrap();
    Header::read(&mut s).unwrap();
    s
}

/// The most frames two loopback sockets' buffers can hold (Linux's autotuning limits).
fn in_flight_bound() -> usize {
    let max = |f: &str| -> usize {
        std::fs::read_to_string(f)
            .ok()
            .and_then(|t| t.split_whitespace().last().and_then(|x| x.parse().ok()))
            .unwrap_or(64 << 20)
    };
    (max("/proc/sys/net/ipv4/tcp_wmem") + max("/proc/sys/net/ipv4/tcp_rmem")) / FRAME + 2
}

fn wait_for(what: &str, cond: impl Fn() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < Duration::from_secs(30), "never: {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn queues_hold_queue_size_messages_and_the_heap_returns_after_a_burst() {
    let m = FakeMaster::start().unwrap();
    let small_node = node(&m, "/small");
    let large_node = node(&m, "/large");
    let small = small_node
        .advertise_queued("/burst", STRING.0, STRING.1, "string data\n", false, 5)
        .unwrap();
    let large = large_node
        .advertise_queued("/burst", STRING.0, STRING.1, "string data\n", false, 500)
        .unwrap();
    let s1 = stalled(&small_node, "/burst");
    let s2 = stalled(&large_node, "/burst");
    wait_for("both subscribers", || {
        small.subscribers().len() == 1 && large.subscribers().len() == 1
    });
    let body = vec![7u8; FRAME];
    small.publish(&body);
    large.publish(&body);
    let idle = LIVE.load(Ordering::SeqCst);
    for _ in 1..BURST {
        small.publish(&body);
        large.publish(&body);
    }
    let peak = LIVE.load(Ordering::SeqCst);
    let dropped = |n: &Node| n.stats().dropped.load(Ordering::SeqCst) as usize;
    // the small queue: everything beyond 5 and what the sockets took was dropped
    assert!(
        dropped(&small_node) >= BURST - 5 - in_flight_bound(),
        "dropped {} of {BURST} with a queue of 5 (sockets hold at most {})",
        dropped(&small_node),
        in_flight_bound()
    );
    // the large queue kept its 500 (and the sockets theirs): at most the rest dropped
    assert!(
        dropped(&large_node) <= BURST - 500,
        "dropped {}",
        dropped(&large_node)
    );
    assert!(
        peak - idle >= (500 * FRAME) as isize,
        "the 500 queued frames are on the heap: {} bytes",
        peak - idle
    );
    // the stalled subscribers go: their queues are freed
    drop((s1, s2));
    wait_for("the stalled subscribers are gone", || {
        small.subscribers().is_empty() && large.subscribers().is_empty()
    });
    wait_for(
        "the heap back within 1 MiB of its level before the burst",
        || LIVE.load(Ordering::SeqCst) - idle < 1 << 20,
    );
    // and the freed pages handed back to the system (malloc_trim) once, not kept
    wait_for("the heap trimmed after the queues drained", || {
        large_node.stats().trims.load(Ordering::SeqCst) > 0
    });
}

/// A subscription with `queue_size` 2 whose handler is held up while 300 messages arrive:
/// of those read together only the newest 2 are handled, the rest are dropped and
/// counted, and the last one published is handled.
#[test]
fn a_subscriber_queue_keeps_the_newest_messages_of_those_that_arrived_together() {
    use std::sync::{mpsc, Arc, Mutex};
    let m = FakeMaster::start().unwrap();
    let pub_node = node(&m, "/talker");
    let sub_node = node(&m, "/listener");
    let p = pub_node
        .advertise_queued("/chatter", STRING.0, STRING.1, "string data\n", false, 1000)
        .unwrap();
    let got = Arc::new(Mutex::new(Vec::<u32>::new()));
    let (entered_tx, entered) = mpsc::channel::<()>();
    let (release, release_rx) = mpsc::channel::<()>();
    let release_rx = Mutex::new(release_rx);
    let g = got.clone();
    let handler: skipper_ros1_wire::node::Handler = Arc::new(move |b: &[u8], _: &str| {
        let n = u32::from_le_bytes(b[..4].try_into().unwrap());
        g.lock().unwrap().push(n);
        if n == 0 {
            // the first message holds the reader up until the burst is on its socket
            let _ = entered_tx.send(());
            let _ = release_rx.lock().unwrap().recv();
        }
        Ok(())
    });
    let _sub = sub_node
        .subscribe_queued(
            "/chatter",
            STRING.0,
            STRING.1,
            "string data\n",
            handler,
            Some(2),
        )
        .unwrap();
    wait_for("the subscriber", || p.subscribers().len() == 1);
    const N: u32 = 300;
    p.publish(&0u32.to_le_bytes());
    entered.recv_timeout(Duration::from_secs(30)).unwrap();
    for n in 1..N {
        p.publish(&n.to_le_bytes());
    }
    release.send(()).unwrap();
    let dropped = || sub_node.stats().dropped_in.load(Ordering::SeqCst) as usize;
    wait_for("every message handled or dropped", || {
        got.lock().unwrap().len() + dropped() == N as usize
    });
    let got = got.lock().unwrap().clone();
    assert!(dropped() > 0, "none dropped: {got:?}");
    assert_eq!(got.last(), Some(&(N - 1)), "the newest is handled");
    assert!(got.windows(2).all(|w| w[0] < w[1]), "in order: {got:?}");
}
