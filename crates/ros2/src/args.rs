//! The node's identity and settings the way every ROS 2 program takes them: the domain
//! from `ROS_DOMAIN_ID`, and `--ros-args -r __node:=NAME -r __ns:=/NS -r from:=to -p
//! name:=value` on the command line (rcl's argument syntax; `--remap`/`--param` too).

use crate::error::Ros2Error;

/// A `-p name:=value` parameter's value, typed the way rcl types YAML scalars.
#[derive(Debug, Clone, PartialEq)]
pub enum ParamValue {
    /// `true` / `false`
    Bool(bool),
    /// an integer
    Int(i64),
    /// a number with a point or exponent
    Double(f64),
    /// anything else (quotes removed)
    Str(String),
}

impl ParamValue {
    /// Parse a value as rcl does for `-p`: booleans, integers, doubles, else a string.
    pub fn parse(text: &str) -> Self {
        match text {
            "true" | "True" | "TRUE" => return Self::Bool(true),
            "false" | "False" | "FALSE" => return Self::Bool(false),
            _ => {}
        }
        if let Ok(i) = text.parse::<i64>() {
            return Self::Int(i);
        }
        if let Ok(f) = text.parse::<f64>() {
            return Self::Double(f);
        }
        let unquoted = text
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .or_else(|| text.strip_prefix('"').and_then(|t| t.strip_suffix('"')))
            .unwrap_or(text);
        Self::Str(unquoted.to_string())
    }
}

/// What `--ros-args` and the environment say about the node.
#[derive(Debug, Clone, PartialEq)]
pub struct RosArgs {
    /// `__node:=` (default: the program's)
    pub node_name: Option<String>,
    /// `__ns:=` (default `/`)
    pub namespace: Option<String>,
    /// topic and service remaps `from:=to`, in order
    pub remaps: Vec<(String, String)>,
    /// `-p name:=value`
    pub params: Vec<(String, ParamValue)>,
    /// `ROS_DOMAIN_ID` (default 0)
    pub domain_id: u16,
}

impl RosArgs {
    /// From the process's `--ros-args` section(s) in `args` (everything else ignored)
    /// and `ROS_DOMAIN_ID` as given.
    pub fn parse<S: AsRef<str>>(args: &[S], domain_env: Option<&str>) -> Result<Self, Ros2Error> {
        let domain_id = parse_domain(domain_env)?;
        let mut out = Self {
            node_name: None,
            namespace: None,
            remaps: Vec::new(),
            params: Vec::new(),
            domain_id,
        };
        let mut in_ros = false;
        let mut it = args.iter().map(AsRef::as_ref);
        while let Some(a) = it.next() {
            match a {
                "--ros-args" => in_ros = true,
                "--" if in_ros => in_ros = false,
                "-r" | "--remap" if in_ros => out.remap(it.next())?,
                "-p" | "--param" if in_ros => out.param(it.next())?,
                _ if in_ros => {
                    return Err(Ros2Error::Config(format!(
                    "--ros-args: `{a}` is not supported here (use -r FROM:=TO or -p NAME:=VALUE)"
                )))
                }
                _ => {}
            }
        }
        Ok(out)
    }

    /// From this process's command line and environment.
    pub fn from_env() -> Result<Self, Ros2Error> {
        let args: Vec<String> = std::env::args().collect();
        Self::parse(&args, std::env::var("ROS_DOMAIN_ID").ok().as_deref())
    }

    fn remap(&mut self, rule: Option<&str>) -> Result<(), Ros2Error> {
        let (from, to) = split_rule(rule, "-r")?;
        match from {
            "__node" | "__name" => {
                crate::names::check_node_name(to).map_err(|why| {
                    Ros2Error::Config(format!("--ros-args -r {from}:={to}: {why}"))
                })?;
                self.node_name = Some(to.to_string())
            }
            "__ns" => {
                crate::names::check_namespace(to)
                    .map_err(|why| Ros2Error::Config(format!("--ros-args -r __ns:={to}: {why}")))?;
                self.namespace = Some(to.to_string())
            }
            _ => self.remaps.push((from.to_string(), to.to_string())),
        }
        Ok(())
    }

