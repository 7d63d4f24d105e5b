//! Rules 8, 41, 42 and the bad-input standard: every bad mission is refused with the
//! mission file's line, nothing panics, the sandbox holds, loops and memory bombs stop.

use skipper_mission::{load_str, Limits, LoadOptions, MissionError};

fn err(src: &str) -> MissionError {
    match load_str(src, "bad.lua") {
        Ok(m) => panic!("loaded: {:?}", m.items.len()),
        Err(e) => e,
    }
}

/// The first error's line and message.
fn first(src: &str) -> (usize, String) {
    let e = err(src);
    let d = e
        .diagnostics()
        .iter()
        .find(|d| d.is_error())
        .cloned()
        .expect("an error");
    (d.line, d.message)
}

const HEAD: &str = "NAME = \"bad\"\n";

#[test]
fn lua_syntax_errors_have_line_numbers() {
    let (line, msg) = first(&format!(
        "{HEAD}STACK = {{\n  BEHAVIOR(Guidance.YoYo)\n  x = = 3\n}}\n"
    ));
    assert_eq!(line, 4, "{msg}");
    assert!(msg.starts_with("Lua syntax error"), "{msg}");
    let text = err("x = = 3").to_string();
    assert!(
        text.starts_with("bad.lua:1:3: error: Lua syntax error"),
        "{text}"
    );
    assert!(text.contains("1 | x = = 3\n  |   ^"), "{text}");
}

#[test]
fn unknown_behaviors_and_settings_are_refused_at_their_line() {
    let (line, msg) = first(&format!(
        "{HEAD}STACK = {{\n\n  BEHAVIOR(Guidance.Hover)\n}}"
    ));
    assert_eq!(
        (
            line,
            msg.contains("unknown behavior or command Guidance.Hover")
        ),
        (4, true),
        "{msg}"
    );
    let (line, msg) = first(&format!(
        "{HEAD}STACK = {{\n  BEHAVIOR(Guidance.YoYo)\n    :SET(Guidance.YoYo.UP_SPED, Units.METER_PER_SECOND, 1)\n}}"
    ));
    assert_eq!(line, 4);
    assert!(msg.contains("unknown setting YoYo.UP_SPED"), "{msg}");
    let (_, msg) = first(&format!(
        "{HEAD}STACK = {{ BEHAVIOR(Guidance.YoYo):SET(Guidance.Waypoint.SPEED, Units.METER_PER_SECOND, 1) }}"
    ));
    assert!(msg.contains("not of YoYo"), "{msg}");
    let (_, msg) = first(&format!("{HEAD}STACK = {{ COMMAND(Guidance.YoYo) }}"));
    assert!(msg.contains("is a behavior"), "{msg}");
    let (_, msg) = first(&format!("{HEAD}STACK = {{ COMMAND(Guidance.Waypoint) }}"));
    assert!(msg.contains("needs the setting Waypoint.WAYPOINT"), "{msg}");
}

#[test]
fn unit_dimension_mismatches_are_refused() {
    let (line, msg) = first(&format!(
        "{HEAD}STACK = {{\n  BEHAVIOR(Guidance.DepthEnvelope)\n    :SET(Guidance.DepthEnvelope.MAX_DEPTH, Units.HOUR, 3)\n}}"
    ));
    assert_eq!(line, 4);
    assert!(msg.contains("dimension mismatch"), "{msg}");
    let (_, msg) = first(&format!(
        "{HEAD}STACK = {{ {{ WHILE = UniversalURI.DEPTH:GT(Units.DEGREE(3)), BEHAVIOR(Guidance.YoYo) }} }}"
    ));
    assert!(
        msg.contains("cannot compare a length with a angle"),
        "{msg}"
    );
    let (_, msg) = first(&format!(
        "{HEAD}STACK = {{ {{ WHILE = UniversalURI.DEPTH:GT(3), BEHAVIOR(Guidance.YoYo) }} }}"
    ));
    assert!(msg.contains("a bare number has no unit"), "{msg}");
}

