//! The checker: resolves every name of the parsed files, types every expression and
//! builds the [`Program`], reporting every error of the run (not only the first).
//!
//! It makes the reference compiler's checks (`syntax_tree_builder.rb`, `symbol_table.rb`,
//! `errors.rb`), with the reference's numbers: unknown symbol for the required class
//! (X5552), ambiguous symbol (X5723), duplicate definition (X5372), type mismatch
//! (X5525), enumeration domain mismatch (X5255, X5526), parameter set twice (X3725) or
//! missing (X3752, a warning), initial state missing (X5273) or twice (X5327), decision
//! tree that must (X7325, a warning) or must not (X7352) start with `else`, a namespace
//! with both symbols and behaviors (X3527), an empty namespace (X3572, a warning), a file
//! not named after its option or namespace (X7235, a warning).
//!
//! It adds what the reference leaves to the engine, whose load would fail: a cycle of
//! options (X8001), a boolean `? :` (X8002), an enumerated parameter given an element of
//! another enumeration (X5526), more than one agents file (X8005); and warnings for
//! `action_done` in a state that calls no option (X8003) and `conflict` outside a
//! capacity state (X8004).

use crate::ast;
use crate::diag::{Diagnostic, Diagnostics};
use crate::loader::Loaded;
use crate::model::*;
use crate::source::{FileId, Span};
use std::collections::HashMap;

mod actions;
mod cycles;
mod decision;
mod declare;
mod expr;
mod suggest;

/// Check the loaded files. The program is complete only when the diagnostics hold no
/// error.
pub fn check(loaded: Loaded) -> (Program, Diagnostics) {
    let Loaded {
        sources,
        files,
        diagnostics,
    } = loaded;
    // a file that does not parse would make every name it declares unknown elsewhere:
    // report the reading and syntax errors alone, as the reference stops at them
    if diagnostics.has_errors() {
        let mut diagnostics = diagnostics;
        diagnostics.sort();
        return (
            Program {
                sources,
                ..Program::default()
            },
            diagnostics,
        );
    }
    let mut c = Checker {
        prog: Program {
            sources,
            ..Program::default()
        },
        diags: diagnostics,
        enums: HashMap::new(),
        symbols: HashMap::new(),
        consts: HashMap::new(),
        options: HashMap::new(),
        behaviors: HashMap::new(),
        agents: HashMap::new(),
        namespaces: HashMap::new(),
        option_asts: Vec::new(),
    };
    // The declarations of every file first, then the bodies: the order of includes
    // does not matter (as in the reference's passes).
    for (id, f) in &files {
        if let ast::Body::Namespace(ns) = &f.body {
            c.declare_enums(*id, ns);
        }
    }
    for (id, f) in &files {
        match &f.body {
            ast::Body::Namespace(ns) => c.declare_namespace(*id, ns),
            ast::Body::Option(o) => c.declare_option(*id, o),
            _ => {}
        }
    }
    for (id, f) in &files {
        if let ast::Body::Agents(agents) = &f.body {
            c.declare_agents(*id, f, agents);
        }
    }
    for (oid, (_, o)) in std::mem::take(&mut c.option_asts).iter().enumerate() {
        c.option_body(oid, o);
    }
    c.check_cycles();
    let mut diags = c.diags;
    diags.sort();
    (c.prog, diags)
}

/// The context an expression is checked in.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Scope {
    /// inside an option (its parameters and states are visible)
    Option {
        option: OptionId,
        /// the state, if in one (none in the common decision and common action)
        state: Option<StateId>,
        /// whether the state is a capacity state
        capacity: bool,
    },
    /// the definition of a parameterised input symbol (its parameters are visible)
    InputDefinition(SymbolId),
}

struct Checker {
    prog: Program,
    diags: Diagnostics,
    enums: HashMap<String, EnumId>,
    /// every input/output/internal symbol by name (several kinds may share a name)
    symbols: HashMap<String, Vec<SymbolId>>,
    consts: HashMap<String, ConstId>,
    options: HashMap<String, OptionId>,
    behaviors: HashMap<String, BehaviorId>,
    agents: HashMap<String, usize>,
    namespaces: HashMap<String, usize>,
    option_asts: Vec<(FileId, ast::OptionDecl)>,
}

impl Checker {
    fn err(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(code, span, msg));
    }
    fn warn(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::warning(code, span, msg));
    }
    /// The name at `span` refers to `def`.
    fn refer(&mut self, span: Span, def: Def) {
        self.prog.references.push(Reference { span, def });
    }
    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }
    fn enum_name(&self, e: EnumId) -> &str {
        self.prog.enums.get(e).map_or("?", |e| e.name.as_str())
    }
    fn file_stem(&self, f: FileId) -> String {
        self.prog
            .sources
            .get(f)
            .map(|f| f.stem())
            .unwrap_or_default()
    }
}

/// Check an expression that defines a parameterised input symbol (`--define`): its
/// parameters are visible by name, as are constants and other symbols.
pub fn check_definition(
    prog: &Program,
    symbol: SymbolId,
    e: &ast::Expr,
) -> Result<Expr, Diagnostics> {
    let mut c = Checker {
        prog: prog.clone(),
        diags: Diagnostics::new(),
        enums: prog
            .enums
            .iter()
            .enumerate()
            .map(|(i, e)| (e.name.clone(), i))
            .collect(),
        symbols: HashMap::new(),
        consts: prog
            .constants
            .iter()
            .enumerate()
            .map(|(i, c)| (c.name.clone(), i))
            .collect(),
        options: prog
            .options
            .iter()
            .enumerate()
            .map(|(i, o)| (o.name.clone(), i))
            .collect(),
        behaviors: prog
            .behaviors
            .iter()
            .enumerate()
            .map(|(i, b)| (b.name.clone(), i))
            .collect(),
        agents: HashMap::new(),
        namespaces: HashMap::new(),
        option_asts: Vec::new(),
    };
    for (i, s) in prog.symbols.iter().enumerate() {
        c.symbols.entry(s.name.clone()).or_default().push(i);
    }
    let want = prog.symbols.get(symbol).map(|s| s.ty);
    let ctx = match want {
        Some(Type::Enum(e)) => Some(e),
        _ => None,
    };
    match c.expr(e, Scope::InputDefinition(symbol), ctx) {
        Some(x) => {
            if let Some(w) = want {
                if c.expect_type(&x, w, e.span(), "the definition").is_none() {
                    return Err(c.diags);
                }
            }
            if c.diags.has_errors() {
                Err(c.diags)
            } else {
                Ok(x)
            }
        }
        None => Err(c.diags),
    }
}