    fn param(&mut self, rule: Option<&str>) -> Result<(), Ros2Error> {
        let (name, value) = split_rule(rule, "-p")?;
        self.params
            .push((name.to_string(), ParamValue::parse(value)));
        Ok(())
    }

    /// A name after the remaps: a rule matches the name as written (`cmd_vel`) or
    /// fully qualified (`/robot1/cmd_vel`).
    pub fn remapped(&self, written: &str, qualified: &str) -> String {
        for (from, to) in &self.remaps {
            if from == written || from == qualified {
                return to.clone();
            }
        }
        qualified.to_string()
    }

    /// The value of `-p name:=...`, the last one given.
    pub fn param_value(&self, name: &str) -> Option<&ParamValue> {
        self.params
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }
}

fn split_rule<'a>(rule: Option<&'a str>, flag: &str) -> Result<(&'a str, &'a str), Ros2Error> {
    let rule = rule.ok_or_else(|| {
        Ros2Error::Config(format!("--ros-args {flag} needs a NAME:=VALUE after it"))
    })?;
    match rule.split_once(":=") {
        Some((a, b)) if !a.is_empty() => Ok((a, b)),
        _ => Err(Ros2Error::Config(format!(
            "--ros-args {flag} {rule}: expected NAME:=VALUE"
        ))),
    }
}

/// `ROS_DOMAIN_ID`: unset or empty is 0; otherwise 0-232 (the ids whose ports fit, as
/// rmw_fastrtps_cpp checks).
pub fn parse_domain(v: Option<&str>) -> Result<u16, Ros2Error> {
    match v.map(str::trim) {
        None | Some("") => Ok(0),
        Some(t) => match t.parse::<u16>() {
            Ok(d) if d <= 232 => Ok(d),
            _ => Err(Ros2Error::Config(format!(
                "ROS_DOMAIN_ID={t}: a domain id is a number from 0 to 232"
            ))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ros_args_set_name_namespace_remaps_and_params() {
        let a = RosArgs::parse(
            &[
                "skipper",
                "run",
                "--ros2",
                "--ros-args",
                "-r",
                "__node:=fleet_a",
                "-r",
                "__ns:=/site1",
                "-r",
                "/robot1/cmd_vel:=/teleop",
                "-p",
                "cmd_vel_timeout:=0.8",
                "-p",
                "stamped_cmd_vel:=true",
                "--",
                "--until",
                "10",
            ],
            Some("7"),
        )
        .unwrap();
        assert_eq!(a.node_name.as_deref(), Some("fleet_a"));
        assert_eq!(a.namespace.as_deref(), Some("/site1"));
        assert_eq!(a.domain_id, 7);
        assert_eq!(a.remapped("cmd_vel", "/robot1/cmd_vel"), "/teleop");
        assert_eq!(a.remapped("odom", "/robot1/odom"), "/robot1/odom");
        assert_eq!(
            a.param_value("cmd_vel_timeout"),
            Some(&ParamValue::Double(0.8))
        );
        assert_eq!(
            a.param_value("stamped_cmd_vel"),
            Some(&ParamValue::Bool(true))
        );
    }

    #[test]
    fn bad_ros_args_and_domains_are_errors() {
        for bad in [
            &["--ros-args", "-r"][..],
            &["--ros-args", "-r", "nothing"],
            &["--ros-args", "-r", "__ns:=relative"],
            &["--ros-args", "-r", "__ns:=/9bad"],
            &["--ros-args", "-r", "__node:=bad-name"],
            &["--ros-args", "--log-level", "debug"],
        ] {
            assert!(RosArgs::parse(bad, None).is_err(), "{bad:?}");
        }
        assert_eq!(parse_domain(None).unwrap(), 0);
        assert_eq!(parse_domain(Some("")).unwrap(), 0);
        assert!(parse_domain(Some("233")).is_err());
        assert!(parse_domain(Some("x")).is_err());
    }

    #[test]
    fn param_values_are_typed_like_rcl() {
        assert_eq!(ParamValue::parse("3"), ParamValue::Int(3));
        assert_eq!(ParamValue::parse("3.5"), ParamValue::Double(3.5));
        assert_eq!(ParamValue::parse("false"), ParamValue::Bool(false));
        assert_eq!(ParamValue::parse("'x y'"), ParamValue::Str("x y".into()));
    }
}
