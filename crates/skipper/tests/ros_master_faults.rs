//! `skipper action send` when the master answers with an XML-RPC fault (a master that
//! lacks `getUri`, as Python's XML-RPC server answers an unknown method): a sentence with
//! the fault's string and code on stderr and exit status 1 (no server answered), never a
//! Rust debug dump of the fault's struct, never a panic.

use skipper_ros1_wire::xmlrpc::fault_xml;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::Command;

/// An HTTP server on 127.0.0.1 that answers every XML-RPC call with fault `code`.
fn faulting_master(code: i32, text: &'static str) -> String {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let uri = format!("http://127.0.0.1:{}/", l.local_addr().unwrap().port());
    std::thread::spawn(move || {
        for s in l.incoming() {
            let Ok(s) = s else { continue };
            let mut r = BufReader::new(s);
            let mut len = 0usize;
            loop {
                let mut line = String::new();
                if r.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    len = v.trim().parse().unwrap_or(0);
                }
                if line == "\r\n" {
                    break;
                }
            }
            let mut body = vec![0; len];
            let _ = r.read_exact(&mut body);
            let xml = fault_xml(code, text);
            let mut s = r.into_inner();
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{xml}",
                xml.len()
            );
        }
    });
    uri
}

#[test]
fn a_master_that_answers_with_a_fault_gets_a_sentence_and_exit_1() {
    let uri = faulting_master(1, "<class 'Exception'>:method \"getUri\" is not supported");
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args([
            "action",
            "send",
            "--master",
            &uri,
            "/robot1/goto",
            "x=1",
            "--wait",
            "1s",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!err.contains("Struct("), "no debug dump: {err}");
    assert!(
        err.contains("getUri: the peer answered with XML-RPC fault 1: <class 'Exception'>:method \"getUri\" is not supported"),
        "the method, the fault's code and string: {err}"
    );
    assert!(err.contains(&uri), "the master is named: {err}");
}
