//! The first pass: declarations. Enumerations of every file first, then namespaces
//! (constants, symbols, basic behaviors) and options with their parameters and states,
//! then the agents; duplicates, initial states and file names are checked here.

use super::suggest::suggest;
use super::Checker;
use crate::ast::{self, Io, NamespaceItem, TypeSpec};
use crate::diag::Diagnostic;
use crate::model::*;
use crate::source::FileId;

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

impl Checker {
    pub(super) fn declare_enums(&mut self, file: FileId, ns: &ast::NamespaceDecl) {
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
            let mut element_spans = Vec::new();
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
                element_spans.push(el.span);
            }
            self.enums.insert(name.text.clone(), self.prog.enums.len());
            self.prog.enums.push(Enum {
                name: name.text.clone(),
                elements,
                internal,
                doc: e.doc.clone(),
                namespace: Some(ns_index),
                span: name.span,
                element_spans,
            });
        }
    }

    pub(super) fn namespace_index(&mut self, file: FileId, ns: &ast::NamespaceDecl) -> usize {
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

    pub(super) fn resolve_type(&mut self, ty: &TypeSpec) -> Option<Type> {
        match ty {
            TypeSpec::Default | TypeSpec::Float(_) => Some(Type::Decimal),
            TypeSpec::Bool(_) => Some(Type::Boolean),
            TypeSpec::Enum(n) => match self.enums.get(&n.text) {
                Some(&e) => {
                    self.refer(n.span, Def::Enum(e));
                    Some(Type::Enum(e))
                }
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

    pub(super) fn param(
        &mut self,
        p: &ast::ParamDecl,
        qualified: String,
        short: String,
    ) -> Option<Param> {
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

    pub(super) fn params(
        &mut self,
        owner: &str,
        decls: &[ast::ParamDecl],
        option: bool,
    ) -> Vec<Param> {
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

    pub(super) fn declare_namespace(&mut self, file: FileId, ns: &ast::NamespaceDecl) {
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

    pub(super) fn declare_const(&mut self, ns: usize, c: &ast::ConstDecl) {
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

    pub(super) fn declare_symbol(&mut self, ns: usize, s: &ast::SymbolDecl) {
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

    pub(super) fn declare_behavior(&mut self, ns: usize, b: &ast::BehaviorDecl) {
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

    pub(super) fn declare_option(&mut self, file: FileId, o: &ast::OptionDecl) {
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
        let (states, initial) = self.declare_states(o);
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

    /// The states of an option (names, flags, cooperation; bodies come later), and
    /// its initial state.
    fn declare_states(&mut self, o: &ast::OptionDecl) -> (Vec<StateDef>, Option<StateId>) {
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
                match initial.and_then(|i| states.get(i)) {
                    Some(first) => {
                        let first = first.name.clone();
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
                    }
                    None => initial = Some(states.len()),
                }
            }
            states.push(StateDef {
                name: s.name.text.clone(),
                doc: s.doc.clone(),
                target: s.target.is_some(),
                coop: coop(&s.coop),
                actions: Vec::new(),
                decision: None,
                span: s.name.span,
            });
        }
        (states, initial)
    }

    pub(super) fn declare_agents(
        &mut self,
        file: FileId,
        f: &ast::File,
        agents: &[ast::AgentDecl],
    ) {
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

    pub(super) fn find_option(&mut self, n: &ast::Name) -> Option<OptionId> {
        if let Some(&o) = self.options.get(&n.text) {
            self.refer(n.span, Def::Option(o));
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

/// A state's cooperation as declared.
fn coop(c: &ast::Coop) -> Coop {
    match c {
        ast::Coop::None => Coop::Normal,
        ast::Coop::Capacity(n, _) => {
            Coop::Capacity(n.parse::<f64>().unwrap_or(0.0) as u32, n.clone())
        }
        ast::Coop::Synchronized(Some(n), _) => {
            Coop::Synchronized(n.parse::<f64>().unwrap_or(0.0) as u32, n.clone())
        }
        ast::Coop::Synchronized(None, _) => Coop::Synchronized(0, "0".into()),
    }
}