#[test]
fn bad_repeat_and_within_are_refused() {
    for (src, want) in [
        ("{ REPEAT = -1, BEHAVIOR(Guidance.YoYo) }", "REPEAT must be"),
        (
            "{ REPEAT = 1.5, BEHAVIOR(Guidance.YoYo) }",
            "REPEAT must be",
        ),
        (
            "{ REPEAT = \"twice\", BEHAVIOR(Guidance.YoYo) }",
            "REPEAT must be",
        ),
        (
            "{ WITHIN = Units.METER(3), BEHAVIOR(Guidance.YoYo) }",
            "WITHIN must be a time",
        ),
        (
            "{ WITHIN = 30, BEHAVIOR(Guidance.YoYo) }",
            "WITHIN must be a time",
        ),
        (
            "BEHAVIOR(Guidance.YoYo):WITHIN(Units.DEGREE(3))",
            "WITHIN must be a time",
        ),
        ("COMMAND(Guidance.GoToSurface):REPEAT(-2)", "REPEAT must be"),
    ] {
        let (_, msg) = first(&format!("{HEAD}STACK = {{ {src} }}"));
        assert!(msg.contains(want), "{src}: {msg}");
    }
}

#[test]
fn clauses_that_are_not_boolean_are_refused() {
    for src in [
        "{ WHEN = UniversalURI.DEPTH, BEHAVIOR(Guidance.YoYo) }",
        "{ WHEN = \"yes\", BEHAVIOR(Guidance.YoYo) }",
        "{ WHEN = Units.METER(3), BEHAVIOR(Guidance.YoYo) }",
        "BEHAVIOR(Guidance.YoYo):UNTIL(42)",
    ] {
        let (_, msg) = first(&format!("{HEAD}STACK = {{ {src} }}"));
        assert!(
            msg.contains("truth value") || msg.contains("ValueClause"),
            "{src}: {msg}"
        );
    }
}

#[test]
fn duplicate_ids_and_guards_on_the_top_level_are_refused() {
    let (line, msg) = first(&format!(
        "{HEAD}STACK = {{\n  {{ ID = \"a\", BEHAVIOR(Guidance.YoYo) }},\n  {{ ID = \"a\", BEHAVIOR(Guidance.YoYo) }}\n}}"
    ));
    assert_eq!(line, 4);
    assert!(msg.contains("duplicate ID \"a\""), "{msg}");
    for g in ["WHEN", "WHILE"] {
        let (_, msg) = first(&format!(
            "{HEAD}STACK = {{ {g} = true, BEHAVIOR(Guidance.YoYo) }}"
        ));
        assert!(
            msg.contains(&format!("{g} on the top-level STACK")),
            "{msg}"
        );
    }
    let (_, msg) = first(&format!(
        "{HEAD}STACK = {{ WHN = true, BEHAVIOR(Guidance.YoYo) }}"
    ));
    assert!(msg.contains("unknown key `WHN`"), "{msg}");
}

#[test]
fn name_and_stack_are_required() {
    assert!(first("STACK = {}").1.contains("NAME is missing"));
    assert!(first("NAME = 'x'").1.contains("STACK is missing"));
    assert!(first("NAME = 'x' STACK = 3")
        .1
        .contains("STACK must be a table"));
}

#[test]
fn the_sandbox_has_no_io_os_require_load_or_debug() {
    for escape in [
        "os.execute('true')",
        "io.open('/etc/passwd')",
        "require('os')",
        "load('return 1')()",
        "loadfile('/etc/passwd')",
        "dofile('/etc/passwd')",
        "debug.getinfo(1)",
        "package.loadlib('x', 'y')",
        "string.dump(print)",
        "collectgarbage()",
        "rawset(workSite, 'latitude', 0)",
        "coroutine.create(print)",
    ] {
        let e = err(&format!("{escape}\n{HEAD}STACK = {{}}"));
        let d = &e.diagnostics()[0];
        assert_eq!(d.line, 1, "{escape}: {e}");
        assert!(
            d.message.contains("nil value") || d.message.contains("attempt to call"),
            "{escape}: {}",
            d.message
        );
    }
}

#[test]
fn configuration_tables_are_read_only() {
    let (line, msg) = first(&format!("{HEAD}\nworkSite.latitude = 0\nSTACK = {{}}"));
    assert_eq!(line, 3);
    assert!(msg.contains("cannot be changed"), "{msg}");
    let (_, msg) = first(&format!("{HEAD}setmetatable(workSite, {{}})\nSTACK = {{}}"));
    assert!(msg.contains("protected metatable"), "{msg}");
    let (_, msg) = first(&format!(
        "{HEAD}Control.SpeedControl.SPEED_SLOW = 3\nSTACK = {{}}"
    ));
    assert!(msg.contains("cannot be changed"), "{msg}");
}

