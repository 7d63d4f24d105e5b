//! ROS 2's rules for node names, namespaces and absolute names (topics, services,
//! actions), checked before a name reaches ros2-client, which panics on some names it
//! does not take (a namespace part that starts with a digit). Each error says which part
//! is wrong and why.
//!
//! The rules are rcl's: a part (a node name, a namespace's or name's piece between
//! slashes) is letters, digits and `_` and does not start with a digit; a namespace is
//! `/` or starts with `/` and does not end with one; no part is empty (`//`). One more,
//! ros2-client's: no part holds `__` (rcl keeps `__` for `__node`, `__ns` and the like).

/// Why `part` cannot be one part of a ROS 2 name.
fn check_part(part: &str) -> Result<(), String> {
    let Some(first) = part.chars().next() else {
        return Err("a part is empty (`//`, or `/` at the end)".into());
    };
    if let Some(c) = part
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_'))
    {
        return Err(format!(
            "`{c}` in `{part}`: a part holds letters, digits and _ only"
        ));
    }
    if first.is_ascii_digit() {
        return Err(format!("`{part}` starts with a digit"));
    }
    if part.contains("__") {
        return Err(format!("`{part}` holds `__`, which ROS 2 keeps for itself"));
    }
    Ok(())
}

/// Why `name` cannot be a node's name (`skipper`, `fleet_a`).
pub fn check_node_name(name: &str) -> Result<(), String> {
    if name.contains('/') {
        return Err(format!(
            "node name `{name}`: a node name has no `/` (give the namespace with __ns)"
        ));
    }
    check_part(name).map_err(|why| format!("node name `{name}`: {why}"))
}

/// Why `ns` cannot be a namespace (`/`, `/site`, `/site/a`).
pub fn check_namespace(ns: &str) -> Result<(), String> {
    if ns == "/" {
        return Ok(());
    }
    let Some(rest) = ns.strip_prefix('/') else {
        return Err(format!("namespace `{ns}`: a namespace starts with /"));
    };
    rest.split('/')
        .try_for_each(check_part)
        .map_err(|why| format!("namespace `{ns}`: {why}"))
}

/// Why `name` cannot be a topic, service or action name, absolute (`/robot1/goto`) or
/// relative to a namespace (`goto`, `robot1/goto`).
pub fn check_name(name: &str) -> Result<(), String> {
    name.strip_prefix('/')
        .unwrap_or(name)
        .split('/')
        .try_for_each(check_part)
        .map_err(|why| format!("`{name}` is not a ROS 2 name: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_names_pass() {
        for n in ["skipper", "fleet_a", "_x", "a1"] {
            assert_eq!(check_node_name(n), Ok(()), "{n}");
        }
        for ns in ["/", "/site", "/site/host_2"] {
            assert_eq!(check_namespace(ns), Ok(()), "{ns}");
        }
        for n in [
            "/robot1/goto",
            "/goal_pose",
            "/host1/robot5/run_option",
            "odom_raw",
        ] {
            assert_eq!(check_name(n), Ok(()), "{n}");
        }
    }

    #[test]
    fn bad_names_say_which_part_and_why() {
        type Check = fn(&str) -> Result<(), String>;
        let (ns, node, name): (Check, Check, Check) =
            (check_namespace, check_node_name, check_name);
        for (check, bad, why) in [
            (ns, "/9bad", "`9bad` starts with a digit"),
            (ns, "/a__b", "`a__b` holds `__`"),
            (ns, "/site/", "a part is empty"),
            (ns, "//site", "a part is empty"),
            (ns, "/si te", "` ` in `si te`"),
            (ns, "site", "starts with /"),
            (node, "bad-name", "`-` in `bad-name`"),
            (node, "2x", "starts with a digit"),
            (node, "a/b", "has no `/`"),
            (node, "", "a part is empty"),
            (name, "/bad name/goto", "` ` in `bad name`"),
            (name, "robot1/goto/", "a part is empty"),
            (name, "", "a part is empty"),
            (name, "/robot1//goto", "a part is empty"),
            (name, "/robot1/goto/", "a part is empty"),
        ] {
            let e = check(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
