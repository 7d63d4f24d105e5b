//! The commands of `docs/getting-started.md` and `docs/testing.md` work as written.
//!
//! Every fenced block tagged `sh` is read line by line (a line ending in `\` continues on
//! the next; `#` starts a comment):
//!
//! - `skipper ARGS` runs the built binary with ARGS, and so does `cargo run ... -p skipper
//!   -- ARGS`; it must exit 0 within [`TIMEOUT`]. A page's commands run one after the
//!   other in one temporary directory that holds a link to every entry of the
//!   repository's root, so paths are read as from the root and what a command writes
//!   (run logs, reports) stays out of the repository. A `skipper run` must carry `--until`,
//!   so that it ends by itself.
//! - `cargo ...` is not run (it is what CI runs), but each `-p NAME` must be a workspace
//!   member (read from `Cargo.toml` now), each `--test`, `--bench` and `--example` one of
//!   that package's, each `--path` a directory that exists.
//! - `bash SCRIPT` and a command given by its path (`.ci/run`, `scripts/fuzz.sh`) are not
//!   run; the file must exist.
//!
//! A block tagged `sh no-run` holds commands that cannot run here: they start a server,
//! need ROS, or run for long. Their `skipper` lines are checked against the binary's
//! `--help` (the subcommand exists, every `--flag` is one of its flags), their `cargo`
//! and script lines as above, and other programs (`roscore`, `kill`) are left alone.
//! A `sh` block may hold only what can run here: a server, ROS, a background job, a pipe
//! or a redirection there fails the test with a message saying to tag the block `no-run`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long one documented command may take (a debug build on a slow machine).
const TIMEOUT: Duration = Duration::from_secs(180);

const PAGES: [&str; 2] = ["docs/getting-started.md", "docs/testing.md"];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// One command of a page: where it is, whether its block runs, its words.
struct Cmd {
    page: &'static str,
    line: usize,
    runs: bool,
    text: String,
    words: Vec<String>,
}

impl Cmd {
    fn at(&self) -> String {
        format!("{}:{}: `{}`", self.page, self.line, self.text)
    }
}

/// Split a command line as a POSIX shell would (quotes, backslashes, `#` comments);
/// operators (`|`, `&`, `;`, `<`, `>`) come out as words of their own.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err("unclosed '".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x);
                            }
                            None => return Err("unclosed \"".into()),
                        },
                        Some(x) => cur.push(x),
                        None => return Err("unclosed \"".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x);
                }
            }
            '#' if !in_word => break,
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '|' | '&' | ';' | '<' | '>' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
                let mut op = c.to_string();
                if matches!(chars.peek(), Some(&n) if n == c && c != ';') {
                    op.push(chars.next().unwrap());
                }
                words.push(op);
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

fn is_operator(w: &str) -> bool {
    matches!(w, "|" | "||" | "&" | "&&" | ";" | "<" | "<<" | ">" | ">>")
}

/// The commands in a page's `sh` and `sh no-run` blocks.
fn commands(page: &'static str) -> Vec<Cmd> {
    let text = fs::read_to_string(root().join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
    let mut out = Vec::new();
    let mut block: Option<bool> = None; // Some(runs) inside a sh block
    let mut in_other = false;
    let mut pending = String::new();
    let mut pending_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            if block.is_some() || in_other {
                assert!(
                    pending.is_empty(),
                    "{page}:{pending_line}: a `\\` line ends its block"
                );
                block = None;
                in_other = false;
            } else {
                let tags: Vec<&str> = info.split_whitespace().collect();
                match tags.as_slice() {
                    ["sh"] => block = Some(true),
                    ["sh", "no-run"] => block = Some(false),
                    ["sh", other, ..] => panic!("{page}:{}: unknown tag `{other}`", i + 1),
                    _ => in_other = true,
                }
            }
            continue;
        }
        let Some(runs) = block else { continue };
        if pending.is_empty() {
            pending_line = i + 1;
        }
        if let Some(head) = raw.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
            continue;
        }
        pending.push_str(raw);
        let line = std::mem::take(&mut pending);
        let words = shell_words(&line).unwrap_or_else(|e| panic!("{page}:{pending_line}: {e}"));
        if words.is_empty() {
            continue;
        }
        out.push(Cmd {
            page,
            line: pending_line,
            runs,
            text: line.trim().to_string(),
            words,
        });
    }
    assert!(block.is_none(), "{page}: a code block is not closed");
    out
}