#[test]
fn an_endless_loop_is_stopped_by_the_instruction_budget() {
    let (line, msg) = first(&format!(
        "{HEAD}local n = 0\nwhile true do\n  n = n + 1\nend\nSTACK = {{}}"
    ));
    assert!((3..=4).contains(&line), "{line}");
    assert!(msg.contains("Lua instructions"), "{msg}");
    // also inside a host call chain
    let (_, msg) = first(&format!(
        "{HEAD}local function f() return f() + 1 end\nf()\nSTACK = {{}}"
    ));
    assert!(
        msg.contains("stack overflow") || msg.contains("instructions") || msg.contains("memory"),
        "{msg}"
    );
}

#[test]
fn a_memory_bomb_is_stopped_by_the_memory_limit() {
    let opts = LoadOptions {
        limits: Limits {
            memory: 16 << 20,
            ..Limits::default()
        },
        ..LoadOptions::default()
    };
    for bomb in [
        "local t = {} for i = 1, 1e9 do t[i] = i end",
        "local s = 'x' while true do s = s .. s end",
        "local s = string.rep('x', 1 << 40)",
    ] {
        let e = skipper_mission::load(&format!("{HEAD}{bomb}\nSTACK = {{}}"), "bad.lua", &opts)
            .unwrap_err();
        let msg = &e.diagnostics()[0].message;
        assert!(
            msg.contains("MiB of memory") || msg.contains("too large"),
            "{bomb}: {msg}"
        );
    }
    // a bomb that grows step by step is placed on its line
    let e = skipper_mission::load(
        &format!("{HEAD}local t = {{}}\nfor i = 1, 1e9 do t[i] = i end\nSTACK = {{}}"),
        "bad.lua",
        &opts,
    )
    .unwrap_err();
    let d = &e.diagnostics()[0];
    assert!(d.message.contains("MiB of memory"), "{}", d.message);
    assert_eq!(d.line, 3, "{}", d.message);
}

#[test]
fn lua_equality_on_mission_values_is_refused() {
    let (_, msg) = first(&format!(
        "{HEAD}x = UniversalURI.DEPTH == UniversalURI.DEPTH\nSTACK = {{}}"
    ));
    // raw-equal objects never reach __eq; two distinct ones do
    let _ = msg;
    let (_, msg) = first(&format!(
        "{HEAD}x = Units.METER(3) == Units.METER(4)\nSTACK = {{}}"
    ));
    assert!(msg.contains("use :EQ"), "{msg}");
    let (_, msg) = first(&format!(
        "{HEAD}x = Units.METER(3) < Units.METER(4)\nSTACK = {{}}"
    ));
    assert!(msg.contains(":LT"), "{msg}");
}

#[test]
fn unknown_uris_and_units_stop_the_load_at_their_line() {
    let (line, msg) = first(&format!("{HEAD}\nx = UniversalURI.DEPTHS\nSTACK = {{}}"));
    assert_eq!(line, 3);
    assert!(msg.contains("unknown URI UniversalURI.DEPTHS"), "{msg}");
    let (_, msg) = first(&format!("{HEAD}x = Units.FURLONG(3)\nSTACK = {{}}"));
    assert!(msg.contains("unknown unit Units.FURLONG"), "{msg}");
}

#[test]
fn several_errors_are_reported_at_once() {
    let e = err(&format!(
        "{HEAD}STACK = {{\n  BEHAVIOR(Guidance.Nope),\n  BEHAVIOR(Guidance.YoYo):SET(Guidance.YoYo.PITCH, Units.METER, 3),\n  {{ REPEAT = -1, BEHAVIOR(Guidance.YoYo) }}\n}}"
    ));
    let lines: Vec<usize> = e
        .diagnostics()
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.line)
        .collect();
    assert_eq!(lines, vec![3, 4, 5], "{e}");
}

#[test]
fn finalizers_and_c_level_loops_cannot_escape_the_budget() {
    // Lua runs finalizers with hooks off: they are refused
    let (line, msg) = first(&format!(
        "{HEAD}x = setmetatable({{}}, {{__gc = function() while true do end end}})\nSTACK = {{}}"
    ));
    assert_eq!(line, 2);
    assert!(msg.contains("__gc finalizers are not allowed"), "{msg}");
    // other metatables are fine
    assert!(load_str(
        "x = setmetatable({}, {__index = function() return 1 end})\nNAME = 'x'\nSTACK = {}",
        "mt.lua"
    )
    .is_ok());
    // string patterns (C-level backtracking) are not available
    let (line, msg) = first(&format!(
        "{HEAD}local i = string.find(string.rep('a', 1e6), '.-.-.-b')\nSTACK = {{}}"
    ));
    assert_eq!(line, 2);
    assert!(msg.contains("nil value"), "{msg}");
}
