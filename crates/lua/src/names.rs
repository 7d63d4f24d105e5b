//! ROS graph names for a script's node, as roscpp resolves them: the node's name and
//! namespace (`ros.init`'s name, `ROS_NAMESPACE`, the `__name:=` / `__ns:=` arguments),
//! remaps (`from:=to` among the script's arguments or in `ros.init`'s table), and
//! resolution of a name in a node handle's namespace (the arguments themselves are read
//! by [`skipper_actionlib::ros1::names::RosArgs`]): `/a/b` is global, `~x` private
//! (under the node's name), anything else relative to the namespace.

use skipper_actionlib::ros1::names::remaps_in_roscpp_order;
use skipper_actionlib::ros1::node::check_name;
use std::collections::BTreeMap;

/// A node's names: its full name, its namespace and its remaps (resolved).
#[derive(Debug, Clone)]
pub(crate) struct Names {
    node: String,
    namespace: String,
    remaps: BTreeMap<String, String>,
}

/// `ns` + `/` + `name`, with one slash.
fn join(ns: &str, name: &str) -> String {
    if name.is_empty() {
        return ns.to_string();
    }
    format!("{}/{name}", ns.trim_end_matches('/'))
}

fn clean(name: &str) -> String {
    let mut s = String::with_capacity(name.len());
    for part in name.split('/').filter(|p| !p.is_empty()) {
        s.push('/');
        s.push_str(part);
    }
    if s.is_empty() {
        s.push('/');
    }
    s
}

impl Names {
    /// The node `name` in `namespace` (both may be relative: they are put under `/`),
    /// with `remaps` resolved in that namespace.
    pub fn new(name: &str, namespace: &str, remaps: &[(String, String)]) -> Result<Self, String> {
        let namespace = clean(&format!("/{namespace}"));
        if name.contains('/') && !name.starts_with('/') {
            return Err(format!(
                "`{name}` is not a node name (a base name without `/` or a global name)"
            ));
        }
        let node = if name.starts_with('/') {
            clean(name)
        } else {
            clean(&join(&namespace, name))
        };
        check_name(&node).map_err(|e| e.to_string())?;
        if namespace != "/" {
            check_name(&namespace).map_err(|e| e.to_string())?;
        }
        let mut me = Self {
            node,
            namespace,
            remaps: BTreeMap::new(),
        };
        let ns = me.namespace.clone();
        for (from, to) in remaps_in_roscpp_order(remaps, &me.node) {
            let f = me.plain(&ns, from)?;
            let t = me.plain(&ns, to)?;
            me.remaps.insert(f, t);
        }
        Ok(me)
    }

    /// The node's full name (`/ns/name`).
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The node's namespace (`/` or `/ns`).
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// Resolve without remapping.
    fn plain(&self, ns: &str, name: &str) -> Result<String, String> {
        let full = if let Some(rest) = name.strip_prefix('~') {
            join(&self.node, rest.trim_start_matches('/'))
        } else if name.starts_with('/') {
            name.to_string()
        } else {
            join(ns, name)
        };
        let full = clean(&full);
        check_name(&full).map_err(|e| e.to_string())?;
        Ok(full)
    }

    /// Resolve `name` in the namespace `ns` (absolute), then apply the remaps.
    pub fn resolve(&self, ns: &str, name: &str, remap: bool) -> Result<String, String> {
        let full = self.plain(ns, name)?;
        if remap {
            if let Some(to) = self.remaps.get(&full) {
                return Ok(to.clone());
            }
        }
        Ok(full)
    }

    /// A node handle's namespace: `ns` resolved under `parent` (absolute names stay,
    /// `~` is the node's private namespace).
    pub fn child_namespace(&self, parent: &str, ns: &str) -> Result<String, String> {
        if ns.is_empty() {
            return Ok(parent.to_string());
        }
        self.plain(parent, ns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_as_roscpp_resolves_them() {
        let n = Names::new("talker", "robots", &[("chatter".into(), "/news".into())]).unwrap();
        assert_eq!(n.node(), "/robots/talker");
        assert_eq!(n.namespace(), "/robots");
        let ns = n.namespace().to_string();
        assert_eq!(n.resolve(&ns, "odom", true).unwrap(), "/robots/odom");
        assert_eq!(n.resolve(&ns, "/odom", true).unwrap(), "/odom");
        assert_eq!(
            n.resolve(&ns, "~debug", true).unwrap(),
            "/robots/talker/debug"
        );
        assert_eq!(n.resolve(&ns, "chatter", true).unwrap(), "/news");
        assert_eq!(n.resolve(&ns, "chatter", false).unwrap(), "/robots/chatter");
        let arm = n.child_namespace(&ns, "arm").unwrap();
        assert_eq!(n.resolve(&arm, "goal", true).unwrap(), "/robots/arm/goal");
        assert_eq!(n.child_namespace(&ns, "~").unwrap(), "/robots/talker");
        assert!(n.resolve(&ns, "9lives", true).is_err());
        assert!(Names::new("a/b", "", &[]).is_err());
        assert_eq!(Names::new("x", "", &[]).unwrap().node(), "/x");
    }

    /// A later remap of the same name wins, as in roscpp (whose `ros.init` torch-ros
    /// calls): `a:=/b a:=/c` remaps `a` to `/c`.
    #[test]
    fn the_last_remap_of_a_name_wins() {
        let r = vec![
            ("a".to_string(), "/b".to_string()),
            ("a".into(), "/c".into()),
        ];
        let n = Names::new("n", "", &r).unwrap();
        assert_eq!(n.resolve("/", "a", true).unwrap(), "/c");
    }
}
