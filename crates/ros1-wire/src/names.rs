//! ROS 1 graph names and the command-line arguments roscpp and rospy read: the node's
//! namespace and name, remappings, private parameters, and the special arguments
//! roslaunch passes.
//!
//! - `__name:=N` renames the node, `__ns:=/NS` (else `ROS_NAMESPACE`) puts it in a
//!   namespace, `__master:=URI`, `__ip:=A` / `__hostname:=H` override the environment,
//!   `__log:=FILE` names the node's log file;
//! - `from:=to` remaps a name (both resolved in the node's namespace first); a remap of
//!   an action's name (`goto:=drive`) moves all five of its topics;
//! - `_param:=value` sets the private parameter `~param` (the value read as YAML: a
//!   number, a bool or a string).
//!
//! Names resolve as in roscpp: `/a/b` is global, `~x` private (under the node's own
//! name), anything else relative to the node's namespace (or a node handle's), and
//! doubled or trailing slashes are cleaned away. A name that is not legal (roscpp's
//! check: a letter, `/` or `~` first, then letters, digits, `_` and `/`) is an error that
//! says so, never a panic.

use std::collections::BTreeMap;
use std::fmt;

/// A name that is not a ROS name, or an argument that is not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Not a legal graph resource name.
    #[error("`{name}` is not a ROS name{context}: expected letters, digits, _ and /, starting with a letter, / or ~")]
    Illegal {
        /// the name
        name: String,
        /// where it was given (`in the remap a:=b`)
        context: String,
    },
    /// A special argument with a bad value.
    #[error("{arg}: {why}")]
    BadArgument {
        /// the argument
        arg: String,
        /// what is wrong
        why: String,
    },
}

/// A private parameter value from `_name:=value`.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// a whole number
    Int(i32),
    /// a number
    Double(f64),
    /// `true` / `false`
    Bool(bool),
    /// anything else
    Str(String),
}

impl ParamValue {
    /// The value as YAML reads it (`3`, `2.5`, `true`, else the text).
    pub fn parse(text: &str) -> Self {
        match text {
            "true" | "True" => return ParamValue::Bool(true),
            "false" | "False" => return ParamValue::Bool(false),
            _ => {}
        }
        if let Ok(i) = text.parse::<i32>() {
            return ParamValue::Int(i);
        }
        match text.parse::<f64>() {
            Ok(d) if text.chars().any(|c| c.is_ascii_digit()) => ParamValue::Double(d),
            _ => ParamValue::Str(
                text.strip_prefix('\'')
                    .and_then(|t| t.strip_suffix('\''))
                    .or_else(|| text.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
                    .unwrap_or(text)
                    .to_string(),
            ),
        }
    }
}

impl From<ParamValue> for crate::xmlrpc::Value {
    fn from(p: ParamValue) -> Self {
        use crate::xmlrpc::Value;
        match p {
            ParamValue::Int(i) => Value::Int(i),
            ParamValue::Double(d) => Value::Double(d),
            ParamValue::Bool(b) => Value::Bool(b),
            ParamValue::Str(s) => Value::Str(s),
        }
    }
}

/// What the ROS arguments of a command line say.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RosArgs {
    /// `__name`
    pub name: Option<String>,
    /// `__ns`
    pub namespace: Option<String>,
    /// `__master`
    pub master: Option<String>,
    /// `__ip` or `__hostname` (the host put in the node's URIs)
    pub host: Option<String>,
    /// `__log`
    pub log: Option<String>,
    /// `from:=to` in order, unresolved
    pub remaps: Vec<(String, String)>,
    /// `_param:=value`
    pub params: Vec<(String, ParamValue)>,
}

