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
//! name), anything else relative to the node's namespace. A name that is not legal
//! (parts of letters, digits and `_`, each starting with a letter) is an error that says
//! so, never a panic.

use std::collections::BTreeMap;
use std::fmt;

/// A name that is not a ROS name, or an argument that is not understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Not a legal graph resource name.
    #[error("`{name}` is not a ROS name{context}: expected parts of letters, digits and _ separated by /, each starting with a letter (a ~ or / may lead)")]
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

impl From<ParamValue> for crate::ros1::xmlrpc::Value {
    fn from(p: ParamValue) -> Self {
        use crate::ros1::xmlrpc::Value;
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
/// for every node of the process ([`crate::ros1::NodeConfig::from_env`] applies them, as
/// rospy reads `sys.argv`), and return the other arguments, the program's own, in order.
/// Call it once, before parsing the command line; a bad ROS argument is reported by
/// [`crate::ros1::Node::new`] (and by [`process_args_error`]). Everything from a
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

/// One part of a name: a letter, then letters, digits and `_`.
pub fn is_base_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|c| c.is_ascii_alphabetic())
        && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `s` is a legal graph name (relative, global `/a/b` or private `~a`).
pub fn is_legal(s: &str) -> bool {
    let body = s
        .strip_prefix('~')
        .or_else(|| s.strip_prefix('/'))
        .unwrap_or(s);
    if body.is_empty() {
        return s == "/";
    }
    !body.ends_with('/') && body.split('/').all(is_base_name)
}

fn illegal(name: &str, context: impl Into<String>) -> NameError {
    NameError::Illegal {
        name: name.to_string(),
        context: context.into(),
    }
}

/// How a node resolves names: its namespace, its full name and the remappings.
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

fn join(ns: &str, rel: &str) -> String {
    if ns == "/" {
        format!("/{rel}")
    } else {
        format!("{ns}/{rel}")
    }
}

impl Names {
    /// A node called `name` (a base name, or an absolute name whose parent is its
    /// namespace) in `namespace` (`/` when empty), with `remaps` (each side resolved in
    /// that namespace).
    pub fn new(
        name: &str,
        namespace: &str,
        remaps: &[(String, String)],
    ) -> Result<Self, NameError> {
        let ns = match namespace.trim_end_matches('/') {
            "" => "/".to_string(),
            n if n.starts_with('/') => n.to_string(),
            n => format!("/{n}"),
        };
        if !is_legal(&ns) || ns.starts_with("/~") {
            return Err(illegal(namespace, " (the namespace)"));
        }
        let node = if let Some(abs) = name.strip_prefix('/') {
            if !is_legal(name) || abs.is_empty() {
                return Err(illegal(name, " (the node name)"));
            }
            // an absolute node name keeps its own namespace
            if ns == "/" {
                name.to_string()
            } else {
                join(&ns, abs)
            }
        } else if is_legal(name) && !name.starts_with('~') {
            join(&ns, name)
        } else {
            return Err(illegal(name, " (the node name)"));
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
            let f = me.plain(from).map_err(|_| illegal(from, &context))?;
            let t = me.plain(to).map_err(|_| illegal(to, &context))?;
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

    /// Resolve without remapping.
    fn plain(&self, name: &str) -> Result<String, NameError> {
        if !is_legal(name) {
            return Err(illegal(name, ""));
        }
        Ok(if name.starts_with('/') {
            name.to_string()
        } else if let Some(p) = name.strip_prefix('~') {
            join(&self.node, p)
        } else {
            join(&self.namespace, name)
        })
    }

    /// Resolve `name` (global, private or relative) and apply the remappings.
    pub fn resolve(&self, name: &str) -> Result<String, NameError> {
        let r = self.plain(name)?;
        Ok(self.remaps.get(&r).cloned().unwrap_or(r))
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
        for bad in ["1a", "a//b", "a/", "a b", "", "~/x"] {
            assert!(n.resolve(bad).is_err(), "{bad}");
        }
        let e = Names::new("skipper", "/", &[("goto".into(), "bad name".into())])
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("`bad name` is not a ROS name in the remap goto:=bad name"),
            "{e}"
        );
        assert!(Names::new("skipper", "/9ns", &[]).is_err());
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
}