/// The workspace's packages (name to directory), from `Cargo.toml` as it is now.
fn packages() -> BTreeMap<String, PathBuf> {
    let root = root();
    let manifest = fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let start = manifest.find("members").expect("workspace members");
    let open = start + manifest[start..].find('[').unwrap();
    let close = open + manifest[open..].find(']').unwrap();
    let mut out = BTreeMap::new();
    for member in manifest[open + 1..close].split(',') {
        let member = member.trim().trim_matches('"');
        if member.is_empty() {
            continue;
        }
        let dir = root.join(member);
        let text = fs::read_to_string(dir.join("Cargo.toml"))
            .unwrap_or_else(|e| panic!("{member}/Cargo.toml: {e}"));
        let name = package_name(&text).unwrap_or_else(|| panic!("{member}: no package name"));
        out.insert(name, dir);
    }
    out
}

/// `name = "..."` of a manifest's `[package]` table.
fn package_name(manifest: &str) -> Option<String> {
    let mut in_package = false;
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_package = line == "[package]";
        } else if in_package {
            if let Some(v) = line.strip_prefix("name") {
                let v = v.trim_start().strip_prefix('=')?.trim();
                return Some(v.trim_matches('"').to_string());
            }
        }
    }
    None
}

/// Whether package `dir` has a target `name` of kind `kind` (`tests`, `benches`,
/// `examples`): a file of that name in the kind's folder, or a target of that name in
/// its manifest.
fn has_target(dir: &Path, kind: &str, name: &str) -> bool {
    let folder = dir.join(kind);
    if folder.join(format!("{name}.rs")).is_file() || folder.join(name).join("main.rs").is_file() {
        return true;
    }
    let manifest = fs::read_to_string(dir.join("Cargo.toml")).unwrap_or_default();
    manifest
        .lines()
        .any(|l| l.trim().replace(' ', "") == format!("name=\"{name}\""))
}

/// `words` without the leading `NAME=value` environment assignments.
fn without_env(words: &[String]) -> &[String] {
    let n = words
        .iter()
        .take_while(|w| {
            w.split_once('=').is_some_and(|(k, _)| {
                !k.is_empty() && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            })
        })
        .count();
    &words[n..]
}