impl RosArgs {
    /// Take the ROS arguments (`x:=y`) out of `args`; the others are returned in order.
    pub fn extract(
        args: impl IntoIterator<Item = String>,
    ) -> Result<(Self, Vec<String>), NameError> {
        let mut ra = RosArgs::default();
        let mut rest = Vec::new();
        for a in args {
            let Some((k, v)) = a.split_once(":=") else {
                rest.push(a);
                continue;
            };
            let bad = |why: &str| NameError::BadArgument {
                arg: a.clone(),
                why: why.to_string(),
            };
            match k {
                "__name" => {
                    if !is_base_name(v) {
                        return Err(bad("a node name is one part: letters, digits and _, starting with a letter"));
                    }
                    ra.name = Some(v.to_string());
                }
                "__ns" => ra.namespace = Some(v.to_string()),
                "__master" => {
                    if !v.starts_with("http://") {
                        return Err(bad("the master is a URI such as http://127.0.0.1:11311"));
                    }
                    ra.master = Some(v.to_string());
                }
                "__ip" | "__hostname" => {
                    if v.is_empty() {
                        return Err(bad("an empty host"));
                    }
                    ra.host = Some(v.to_string());
                }
                "__log" => ra.log = Some(v.to_string()),
                k if k.starts_with("__") => {
                    // other special arguments of roscpp (__id, ...) are ignored, as rospy does
                    tracing::debug!("ignoring the ROS argument {a}");
                }
                k if k.starts_with('_') && !k.starts_with("__") => {
                    let p = &k[1..];
                    if !is_base_name(p) {
                        return Err(bad("a private parameter's name is letters, digits and _"));
                    }
                    ra.params.push((p.to_string(), ParamValue::parse(v)));
                }
                _ => ra.remaps.push((k.to_string(), v.to_string())),
            }
        }
        Ok((ra, rest))
    }
}

static PROCESS: std::sync::OnceLock<Result<RosArgs, NameError>> = std::sync::OnceLock::new();

/// Take the ROS arguments out of the process's command line (`std::env::args`), keep them
/// for every node of the process ([`crate::NodeConfig::from_env`] applies them, as
/// rospy reads `sys.argv`), and return the other arguments, the program's own, in order.
/// Call it once, before parsing the command line; a bad ROS argument is reported by
/// [`crate::Node::new`] (and by [`process_args_error`]). Everything from a
/// `--ros-args` on is ROS 2's (`-r __node:=NAME`) and stays where it is.
pub fn take_process_args() -> Vec<std::ffi::OsString> {
    let (ros, rest) = split_ros1_args(std::env::args_os().collect());
    let _ = PROCESS.set(RosArgs::extract(ros).map(|(a, _)| a));
    rest
}

/// `args` (the program's name first) split into the ROS 1 arguments (`a:=b` before any
/// `--ros-args`) and the others, in order.
pub fn split_ros1_args(args: Vec<std::ffi::OsString>) -> (Vec<String>, Vec<std::ffi::OsString>) {
    let ros2_from = args
        .iter()
        .position(|a| a == "--ros-args")
        .unwrap_or(args.len());
    let (ros, rest): (Vec<_>, Vec<_>) = args.into_iter().enumerate().partition(|(i, a)| {
        *i > 0 && *i < ros2_from && a.to_str().is_some_and(|s| s.contains(":="))
    });
    let ros = ros.into_iter().filter_map(|(_, a)| a.into_string().ok());
    (ros.collect(), rest.into_iter().map(|(_, a)| a).collect())
}

/// The ROS arguments [`take_process_args`] took (`None` before it ran, or when they were
/// bad).
pub fn process_args() -> Option<&'static RosArgs> {
    PROCESS.get().and_then(|r| r.as_ref().ok())
}

/// Why the process's ROS arguments were refused, if they were.
pub fn process_args_error() -> Option<&'static NameError> {
    PROCESS.get().and_then(|r| r.as_ref().err())
}

/// One part of a name: a letter, then letters, digits and `_` (a node's base name, a
/// private parameter's name).
pub fn is_base_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|c| c.is_ascii_alphabetic())
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether roscpp takes `s` as a graph name: empty (the namespace itself), or a letter,
/// `/` or `~` first, then letters, digits, `_` and `/` (doubled and trailing slashes are
/// cleaned away when it is resolved).
pub fn is_legal(s: &str) -> bool {
    let mut c = s.chars();
    match c.next() {
        None => true,
        Some(first) => {
            (first.is_ascii_alphabetic() || first == '/' || first == '~')
                && c.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/')
        }
    }
}

