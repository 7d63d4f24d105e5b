//! The client's handshake against scripted robots: the restart-at-SYNC0 rule, CLOSE to a
//! robot still streaming from an earlier client, giving up on a silent robot, and a
//! microcontroller reset.

use skipper_p2os::client::{ClientOptions, Connection, LinkSpec};
use skipper_p2os::packets::{Identity, Sip};
use skipper_p2os::{CommandPacket, Error, Framer, PacketBuf};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::time::Duration;

/// A robot that answers each command with what `script` says; reports every command
/// (number, integer argument) it got.
fn robot(
    mut script: impl FnMut(u8, Option<i32>, usize) -> Vec<PacketBuf> + Send + 'static,
) -> (String, mpsc::Receiver<(u8, Option<i32>)>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let Ok((mut s, _)) = l.accept() else { return };
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut framer = Framer::new();
        let mut buf = [0u8; 512];
        let mut k = 0;
        while let Ok(n) = s.read(&mut buf) {
            if n == 0 {
                break;
            }
            let mut replies = Vec::new();
            framer.feed(&buf[..n], |f| {
                let c = CommandPacket::decode(&f).unwrap();
                let _ = tx.send((c.number, c.arg.int()));
                replies.extend(script(c.number, c.arg.int(), k));
                k += 1;
            });
            for r in replies {
                if s.write_all(r.as_bytes()).is_err() {
                    return;
                }
            }
        }
    });
    (addr, rx)
}

fn sync2() -> PacketBuf {
    Identity {
        name: "fake".into(),
        class: "Pioneer".into(),
        subtype: "p3dx-sh".into(),
    }
    .encode()
    .unwrap()
}

fn quick() -> ClientOptions {
    ClientOptions {
        sync_timeout: Duration::from_millis(200),
        config_timeout: Duration::from_millis(300),
        ..Default::default()
    }
}

/// Every command the robot got, once the client's end of the connection is closed: the
/// robot's thread then reads the end of the stream and leaves, closing the channel.
fn received(rx: &mpsc::Receiver<(u8, Option<i32>)>) -> Vec<(u8, Option<i32>)> {
    let mut got = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(c) => got.push(c),
            Err(mpsc::RecvTimeoutError::Disconnected) => return got,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("the robot never saw the end"),
        }
    }
}

#[test]
fn a_wrong_answer_restarts_at_sync0() {
    let mut first = true;
    let (addr, rx) = robot(move |n, arg, _| match (n, arg) {
        (0, None) if first => {
            first = false;
            vec![PacketBuf::bare(1)] // not the answer to SYNC0
        }
        (0, None) | (1, None) => vec![PacketBuf::bare(n)],
        (2, None) => vec![sync2()],
        _ => vec![],
    });
    let c = Connection::open(&LinkSpec::Tcp(addr), &quick()).unwrap();
    assert_eq!(c.identity.name, "fake");
    assert!(c.config.is_none(), "this robot sends no CONFIGpac");
    drop(c);
    let got = received(&rx);
    let numbers: Vec<u8> = got.iter().map(|g| g.0).take(5).collect();
    assert_eq!(
        numbers,
        [0, 0, 1, 2, 1],
        "SYNC0 again, then SYNC1, SYNC2, OPEN"
    );
    assert_eq!(got[4], (1, Some(1)), "OPEN with int 1, as ARIA sends it");
    assert!(got.contains(&(18, Some(1))), "CONFIG 1");
    assert_eq!(got.last(), Some(&(4, Some(1))), "ENABLE 1 last");
}

#[test]
fn a_robot_still_streaming_sips_gets_close_and_a_new_handshake() {
    let mut streaming = true;
    let (addr, rx) = robot(move |n, arg, _| match (n, arg) {
        (0, None) if streaming => vec![Sip::default().encode().unwrap()],
        (2, Some(1)) => {
            streaming = false;
            vec![]
        }
        (0, None) | (1, None) => vec![PacketBuf::bare(n)],
        (2, None) => vec![sync2()],
        _ => vec![],
    });
    Connection::open(&LinkSpec::Tcp(addr), &quick()).unwrap();
    let numbers: Vec<(u8, Option<i32>)> = received(&rx).into_iter().take(5).collect();
    assert_eq!(
        numbers,
        [(0, None), (2, Some(1)), (0, None), (1, None), (2, None)],
        "CLOSE 1, then the handshake again"
    );
}

#[test]
fn a_silent_robot_is_given_up_on() {
    let (addr, rx) = robot(|_, _, _| vec![]);
    let options = ClientOptions {
        sync_timeout: Duration::from_millis(50),
        max_no_answer: 3,
        ..Default::default()
    };
    let e = Connection::open(&LinkSpec::Tcp(addr), &options).unwrap_err();
    assert!(matches!(e, Error::Timeout { .. }), "{e}");
    let syncs = received(&rx);
    assert_eq!(
        syncs,
        vec![(0, None); 4],
        "SYNC0 sent again after each silence"
    );
}

#[test]
fn a_microcontroller_reset_drops_the_connection() {
    let (addr, _rx) = robot(|n, arg, _| match (n, arg) {
        (0, None) | (1, None) => vec![PacketBuf::bare(n)],
        (2, None) => vec![sync2()],
        (4, Some(1)) => vec![PacketBuf::bare(0xFF)],
        _ => vec![],
    });
    let mut c = Connection::open(&LinkSpec::Tcp(addr), &quick()).unwrap();
    let mut result = Ok(0);
    for _ in 0..100 {
        result = c.poll(Duration::from_millis(20), |_| {});
        if result.is_err() {
            break;
        }
    }
    assert!(matches!(result, Err(Error::Closed(_))), "{result:?}");
}

#[test]
fn garbage_before_the_answers_is_skipped() {
    let (addr, _rx) = robot(|n, arg, _| match (n, arg) {
        (0, None) | (1, None) => vec![PacketBuf::bare(n)],
        (2, None) => vec![sync2()],
        _ => vec![],
    });
    // a stream with a junk prefix on the wire: connect by hand and prepend garbage
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let front = l.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let Ok((mut client, _)) = l.accept() else {
            return;
        };
        let mut up = TcpStream::connect(addr).unwrap();
        let _ = client.write_all(&[0x00, 0xFA, 0x13, 0xFB, 0xFA, 0xFB, 0x40, 0x55]);
        let mut c2 = client.try_clone().unwrap();
        let mut u2 = up.try_clone().unwrap();
        std::thread::spawn(move || std::io::copy(&mut u2, &mut c2));
        let _ = std::io::copy(&mut client, &mut up);
    });
    let c = Connection::open(&LinkSpec::Tcp(front), &quick()).unwrap();
    assert_eq!(c.identity.subtype, "p3dx-sh");
}
