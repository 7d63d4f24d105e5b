//! The floor under the ROS 1 round-trip benchmark (scripts/ros/floor.py runs it): a
//! server that does only the socket work the actionlib protocol asks of any server per
//! goal — read one goal message, then write four messages on three connections (the status
//! list on accept, the feedback, the result, the status list again) — with no ROS, no
//! decoding and no bookkeeping. Its CPU per goal is what the kernel and the machine charge
//! for those five system calls; no actionlib server can use less.
//!
//! Usage: `socket_floor PORT STATUS_BYTES` (listens on 127.0.0.1:PORT for four
//! connections, in order: goal, status, feedback, result; goal messages are 100 bytes).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let port: u16 = args.next().and_then(|p| p.parse().ok()).unwrap_or(47011);
    let status_bytes: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(6000);
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    println!("socket floor listening on 127.0.0.1:{port}");
    let accept = || -> std::io::Result<TcpStream> {
        let (s, _) = listener.accept()?;
        s.set_nodelay(true)?;
        Ok(s)
    };
    let (mut goal, mut status, mut feedback, mut result) =
        (accept()?, accept()?, accept()?, accept()?);
    let status_msg = vec![1u8; status_bytes];
    let (feedback_msg, result_msg) = ([2u8; 120], [3u8; 120]);
    let mut g = [0u8; 100];
    while goal.read_exact(&mut g).is_ok() {
        status.write_all(&status_msg)?;
        feedback.write_all(&feedback_msg)?;
        result.write_all(&result_msg)?;
        status.write_all(&status_msg)?;
    }
    Ok(())
}
