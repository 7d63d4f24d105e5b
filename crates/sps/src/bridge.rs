//! Soar agents through the Python bridge (`bridges/soar`): one bridge process per agent,
//! speaking JSON lines on its stdin/stdout, in lock step with the run (one decision
//! cycle per Skipper cycle).
//!
//! The bridge runs on the Python its install command made: `SKIPPER_SOAR_PYTHON` if set,
//! otherwise `${XDG_DATA_HOME:-~/.local/share}/skipper/soar-venv/bin/python`
//! (`bash bridges/soar/install.sh` creates it).

use crate::{AgentMessage, LinkError, Port, Received, Step};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Why a Soar bridge could not start.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    /// No Python with the bridge was found.
    #[error("the Soar bridge is not installed: run `bash bridges/soar/install.sh` (it makes a Python environment with soar-sml), or set SKIPPER_SOAR_PYTHON to a Python that has soar-sml and skipper_soar_bridge")]
    NotInstalled,
    /// The Python could not be started.
    #[error("cannot start the Soar bridge with {}: {source}", python.display())]
    Start {
        /// the Python
        python: PathBuf,
        /// why
        source: std::io::Error,
    },
    /// The process has no standard input or output to speak through.
    #[error("the Soar bridge has no pipes")]
    NoPipes,
    /// The agent did not load (the bridge's own words: a file that is not there, a
    /// production that does not parse).
    #[error("{0}")]
    Agent(String),
    /// The bridge started but said something other than hello.
    #[error("the Soar bridge said {0} instead of hello")]
    Unexpected(String),
    /// The bridge ended or garbled its output before its hello.
    #[error(
        "the Soar bridge did not start ({0}); is it installed? run `bash bridges/soar/install.sh`"
    )]
    NoHello(LinkError),
}

impl BridgeError {
    /// Whether the user's input is at fault (an agent that does not load, a bridge not
    /// installed) rather than the machine.
    pub fn is_bad_input(&self) -> bool {
        !matches!(self, BridgeError::NoPipes | BridgeError::Unexpected(_))
    }
}

/// Where the bridge's Python is.
pub fn bridge_python() -> Result<PathBuf, BridgeError> {
    if let Some(p) = std::env::var_os("SKIPPER_SOAR_PYTHON").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p));
    }
    let data = std::env::var_os("XDG_DATA_HOME")
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")));
    if let Some(d) = data {
        let p = d.join("skipper/soar-venv/bin/python");
        if p.is_file() {
            return Ok(p);
        }
    }
    Err(BridgeError::NotInstalled)
}

/// A running bridge process.
pub struct BridgePort {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl BridgePort {
    /// Start the bridge for `agent` (as agent `name`), and wait for its hello: an agent
    /// that does not load is bad input.
    pub fn spawn(python: &Path, agent: &Path, name: &str, seed: u64) -> Result<Self, BridgeError> {
        let mut child = Command::new(python)
            .arg("-m")
            .arg("skipper_soar_bridge")
            .arg(agent)
            .arg("--name")
            .arg(name)
            .arg("--seed")
            .arg(seed.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| BridgeError::Start {
                python: python.to_path_buf(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(BridgeError::NoPipes);
        };
        let mut port = Self {
            child,
            stdin: Some(stdin),
            stdout: BufReader::new(stdout),
            line: String::new(),
        };
        match port.read() {
            Ok(AgentMessage::Hello { .. }) => Ok(port),
            Ok(AgentMessage::Error { message }) => {
                port.close();
                Err(BridgeError::Agent(message))
            }
            Ok(other) => {
                port.close();
                Err(BridgeError::Unexpected(format!("{other:?}")))
            }
            Err(e) => {
                port.close();
                Err(BridgeError::NoHello(e))
            }
        }
    }

    fn read(&mut self) -> Result<AgentMessage, LinkError> {
        self.line.clear();
        let n = match self.stdout.read_line(&mut self.line) {
            Ok(n) => n,
            Err(e) => return Err(self.gone(&format!("reading from it failed ({e})"))),
        };
        if n == 0 {
            return Err(self.gone("it closed its output"));
        }
        crate::wire::decode(self.line.trim_end())
    }

    /// The bridge went away: say how it ended (its exit status or the signal that
    /// killed it), not only what the pipe said.
    fn gone(&mut self, what: &str) -> LinkError {
        use std::os::unix::process::ExitStatusExt;
        let how = match self.child.wait() {
            Ok(s) => match (s.code(), s.signal()) {
                (Some(0), _) => "it exited normally".to_string(),
                (Some(c), _) => format!("it exited with status {c}"),
                (None, Some(9)) => "it was killed (SIGKILL)".to_string(),
                (None, Some(15)) => "it was terminated (SIGTERM)".to_string(),
                (None, Some(sig)) => format!("it was killed by signal {sig}"),
                (None, None) => "it ended".to_string(),
            },
            Err(e) => format!("its state is unknown ({e})"),
        };
        LinkError::Agent(format!("the Soar bridge process is gone: {how}; {what}"))
    }
}

impl Port for BridgePort {
    fn receive(&mut self, step: &mut Step) -> Result<Received, LinkError> {
        loop {
            match self.read()? {
                AgentMessage::Step(s) => {
                    *step = s;
                    return Ok(Received::Step);
                }
                AgentMessage::Halted { .. } => {
                    step.clear();
                    return Ok(Received::Halted);
                }
                AgentMessage::Error { message } => return Err(LinkError::AgentReported(message)),
                AgentMessage::Hello { .. } | AgentMessage::Tell { .. } => continue,
            }
        }
    }

    fn send(&mut self, line: &[u8]) -> Result<(), LinkError> {
        let Some(w) = self.stdin.as_mut() else {
            return Err(LinkError::Agent("the Soar bridge is closed".into()));
        };
        let sent = w
            .write_all(line)
            .and_then(|()| w.write_all(b"\n"))
            .and_then(|()| w.flush());
        match sent {
            Ok(()) => Ok(()),
            Err(e) => {
                self.stdin = None;
                Err(self.gone(&format!("writing to it failed ({e})")))
            }
        }
    }

    fn close(&mut self) {
        // closing stdin ends a bridge waiting for input; kill it if it does not go
        self.stdin = None;
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for BridgePort {
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.close();
        }
    }
}
