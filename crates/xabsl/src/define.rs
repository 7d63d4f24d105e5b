//! Defining input symbols by expressions, as `--define 'in.scaled(k)=in.f0*k'` does:
//! the name, optionally the parameters (which must be the symbol's), `=`, and an XABSL
//! expression over the parameters, constants and other symbols.

use crate::check::check_definition;
use crate::diag::{Diagnostic, Diagnostics};
use crate::engine::Engine;
use crate::model::SymbolKind;
use crate::parser::parse_expression;
use crate::source::{FileId, SourceFile};
use crate::Error;

/// Parse, check and install one definition in `engine`.
pub fn define_input(engine: &mut Engine, spec: &str) -> Result<(), Error> {
    let program = engine.program().clone();
    let (lhs, rhs) = spec.split_once('=').ok_or_else(|| {
        Error::Compile(format!(
            "--define `{spec}`: expected NAME(PARAMS)=EXPRESSION, for example `in.scaled(k)=in.f0*k`"
        ))
    })?;
    let lhs = lhs.trim();
    let (name, params) = match lhs.split_once('(') {
        Some((n, rest)) => {
            let inner = rest.trim_end().strip_suffix(')').ok_or_else(|| {
                Error::Compile(format!(
                    "--define `{spec}`: expected `)` after the parameters"
                ))
            })?;
            let ps: Vec<&str> = inner
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .collect();
            (n.trim(), ps)
        }
        None => (lhs, Vec::new()),
    };
    let sid = program
        .symbols
        .iter()
        .position(|s| s.name == name && s.kind == SymbolKind::Input)
        .ok_or_else(|| {
            Error::Compile(format!(
                "--define `{spec}`: `{name}` is not an input symbol of the agents"
            ))
        })?;
    let sym = &program.symbols[sid];
    for p in &params {
        if !sym.params.iter().any(|x| x.short == *p || x.name == *p) {
            let known: Vec<&str> = sym.params.iter().map(|p| p.short.as_str()).collect();
            return Err(Error::Compile(format!(
                "--define `{spec}`: `{name}` has no parameter `{p}` (its parameters: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )));
        }
    }
    let mut sources = program.sources.clone();
    let fid = FileId(sources.len() as u32);
    sources.add(SourceFile::new("--define", rhs.to_string()));
    let expr = match parse_expression(rhs, fid) {
        Ok(e) => e,
        Err(d) => {
            let mut ds = Diagnostics::new();
            ds.push(d);
            return Err(Error::Compile(ds.render(&sources)));
        }
    };
    let x = check_definition(&program, sid, &expr).map_err(|ds| {
        let mut ds = ds;
        if !ds.has_errors() {
            ds.push(Diagnostic::global("X8008", "the definition does not check"));
        }
        Error::Compile(ds.render(&sources))
    })?;
    engine.define_input(sid, &x)
}