/// Check a `cargo` line: its packages, targets and paths exist. Returns the binary's
/// arguments when it runs the `skipper` binary (`cargo run -p skipper ... -- ARGS`).
fn check_cargo(
    cmd: &Cmd,
    words: &[String],
    pkgs: &BTreeMap<String, PathBuf>,
) -> Option<Vec<String>> {
    let (opts, rest) = match words.iter().position(|w| w == "--") {
        Some(i) => (&words[..i], Some(words[i + 1..].to_vec())),
        None => (words, None),
    };
    let mut package = None;
    let mut targets = Vec::new();
    let mut i = 0;
    while i < opts.len() {
        let w = opts[i].as_str();
        let value = opts.get(i + 1).cloned();
        match w {
            "-p" | "--package" => {
                let name = value.unwrap_or_else(|| panic!("{}: -p without a name", cmd.at()));
                assert!(
                    pkgs.contains_key(&name),
                    "{}: `{name}` is not a workspace member (members: {:?})",
                    cmd.at(),
                    pkgs.keys().collect::<Vec<_>>()
                );
                package = Some(name);
                i += 1;
            }
            "--test" | "--bench" | "--example" => {
                let name = value.unwrap_or_else(|| panic!("{}: {w} without a name", cmd.at()));
                targets.push((w, name));
                i += 1;
            }
            "--path" => {
                let p = value.unwrap_or_else(|| panic!("{}: --path without a path", cmd.at()));
                assert!(root().join(&p).is_dir(), "{}: no directory {p}", cmd.at());
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    for (kind, name) in targets {
        let package = package
            .as_ref()
            .unwrap_or_else(|| panic!("{}: {kind} {name} without -p", cmd.at()));
        let folder = match kind {
            "--test" => "tests",
            "--bench" => "benches",
            _ => "examples",
        };
        assert!(
            has_target(&pkgs[package], folder, &name),
            "{}: {package} has no {kind} {name}",
            cmd.at()
        );
    }
    let runs_skipper = opts.get(1).map(String::as_str) == Some("run")
        && package.as_deref() == Some("skipper")
        && !opts.iter().any(|w| w == "--example" || w == "--bench");
    if runs_skipper {
        Some(rest.unwrap_or_default())
    } else {
        None
    }
}

/// What makes a `skipper` command unfit for a test: it serves, joins ROS, or waits.
fn cannot_run_here(args: &[String]) -> Option<&'static str> {
    let has = |f: &str| {
        args.iter()
            .any(|a| a == f || a.starts_with(&format!("{f}=")))
    };
    let sub: Vec<&str> = args.iter().take(2).map(String::as_str).collect();
    if has("--serve") {
        Some("it serves the dashboard until Ctrl-C")
    } else if has("--ros") || has("--ros2") {
        Some("it joins ROS")
    } else if matches!(sub.as_slice(), ["action", ..]) {
        Some("it sends a goal to a running node")
    } else if matches!(sub.as_slice(), ["sim", "serve"] | ["link", "serve"]) {
        Some("it is a server")
    } else if matches!(sub.as_slice(), ["lsp", ..] | ["lua", ..]) {
        Some("it talks to an editor or a ROS master")
    } else {
        None
    }
}

/// A `skipper` line of a `no-run` block: its subcommand exists and takes every `--flag`
/// the line gives it (up to `--ros-args`, whose arguments are ROS's).
fn check_help(cmd: &Cmd, args: &[String]) {
    let sub: Vec<&String> = args
        .iter()
        .take_while(|a| !a.starts_with('-') && !a.contains(['/', '.', '=', ':']) && a.len() < 20)
        .collect();
    let out = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(&sub)
        .arg("--help")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}: `skipper {} --help` fails: {}",
        cmd.at(),
        sub.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    for a in args.iter().take_while(|a| *a != "--ros-args") {
        if let Some(flag) = a.strip_prefix("--") {
            let flag = flag.split('=').next().unwrap();
            if flag.is_empty() {
                continue;
            }
            assert!(
                help.contains(&format!("--{flag}")),
                "{}: `skipper {}` has no flag --{flag}",
                cmd.at(),
                sub.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(" ")
            );
        }
    }
}

/// Run the binary with `args` in `dir`; fails the test unless it exits 0 in time.
fn run_skipper(cmd: &Cmd, args: &[String], env: &[(String, String)], dir: &Path) {
    if let Some(why) = cannot_run_here(args) {
        panic!(
            "{}: cannot run in a test ({why}): put it in a `sh no-run` block",
            cmd.at()
        );
    }
    if args.first().map(String::as_str) == Some("run") {
        assert!(
            args.iter()
                .any(|a| a == "--until" || a.starts_with("--until=")),
            "{}: a documented `skipper run` gives --until, so that it ends by itself",
            cmd.at()
        );
    }
    assert!(
        !args.iter().any(|a| a.contains('$') || a.contains('`')),
        "{}: no shell expansion in a command the test runs",
        cmd.at()
    );
    let out_path = dir.join(".docs-command.out");
    let err_path = dir.join(".docs-command.err");
    let mut child = Command::new(env!("CARGO_BIN_EXE_skipper"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(fs::File::create(&out_path).unwrap())
        .stderr(fs::File::create(&err_path).unwrap())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{}: still running after {TIMEOUT:?}", cmd.at());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let stdout = fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = fs::read_to_string(&err_path).unwrap_or_default();
    assert!(
        status.success(),
        "{}: {status}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        cmd.at()
    );
}

/// A scratch directory that reads like the repository's root: a link to each of its
/// entries (but the run logs and build outputs), so that what commands write stays here.
fn scratch_root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for entry in fs::read_dir(root()).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if matches!(name.to_str(), Some("runs" | "target" | ".git")) {
            continue;
        }
        link(&entry.path(), &dir.path().join(&name));
    }
    dir
}

#[cfg(unix)]
fn link(from: &Path, to: &Path) {
    std::os::unix::fs::symlink(from, to).unwrap();
}

#[cfg(windows)]
fn link(from: &Path, to: &Path) {
    if from.is_dir() {
        std::os::windows::fs::symlink_dir(from, to).unwrap();
    } else {
        std::os::windows::fs::symlink_file(from, to).unwrap();
    }
}

/// Check or run one command (a segment between `&&`, `;` and `|` in a no-run block).
fn check(cmd: &Cmd, words: &[String], pkgs: &BTreeMap<String, PathBuf>, dir: &Path) -> usize {
    let env: Vec<(String, String)> = words[..words.len() - without_env(words).len()]
        .iter()
        .map(|w| {
            let (k, v) = w.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect();
    let words = without_env(words);
    let Some(program) = words.first() else {
        return 0;
    };
    let skipper_args = match program.as_str() {
        "skipper" => Some(words[1..].to_vec()),
        "cargo" => check_cargo(cmd, words, pkgs),
        "bash" => {
            let script = words
                .get(1)
                .unwrap_or_else(|| panic!("{}: bash without a script", cmd.at()));
            assert!(
                root().join(script).is_file(),
                "{}: no script {script}",
                cmd.at()
            );
            None
        }
        // a program of the repository (a no-run block may also name one that an earlier
        // command makes, such as `.venv/bin/pip`)
        p if p.contains('/')
            && !p.starts_with('/')
            && !p.starts_with('$')
            && (cmd.runs
                || [".ci/", "scripts/", "bridges/"]
                    .iter()
                    .any(|d| p.starts_with(d))) =>
        {
            assert!(root().join(p).is_file(), "{}: no file {p}", cmd.at());
            None
        }
        other => {
            assert!(
                !cmd.runs,
                "{}: `{other}` cannot run in this test: put it in a `sh no-run` block",
                cmd.at()
            );
            None
        }
    };
    match skipper_args {
        Some(args) if cmd.runs => {
            run_skipper(cmd, &args, &env, dir);
            1
        }
        Some(args) => {
            check_help(cmd, &args);
            0
        }
        None => 0,
    }
}

#[test]
fn the_documented_commands_work() {
    let pkgs = packages();
    for page in PAGES {
        let dir = scratch_root();
        let cmds = commands(page);
        assert!(
            cmds.iter().any(|c| c.runs),
            "{page}: no `sh` block with commands to run"
        );
        let mut ran = 0;
        for cmd in &cmds {
            if cmd.runs {
                if let Some(op) = cmd.words.iter().find(|w| is_operator(w)) {
                    panic!(
                        "{}: `{op}` cannot run in this test: put the line in a `sh no-run` block",
                        cmd.at()
                    );
                }
                ran += check(cmd, &cmd.words, &pkgs, dir.path());
            } else {
                // each part of a pipeline or list; a redirection's target is not a command
                let mut segment: Vec<String> = Vec::new();
                let mut words = cmd.words.iter().peekable();
                while let Some(w) = words.next() {
                    if matches!(w.as_str(), ">" | ">>" | "<" | "<<") {
                        words.next();
                    } else if is_operator(w) {
                        check(cmd, &segment, &pkgs, dir.path());
                        segment.clear();
                    } else {
                        segment.push(w.clone());
                    }
                }
                check(cmd, &segment, &pkgs, dir.path());
            }
        }
        if page.ends_with("getting-started.md") {
            assert!(ran >= 5, "{page}: only {ran} commands ran");
        }
    }
}

#[test]
fn shell_words_split_as_a_shell_does() {
    let w = shell_words(
        r#"skipper action send /r/run_option option=turn_to parameters='{"yaw": 1.0}' # c"#,
    )
    .unwrap();
    assert_eq!(
        w,
        [
            "skipper",
            "action",
            "send",
            "/r/run_option",
            "option=turn_to",
            r#"parameters={"yaw": 1.0}"#
        ]
    );
    let w = shell_words("A=1 b \"x y\" && c | d &").unwrap();
    assert_eq!(w, ["A=1", "b", "x y", "&&", "c", "|", "d", "&"]);
    assert_eq!(without_env(&w), &w[1..]);
}
