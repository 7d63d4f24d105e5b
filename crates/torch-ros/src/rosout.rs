//! `/rosout`: every log line a script's loggers show (`ros.INFO(...)`, `ros.WARN_NAMED`,
//! what the API itself logs) is also published as `rosgraph_msgs/Log`, as roscpp's
//! nodes publish theirs, so `rqt_console`, roscore's `rosout.log` and `/rosout_agg` show
//! them: the level (DEBUG 1, INFO 2, WARN 4, ERROR 8, FATAL 16), the node's name, the
//! text, the script's file, function and line the call came from, the node's clock
//! in the header (`topics`, the node's publications in roscpp, is left empty). The publisher is advertised by
//! `ros.init` on the node's dynamic publisher machinery (skipper-actionlib's
//! `TypedPublisher`); lines logged before `ros.init` are printed only. The node also
//! attaches skipper-actionlib's [`skipper_ros1_wire::rosout`], so that Skipper's
//! own log events in the process (the transport's warnings, through `tracing`, where the
//! program installed that layer as `skipper` does) reach the same `/rosout`.

use crate::runtime::clock;
use mlua::Lua;
use skipper_ros1_wire::msg::common::Header;
use skipper_ros1_wire::msg::sensor::Log;
use skipper_ros1_wire::{Node, RosError, TypedPublisher};
use std::cell::Cell;

/// The node's `/rosout` publisher.
pub(crate) struct Rosout {
    publisher: TypedPublisher<Log>,
    seq: Cell<u32>,
}

/// `rosgraph_msgs/Log`'s level for a console level (`ros.console.Level`).
fn wire_level(level: u8) -> i8 {
    match level {
        crate::console::DEBUG => Log::DEBUG,
        crate::console::INFO => Log::INFO,
        crate::console::WARN => Log::WARN,
        crate::console::ERROR => Log::ERROR,
        _ => Log::FATAL,
    }
}

/// Where in the script a call is: (file, function, line) of the innermost function of
/// the script's own files (not the API's prelude, not C).
pub(crate) fn location(lua: &Lua) -> Option<(String, String, u32)> {
    for level in 0..16 {
        let at = lua.inspect_stack(level, |d| {
            let src = d.source();
            let own = src.source.as_deref().is_some_and(|s| s.starts_with('@'));
            let file = src.short_src.map(|s| s.to_string());
            let name = d.names().name.map(|n| n.to_string());
            (own && src.what != "C", file, name, d.current_line())
        })?;
        if let (true, Some(file), name, Some(line)) = at {
            let function = name.unwrap_or_else(|| "main chunk".into());
            return Some((file, function, u32::try_from(line).unwrap_or(0)));
        }
    }
    None
}

impl Rosout {
    /// Advertise `/rosout` for `node`.
    pub fn advertise(node: &Node) -> Result<Self, RosError> {
        Ok(Self {
            publisher: TypedPublisher::advertise(node, "/rosout", false)?,
            seq: Cell::new(0),
        })
    }

    /// Publish one line of `node`, logged at console level `level`.
    pub fn publish(&self, lua: &Lua, node: &Node, level: u8, text: &str) {
        let (file, function, line) = location(lua).unwrap_or_default();
        self.seq.set(self.seq.get().wrapping_add(1));
        self.publisher.publish(&Log {
            header: Header {
                seq: self.seq.get(),
                stamp: clock(lua).now(),
                frame_id: String::new(),
            },
            level: wire_level(level),
            name: node.name().to_string(),
            msg: text.to_string(),
            file,
            function,
            line,
            topics: Vec::new(),
        });
    }
}
