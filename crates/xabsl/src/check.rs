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

use crate::ast::{self, BinOp, Io, NamespaceItem, TypeSpec};
use crate::diag::{Diagnostic, Diagnostics};
use crate::loader::Loaded;
use crate::model::*;
use crate::source::{FileId, Span};
use std::collections::HashMap;

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

/// The reference's symbol classes, for duplicate detection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SymClass {
    Input(u8),
    Output(u8),
}

fn sym_class(s: &Symbol) -> SymClass {
    let t = match s.ty {
        Type::Decimal => 0,
        Type::Boolean => 1,
        Type::Enum(_) => 2,
    };
    if s.kind == SymbolKind::Input {
        SymClass::Input(t)
    } else {
        SymClass::Output(t)
    }
}

/// Edit distance, for "did you mean" notes.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .map(|c| (distance(name, c), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| format!("did you mean `{c}`?"))
}

impl Checker {
    fn err(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(code, span, msg));
    }
    fn warn(&mut self, code: &'static str, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::warning(code, span, msg));
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

    // ---------------------------------------------------------- declarations

    fn declare_enums(&mut self, file: FileId, ns: &ast::NamespaceDecl) {
        let ns_index = self.namespace_index(file, ns);
        for item in &ns.items {
            let NamespaceItem::Enum(e) = item else {
                continue;
            };
            let name = match &e.ty {
                TypeSpec::Enum(n) => n.clone(),
                other => {
                    self.err(
                        "X2537",
                        other.span().unwrap_or(e.span),
                        "an enumeration is declared `enum NAME { a, b };` (or `enum NAME internal { ... };`)",
                    );
                    continue;
                }
            };
            let internal = match e.io {
                Io::Default => false,
                Io::Internal => true,
                Io::Input | Io::Output => {
                    self.err(
                        "X2537",
                        e.io_span.unwrap_or(e.span),
                        "an enumeration can only be marked `internal`, not `input` or `output`",
                    );
                    false
                }
            };
            if let Some(&prev) = self.enums.get(&name.text) {
                let at = self.prog.sources.position(self.prog.enums[prev].span);
                self.push(
                    Diagnostic::error(
                        "X5372",
                        name.span,
                        format!("the enumeration `{}` is defined more than once", name.text),
                    )
                    .note(format!("first defined at {at}")),
                );
                continue;
            }
            let mut elements: Vec<String> = Vec::new();
            for el in &e.elements {
                let q = format!("{}.{}", name.text, el.text);
                if elements.contains(&q) {
                    self.err(
                        "X5372",
                        el.span,
                        format!(
                            "the element `{}` of `{}` is defined more than once",
                            el.text, name.text
                        ),
                    );
                    continue;
                }
                elements.push(q);
            }
            self.enums.insert(name.text.clone(), self.prog.enums.len());
            self.prog.enums.push(Enum {
                name: name.text.clone(),
                elements,
                internal,
                doc: e.doc.clone(),
                namespace: Some(ns_index),
                span: name.span,
            });
        }
    }

    fn namespace_index(&mut self, file: FileId, ns: &ast::NamespaceDecl) -> usize {
        if let Some(&i) = self.namespaces.get(&ns.name.text) {
            if self.prog.namespaces[i].file == file {
                return i;
            }
            let at = self.prog.sources.position(self.prog.namespaces[i].span);
            self.push(
                Diagnostic::error(
                    "X5372",
                    ns.name.span,
                    format!("the namespace `{}` is defined more than once", ns.name.text),
                )
                .note(format!("first defined at {at}")),
            );
        }
        let i = self.prog.namespaces.len();
        self.namespaces.insert(ns.name.text.clone(), i);
        self.prog.namespaces.push(Namespace {
            name: ns.name.text.clone(),
            title: ns.title.clone(),
            doc: ns.doc.clone(),
            kind: NamespaceKind::Empty,
            file,
            span: ns.name.span,
        });
        i
    }

    fn resolve_type(&mut self, ty: &TypeSpec) -> Option<Type> {
        match ty {
            TypeSpec::Default | TypeSpec::Float(_) => Some(Type::Decimal),
            TypeSpec::Bool(_) => Some(Type::Boolean),
            TypeSpec::Enum(n) => match self.enums.get(&n.text) {
                Some(&e) => Some(Type::Enum(e)),
                None => {
                    let note = suggest(&n.text, self.enums.keys().map(String::as_str));
                    let mut d = Diagnostic::error(
                        "X5552",
                        n.span,
                        format!("no enumeration is called `{}`", n.text),
                    );
                    if let Some(n) = note {
                        d = d.note(n);
                    }
                    self.push(d);
                    None
                }
            },
        }
    }

    fn param(&mut self, p: &ast::ParamDecl, qualified: String, short: String) -> Option<Param> {
        let ty = self.resolve_type(&p.ty)?;
        if ty != Type::Decimal {
            if let Some((_, s)) = &p.range {
                self.err("X2537", *s, "only a number parameter can have a range");
            }
            if let Some((_, s)) = &p.measure {
                self.err("X2537", *s, "only a number parameter can have a measure");
            }
        }
        Some(Param {
            name: qualified,
            short,
            ty,
            range: p.range.as_ref().map(|r| r.0.clone()),
            measure: p.measure.as_ref().map(|r| r.0.clone()),
            doc: p.doc.clone(),
            span: p.name.span,
        })
    }

    fn params(&mut self, owner: &str, decls: &[ast::ParamDecl], option: bool) -> Vec<Param> {
        let mut out: Vec<Param> = Vec::new();
        for p in decls {
            let (q, short) = match p.name.text.strip_prefix('@') {
                Some(rest) if option => (format!("{owner}.{rest}"), rest.to_string()),
                Some(_) => {
                    self.err(
                        "X2537",
                        p.name.span,
                        "only option parameters are written with `@`",
                    );
                    continue;
                }
                None if option => (p.name.text.clone(), p.name.text.clone()),
                None => (format!("{owner}.{}", p.name.text), p.name.text.clone()),
            };
            if out.iter().any(|o| o.name == q) {
                self.err(
                    "X5372",
                    p.name.span,
                    format!(
                        "the parameter `{}` of `{owner}` is defined more than once",
                        p.name.text
                    ),
                );
                continue;
            }
            if let Some(par) = self.param(p, q, short) {
                out.push(par);
            }
        }
        out
    }

    fn declare_namespace(&mut self, file: FileId, ns: &ast::NamespaceDecl) {
        let idx = self.namespace_index(file, ns);
        let mut kind = NamespaceKind::Empty;
        for item in &ns.items {
            let (this, span) = match item {
                NamespaceItem::Behavior(b) => (NamespaceKind::Behaviors, b.name.span),
                NamespaceItem::Const(c) => (NamespaceKind::Symbols, c.name.span),
                NamespaceItem::Symbol(s) => (NamespaceKind::Symbols, s.name.span),
                NamespaceItem::Enum(e) => (NamespaceKind::Symbols, e.span),
            };
            if kind == NamespaceKind::Empty {
                kind = this;
            } else if kind != this {
                // reported, and still declared: the rest of the agents can use it
                self.err(
                    "X3527",
                    span,
                    format!(
                        "the namespace `{}` can contain either symbols or basic behaviors, not both",
                        ns.name.text
                    ),
                );
            }
            match item {
                NamespaceItem::Enum(_) => {}
                NamespaceItem::Const(c) => self.declare_const(idx, c),
                NamespaceItem::Symbol(s) => self.declare_symbol(idx, s),
                NamespaceItem::Behavior(b) => self.declare_behavior(idx, b),
            }
        }
        if let Some(n) = self.prog.namespaces.get_mut(idx) {
            n.kind = kind;
        }
        if kind == NamespaceKind::Empty {
            self.warn(
                "X3572",
                ns.name.span,
                format!("the namespace `{}` is empty", ns.name.text),
            );
        }
        if ns.name.text != self.file_stem(file) {
            self.warn(
                "X7235",
                ns.name.span,
                format!(
                    "the file should be named after the namespace: `{}.xabsl`",
                    ns.name.text
                ),
            );
        }
    }

    fn declare_const(&mut self, ns: usize, c: &ast::ConstDecl) {
        if let Some(&prev) = self.consts.get(&c.name.text) {
            let at = self.prog.sources.position(self.prog.constants[prev].span);
            self.push(
                Diagnostic::error(
                    "X5372",
                    c.name.span,
                    format!("the constant `{}` is defined more than once", c.name.text),
                )
                .note(format!("first defined at {at}")),
            );
            return;
        }
        let value = c.value.parse::<f64>().unwrap_or(0.0);
        self.consts
            .insert(c.name.text.clone(), self.prog.constants.len());
        self.prog.constants.push(Constant {
            name: c.name.text.clone(),
            raw: c.value.clone(),
            value,
            measure: c.measure.clone(),
            doc: c.doc.clone(),
            namespace: Some(ns),
            span: c.name.span,
        });
    }

    fn declare_symbol(&mut self, ns: usize, s: &ast::SymbolDecl) {
        let Some(ty) = self.resolve_type(&s.ty) else {
            return;
        };
        let kind = match s.io {
            Io::Default | Io::Input => SymbolKind::Input,
            Io::Output => SymbolKind::Output,
            Io::Internal => SymbolKind::Internal,
        };
        if ty != Type::Decimal {
            let what = if ty == Type::Boolean {
                "a boolean"
            } else {
                "an enumerated"
            };
            if let Some((_, sp)) = &s.range {
                self.err("X2537", *sp, format!("{what} symbol cannot have a range"));
            }
            if let Some((_, sp)) = &s.measure {
                self.err("X2537", *sp, format!("{what} symbol cannot have a measure"));
            }
        }
        let params = match &s.params {
            Some((ps, span)) => {
                if kind != SymbolKind::Input {
                    self.err("X2537", *span, "only input symbols can have parameters");
                    Vec::new()
                } else {
                    self.params(&s.name.text, ps, false)
                }
            }
            None => Vec::new(),
        };
        let sym = Symbol {
            name: s.name.text.clone(),
            kind,
            ty,
            range: s.range.as_ref().map(|r| r.0.clone()),
            measure: s.measure.as_ref().map(|r| r.0.clone()),
            doc: s.doc.clone(),
            params,
            namespace: Some(ns),
            span: s.name.span,
        };
        let class = sym_class(&sym);
        if let Some(prev) = self.symbols.get(&sym.name).and_then(|v| {
            v.iter()
                .find(|&&i| sym_class(&self.prog.symbols[i]) == class)
        }) {
            let at = self.prog.sources.position(self.prog.symbols[*prev].span);
            self.push(
                Diagnostic::error(
                    "X5372",
                    s.name.span,
                    format!("the symbol `{}` is defined more than once", s.name.text),
                )
                .note(format!("first defined at {at}")),
            );
            return;
        }
        let id = self.prog.symbols.len();
        self.symbols.entry(sym.name.clone()).or_default().push(id);
        self.prog.symbols.push(sym);
    }

    fn declare_behavior(&mut self, ns: usize, b: &ast::BehaviorDecl) {
        if let Some(&prev) = self.behaviors.get(&b.name.text) {
            let at = self.prog.sources.position(self.prog.behaviors[prev].span);
            self.push(
                Diagnostic::error(
                    "X5372",
                    b.name.span,
                    format!(
                        "the basic behavior `{}` is defined more than once",
                        b.name.text
                    ),
                )
                .note(format!("first defined at {at}")),
            );
            return;
        }
        let params = self.params(&b.name.text, &b.params, false);
        self.behaviors
            .insert(b.name.text.clone(), self.prog.behaviors.len());
        self.prog.behaviors.push(Behavior {
            name: b.name.text.clone(),
            params,
            doc: b.doc.clone(),
            namespace: Some(ns),
            span: b.name.span,
        });
    }

    fn declare_option(&mut self, file: FileId, o: &ast::OptionDecl) {
        if let Some(&prev) = self.options.get(&o.name.text) {
            let at = self.prog.sources.position(self.prog.options[prev].span);
            self.push(
                Diagnostic::error(
                    "X5372",
                    o.name.span,
                    format!("the option `{}` is defined more than once", o.name.text),
                )
                .note(format!("first defined at {at}")),
            );
            return;
        }
        let params = self.params(&o.name.text, &o.params, true);
        let mut states: Vec<StateDef> = Vec::new();
        let mut initial: Option<StateId> = None;
        for s in &o.states {
            if let Some(prev) = states.iter().find(|x| x.name == s.name.text) {
                let at = self.prog.sources.position(prev.span);
                self.push(
                    Diagnostic::error(
                        "X5372",
                        s.name.span,
                        format!(
                            "the state `{}` is defined more than once in option `{}`",
                            s.name.text, o.name.text
                        ),
                    )
                    .note(format!("first defined at {at}")),
                );
            }
            if s.initial.is_some() {
                if let Some(first) = initial {
                    let first = states
                        .get(first)
                        .map_or("?", |s| s.name.as_str())
                        .to_string();
                    self.push(
                        Diagnostic::error(
                            "X5327",
                            s.name.span,
                            format!(
                                "option `{}` has more than one initial state: `{first}` and `{}`",
                                o.name.text, s.name.text
                            ),
                        )
                        .note("exactly one state is marked `initial`"),
                    );
                } else {
                    initial = Some(states.len());
                }
            }
            let coop = match &s.coop {
                ast::Coop::None => Coop::Normal,
                ast::Coop::Capacity(n, _) => {
                    Coop::Capacity(n.parse::<f64>().unwrap_or(0.0) as u32, n.clone())
                }
                ast::Coop::Synchronized(Some(n), _) => {
                    Coop::Synchronized(n.parse::<f64>().unwrap_or(0.0) as u32, n.clone())
                }
                ast::Coop::Synchronized(None, _) => Coop::Synchronized(0, "0".into()),
            };
            states.push(StateDef {
                name: s.name.text.clone(),
                doc: s.doc.clone(),
                target: s.target.is_some(),
                coop,
                actions: Vec::new(),
                decision: None,
                span: s.name.span,
            });
        }
        if initial.is_none() {
            self.push(
                Diagnostic::error(
                    "X5273",
                    o.name.span,
                    format!("option `{}` has no initial state", o.name.text),
                )
                .note("mark the state the option starts in: `initial state NAME { ... }`"),
            );
        }
        if o.name.text != self.file_stem(file) {
            self.warn(
                "X7235",
                o.name.span,
                format!(
                    "the file should be named after the option: `{}.xabsl`",
                    o.name.text
                ),
            );
        }
        self.options
            .insert(o.name.text.clone(), self.prog.options.len());
        self.prog.options.push(OptionDef {
            name: o.name.text.clone(),
            doc: o.doc.clone(),
            params,
            states,
            initial: initial.unwrap_or(0),
            common_decision: None,
            common_action: Vec::new(),
            file,
            span: o.name.span,
        });
        self.option_asts.push((file, o.clone()));
    }

    fn declare_agents(&mut self, file: FileId, f: &ast::File, agents: &[ast::AgentDecl]) {
        if let Some(prev) = self.prog.agents_file {
            if prev != file {
                let at = self
                    .prog
                    .sources
                    .get(prev)
                    .map(|f| f.path.display().to_string())
                    .unwrap_or_default();
                if let Some(a) = agents.first() {
                    self.push(
                        Diagnostic::error(
                            "X8005",
                            a.name.span,
                            "agents are declared in more than one file; declare them all in the agents file",
                        )
                        .note(format!("the first agents file is {at}")),
                    );
                }
                return;
            }
        }
        self.prog.agents_file = Some(file);
        if let Some(c) = &f.initial_comment {
            self.prog.title = comment_field(c, "title");
            self.prog.platform = comment_field(c, "platform");
            self.prog.software_environment = comment_field(c, "software-environment");
        }
        for a in agents {
            if self.agents.contains_key(&a.name.text) {
                self.err(
                    "X5372",
                    a.name.span,
                    format!("the agent `{}` is defined more than once", a.name.text),
                );
                continue;
            }
            let Some(root) = self.find_option(&a.root) else {
                continue;
            };
            self.agents
                .insert(a.name.text.clone(), self.prog.agents.len());
            self.prog.agents.push(Agent {
                name: a.name.text.clone(),
                title: a.title.clone(),
                doc: a.doc.clone(),
                root,
                span: a.name.span,
            });
        }
    }

    fn find_option(&mut self, n: &ast::Name) -> Option<OptionId> {
        if let Some(&o) = self.options.get(&n.text) {
            return Some(o);
        }
        let mut d = Diagnostic::error("X5552", n.span, format!("no option is called `{}`", n.text));
        if let Some(s) = suggest(&n.text, self.options.keys().map(String::as_str)) {
            d = d.note(s);
        } else if self.behaviors.contains_key(&n.text) {
            d = d.note(format!(
                "`{}` is a basic behavior; an agent starts with an option",
                n.text
            ));
        }
        self.push(d);
        None
    }

    // ---------------------------------------------------------- option bodies

    fn option_body(&mut self, oid: OptionId, o: &ast::OptionDecl) {
        // `oid` indexes option_asts, which parallels prog.options.
        let has_common = o.common_decision.is_some();
        let scope = Scope::Option {
            option: oid,
            state: None,
            capacity: false,
        };
        let common_decision = o
            .common_decision
            .as_ref()
            .and_then(|cd| self.common_tree(cd, scope, None));
        let common_action = self.actions(&o.common_action, scope);
        let common_calls_option = common_action
            .iter()
            .any(|a| matches!(a, Action::Option { .. }));
        let mut states = Vec::new();
        for (sid, s) in o.states.iter().enumerate() {
            let capacity = matches!(s.coop, ast::Coop::Capacity(..));
            let scope = Scope::Option {
                option: oid,
                state: Some(sid),
                capacity,
            };
            let actions = self.actions(&s.actions, scope);
            let calls_option =
                common_calls_option || actions.iter().any(|a| matches!(a, Action::Option { .. }));
            let decision = match &s.decision {
                None => None,
                Some(d) => {
                    match (d.starts_with_else, has_common) {
                        (Some(e), false) => self.err(
                            "X7352",
                            e,
                            "a decision must not start with `else` when the option has no common decision",
                        ),
                        (None, true) => self.warn(
                            "X7325",
                            d.span,
                            "the option has a common decision, so this decision should start with `else`",
                        ),
                        _ => {}
                    }
                    if !calls_option && tree_uses_action_done(&d.tree) {
                        self.warn(
                            "X8003",
                            d.span,
                            format!(
                                "`action_done` is always false in state `{}`: it calls no option",
                                s.name.text
                            ),
                        );
                    }
                    self.tree(&d.tree, scope, Some(sid))
                }
            };
            states.push((actions, decision));
        }
        if let Some(opt) = self.prog.options.get_mut(oid) {
            opt.common_decision = common_decision;
            opt.common_action = common_action;
            for (st, (actions, decision)) in opt.states.iter_mut().zip(states) {
                st.actions = actions;
                st.decision = decision;
            }
        }
    }

    fn state_id(&mut self, scope: Scope, n: &ast::Name) -> Option<StateId> {
        let Scope::Option { option, .. } = scope else {
            return None;
        };
        let opt = self.prog.options.get(option)?;
        if let Some(i) = opt.states.iter().position(|s| s.name == n.text) {
            return Some(i);
        }
        let note = suggest(&n.text, opt.states.iter().map(|s| s.name.as_str()));
        let mut d = Diagnostic::error(
            "X5552",
            n.span,
            format!("option `{}` has no state called `{}`", opt.name, n.text),
        );
        if let Some(s) = note {
            d = d.note(s);
        }
        self.push(d);
        None
    }

    /// A decision tree; `me` is the state it decides for (none in the common decision).
    fn tree(&mut self, t: &ast::Tree, scope: Scope, me: Option<StateId>) -> Option<Tree> {
        match t {
            ast::Tree::Goto(n) => self.state_id(scope, n).map(Tree::Goto),
            ast::Tree::Stay(s) => match me {
                Some(me) => Some(Tree::Goto(me)),
                None => {
                    self.err(
                        "X8006",
                        *s,
                        "`stay` cannot be used in the common decision: there is no current state to stay in; use `goto STATE;`",
                    );
                    None
                }
            },
            ast::Tree::If(i) => {
                let cond = self.condition(&i.cond, scope);
                let then = self.tree(&i.then, scope, me);
                let other = self.tree(&i.other, scope, me);
                Some(Tree::If {
                    doc: i.doc.clone(),
                    cond: cond?,
                    then: Box::new(then?),
                    other: Box::new(other?),
                })
            }
        }
    }

    fn common_tree(
        &mut self,
        t: &ast::CommonTree,
        scope: Scope,
        _: Option<()>,
    ) -> Option<CommonDecision> {
        let cond = self.condition(&t.cond, scope);
        // `stay` has no state of its own in the common decision (the reference
        // compiler crashes on it)
        let then = self.tree(&t.then, scope, None);
        let rest = t.other.as_ref().map(|o| self.common_tree(o, scope, None));
        Some(CommonDecision {
            doc: t.doc.clone(),
            cond: cond?,
            then: then?,
            other: match rest {
                Some(Some(r)) => Some(Box::new(r)),
                Some(None) => return None,
                None => None,
            },
        })
    }

    fn condition(&mut self, e: &ast::Expr, scope: Scope) -> Option<Expr> {
        let x = self.expr(e, scope, None)?;
        if x.ty() != Type::Boolean {
            let t = self.prog.type_name(x.ty());
            self.err(
                "X5525",
                e.span(),
                format!("type mismatch: a condition must be a boolean, but this is {t}"),
            );
            return None;
        }
        Some(x)
    }

    fn actions(&mut self, acts: &[ast::Action], scope: Scope) -> Vec<Action> {
        let mut out = Vec::new();
        for a in acts {
            match a {
                ast::Action::Assign { name, value } => {
                    if let Some(x) = self.assignment(name, value, scope) {
                        out.push(x);
                    }
                }
                ast::Action::Call {
                    name,
                    kind,
                    args,
                    span,
                } => {
                    if let Some(x) = self.call(name, *kind, args, *span, scope) {
                        out.push(x);
                    }
                }
            }
        }
        out
    }

    fn assignment(&mut self, name: &ast::Name, value: &ast::Expr, scope: Scope) -> Option<Action> {
        let outs: Vec<SymbolId> = self
            .symbols
            .get(&name.text)
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|&i| self.prog.symbols[i].is_output())
                    .collect()
            })
            .unwrap_or_default();
        let symbol = match outs.as_slice() {
            [one] => *one,
            [] => {
                let mut d = Diagnostic::error(
                    "X5552",
                    name.span,
                    format!("no output or internal symbol is called `{}`", name.text),
                );
                if self.symbols.contains_key(&name.text) {
                    d = d.note(format!(
                        "`{}` is an input symbol; only output and internal symbols can be set",
                        name.text
                    ));
                } else if let Some(s) = suggest(
                    &name.text,
                    self.prog
                        .symbols
                        .iter()
                        .filter(|s| s.is_output())
                        .map(|s| s.name.as_str()),
                ) {
                    d = d.note(s);
                }
                self.push(d);
                // still check the value for further errors
                let _ = self.expr(value, scope, None);
                return None;
            }
            _ => {
                self.err(
                    "X5723",
                    name.span,
                    format!("`{}` is ambiguous: several output symbols of different types have that name", name.text),
                );
                return None;
            }
        };
        let ty = self.prog.symbols[symbol].ty;
        let ctx = match ty {
            Type::Enum(e) => Some(e),
            _ => None,
        };
        let x = self.expr(value, scope, ctx)?;
        self.expect_type(&x, ty, value.span(), &format!("the symbol `{}`", name.text))?;
        Some(Action::Set {
            symbol,
            value: x,
            span: name.span.to(value.span()),
        })
    }

    /// Is `x` of type `want`? Reports a mismatch.
    fn expect_type(&mut self, x: &Expr, want: Type, span: Span, what: &str) -> Option<()> {
        let got = x.ty();
        if got == want {
            return Some(());
        }
        match (got, want) {
            (Type::Enum(g), Type::Enum(w)) => {
                let (g, w) = (self.enum_name(g).to_string(), self.enum_name(w).to_string());
                self.err(
                    "X5255",
                    span,
                    format!("mismatching domain: {what} takes an element of `{w}`, but this is an element of `{g}`"),
                );
            }
            _ => {
                let (g, w) = (self.prog.type_name(got), self.prog.type_name(want));
                self.err(
                    "X5525",
                    span,
                    format!("type mismatch: {what} takes {w}, but this is {g}"),
                );
            }
        }
        None
    }

    fn call(
        &mut self,
        name: &ast::Name,
        kind: Option<ast::CallKind>,
        args: &[ast::Arg],
        span: Span,
        scope: Scope,
    ) -> Option<Action> {
        let opt = self.options.get(&name.text).copied();
        let bb = self.behaviors.get(&name.text).copied();
        let (opt, bb) = match kind {
            Some(ast::CallKind::Option) => (opt, None),
            Some(ast::CallKind::Behavior) => (None, bb),
            None => (opt, bb),
        };
        match (opt, bb) {
            (Some(_), Some(_)) => {
                self.push(
                    Diagnostic::error(
                        "X5723",
                        name.span,
                        format!("`{}` is both an option and a basic behavior", name.text),
                    )
                    .note(format!(
                        "write `{0} option(...)` or `{0} behavior(...)`",
                        name.text
                    )),
                );
                None
            }
            (Some(o), None) => {
                let params = self.prog.options[o].params.clone();
                let args = self.args(&name.text, &params, args, span, scope, true)?;
                Some(Action::Option {
                    option: o,
                    args,
                    span,
                })
            }
            (None, Some(b)) => {
                let params = self.prog.behaviors[b].params.clone();
                let args = self.args(&name.text, &params, args, span, scope, false)?;
                Some(Action::Behavior {
                    behavior: b,
                    args,
                    span,
                })
            }
            (None, None) => {
                let what = match kind {
                    Some(ast::CallKind::Option) => "option",
                    Some(ast::CallKind::Behavior) => "basic behavior",
                    None => "option or basic behavior",
                };
                let mut d = Diagnostic::error(
                    "X5552",
                    name.span,
                    format!("no {what} is called `{}`", name.text),
                );
                let cands: Vec<&str> = self
                    .options
                    .keys()
                    .chain(self.behaviors.keys())
                    .map(String::as_str)
                    .collect();
                if let Some(s) = suggest(&name.text, cands.into_iter()) {
                    d = d.note(s);
                } else if self.symbols.contains_key(&name.text) {
                    d = d.note(format!(
                        "`{}` is a symbol; set an output symbol with `{} = value;`",
                        name.text, name.text
                    ));
                }
                self.push(d);
                None
            }
        }
    }

    /// The parameters given at a call (option, basic behavior or input symbol).
    fn args(
        &mut self,
        callee: &str,
        params: &[Param],
        args: &[ast::Arg],
        call_span: Span,
        scope: Scope,
        warn_missing: bool,
    ) -> Option<Vec<Arg>> {
        let mut out: Vec<Arg> = Vec::new();
        let mut ok = true;
        for a in args {
            if a.name.text.starts_with('@') {
                self.push(
                    Diagnostic::error(
                        "X5255",
                        a.name.span,
                        format!(
                            "`{}` names a parameter of the calling option, not of `{callee}`",
                            a.name.text
                        ),
                    )
                    .note(format!(
                        "write the callee's parameter without `@`: `{} = ...`",
                        &a.name.text[1..]
                    )),
                );
                ok = false;
                let _ = self.expr(&a.value, scope, None);
                continue;
            }
            let Some(pi) = params
                .iter()
                .position(|p| p.short == a.name.text || p.name == a.name.text)
            else {
                let mut d = Diagnostic::error(
                    "X5552",
                    a.name.span,
                    format!("`{callee}` has no parameter called `{}`", a.name.text),
                );
                if params.is_empty() {
                    d = d.note(format!("`{callee}` has no parameters"));
                } else {
                    d = d.note(format!(
                        "its parameters are {}",
                        params
                            .iter()
                            .map(|p| format!("`{}`", p.short))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                self.push(d);
                ok = false;
                let _ = self.expr(&a.value, scope, None);
                continue;
            };
            if out.iter().any(|o| o.param == pi) {
                self.err(
                    "X3725",
                    a.name.span,
                    format!("the parameter `{}` is set more than once", a.name.text),
                );
                ok = false;
                continue;
            }
            let p = &params[pi];
            let ctx = match p.ty {
                Type::Enum(e) => Some(e),
                _ => None,
            };
            let want = p.ty;
            let what = format!("the parameter `{}`", p.short);
            let Some(x) = self.expr(&a.value, scope, ctx) else {
                ok = false;
                continue;
            };
            if let (Type::Enum(g), Type::Enum(w)) = (x.ty(), want) {
                if g != w {
                    let (g, w) = (self.enum_name(g).to_string(), self.enum_name(w).to_string());
                    self.err(
                        "X5526",
                        a.value.span(),
                        format!("enumeration mismatch on `{}`: expected an element of `{w}`, found an element of `{g}`", p.short),
                    );
                    ok = false;
                    continue;
                }
            }
            if self.expect_type(&x, want, a.value.span(), &what).is_none() {
                ok = false;
                continue;
            }
            out.push(Arg {
                param: pi,
                value: x,
                span: a.name.span,
            });
        }
        if warn_missing {
            for (i, p) in params.iter().enumerate() {
                if !out.iter().any(|a| a.param == i) && !args.iter().any(|a| a.name.text == p.short)
                {
                    let default = match p.ty {
                        Type::Decimal => "0".to_string(),
                        Type::Boolean => "false".to_string(),
                        Type::Enum(e) => {
                            format!("`{}`", self.prog.enums.get(e).map_or("", |e| e.short(0)))
                        }
                    };
                    self.warn(
                        "X3752",
                        call_span,
                        format!(
                            "the parameter `{}` is missing in this call to `{callee}`; it is set to {default}",
                            p.short
                        ),
                    );
                }
            }
        }
        ok.then_some(out)
    }

    // ----------------------------------------------------------- expressions

    pub(crate) fn expr(
        &mut self,
        e: &ast::Expr,
        scope: Scope,
        ctx: Option<EnumId>,
    ) -> Option<Expr> {
        match e {
            ast::Expr::Paren(inner, _) => self.expr(inner, scope, ctx),
            ast::Expr::Number(t, _) => Some(Expr::Number(t.parse::<f64>().unwrap_or(0.0))),
            ast::Expr::Bool(b, _) => Some(Expr::Bool(*b)),
            ast::Expr::Name(n) => self.name_value(n, scope, ctx),
            ast::Expr::Call { name, args, span } => self.input_call(name, args, *span, scope),
            ast::Expr::StateTime(s)
            | ast::Expr::OptionTime(s)
            | ast::Expr::ActionDone(s)
            | ast::Expr::Conflict(s) => {
                let Scope::Option {
                    state, capacity, ..
                } = scope
                else {
                    self.err(
                        "X8007",
                        *s,
                        "`state_time`, `option_time`, `action_done` and `conflict` can only be used in an option",
                    );
                    return None;
                };
                Some(match e {
                    ast::Expr::StateTime(_) => Expr::StateTime,
                    ast::Expr::OptionTime(_) => Expr::OptionTime,
                    ast::Expr::ActionDone(_) => Expr::ActionDone,
                    _ => {
                        if state.is_some() && !capacity {
                            self.warn(
                                "X8004",
                                *s,
                                "`conflict` is always false outside a `capacity` state",
                            );
                        }
                        Expr::Conflict
                    }
                })
            }
            ast::Expr::Not(inner, s) => {
                let x = self.expr(inner, scope, ctx)?;
                if x.ty() != Type::Boolean {
                    let t = self.prog.type_name(x.ty());
                    self.err(
                        "X5525",
                        *s,
                        format!("type mismatch on `!`: it takes a boolean, but this is {t}"),
                    );
                    return None;
                }
                Some(Expr::Not(Box::new(x)))
            }
            ast::Expr::Neg(inner, s) => {
                let x = self.expr(inner, scope, ctx)?;
                match x {
                    Expr::Number(v) => Some(Expr::Number(-v)),
                    x if x.ty() == Type::Decimal => Some(Expr::Arith(
                        ArithOp::Sub,
                        Box::new(Expr::Number(0.0)),
                        Box::new(x),
                    )),
                    x => {
                        let t = self.prog.type_name(x.ty());
                        self.err(
                            "X5525",
                            *s,
                            format!("type mismatch on `-`: it takes a number, but this is {t}"),
                        );
                        None
                    }
                }
            }
            ast::Expr::Binary(op, a, b, s) => self.binary(*op, a, b, *s, scope, ctx),
            ast::Expr::Cond(c, a, b, s) => {
                let cond = self.expr(c, scope, ctx);
                let then = self.expr(a, scope, ctx);
                let other = self.expr(b, scope, ctx);
                let (cond, then, other) = (cond?, then?, other?);
                if cond.ty() != Type::Boolean {
                    let t = self.prog.type_name(cond.ty());
                    self.err("X5525", c.span(), format!("type mismatch: the condition of `? :` must be a boolean, but this is {t}"));
                    return None;
                }
                let ty = then.ty();
                if other.ty() != ty {
                    match (ty, other.ty()) {
                        (Type::Enum(x), Type::Enum(y)) => {
                            let (x, y) =
                                (self.enum_name(x).to_string(), self.enum_name(y).to_string());
                            self.err("X5255", *s, format!("mismatching domain in `? :`: one branch is an element of `{x}`, the other of `{y}`"));
                        }
                        (x, y) => {
                            let (x, y) = (self.prog.type_name(x), self.prog.type_name(y));
                            self.err(
                                "X5525",
                                *s,
                                format!("type mismatch in `? :`: one branch is {x}, the other {y}"),
                            );
                        }
                    }
                    return None;
                }
                if ty == Type::Boolean {
                    self.push(
                        Diagnostic::error(
                            "X8002",
                            *s,
                            "a conditional expression `c ? a : b` cannot give a boolean: the engine only has decimal and enumerated ones",
                        )
                        .note("write `(c && a) || (!c && b)`"),
                    );
                    return None;
                }
                Some(Expr::Cond {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    other: Box::new(other),
                    ty,
                })
            }
        }
    }

    fn binary(
        &mut self,
        op: BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        s: Span,
        scope: Scope,
        ctx: Option<EnumId>,
    ) -> Option<Expr> {
        if matches!(op, BinOp::Eq | BinOp::Ne) {
            let l = self.expr(a, scope, ctx)?;
            if let Type::Enum(le) = l.ty() {
                let r = self.expr(b, scope, Some(le))?;
                return match r.ty() {
                    Type::Enum(re) if re == le => {
                        let eq = Expr::EnumEq(Box::new(l), Box::new(r));
                        Some(if op == BinOp::Ne {
                            Expr::Not(Box::new(eq))
                        } else {
                            eq
                        })
                    }
                    Type::Enum(re) => {
                        let (x, y) = (
                            self.enum_name(le).to_string(),
                            self.enum_name(re).to_string(),
                        );
                        self.err("X5255", s, format!("mismatching domain on `{}`: an element of `{x}` is compared with an element of `{y}`", op.as_str()));
                        None
                    }
                    other => {
                        let (x, y) = (self.prog.type_name(l.ty()), self.prog.type_name(other));
                        self.err(
                            "X5525",
                            s,
                            format!(
                                "type mismatch on `{}`: {x} is compared with {y}",
                                op.as_str()
                            ),
                        );
                        None
                    }
                };
            }
            let r = self.expr(b, scope, ctx)?;
            if l.ty() != Type::Decimal || r.ty() != Type::Decimal {
                let (x, y) = (self.prog.type_name(l.ty()), self.prog.type_name(r.ty()));
                let mut d = Diagnostic::error(
                    "X5525",
                    s,
                    format!("type mismatch on `{}`: it compares two numbers or two elements of one enumeration, but the left side is {x} and the right side {y}", op.as_str()),
                );
                if l.ty() == Type::Boolean && r.ty() == Type::Boolean {
                    d = d.note(if op == BinOp::Eq {
                        "for booleans write `(a && b) || (!a && !b)`"
                    } else {
                        "for booleans write `(a && !b) || (!a && b)`"
                    });
                }
                self.push(d);
                return None;
            }
            let cmp = if op == BinOp::Eq {
                CmpOp::Eq
            } else {
                CmpOp::Ne
            };
            return Some(Expr::Compare(cmp, Box::new(l), Box::new(r)));
        }
        let l = self.expr(a, scope, ctx);
        let r = self.expr(b, scope, ctx);
        let (l, r) = (l?, r?);
        let want = match op {
            BinOp::And | BinOp::Or => Type::Boolean,
            _ => Type::Decimal,
        };
        if l.ty() != want || r.ty() != want {
            let (x, y) = (self.prog.type_name(l.ty()), self.prog.type_name(r.ty()));
            let w = self.prog.type_name(want);
            self.err(
                "X5525",
                s,
                format!(
                    "type mismatch on `{}`: it takes {w} on both sides, but the left side is {x} and the right side {y}",
                    op.as_str()
                ),
            );
            return None;
        }

        Some(match op {
            BinOp::Add => Expr::Arith(ArithOp::Add, Box::new(l), Box::new(r)),
            BinOp::Sub => Expr::Arith(ArithOp::Sub, Box::new(l), Box::new(r)),
            BinOp::Mul => Expr::Arith(ArithOp::Mul, Box::new(l), Box::new(r)),
            BinOp::Div => Expr::Arith(ArithOp::Div, Box::new(l), Box::new(r)),
            BinOp::Mod => Expr::Arith(ArithOp::Mod, Box::new(l), Box::new(r)),
            BinOp::Lt => Expr::Compare(CmpOp::Lt, Box::new(l), Box::new(r)),
            BinOp::Gt => Expr::Compare(CmpOp::Gt, Box::new(l), Box::new(r)),
            BinOp::Le => Expr::Compare(CmpOp::Le, Box::new(l), Box::new(r)),
            BinOp::Ge => Expr::Compare(CmpOp::Ge, Box::new(l), Box::new(r)),
            BinOp::And | BinOp::Or => {
                let mut items = Vec::new();
                for x in [l, r] {
                    match (op, x) {
                        (BinOp::And, Expr::And(v)) | (BinOp::Or, Expr::Or(v)) => items.extend(v),
                        (_, x) => items.push(x),
                    }
                }
                if op == BinOp::And {
                    Expr::And(items)
                } else {
                    Expr::Or(items)
                }
            }
            BinOp::Eq | BinOp::Ne => return None,
        })
    }

    fn name_value(&mut self, n: &ast::Name, scope: Scope, ctx: Option<EnumId>) -> Option<Expr> {
        if let Some(rest) = n.text.strip_prefix('@') {
            let Scope::Option { option, .. } = scope else {
                self.err(
                    "X5552",
                    n.span,
                    format!(
                        "`{}`: option parameters can only be used in an option",
                        n.text
                    ),
                );
                return None;
            };
            let opt = self.prog.options.get(option)?;
            let q = format!("{}.{rest}", opt.name);
            if let Some(i) = opt.params.iter().position(|p| p.name == q) {
                return Some(Expr::Param {
                    option,
                    index: i,
                    ty: opt.params[i].ty,
                });
            }
            let mut d = Diagnostic::error(
                "X5552",
                n.span,
                format!("option `{}` has no parameter called `{}`", opt.name, n.text),
            );
            if let Some(s) = suggest(rest, opt.params.iter().map(|p| p.short.as_str())) {
                d = d.note(format!("{s} (written `@` + name)"));
            }
            self.push(d);
            return None;
        }
        if let Some(e) = ctx {
            if let Some(en) = self.prog.enums.get(e) {
                let q = format!("{}.{}", en.name, n.text);
                if let Some(i) = en.elements.iter().position(|x| *x == n.text || *x == q) {
                    return Some(Expr::Element {
                        enumeration: e,
                        index: i,
                    });
                }
            }
        }
        if let Scope::InputDefinition(s) = scope {
            if let Some(sym) = self.prog.symbols.get(s) {
                if let Some(i) = sym
                    .params
                    .iter()
                    .position(|p| p.short == n.text || p.name == n.text)
                {
                    return Some(Expr::Param {
                        option: usize::MAX,
                        index: i,
                        ty: sym.params[i].ty,
                    });
                }
            }
        }
        let mut found: Vec<Expr> = Vec::new();
        if let Some(&c) = self.consts.get(&n.text) {
            found.push(Expr::Constant(c));
        }
        if let Some(ids) = self.symbols.get(&n.text) {
            for &i in ids {
                let s = &self.prog.symbols[i];
                found.push(if s.kind == SymbolKind::Input {
                    Expr::Input {
                        symbol: i,
                        ty: s.ty,
                        args: Vec::new(),
                    }
                } else {
                    Expr::Output {
                        symbol: i,
                        ty: s.ty,
                    }
                });
            }
        }
        match found.len() {
            1 => found.pop(),
            0 => {
                let mut d = Diagnostic::error(
                    "X5552",
                    n.span,
                    match ctx {
                        Some(e) => format!(
                            "`{}` is not an element of `{}`, a constant or a symbol",
                            n.text,
                            self.enum_name(e)
                        ),
                        None => format!(
                            "no constant, input, output or internal symbol is called `{}`",
                            n.text
                        ),
                    },
                );
                let elsewhere: Vec<String> = self
                    .prog
                    .enums
                    .iter()
                    .filter(|en| {
                        en.elements
                            .iter()
                            .any(|x| *x == n.text || x.ends_with(&format!(".{}", n.text)))
                    })
                    .map(|en| format!("`{}`", en.name))
                    .collect();
                if !elsewhere.is_empty() {
                    d = d.note(match ctx {
                        Some(e) => format!(
                            "`{}` is an element of {}, but an element of `{}` is expected here",
                            n.text,
                            elsewhere.join(", "),
                            self.enum_name(e)
                        ),
                        None => format!(
                            "`{}` is an element of {}; an element can only be used where an enumerated value is expected (after `==` with an enumerated value on the left, or in the value of an enumerated symbol or parameter)",
                            n.text,
                            elsewhere.join(", ")
                        ),
                    });
                } else {
                    let mut cands: Vec<&str> = self
                        .symbols
                        .keys()
                        .chain(self.consts.keys())
                        .map(String::as_str)
                        .collect();
                    if let Some(e) = ctx.and_then(|e| self.prog.enums.get(e)) {
                        for i in 0..e.elements.len() {
                            cands.push(e.short(i));
                        }
                    }
                    if let Some(s) = suggest(&n.text, cands.into_iter()) {
                        d = d.note(s);
                    } else if self.options.contains_key(&n.text) {
                        d = d.note(format!(
                            "`{}` is an option; options are called in actions",
                            n.text
                        ));
                    }
                }
                self.push(d);
                None
            }
            _ => {
                self.err(
                    "X5723",
                    n.span,
                    format!("`{}` is ambiguous: a constant or several symbols of different kinds have that name", n.text),
                );
                None
            }
        }
    }

    fn input_call(
        &mut self,
        name: &ast::Name,
        args: &[ast::Arg],
        span: Span,
        scope: Scope,
    ) -> Option<Expr> {
        let ins: Vec<SymbolId> = self
            .symbols
            .get(&name.text)
            .map(|v| {
                v.iter()
                    .copied()
                    .filter(|&i| self.prog.symbols[i].kind == SymbolKind::Input)
                    .collect()
            })
            .unwrap_or_default();
        let symbol = match ins.as_slice() {
            [one] => *one,
            [] => {
                let mut d = Diagnostic::error(
                    "X5552",
                    name.span,
                    format!("no input symbol is called `{}`", name.text),
                );
                if self.options.contains_key(&name.text) || self.behaviors.contains_key(&name.text)
                {
                    d = d.note(
                        "options and basic behaviors are called as actions, not in expressions",
                    );
                } else if let Some(s) = suggest(
                    &name.text,
                    self.prog
                        .symbols
                        .iter()
                        .filter(|s| s.kind == SymbolKind::Input)
                        .map(|s| s.name.as_str()),
                ) {
                    d = d.note(s);
                }
                self.push(d);
                return None;
            }
            _ => {
                self.err(
                    "X5723",
                    name.span,
                    format!("`{}` is ambiguous: several input symbols of different types have that name", name.text),
                );
                return None;
            }
        };
        let params = self.prog.symbols[symbol].params.clone();
        let ty = self.prog.symbols[symbol].ty;
        let args = self.args(&name.text, &params, args, span, scope, true)?;
        Some(Expr::Input { symbol, ty, args })
    }
}

fn tree_uses_action_done(t: &ast::Tree) -> bool {
    fn expr(e: &ast::Expr) -> bool {
        match e {
            ast::Expr::ActionDone(_) => true,
            ast::Expr::Not(x, _) | ast::Expr::Neg(x, _) | ast::Expr::Paren(x, _) => expr(x),
            ast::Expr::Binary(_, a, b, _) => expr(a) || expr(b),
            ast::Expr::Cond(c, a, b, _) => expr(c) || expr(a) || expr(b),
            ast::Expr::Call { args, .. } => args.iter().any(|a| expr(&a.value)),
            _ => false,
        }
    }
    match t {
        ast::Tree::If(i) => {
            expr(&i.cond) || tree_uses_action_done(&i.then) || tree_uses_action_done(&i.other)
        }
        _ => false,
    }
}

/// `Title:`, `Platform:`, `Software-Environment:` in the agents file's initial comment
/// (case-insensitive, the rest of the line, trimmed).
fn comment_field(comment: &str, key: &str) -> Option<String> {
    for line in comment.lines() {
        let lower = line.to_ascii_lowercase();
        if let Some(p) = lower.find(&format!("{key}:")) {
            let rest = line.get(p + key.len() + 1..).unwrap_or("");
            return Some(rest.trim().to_string());
        }
    }
    None
}

impl Checker {
    /// Cycles in the option graph (the engine refuses them), and chains of calls deeper
    /// than the engine will go; depth first, without recursion.
    fn check_cycles(&mut self) {
        const MAX_CALL_DEPTH: usize = 256;
        let n = self.prog.options.len();
        let callees: Vec<Vec<OptionId>> = (0..n).map(|o| self.prog.callees(o)).collect();
        // 0 = unvisited, 1 = on the path, 2 = done
        let mut mark = vec![0u8; n];
        let mut reported = vec![false; n];
        let mut too_deep = false;
        for start in 0..n {
            if mark[start] != 0 {
                continue;
            }
            mark[start] = 1;
            let mut stack: Vec<(OptionId, usize)> = vec![(start, 0)];
            while let Some(&mut (o, ref mut k)) = stack.last_mut() {
                let Some(&c) = callees[o].get(*k) else {
                    mark[o] = 2;
                    stack.pop();
                    continue;
                };
                *k += 1;
                if mark[c] == 1 {
                    if !reported[c] {
                        reported[c] = true;
                        let pos = stack.iter().position(|&(x, _)| x == c).unwrap_or(0);
                        let chain: Vec<String> = stack[pos..]
                            .iter()
                            .map(|&(x, _)| x)
                            .chain(std::iter::once(c))
                            .map(|x| format!("`{}`", self.prog.options[x].name))
                            .collect();
                        let span = self.call_span(o, c);
                        self.push(
                            Diagnostic::error(
                                "X8001",
                                span,
                                format!(
                                    "the options call each other in a cycle: {}",
                                    chain.join(" calls ")
                                ),
                            )
                            .note("the option graph must be a tree or a DAG; the engine refuses to load a cycle"),
                        );
                    }
                } else if mark[c] == 0 {
                    if stack.len() >= MAX_CALL_DEPTH {
                        if !too_deep {
                            too_deep = true;
                            let span = self.call_span(o, c);
                            self.err(
                                "X8009",
                                span,
                                format!("options call each other more than {MAX_CALL_DEPTH} levels deep"),
                            );
                        }
                        mark[c] = 2;
                        continue;
                    }
                    mark[c] = 1;
                    stack.push((c, 0));
                }
            }
        }
    }

    fn call_span(&self, from: OptionId, to: OptionId) -> Span {
        let opt = &self.prog.options[from];
        opt.common_action
            .iter()
            .chain(opt.states.iter().flat_map(|s| s.actions.iter()))
            .find_map(|a| match a {
                Action::Option { option, span, .. } if *option == to => Some(*span),
                _ => None,
            })
            .unwrap_or(opt.span)
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