/// Whether `s` is a resolved name: global, legal and clean (`/a/b`, or `/`).
pub fn is_resolved(s: &str) -> bool {
    s.starts_with('/') && is_legal(s) && clean(s) == s
}

/// `s` as roscpp cleans a name, made global: one `/` before each part, none at the end
/// (`/` alone for the root).
fn clean(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 1);
    for part in s.split('/').filter(|p| !p.is_empty()) {
        out.push('/');
        out.push_str(part);
    }
    if out.is_empty() {
        out.push('/');
    }
    out
}

fn illegal(name: &str, context: impl Into<String>) -> NameError {
    NameError::Illegal {
        name: name.to_string(),
        context: context.into(),
    }
}

/// How a node resolves names, as roscpp does: its namespace, its full name and the
/// remappings. The node's names and a node handle's (in a namespace of its own) resolve
/// through it.
#[derive(Debug, Clone, PartialEq)]
pub struct Names {
    namespace: String,
    node: String,
    /// resolved from → resolved to
    remaps: BTreeMap<String, String>,
}

/// The remaps `from:=to` (in the order given) as roscpp applies them: one per `from` as
/// written, the last given (roscpp and rospy keep them in a map), in the order of the
/// `from`s (roscpp resolves them in that order into another map, so of two that resolve
/// to the same name, the later in that order wins); a remap of the node's own name
/// (`node`, its full name) is left out, as roscpp leaves it out.
pub fn remaps_in_roscpp_order<'a>(
    remaps: &'a [(String, String)],
    node: &str,
) -> impl Iterator<Item = (&'a str, &'a str)> {
    let mut by_name = BTreeMap::new();
    for (from, to) in remaps {
        if !from.is_empty() && from != node {
            by_name.insert(from.as_str(), to.as_str());
        }
    }
    by_name.into_iter()
}

impl fmt::Display for Names {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (namespace {})", self.node, self.namespace)
    }
}

impl Names {
    /// A node called `name` in `namespace` (put under `/` when relative; `/` when
    /// empty), with `remaps` (each side resolved in that namespace). `name` is a base
    /// name (`skipper`, as roscpp's node names are one part) or a default name written
    /// global (`/skipper`), which the namespace also moves (`/fleet/skipper`).
    pub fn new(
        name: &str,
        namespace: &str,
        remaps: &[(String, String)],
    ) -> Result<Self, NameError> {
        if !is_legal(namespace) || namespace.contains('~') {
            return Err(illegal(namespace, " (the namespace)"));
        }
        let ns = clean(namespace);
        let node = match name.strip_prefix('/') {
            Some(rel) if is_legal(name) && !rel.is_empty() && !rel.contains('~') => {
                clean(&format!("{ns}/{rel}"))
            }
            None if is_base_name(name) => clean(&format!("{ns}/{name}")),
            _ => return Err(illegal(name, " (the node name: one part, a letter first)")),
        };
        let namespace = match node.rsplit_once('/') {
            Some(("", _)) | None => "/".to_string(),
            Some((p, _)) => p.to_string(),
        };
        let mut me = Names {
            namespace,
            node,
            remaps: BTreeMap::new(),
        };
        for (from, to) in remaps_in_roscpp_order(remaps, &me.node) {
            let context = format!(" in the remap {from}:={to}");
            let f = me
                .plain(&me.namespace, from)
                .map_err(|_| illegal(from, &context))?;
            let t = me
                .plain(&me.namespace, to)
                .map_err(|_| illegal(to, &context))?;
            me.remaps.insert(f, t);
        }
        Ok(me)
    }

    /// The node's full name (`/ns/skipper`).
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The node's namespace (`/` or `/ns`).
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// Resolve `name` in the namespace `ns` (global) without remapping: global names
    /// stay, `~x` is under the node's name, the empty name is `ns` itself.
    fn plain(&self, ns: &str, name: &str) -> Result<String, NameError> {
        if !is_legal(name) {
            return Err(illegal(name, ""));
        }
        Ok(if name.starts_with('/') {
            clean(name)
        } else if let Some(p) = name.strip_prefix('~') {
            clean(&format!("{}/{p}", self.node))
        } else {
            clean(&format!("{ns}/{name}"))
        })
    }

