//! `skipper xabsl`: check XABSL agents, write the reference intermediate code, Graphviz
//! and HTML documentation, and run an agent offline from JSON lines of inputs.

use crate::exit::Failure;
use clap::{Args, Subcommand};
use skipper_xabsl::engine::Engine;
use skipper_xabsl::trace::{LinesError, TraceRunner};
use skipper_xabsl::{compile_path, Compilation};
use std::io::{BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `skipper xabsl ...`
#[derive(Debug, Args)]
#[command(after_help = "Examples:
  skipper xabsl check examples/xabsl/soccer/agents.xabsl
  skipper xabsl doc examples/xabsl/turn_and_release/agents.xabsl -o doc/
  skipper xabsl ic examples/xabsl/soccer/agents.xabsl > soccer.ic")]
pub struct XabslArgs {
    #[command(subcommand)]
    pub command: XabslCommand,
}

/// What to do with the agents.
#[derive(Debug, Subcommand)]
pub enum XabslCommand {
    /// Check an agents file and everything it includes; list every error and warning.
    #[command(after_help = "Examples:
  skipper xabsl check examples/xabsl/soccer/agents.xabsl
  # errors only, no warnings
  skipper xabsl check examples/xabsl/turn_and_release/agents.xabsl --quiet

The binding file beside the agents (agents.xabsl -> agents.binding), if there is
one, is checked too: every signal it reads, and every input symbol it leaves
unbound, must be a signal of the ground robot (docs/pioneer.md lists them).

Exit status: 0 when the agents check (warnings allowed), 2 when there are errors
(every one is listed with file:line:col, the line and a caret).")]
    Check {
        /// The agents file (it includes the options and namespaces).
        file: PathBuf,
        /// Do not show warnings.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Write the intermediate code the reference XABSL compiler writes (`xabsl.rb -i`),
    /// byte for byte, for the C++ XabslEngine.
    #[command(after_help = "Examples:
  skipper xabsl ic examples/xabsl/soccer/agents.xabsl > soccer.ic
  skipper xabsl ic examples/xabsl/turn_and_release/agents.xabsl -o behavior.dat

Exit status: 0 when written, 2 when the agents do not check.")]
    Ic {
        /// The agents file.
        file: PathBuf,
        /// Write to this file instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Write the behavior documentation: HTML pages with state machine and decision tree
    /// diagrams (SVG, laid out without Graphviz) and pseudo code.
    #[command(after_help = "Examples:
  skipper xabsl doc examples/xabsl/turn_and_release/agents.xabsl -o doc/
  firefox doc/index.html

Exit status: 0 when written, 2 when the agents do not check.")]
    Doc {
        /// The agents file.
        file: PathBuf,
        /// The folder to write into (created if needed).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
    },
    /// Write Graphviz: the option graph of the agents, or one option's state machine.
    #[command(after_help = "Examples:
  # the option graph, drawn with Graphviz
  skipper xabsl dot examples/xabsl/soccer/agents.xabsl -o options.dot
  dot -Tsvg options.dot > options.svg
  # one option's state machine
  skipper xabsl dot examples/xabsl/turn_and_release/agents.xabsl \\
      --option turn_and_release -o turn_and_release.dot

Exit status: 0 when written, 2 when the agents do not check or there is no such
option.")]
    Dot {
        /// The agents file.
        file: PathBuf,
        /// Draw this option's state machine instead of the option graph.
        #[arg(long, value_name = "NAME")]
        option: Option<String>,
        /// Write to this file instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Run an agent offline: one JSON line of inputs per cycle in, one JSON line of the
    /// activation path, outputs and basic behaviors per cycle out.
    #[command(after_help = "Examples:
  skipper xabsl run examples/xabsl/soccer/agents.xabsl \\
      --inputs examples/xabsl/soccer/inputs.jsonl
  skipper xabsl run examples/xabsl/soccer/agents.xabsl --inputs - \\
      < examples/xabsl/soccer/inputs.jsonl > trace.jsonl
  # an input the lines lack, as an expression of others; the agent by name
  skipper xabsl run examples/xabsl/soccer/agents.xabsl \\
      --inputs examples/xabsl/soccer/inputs.jsonl \\
      --define 'landmark.opponent_goal.distance=4.5 - ball.x' --agent striker
  # the engine's interpreter instead of native code, to a file
  skipper xabsl run examples/xabsl/soccer/agents.xabsl \\
      --inputs examples/xabsl/soccer/inputs.jsonl --interpreter -o trace.jsonl

An input line: {\"time_ms\": 1000, \"inputs\": {\"ball.seen\": true,
\"ball.distance\": 2.5}} (`time_ms` defaults to the last plus 100; inputs not
given keep their values). An output line has the keys of the reference engine's
golden traces: cycle, time_ms, path, outputs, basic_behaviors.

Exit status: 0 when every line ran, 2 for agents that do not check or a bad
input line (its line number is given).")]
    Run {
        /// The agents file.
        file: PathBuf,
        /// JSON lines of inputs, one per cycle (`-` for standard input).
        #[arg(long, value_name = "FILE.jsonl")]
        inputs: PathBuf,
        /// Define an input symbol by an expression: `NAME(PARAMS)=EXPRESSION`.
        #[arg(long, value_name = "NAME(PARAMS)=EXPR")]
        define: Vec<String>,
        /// Run this agent instead of the first.
        #[arg(long, value_name = "NAME")]
        agent: Option<String>,
        /// Write to this file instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
        /// Run the engine's interpreter instead of native code (the same results; to
        /// cross-check, or where native code is not available).
        #[arg(long)]
        interpreter: bool,
    },
}

/// Run it; returns the exit status.
pub fn run(args: XabslArgs) -> Result<u8, Failure> {
    match args.command {
        XabslCommand::Check { file, quiet } => check(&file, quiet),
        XabslCommand::Ic { file, output } => {
            let c = compiled(&file)?;
            let ic = skipper_xabsl::ic::write(&c.program);
            write_out(output.as_deref(), ic.as_bytes())?;
            Ok(0)
        }
        XabslCommand::Doc { file, output } => {
            let c = compiled(&file)?;
            let n = skipper_xabsl::doc::write_to(&c.program, &output).map_err(|e| {
                Failure::failed(format!("cannot write into {}: {e}", output.display()))
            })?;
            crate::outln!(
                "{}: {n} files written, open {}",
                output.display(),
                output.join("index.html").display()
            );
            Ok(0)
        }
        XabslCommand::Dot {
            file,
            option,
            output,
        } => {
            let c = compiled(&file)?;
            let p = &c.program;
            let text = match option {
                Some(name) => {
                    let o = p.option(&name).ok_or_else(|| {
                        let mut names: Vec<&str> =
                            p.options.iter().map(|o| o.name.as_str()).collect();
                        names.sort_unstable();
                        Failure::bad_input(format!(
                            "no option `{name}` (the options: {})",
                            names.join(", ")
                        ))
                    })?;
                    skipper_xabsl::doc::dot::state_machine(p, o)
                }
                None => skipper_xabsl::doc::dot::option_graph(p),
            };
            write_out(output.as_deref(), text.as_bytes())?;
            Ok(0)
        }
        XabslCommand::Run {
            file,
            inputs,
            define,
            agent,
            output,
            interpreter,
        } => run_offline(
            &file,
            &inputs,
            &define,
            agent.as_deref(),
            output.as_deref(),
            interpreter,
        ),
    }
}

fn check(file: &Path, quiet: bool) -> Result<u8, Failure> {
    let c = compile_path(file);
    let src = &c.program.sources;
    let errors = c.diagnostics.render_errors(src);
    eprint!("{errors}");
    if !quiet {
        eprint!("{}", c.diagnostics.render_warnings(src));
    }
    let (e, w) = (c.diagnostics.error_count(), c.diagnostics.warning_count());
    if e > 0 {
        return Err(Failure::bad_input(format!(
            "{}: {e} error{}, {w} warning{}",
            file.display(),
            plural(e),
            plural(w)
        )));
    }
    check_binding(file, c.program.clone())?;
    let p = &c.program;
    crate::outln!(
        "{}: ok — {} file{}, {} agent{}, {} option{}, {} basic behavior{}, {} symbol{}, {w} warning{}",
        file.display(),
        src.len(),
        plural(src.len()),
        p.agents.len(),
        plural(p.agents.len()),
        p.options.len(),
        plural(p.options.len()),
        p.behaviors.len(),
        plural(p.behaviors.len()),
        p.symbols.len(),
        plural(p.symbols.len()),
        plural(w)
    );
    Ok(0)
}

/// The binding file beside the agents, against the ground robot's signals.
fn check_binding(file: &Path, program: skipper_xabsl::Program) -> Result<(), Failure> {
    let binding =
        skipper_xabsl::robot::binding_file(file).map_err(|e| Failure::bad_input(e.to_string()))?;
    let Some((path, text)) = binding else {
        return Ok(());
    };
    let vocabulary = skipper_core::vocabulary::ground::vocabulary();
    skipper_xabsl::robot::check_binding(std::sync::Arc::new(program), (&path, &text), &vocabulary)
        .map_err(|e| {
            eprint!("{e}");
            Failure::bad_input(format!(
                "{}: the binding file does not check",
                path.display()
            ))
        })
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Compile; on errors, fail with every error (warnings are not shown here).
pub fn compiled(file: &Path) -> Result<Compilation, Failure> {
    let c = compile_path(file);
    if c.diagnostics.has_errors() {
        eprint!("{}", c.diagnostics.render_errors(&c.program.sources));
        return Err(Failure::bad_input(format!(
            "{}: {} error{}",
            file.display(),
            c.diagnostics.error_count(),
            plural(c.diagnostics.error_count())
        )));
    }
    Ok(c)
}

fn write_out(output: Option<&Path>, bytes: &[u8]) -> Result<(), Failure> {
    match output {
        Some(p) => std::fs::write(p, bytes)
            .map_err(|e| Failure::failed(format!("cannot write {}: {e}", p.display()))),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(bytes)
                .and_then(|_| out.flush())
                .map_err(|e| Failure::failed(format!("cannot write to standard output: {e}")))
        }
    }
}

fn run_offline(
    file: &Path,
    inputs: &Path,
    defines: &[String],
    agent: Option<&str>,
    output: Option<&Path>,
    interpreter: bool,
) -> Result<u8, Failure> {
    let c = compiled(file)?;
    let program = Arc::new(c.program);
    let mut engine = Engine::new(program.clone()).map_err(|e| Failure::bad_input(e.to_string()))?;
    if interpreter {
        engine.set_backend(skipper_xabsl::engine::Backend::Interpreter);
    }
    if let Some(a) = agent {
        if !engine.select_agent(a) {
            let names: Vec<&str> = program.agents.iter().map(|a| a.name.as_str()).collect();
            return Err(Failure::bad_input(format!(
                "no agent `{a}` (the agents: {})",
                names.join(", ")
            )));
        }
    }
    for d in defines {
        if let Err(e) = skipper_xabsl::define::define_input(&mut engine, d) {
            let text = e.to_string();
            if text.contains(": error: ") {
                eprint!("{text}");
                return Err(Failure::bad_input(format!("--define `{d}` does not check")));
            }
            return Err(Failure::bad_input(text));
        }
    }
    let reader: Box<dyn BufRead> = if inputs.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(inputs)
            .map_err(|e| Failure::bad_input(format!("cannot read {}: {e}", inputs.display())))?;
        Box::new(std::io::BufReader::new(f))
    };
    let sink: Box<dyn Write> = match output {
        Some(p) => Box::new(
            std::fs::File::create(p)
                .map_err(|e| Failure::failed(format!("cannot write {}: {e}", p.display())))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut out = BufWriter::new(sink);
    let mut runner = TraceRunner::new(engine);
    let name = if inputs.as_os_str() == "-" {
        "<stdin>".to_string()
    } else {
        inputs.display().to_string()
    };
    let warn = |n, text| eprintln!("warning: cycle at line {n}: {text}");
    let cannot_write = |e| Failure::failed(format!("cannot write the trace: {e}"));
    runner
        .run_lines(reader, &mut out, warn)
        .map_err(|e| match e {
            LinesError::Input { line, message } => {
                Failure::bad_input(format!("{name}:{line}: {message}"))
            }
            LinesError::Output(e) => cannot_write(e),
        })?;
    out.flush().map_err(cannot_write)?;
    Ok(0)
}
