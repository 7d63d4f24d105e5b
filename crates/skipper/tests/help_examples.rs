//! Every example in every `--help` works as written from the repository's root: the test
//! reads each command's help (`skipper --help`, then every subcommand's, as a user would),
//! takes the example lines (the `Examples:` block; `\` continues a line), and runs each
//! `skipper ...` line with `sh` in a directory that holds the repository's top-level
//! entries (linked), so the files they read are the repository's and the files they
//! write land in a scratch directory. Lines run in the order the help pages show them:
//! an example may read what an earlier one wrote (`report office.mcap`).
//!
//! Skipped, by rule (each still has every input file it names, checked when its turn
//! comes):
//! - lines that are not `skipper` (Graphviz's `dot`, a browser, ARIA's examples, the
//!   Soar bridge);
//! - lines that start a server, which runs until Ctrl-C (`serve`, `--serve`);
//! - lines that need a peer this test does not start: ROS (`run --ros`, `run --ros2`,
//!   `action send`, `lua --ros` or a `lua` script that joins a master with `ros.init`),
//!   a Soar kernel (`--soar`), a robot server (`--vehicle p2os://`);
//! - `run` lines that do not end by themselves: no `--until` and no controller that
//!   finishes (a mission, an XABSL agent), or paced by the wall clock (`--realtime`).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_skipper")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `skipper PATH... --help`.
fn help(path: &[String]) -> String {
    let out = Command::new(bin())
        .args(path)
        .arg("--help")
        .output()
        .expect("run skipper --help");
    assert!(out.status.success(), "skipper {path:?} --help failed");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The subcommands a help page lists under `Commands:` (clap's `help` aside).
fn subcommands(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // a command's line starts at column 2; a wrapped description further right
        .filter(|l| l.starts_with("  ") && !l[2..].starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// Every help page, depth first, in the order `--help` lists the commands.
fn pages(path: Vec<String>, out: &mut Vec<(String, String)>) {
    let text = help(&path);
    let subs = subcommands(&text);
    out.push((format!("skipper {}", path.join(" ")), text));
    for s in subs {
        let mut p = path.clone();
        p.push(s);
        pages(p, out);
    }
}

/// The example commands of a help page: the lines of its `Examples:` block that are not
/// comments, continued lines joined.
fn examples(text: &str) -> Vec<String> {
    let mut lines = text
        .lines()
        .skip_while(|l| l.trim() != "Examples:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty());
    let mut out = Vec::new();
    while let Some(l) = lines.next() {
        let mut cmd = l.trim().to_string();
        if cmd.starts_with('#') {
            continue;
        }
        // `\`, a trailing `&&` and an open quote go on on the next line
        while cmd.ends_with('\\') || cmd.ends_with("&&") || cmd.matches('\'').count() % 2 == 1 {
            if cmd.ends_with('\\') {
                cmd.pop();
            }
            let Some(next) = lines.next() else { break };
            cmd = format!("{} {}", cmd.trim_end(), next.trim());
        }
        out.push(cmd);
    }
    out
}

/// The words of a command line, quotes taken off (enough to find its arguments).
fn words(cmd: &str) -> Vec<String> {
    cmd.split_whitespace()
        .map(|w| w.trim_matches(|c| c == '\'' || c == '"').to_string())
        .collect()
}

/// Why an example line is not run, if it is not.
fn skip_reason(cmd: &str) -> Option<&'static str> {
    let w = words(cmd);
    let has = |s: &str| w.iter().any(|x| x == s);
    if w.first().map(String::as_str) != Some("skipper") {
        return Some("not skipper");
    }
    if has("serve") || has("--serve") {
        return Some("starts a server");
    }
    let command = w.get(1).map_or("", String::as_str);
    let ros = has("--ros") || has("--ros2");
    if command == "action"
        || (command == "run" && (ros || w.iter().any(|x| x.starts_with("p2os://"))))
        || (command == "lua" && ros)
    {
        return Some("needs ROS or a robot server");
    }
    if has("--soar") {
        return Some("needs Soar");
    }
    if command == "lua" {
        let script = w.iter().find(|x| x.ends_with(".lua"))?;
        let text = std::fs::read_to_string(root().join(script)).unwrap_or_default();
        if text.contains("ros.init(") {
            return Some("the script joins a ROS master");
        }
    }
    if command == "run" {
        let finishes = w
            .iter()
            .skip(2)
            .take_while(|x| x.as_str() != "&&")
            .any(|x| x.ends_with(".lua") || x.ends_with(".xabsl"));
        if has("--realtime") || !(has("--until") || finishes) {
            return Some("does not end by itself");
        }
    }
    None
}

/// The files a command line reads: arguments (or `KEY=` values) that name a file of the
/// kinds examples use, other than what an option or `>` writes.
fn inputs(cmd: &str) -> Vec<String> {
    const KINDS: [&str; 8] = [
        ".world", ".map", ".lua", ".xabsl", ".soar", ".jsonl", ".mcap", ".cfg",
    ];
    const WRITES: [&str; 7] = [
        "-o",
        "--output",
        "--log",
        "--summary-json",
        "--svg",
        ">",
        ">>",
    ];
    let w = words(cmd);
    let mut out = Vec::new();
    for (i, x) in w.iter().enumerate() {
        if i > 0 && WRITES.contains(&w[i - 1].as_str()) {
            continue;
        }
        let x = x.rsplit_once('=').map_or(x.as_str(), |(_, v)| v);
        if !x.contains("://") && KINDS.iter().any(|k| x.ends_with(k)) {
            out.push(x.to_string());
        }
    }
    out
}

/// A scratch directory that holds the repository's top-level entries as links.
fn scratch_root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(root()).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        if [".git", "target", "runs"].iter().any(|n| name == *n) {
            continue;
        }
        std::os::unix::fs::symlink(e.path(), dir.path().join(&name)).unwrap();
    }
    dir
}

#[test]
fn every_help_example_runs_from_the_repository_root() {
    let mut all = Vec::new();
    pages(Vec::new(), &mut all);
    assert!(all.len() > 15, "only {} help pages", all.len());
    let dir = scratch_root();
    let bin_dir = Path::new(bin()).parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut seen = HashSet::new();
    let (mut ran, mut skipped) = (0, 0);
    for (page, text) in &all {
        for cmd in examples(text) {
            if !seen.insert(cmd.clone()) {
                continue;
            }
            for f in inputs(&cmd) {
                assert!(
                    dir.path().join(&f).exists(),
                    "`{page} --help`: `{cmd}` reads {f}, which is not there"
                );
            }
            if let Some(why) = skip_reason(&cmd) {
                eprintln!("skipped ({why}): {cmd}");
                skipped += 1;
                continue;
            }
            let out = Command::new("sh")
                .arg("-c")
                .arg(&cmd)
                .current_dir(dir.path())
                .env("PATH", &path)
                .stdin(Stdio::null())
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "`{page} --help`: `{cmd}` failed ({}):\n{}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            ran += 1;
        }
    }
    eprintln!("{ran} examples ran, {skipped} skipped");
    assert!(ran >= 20, "only {ran} examples ran");
}

#[test]
fn the_example_reader_joins_continued_lines_and_drops_comments() {
    let text = "Usage: x\n\nExamples:\n  # a comment\n  skipper run --until 2m\n  skipper run a.lua \\\n      --until 1m\n  skipper mission check m.lua &&\n      skipper run m.lua\n\nExit status: 0\n";
    assert_eq!(
        examples(text),
        [
            "skipper run --until 2m",
            "skipper run a.lua --until 1m",
            "skipper mission check m.lua && skipper run m.lua"
        ]
    );
    let quoted = "Examples:\n  skipper action send /a '{x: {\n      y: 1}}'\n";
    assert_eq!(examples(quoted), ["skipper action send /a '{x: { y: 1}}'"]);
    assert_eq!(skip_reason("skipper interfaces --ros2 ws/src"), None);
    assert_eq!(skip_reason("skipper run --until 2m"), None);
    assert_eq!(
        skip_reason("skipper run --world w.world"),
        Some("does not end by itself")
    );
    assert_eq!(
        skip_reason("skipper run m.lua --ros"),
        Some("needs ROS or a robot server")
    );
    assert_eq!(
        inputs("skipper report a.mcap -o b.html --log c.mcap x=examples/m.lua > t.jsonl"),
        ["a.mcap", "examples/m.lua"]
    );
}
