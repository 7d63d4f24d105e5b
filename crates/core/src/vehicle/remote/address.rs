//! A remote robot's address: the `/NAMESPACE[,OPTION...]` of `--vehicle
//! [NAME=]ros2:/NAMESPACE[,OPTION...]` (`ros1:` the same), read into the robot's
//! namespace, its name in the run, and the options that set how it is driven and
//! when it is stopped.

use super::{Bounds, DriveParams};
use std::collections::HashSet;

/// Where a robot is and how to drive it: `/NAMESPACE[,OPTION...]` after `ros2:` or
/// `ros1:`, named `NAME` if `NAME=` came first.
#[derive(Debug, Clone, PartialEq)]
pub struct RobotAddress {
    /// its namespace (`/bot`, or `/` for topics at the root)
    pub namespace: String,
    /// its name in the run (default: the namespace's last part and `_skipper`, so that a
    /// run serving it with `--ros2` or `--ros` puts its own topics beside the robot's,
    /// not on them)
    pub name: String,
    /// `stamped` / `twist`: the type of `cmd_vel` (default: ROS 2 asks the robot's reader;
    /// ROS 1 Twist)
    pub stamped: Option<bool>,
    /// `use_sim_time`: the robot's time is `/clock`
    pub use_sim_time: bool,
    /// `stale=`, `give_up=`, `wait=`, `controller_timeout=`
    pub bounds: Bounds,
    /// `track=`, `max_speed=`, `max_turn_rate=`
    pub drive: DriveParams,
}

