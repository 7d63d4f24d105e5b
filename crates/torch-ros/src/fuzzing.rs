//! Entry points of the fuzz target `lua_ros_args` (fuzz/fuzz_targets/lua_ros_args.rs)
//! and of its corpus replay in `cargo test`: what this crate parses itself, a script's
//! ROS arguments (`name:=other`, `__name:=`, `__ns:=`, `_param:=`) and the graph names
//! resolved with them; and the placing of a syntax error (`lua_syntax_error`). Any input
//! ends in names, a diagnostic or an error, never a panic.

use skipper_ros1_wire::names::{is_resolved, Names, RosArgs};

/// Read `data` as command-line arguments (one a line), make the node's names from them
/// and resolve every argument as a name: relative, private, remapped and as a child
/// namespace; every name that resolves comes out global and clean.
pub fn ros_args(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let args: Vec<&str> = text.lines().collect();
    let Ok((a, _)) = RosArgs::extract(args.iter().map(|a| a.to_string())) else {
        return;
    };
    let name = a.name.as_deref().unwrap_or("fuzz");
    let ns = a.namespace.as_deref().unwrap_or("/");
    let Ok(names) = Names::new(name, ns, &a.remaps) else {
        return;
    };
    let resolved = |r: Result<String, _>| {
        if let Ok(full) = r {
            assert!(
                is_resolved(&full),
                "`{full}` came out of resolution unclean"
            );
        }
    };
    for arg in &args {
        resolved(names.resolve_in(names.namespace(), arg, true));
        resolved(names.resolve_in(names.node(), arg, false));
        if let Ok(child) = names.child_namespace(names.namespace(), arg) {
            resolved(names.resolve_in(&child, arg, true));
            resolved(Ok(child));
        }
    }
}

/// Load `data` as a script named `f.lua` (compiled, never run) and, when it does not
/// parse, place the syntax error as `skipper lua` shows it (`diag`: full_moon's
/// lexer over the lines up to the error, Lua's parser on cuts of the script). The
/// diagnostic, or `None` for a script that parses.
pub fn syntax_error(data: &[u8]) -> Option<String> {
    let lua = crate::diag::compiler().ok()?;
    let e = lua.load(data).set_name("@f.lua").into_function().err()?;
    let script = crate::diag::Script {
        name: "f.lua".into(),
        source: String::from_utf8_lossy(data).into_owned(),
    };
    Some(crate::diag::syntax_error(
        &script,
        &crate::runtime::message_of(&e),
    ))
}