    /// Resolve `name` (global, private or relative) in the node's namespace and apply
    /// the remappings.
    pub fn resolve(&self, name: &str) -> Result<String, NameError> {
        self.resolve_in(&self.namespace, name, true)
    }

    /// Resolve `name` in the namespace `ns` (a node handle's, global), then apply the
    /// remappings if `remap`.
    pub fn resolve_in(&self, ns: &str, name: &str, remap: bool) -> Result<String, NameError> {
        let full = self.plain(ns, name)?;
        Ok(match self.remaps.get(&full) {
            Some(to) if remap => to.clone(),
            _ => full,
        })
    }

    /// A node handle's namespace: `ns` resolved under `parent` without remapping
    /// (global names stay, `~` is the node's private namespace, empty is `parent`).
    pub fn child_namespace(&self, parent: &str, ns: &str) -> Result<String, NameError> {
        self.plain(parent, ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ros2_arguments_after_ros_args_stay_the_programs() {
        let args = [
            "skipper",
            "run",
            "__name:=a",
            "--ros2",
            "--ros-args",
            "-r",
            "__node:=b",
        ];
        let (ros, rest) = split_ros1_args(args.iter().map(std::ffi::OsString::from).collect());
        assert_eq!(ros, vec!["__name:=a".to_string()]);
        let rest: Vec<_> = rest.iter().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(
            rest,
            ["skipper", "run", "--ros2", "--ros-args", "-r", "__node:=b"]
        );
    }

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn roslaunch_arguments_are_taken_out() {
        let (a, rest) = RosArgs::extract(s(&[
            "run",
            "--ros",
            "__name:=fleet_exec",
            "__log:=/tmp/x.log",
            "__ns:=/fleet",
            "robot1/goto:=robot1/drive",
            "_rate:=5",
            "_frame:=map",
            "_on:=true",
            "_k:=0.5",
        ]))
        .unwrap();
        assert_eq!(rest, s(&["run", "--ros"]));
        assert_eq!(a.name.as_deref(), Some("fleet_exec"));
        assert_eq!(a.namespace.as_deref(), Some("/fleet"));
        assert_eq!(a.log.as_deref(), Some("/tmp/x.log"));
        assert_eq!(
            a.remaps,
            vec![("robot1/goto".into(), "robot1/drive".into())]
        );
        assert_eq!(
            a.params,
            vec![
                ("rate".into(), ParamValue::Int(5)),
                ("frame".into(), ParamValue::Str("map".into())),
                ("on".into(), ParamValue::Bool(true)),
                ("k".into(), ParamValue::Double(0.5)),
            ]
        );
        assert!(RosArgs::extract(s(&["__name:=a/b"])).is_err());
        assert!(RosArgs::extract(s(&["__master:=localhost"])).is_err());
    }

    #[test]
    fn names_resolve_as_roscpp_does() {
        let n = Names::new(
            "skipper",
            "/fleet",
            &[
                ("robot1/goto".into(), "robot1/drive".into()),
                ("/clock".into(), "/sim/clock".into()),
            ],
        )
        .unwrap();
        assert_eq!(n.node(), "/fleet/skipper");
        assert_eq!(n.resolve("robot1/pose").unwrap(), "/fleet/robot1/pose");
        assert_eq!(n.resolve("/tf").unwrap(), "/tf");
        assert_eq!(n.resolve("~rate").unwrap(), "/fleet/skipper/rate");
        assert_eq!(n.resolve("robot1/goto").unwrap(), "/fleet/robot1/drive");
        assert_eq!(
            n.resolve("/fleet/robot1/goto").unwrap(),
            "/fleet/robot1/drive"
        );
        assert_eq!(n.resolve("/clock").unwrap(), "/sim/clock");
        let root = Names::new("/skipper", "", &[]).unwrap();
        assert_eq!(root.namespace(), "/");
        assert_eq!(root.resolve("a").unwrap(), "/a");
        // roscpp's check: a letter, / or ~ first, then letters, digits, _ and /
        for bad in ["1a", "_a", "a b", "a~b", "a-b", "a/ü"] {
            assert!(n.resolve(bad).is_err(), "{bad}");
        }
        // doubled and trailing slashes are cleaned; the empty name is the namespace
        assert_eq!(n.resolve("a//b/").unwrap(), "/fleet/a/b");
        assert_eq!(n.resolve("a/1b").unwrap(), "/fleet/a/1b");
        assert_eq!(n.resolve("").unwrap(), "/fleet");
        assert_eq!(n.resolve("~/x").unwrap(), "/fleet/skipper/x");
        assert_eq!(n.resolve("~").unwrap(), "/fleet/skipper");
        let e = Names::new("skipper", "/", &[("goto".into(), "bad name".into())])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("`bad name` is not a ROS name in the remap goto:=bad name"),
            "{e}"
        );
        assert!(Names::new("skipper", "/n s", &[]).is_err());
        assert!(Names::new("skipper", "~ns", &[]).is_err());
        assert!(Names::new("a/b", "/", &[]).is_err());
        assert!(Names::new("9lives", "/", &[]).is_err());
        assert_eq!(
            Names::new("s", "fleet//a/", &[]).unwrap().node(),
            "/fleet/a/s"
        );
    }

    /// roscpp keeps the remaps in a map by the name as written (the last given wins) and
    /// resolves them in that map's order into another (of two that resolve alike, the
    /// later in that order wins: `/a` sorts before `a`); its own name is not remapped.
    #[test]
    fn remaps_of_one_name_resolve_as_in_roscpp() {
        let r = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(f, t)| (f.to_string(), t.to_string()))
                .collect()
        };
        let n = Names::new("n", "/", &r(&[("a", "/b"), ("a", "/c")])).unwrap();
        assert_eq!(n.resolve("a").unwrap(), "/c");
        let n = Names::new("n", "/", &r(&[("a", "/x"), ("/a", "/y")])).unwrap();
        assert_eq!(n.resolve("a").unwrap(), "/x");
        let n = Names::new("n", "/", &r(&[("/a", "/y"), ("a", "/x")])).unwrap();
        assert_eq!(n.resolve("a").unwrap(), "/x");
        let n = Names::new("n", "/", &r(&[("/n", "/m")])).unwrap();
        assert_eq!(n.resolve("/n").unwrap(), "/n");
    }

    /// A node handle's names: its namespace under a parent (global names stay, `~` is
    /// the node's own), names resolved in it with or without the remaps.
    #[test]
    fn node_handles_resolve_in_their_namespace() {
        let n = Names::new("talker", "robots", &[("chatter".into(), "/news".into())]).unwrap();
        assert_eq!(n.namespace(), "/robots");
        assert_eq!(n.resolve("chatter").unwrap(), "/news");
        assert_eq!(
            n.resolve_in("/robots", "chatter", false).unwrap(),
            "/robots/chatter"
        );
        let arm = n.child_namespace("/robots", "arm").unwrap();
        assert_eq!(arm, "/robots/arm");
        assert_eq!(
            n.resolve_in(&arm, "goal", true).unwrap(),
            "/robots/arm/goal"
        );
        assert_eq!(n.child_namespace("/robots", "~").unwrap(), "/robots/talker");
        assert_eq!(n.child_namespace("/robots", "/top").unwrap(), "/top");
        assert_eq!(n.child_namespace(&arm, "").unwrap(), "/robots/arm");
        assert!(n.child_namespace(&arm, "9").is_err());
    }

    #[test]
    fn resolved_names_are_global_legal_and_clean() {
        for good in ["/", "/a", "/a/b_1", "/a/1b"] {
            assert!(is_resolved(good), "{good}");
        }
        for bad in ["", "a", "/a/", "/a//b", "~a", "/a b", "/a~"] {
            assert!(!is_resolved(bad), "{bad}");
        }
    }
}