impl RobotAddress {
    /// Read `/NAMESPACE[,OPTION...]` (after `SCHEME:`, which error messages name), named
    /// `name` if given.
    pub fn parse(scheme: &str, name: Option<&str>, rest: &str) -> Result<Self, String> {
        let mut parts = rest.split(',');
        let ns = parts.next().unwrap_or_default();
        if !ns.starts_with('/') {
            return Err(format!(
                "{scheme}:{rest}: expected {scheme}:/NAMESPACE (a ROS namespace such as /bot, or / for a robot whose topics are /odom, /scan, /cmd_vel)"
            ));
        }
        let trimmed = ns.trim_end_matches('/');
        let ok = trimmed.split('/').skip(1).all(|p| {
            p.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        if !ok {
            return Err(format!(
                "{scheme}:{ns}: not a ROS namespace (parts of letters, digits and _, each starting with a letter or _)"
            ));
        }
        let last = trimmed.rsplit('/').next().filter(|l| !l.is_empty());
        let mut r = Self {
            namespace: if trimmed.is_empty() {
                "/".into()
            } else {
                trimmed.into()
            },
            name: match (name, last) {
                (Some(n), _) => n.to_string(),
                (None, Some(l)) => format!("{l}_skipper"),
                (None, None) => "robot_skipper".into(),
            },
            stamped: None,
            use_sim_time: false,
            bounds: Bounds::default(),
            drive: DriveParams::default(),
        };
        if r.name.is_empty() {
            return Err(format!("{scheme}:{rest}: an empty robot name before `=`"));
        }
        for opt in parts {
            r.option(opt)
                .map_err(|why| format!("{scheme}:{rest}: option `{opt}`: {why}"))?;
        }
        Ok(r)
    }

    /// Check that `robots` can run together: names and namespaces unique, and one clock
    /// for all (`use_sim_time` on all or none). Whether that clock is the robots' own.
    pub fn fleet_clock(robots: &[&RobotAddress]) -> Result<bool, String> {
        let mut names = HashSet::new();
        let mut spaces = HashSet::new();
        for r in robots {
            if !names.insert(r.name.as_str()) {
                return Err(format!(
                    "two robots named `{}`: name one with NAME=ros2:/NAMESPACE",
                    r.name
                ));
            }
            if !spaces.insert(r.namespace.as_str()) {
                return Err(format!("the robot at {} is given twice", r.namespace));
            }
        }
        let sim = robots.iter().filter(|r| r.use_sim_time).count();
        if sim != 0 && sim != robots.len() {
            return Err(
                "use_sim_time on some robots and not others: the robots of a run share one clock"
                    .into(),
            );
        }
        Ok(sim != 0)
    }

    fn option(&mut self, opt: &str) -> Result<(), String> {
        let duration = |v: &str| {
            crate::time::parse_duration(v)
                .map_err(|e| e.to_string())
                .and_then(|d| {
                    if d.is_zero() {
                        Err("a duration above 0 (`500ms`, `2s`)".to_string())
                    } else {
                        Ok(d)
                    }
                })
        };
        let number = |v: &str| match v.parse::<f64>() {
            Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
            _ => Err(format!("`{v}` is not a number above 0")),
        };
        match opt.split_once('=') {
            None if opt == "stamped" => self.stamped = Some(true),
            None if opt == "twist" => self.stamped = Some(false),
            None if opt == "use_sim_time" => self.use_sim_time = true,
            Some(("stale", v)) => self.bounds.stale_after = duration(v)?,
            Some(("give_up", v)) => self.bounds.give_up_after = duration(v)?,
            Some(("wait", v)) => self.bounds.appear_within = duration(v)?,
            Some(("controller_timeout", v)) => self.bounds.controller_timeout = duration(v)?,
            Some(("track", v)) => self.drive.track = number(v)?,
            Some(("max_speed", v)) => self.drive.max_speed = number(v)?,
            Some(("max_turn_rate", v)) => self.drive.max_turn_rate = number(v)?,
            _ => {
                return Err("expected stamped, twist, use_sim_time, stale=DURATION, give_up=DURATION, wait=DURATION, controller_timeout=DURATION, track=M, max_speed=M/S or max_turn_rate=RAD/S".into())
            }
        }
        if self.bounds.give_up_after < self.bounds.stale_after {
            return Err(format!(
                "give_up ({:?}) must not be shorter than stale ({:?})",
                self.bounds.give_up_after, self.bounds.stale_after
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn ros2(name: Option<&str>, rest: &str) -> RobotAddress {
        RobotAddress::parse("ros2", name, rest).unwrap_or_else(|e| panic!("{rest}: {e}"))
    }

    #[test]
    fn addresses_read_with_their_names_and_options() {
        let r = ros2(None, "/bot");
        assert_eq!(
            (r.namespace.as_str(), r.name.as_str()),
            ("/bot", "bot_skipper")
        );
        assert_eq!((r.stamped, r.use_sim_time), (None, false));
        assert_eq!(r.bounds, Bounds::default());
        let r = ros2(
            Some("alpha"),
            "/site/bot2/,stamped,use_sim_time,stale=250ms,give_up=3s,wait=20s,track=0.16,max_speed=0.22",
        );
        assert_eq!(
            (r.namespace.as_str(), r.name.as_str()),
            ("/site/bot2", "alpha")
        );
        assert_eq!((r.stamped, r.use_sim_time), (Some(true), true));
        assert_eq!(r.bounds.stale_after, Duration::from_millis(250));
        assert_eq!(r.bounds.give_up_after, Duration::from_secs(3));
        assert_eq!(r.bounds.appear_within, Duration::from_secs(20));
        assert_eq!((r.drive.track, r.drive.max_speed), (0.16, 0.22));
        let r = ros2(None, "/");
        assert_eq!(
            (r.namespace.as_str(), r.name.as_str()),
            ("/", "robot_skipper")
        );
        assert_eq!(ros2(None, "/bot,twist").stamped, Some(false));
    }

    #[test]
    fn a_fleet_has_unique_names_and_namespaces_and_one_clock() {
        let (a, b) = (ros2(None, "/a"), ros2(None, "/b"));
        assert_eq!(RobotAddress::fleet_clock(&[&a, &b]), Ok(false));
        let (sa, sb) = (ros2(None, "/a,use_sim_time"), ros2(None, "/b,use_sim_time"));
        assert_eq!(RobotAddress::fleet_clock(&[&sa, &sb]), Ok(true));
        let e = RobotAddress::fleet_clock(&[&a, &sb]).unwrap_err();
        assert!(e.contains("share one clock"), "{e}");
        let named_a = ros2(Some("a_skipper"), "/c");
        let e = RobotAddress::fleet_clock(&[&a, &named_a]).unwrap_err();
        assert!(e.contains("two robots named `a_skipper`"), "{e}");
        let other_name = ros2(Some("x"), "/a");
        let e = RobotAddress::fleet_clock(&[&a, &other_name]).unwrap_err();
        assert!(e.contains("the robot at /a is given twice"), "{e}");
    }

    #[test]
    fn bad_addresses_say_what_was_expected() {
        for (name, rest, says) in [
            (None, "bot", "expected ros2:/NAMESPACE"),
            (None, "/1bot", "not a ROS namespace"),
            (None, "/bot-1", "not a ROS namespace"),
            (None, "/a//b", "not a ROS namespace"),
            (None, "/bot,fast", "option `fast`: expected stamped"),
            (None, "/bot,stale=0s", "a duration above 0"),
            (None, "/bot,stale=soon", "option `stale=soon`"),
            (None, "/bot,track=-1", "not a number above 0"),
            (None, "/bot,stale=6s", "give_up"),
            (Some(""), "/bot", "an empty robot name"),
        ] {
            let e = RobotAddress::parse("ros2", name, rest).unwrap_err();
            assert!(e.contains(says), "{rest}: {e}");
        }
    }
}
