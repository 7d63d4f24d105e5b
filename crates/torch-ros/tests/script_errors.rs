//! How a script ends: a syntax error (a load error with file:line), a Lua error (its
//! message with file:line and the traceback), `os.exit` and a returned status, the
//! memory limit, no master, and a runaway script that a stop request interrupts after
//! the grace period, its active goal ended (ABORTED) rather than left active; the
//! instruction limit ends a runaway loop (also one inside `pcall`, which cannot catch
//! it), with the line it was on, and its goal is aborted too.

mod common;
use common::*;
use skipper_actionlib::ros1::ActionClientBinding;
use skipper_actionlib::*;
use skipper_ros1_wire::msg::dynamic::Value;
use skipper_ros1_wire::testing::FakeMaster;
use skipper_ros1_wire::Node;
use skipper_torch_ros::{run_source, Options, Outcome, ScriptError, Stop};
use std::sync::Arc;
use std::time::Duration;

fn run(name: &str, src: &str, options: &Options) -> Result<Outcome, ScriptError> {
    run_source(name, src.as_bytes(), &[], options, &Stop::new())
}

fn syntax_error(name: &str, src: &str) -> String {
    match run(name, src, &Options::default()) {
        Err(ScriptError::Syntax(m)) => m,
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_syntax_error_is_shown_at_its_line_and_column_with_a_caret() {
    assert_eq!(
        syntax_error("bad.lua", "local x = = 1"),
        "bad.lua:1:11: error: unexpected symbol near '='\n  |\n1 | local x = = 1\n  |           ^"
    );
    // the second `=` of the line, not the first (the token alone would not tell)
    let m = syntax_error("eq.lua", "local a\na = b = c");
    assert!(m.starts_with("eq.lua:2:7: error: "), "{m}");
    assert!(m.ends_with("2 | a = b = c\n  |       ^"), "{m}");
    // Lua names the line where it gave up; the caret is under the token it stopped at
    let m = syntax_error("t.lua", "local t = {\n  a = 1,\n  b = 2\n  c = 3\n}");
    assert!(
        m.starts_with("t.lua:4:3: error: '}' expected (to close '{' at line 1) near 'c'"),
        "{m}"
    );
    assert!(m.ends_with("4 |   c = 3\n  |   ^"), "{m}");
    // Lua 5.4's own syntax before the mistake: attributes, //, bit operators, goto
    let m = syntax_error(
        "v54.lua",
        "local x <const> = 7\nlocal y = x // 2 & 3 | ~x\ngoto done\n::done::\nlocal = 5",
    );
    assert!(
        m.starts_with("v54.lua:5:7: error: <name> expected near '='"),
        "{m}"
    );
    assert!(m.ends_with("5 | local = 5\n  |       ^"), "{m}");
    // an unfinished script: the end of the file
    let m = syntax_error("eof.lua", "function f()\n  return 1\n");
    assert!(m.starts_with("eof.lua:3:"), "{m}");
}

#[test]
fn a_syntax_error_under_deep_nesting_is_reported_not_crashed_on() {
    let parens = |n| format!("{}1{}", "(".repeat(n), ")".repeat(n));
    // Lua gives up without a line: the file and Lua's words
    let m = syntax_error("deep.lua", &format!("local x = {}", parens(100_000)));
    assert_eq!(m, "deep.lua: error: C stack overflow");
    // a mistake before deep nesting: found where it is
    let m = syntax_error("d2.lua", &format!("local = 1\nx = {}", parens(100_000)));
    assert!(
        m.starts_with("d2.lua:1:7: error: <name> expected near '='"),
        "{m}"
    );
}

#[test]
fn errors_exits_and_limits() {
    let o = Options::default();
    match run(
        "boom.lua",
        "local function f()\n  error('boom')\nend\nf()",
        &o,
    ) {
        Err(ScriptError::Failed(m)) => {
            assert!(
                m.starts_with("boom.lua:2: boom\n  |\n2 |   error('boom')\nstack traceback:"),
                "{m}"
            );
            assert!(
                m.contains("stack traceback:") && m.contains("boom.lua:4: in main chunk"),
                "{m}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(run("exit.lua", "os.exit(3)", &o), Ok(Outcome::Finished(3)));
    // an API error caught by the script's pcall is the message string, as stock Lua's
    let caught = "local ros = require 'ros'\nlocal ok, e = pcall(function()\n  ros.Message('std_msgs/String').dta = 1\nend)\nassert(type(e) == 'string' and e:find('^pc.lua:3: std_msgs/String has no field `dta`'), e)";
    assert_eq!(run("pc.lua", caught, &o), Ok(Outcome::Finished(0)));
    assert_eq!(run("ret.lua", "return 4", &o), Ok(Outcome::Finished(4)));
    assert_eq!(run("ok.lua", "local x = 1", &o), Ok(Outcome::Finished(0)));
    let small = Options {
        memory_limit: 16 << 20,
        ..Options::default()
    };
    match run(
        "big.lua",
        "local t = {}\nfor i = 1, 1e9 do t[i] = i end",
        &small,
    ) {
        // the line it was on, its source, and the limit
        Err(ScriptError::Failed(m)) => assert!(
            m.starts_with("big.lua:2: the script ran out of memory: its Lua state may hold 16 MiB (skipper lua --memory)\n")
                && m.contains("for i = 1, 1e9 do t[i] = i end"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
    let nowhere = Options {
        master_uri: Some("http://127.0.0.1:9/".into()),
        ..Options::default()
    };
    match run(
        "init.lua",
        "local ros = require 'ros'\nros.init('x')",
        &nowhere,
    ) {
        Err(ScriptError::Failed(m)) => assert!(
            m.contains("init.lua:2: no ROS master at http://127.0.0.1:9/ (")
                && m.contains("roscore"),
            "{m}"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_instruction_limit_ends_a_runaway_loop_pcall_or_not() {
    let limited = Options {
        instruction_limit: Some(1_000_000),
        ..Options::default()
    };
    match run(
        "spin.lua",
        "local n = 0\nwhile true do\n  n = n + 1\nend",
        &limited,
    ) {
        Err(ScriptError::Limit(m)) => {
            assert!(
                m.starts_with("spin.lua:3: the script ran 1000000 Lua instructions"),
                "{m}"
            )
        }
        other => panic!("{other:?}"),
    }
    let caught = "while true do\n  pcall(function() while true do end end)\nend";
    match run("caught.lua", caught, &limited) {
        Err(ScriptError::Limit(m)) => assert!(m.starts_with("caught.lua:2: "), "{m}"),
        other => panic!("{other:?}"),
    }
    let handled = "xpcall(function() while true do end end, function(e) return e end)\nreturn 5";
    assert!(matches!(
        run("x.lua", handled, &limited),
        Err(ScriptError::Limit(_))
    ));
    // a script's pcall does not catch os.exit either, and still catches its own errors
    let exits = "local ok = pcall(error, 'mine')\nassert(not ok)\npcall(os.exit, 3)\nreturn 0";
    assert_eq!(run("exits.lua", exits, &limited), Ok(Outcome::Finished(3)));
    // under the limit a script runs to its end
    let short = "local n = 0\nfor i = 1, 10000 do n = n + i end\nreturn n == 50005000 and 0 or 1";
    assert_eq!(run("short.lua", short, &limited), Ok(Outcome::Finished(0)));
}

#[test]
fn a_script_over_its_instruction_limit_leaves_no_goal_active() {
    let m = FakeMaster::start().unwrap();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/runaway.lua");
    let options = Options {
        master_uri: Some(m.uri.clone()),
        instruction_limit: Some(50_000_000),
        ..Options::default()
    };
    let script = Script::with_options("runaway.lua", std::fs::read(path).unwrap(), &[], options);
    let (_peer, h) = active_goal(&m);
    match script.join() {
        Err(ScriptError::Limit(m)) => assert!(m.starts_with("runaway.lua:16: "), "{m}"),
        other => panic!("{other:?}"),
    }
    wait_until("the goal ended", || h.comm_state() == CommState::Done);
    assert_eq!(h.terminal_state(), StatusCode::Aborted);
}

/// A goal of a client on `m` that the runaway script's server has accepted (with the
/// client's node, binding and client, to keep while the handle is used).
type Peer = (Node, ActionClientBinding, ActionClient<DynAction>);
fn active_goal(m: &FakeMaster) -> (Peer, ClientGoalHandle<DynAction>) {
    let n = node(m, "/client");
    let a = DynAction::load("actionlib/Test").unwrap();
    let ac = ActionClient::with_type(a.clone(), "/client", Arc::new(SystemClock));
    let b = ActionClientBinding::new(&n, "/runaway", &ac).unwrap();
    assert!(ac.wait_for_server(Some(Duration::from_secs(30))));
    let mut g = a.new_goal();
    g.set("goal", Value::I32(1)).unwrap();
    let h = ac.send_goal(g, None, None);
    wait_until("the goal is active", || {
        h.goal_status() == StatusCode::Active
    });
    ((n, b, ac), h)
}

#[test]
fn a_runaway_script_is_interrupted_and_leaves_no_goal_active() {
    let m = FakeMaster::start().unwrap();
    let script = Script::start(&m.uri, "runaway.lua", &[]);
    let (_peer, h) = active_goal(&m);
    assert_eq!(script.stop(), Ok(Outcome::Stopped));
    wait_until("the goal ended", || h.comm_state() == CommState::Done);
    assert_eq!(h.terminal_state(), StatusCode::Aborted);
}
