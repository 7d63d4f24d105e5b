//! How a script ends: a syntax error (a load error with file:line), a Lua error (its
//! message with file:line and the traceback), `os.exit` and a returned status, the
//! memory limit, no master, and a runaway script that a stop request interrupts after
//! the grace period, its active goal ended (ABORTED) rather than left active; the
//! instruction limit ends a runaway loop (also one inside `pcall`, which cannot catch
//! it), with the line it was on, and its goal is aborted too.

mod common;
use common::*;
use skipper_actionlib::msg::dynamic::Value;
use skipper_actionlib::ros1::testing::FakeMaster;
use skipper_actionlib::ros1::{ActionClientBinding, Node};
use skipper_actionlib::*;
use skipper_lua::{run_source, Options, Outcome, ScriptError, Stop};
use std::sync::Arc;
use std::time::Duration;

fn run(name: &str, src: &str, options: &Options) -> Result<Outcome, ScriptError> {
    run_source(name, src.as_bytes(), &[], options, &Stop::new())
}

#[test]
fn errors_exits_and_limits() {
    let o = Options::default();
    match run("bad.lua", "local x = = 1", &o) {
        Err(ScriptError::Load(m)) => assert!(m.contains("bad.lua:1:"), "{m}"),
        other => panic!("{other:?}"),
    }
    match run(
        "boom.lua",
        "local function f()\n  error('boom')\nend\nf()",
        &o,
    ) {
        Err(ScriptError::Failed(m)) => {
            assert!(m.starts_with("boom.lua:2: boom"), "{m}");
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
        Err(ScriptError::Failed(m)) => assert!(m.contains("memory"), "{m}"),
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
            m.contains("init.lua:2: ROS master at http://127.0.0.1:9/"),
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
