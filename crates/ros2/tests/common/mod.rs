//! Tests that start DDS run their body in a child process inside a network namespace
//! of its own (`unshare -n`, loopback up, a multicast route on it): no packet leaves
//! it. Without namespaces (not root, no `unshare`) such a test says so and is skipped.

use std::process::Command;

const CHILD: &str = "SKIPPER_ROS2_NETNS_CHILD";

/// `true` in the child (run the body); in the parent, runs `test` in a fresh namespace,
/// asserts it passed and returns `false`.
pub fn in_netns(test: &str) -> bool {
    if std::env::var(CHILD).is_ok_and(|t| t == test) {
        return true;
    }
    let probe = Command::new("unshare").args(["-n", "true"]).status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!(
            "skipped {test}: network namespaces are not available here (needs root and unshare)"
        );
        return false;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new("unshare")
        .args([
            "-n",
            "sh",
            "-c",
            "ip link set lo up && ip route add 224.0.0.0/4 dev lo && exec \"$0\" \"$@\"",
        ])
        .arg(exe)
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD, test)
        .output()
        .expect("unshare runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{test} failed in its namespace:\n{text}\n{err}"
    );
    assert!(
        text.contains("1 passed"),
        "{test} did not run in its namespace:\n{text}"
    );
    false
}
