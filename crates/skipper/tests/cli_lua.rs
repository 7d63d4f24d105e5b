//! `skipper lua`: `--help` with examples, and how a script's end becomes the exit
//! status: its own status (return, os.exit), 1 with the Lua traceback and file:line for
//! an error, 1 with the line for a script over `--instructions`, 2 for a script that
//! does not load (file:line) or a bad flag.

use std::process::{Command, Output};

fn skipper(args: &[&str], script: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.lua");
    std::fs::write(&path, script).unwrap();
    let mut all: Vec<&str> = vec!["lua"];
    all.extend_from_slice(args);
    let path = path.display().to_string();
    all.push(&path);
    Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(&all)
        .env("ROS_MASTER_URI", "http://127.0.0.1:9/")
        .output()
        .expect("run skipper")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn help_has_examples() {
    let o = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(["lua", "--help"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    for want in [
        "Examples:",
        "skipper lua examples/lua/",
        "--instructions",
        "Exit status",
    ] {
        assert!(text.contains(want), "{want} missing from:\n{text}");
    }
}

#[test]
fn exit_statuses() {
    assert_eq!(skipper(&[], "return 4").status.code(), Some(4));
    assert_eq!(skipper(&[], "os.exit(3)").status.code(), Some(3));
    assert_eq!(skipper(&[], "print(1)").status.code(), Some(0));
    let o = skipper(&[], "local function f()\n  error('boom')\nend\nf()");
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("s.lua:2: boom") && e.contains("stack traceback:"),
        "{e}"
    );
    let o = skipper(&[], "local x = = 1");
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).starts_with("error:"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("/s.lua:1:11: error: unexpected symbol near '='\n  |\n1 | local x = = 1\n  |           ^"),
        "{}",
        stderr(&o)
    );
    let o = skipper(
        &["--instructions", "100000"],
        "while true do\n  local x = 1\nend",
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("s.lua:2: the script ran 100000 Lua instructions"),
        "{e}"
    );
    assert_eq!(
        skipper(&["--memory", "0"], "return 0").status.code(),
        Some(2)
    );
}
