//! The documentation's diagrams, as SVG: the option graph of an agent, an option's state
//! machine (with the options and basic behaviors each state runs and the subtree beneath
//! them), and a state's decision tree (its boxes labelled with the conditions'
//! descriptions and linked to the pseudo code, the common decision's drawn distinct).
//! Links are relative to the pages, which hold the diagrams inline.

use super::html::{condition_anchor, href};
use super::layout::{self, wrap, DTree, Edge, Line, Node, Shape};
use super::text::{self, Ref};
use crate::model::*;

/// How wide a label is before it wraps (characters).
const WRAP: usize = 36;

/// A node for an option (a box) or a basic behavior (a rounded box), linked to its
/// definition.
fn callee_node(p: &Program, callee: Callee) -> Node {
    let (name, shape, r) = match callee {
        Callee::Option(o) => (
            p.options.get(o).map_or("?", |o| o.name.as_str()),
            Shape::Box,
            Ref::Option(o),
        ),
        Callee::Behavior(b) => (
            p.behaviors.get(b).map_or("?", |b| b.name.as_str()),
            Shape::Rounded,
            Ref::Behavior(b),
        ),
    };
    let mut n = Node::new(name, shape);
    n.href = Some(href(p, r));
    n
}

/// Something a state or an option runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Callee {
    Option(OptionId),
    Behavior(BehaviorId),
}

/// What a list of actions runs, in order, each once.
fn callees(actions: &[&Action]) -> Vec<Callee> {
    let mut out = Vec::new();
    for a in actions {
        let c = match a {
            Action::Option { option, .. } => Callee::Option(*option),
            Action::Behavior { behavior, .. } => Callee::Behavior(*behavior),
            Action::Set { .. } => continue,
        };
        if !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

fn option_callees(p: &Program, o: OptionId) -> Vec<Callee> {
    let Some(opt) = p.options.get(o) else {
        return Vec::new();
    };
    let acts: Vec<&Action> = opt
        .common_action
        .iter()
        .chain(opt.states.iter().flat_map(|s| s.actions.iter()))
        .collect();
    callees(&acts)
}

/// Nodes and edges being collected; each callee is one node.
struct Graph<'a> {
    p: &'a Program,
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    ids: Vec<(Callee, usize)>,
}

impl Graph<'_> {
    fn node(&mut self, c: Callee) -> (usize, bool) {
        if let Some(&(_, k)) = self.ids.iter().find(|(x, _)| *x == c) {
            return (k, false);
        }
        self.nodes.push(callee_node(self.p, c));
        let k = self.nodes.len() - 1;
        self.ids.push((c, k));
        (k, true)
    }

    /// `from` runs `c`, and beneath it everything `c` runs.
    fn calls(&mut self, from: usize, c: Callee, line: Line) {
        let mut stack = vec![(from, c)];
        while let Some((from, c)) = stack.pop() {
            let (to, new) = self.node(c);
            let mut e = Edge::new(from, to);
            e.line = line;
            self.edges.push(e);
            if let (true, Callee::Option(o)) = (new, c) {
                for k in option_callees(self.p, o).into_iter().rev() {
                    stack.push((to, k));
                }
            }
        }
    }
}

/// The option graph from an option: options (boxes) and basic behaviors (rounded).
pub fn option_graph(p: &Program, root: OptionId, id: &str) -> String {
    let mut g = Graph {
        p,
        nodes: Vec::new(),
        edges: Vec::new(),
        ids: Vec::new(),
    };
    let (r, _) = g.node(Callee::Option(root));
    if let Some(n) = g.nodes.get_mut(r) {
        n.bold = true;
    }
    for c in option_callees(p, root) {
        g.calls(r, c, Line::Solid);
    }
    layout::layered(&g.nodes, &g.edges, r, id)
}

/// The states a decision tree can end in.
fn leaves(t: &Tree, out: &mut Vec<StateId>) {
    match t {
        Tree::Goto(g) => {
            if !out.contains(g) {
                out.push(*g);
            }
        }
        Tree::If { then, other, .. } => {
            leaves(then, out);
            leaves(other, out);
        }
    }
}

/// Where the common decision can go.
fn common_targets(opt: &OptionDef) -> Vec<StateId> {
    let mut out = Vec::new();
    let mut cd = opt.common_decision.as_ref();
    while let Some(c) = cd {
        leaves(&c.then, &mut out);
        cd = c.other.as_deref();
    }
    out
}

/// Where a state's own decision can go (a state without one stays).
fn own_targets(opt: &OptionDef, s: StateId) -> Vec<StateId> {
    let mut out = Vec::new();
    match opt.states.get(s).and_then(|x| x.decision.as_ref()) {
        Some(t) => leaves(t, &mut out),
        None => out.push(s),
    }
    out
}

/// The state machine of an option: states (the initial one bold, target states double),
/// transitions (those only the common decision makes dashed; a loop where a state can
/// both stay and leave), and dotted, what each state runs with the subtree beneath.
/// With `links`, states link to their sections of the option's page.
pub fn state_machine(p: &Program, o: OptionId, links: bool, id: &str) -> String {
    let Some(opt) = p.options.get(o) else {
        return layout::layered(&[], &[], 0, id);
    };
    let mut g = Graph {
        p,
        nodes: Vec::new(),
        edges: Vec::new(),
        ids: Vec::new(),
    };
    for (i, s) in opt.states.iter().enumerate() {
        let shape = if s.target {
            Shape::DoubleEllipse
        } else {
            Shape::Ellipse
        };
        let mut n = Node::new(s.name.clone(), shape);
        n.bold = i == opt.initial;
        n.href = links.then(|| format!("#state.{}", s.name));
        g.nodes.push(n);
    }
    let common = common_targets(opt);
    for s in 0..opt.states.len() {
        let own = own_targets(opt, s);
        let all: Vec<StateId> =
            own.iter()
                .chain(common.iter())
                .copied()
                .fold(Vec::new(), |mut v, t| {
                    if !v.contains(&t) {
                        v.push(t);
                    }
                    v
                });
        for &t in &all {
            // a loop only where the state can also leave: it says the state may last
            if t == s && all.len() == 1 {
                continue;
            }
            let mut e = Edge::new(s, t);
            if !own.contains(&t) {
                e.line = Line::Dashed;
            }
            g.edges.push(e);
        }
    }
    for (s, st) in opt.states.iter().enumerate() {
        let acts: Vec<&Action> = opt.common_action.iter().chain(st.actions.iter()).collect();
        for c in callees(&acts) {
            g.calls(s, c, Line::Dotted);
        }
    }
    if !links {
        for n in &mut g.nodes {
            n.href = None;
        }
    }
    layout::layered(&g.nodes, &g.edges, opt.initial, id)
}

/// Builds the boxes of a decision tree, numbering the conditions in the order the
/// pseudo code writes them.
struct TreeBuilder<'a> {
    p: &'a Program,
    o: OptionId,
    state: &'a str,
    k: usize,
}

impl TreeBuilder<'_> {
    fn condition(&mut self, cond: &Expr, doc: &Option<String>, common: bool) -> Node {
        let code = text::expr(self.p, cond, text::Style::Spec);
        let label = match doc.as_deref().filter(|d| !d.trim().is_empty()) {
            Some(d) => d.replace('\n', " "),
            None => code.clone(),
        };
        let mut n = Node::new(wrap(&label, WRAP), Shape::Box);
        n.href = Some(format!("#{}", condition_anchor(self.state, self.k)));
        n.title = Some(code);
        n.distinct = common;
        self.k += 1;
        n
    }

    fn leaf(&self, s: StateId) -> DTree {
        let name = self
            .p
            .options
            .get(self.o)
            .and_then(|o| o.states.get(s))
            .map_or("?", |s| s.name.as_str());
        let mut n = Node::new(name, Shape::Ellipse);
        n.href = Some(format!("#state.{name}"));
        DTree::Leaf(n)
    }

    fn tree(&mut self, t: &Tree, common: bool) -> DTree {
        match t {
            Tree::Goto(s) => self.leaf(*s),
            Tree::If {
                doc,
                cond,
                then,
                other,
            } => {
                let n = self.condition(cond, doc, common);
                let a = self.tree(then, common);
                let b = self.tree(other, common);
                DTree::If(n, Box::new(a), Box::new(b))
            }
        }
    }

    fn chain(&mut self, cd: &CommonDecision, own: &dyn Fn(&mut Self) -> DTree) -> DTree {
        let n = self.condition(&cd.cond, &cd.doc, true);
        let a = self.tree(&cd.then, true);
        let b = match &cd.other {
            Some(o) => self.chain(o, own),
            None => own(self),
        };
        DTree::If(n, Box::new(a), Box::new(b))
    }
}

/// The decision tree of a state (the common decision first, drawn distinct).
pub fn decision_tree(p: &Program, o: OptionId, s: StateId, id: &str) -> String {
    let Some(opt) = p.options.get(o) else {
        return layout::tree(&DTree::Leaf(Node::new("?", Shape::Ellipse)), id);
    };
    let state = opt.states.get(s).map_or("", |x| x.name.as_str());
    let mut b = TreeBuilder { p, o, state, k: 0 };
    let own = |b: &mut TreeBuilder| match opt.states.get(s).and_then(|x| x.decision.as_ref()) {
        Some(t) => b.tree(t, false),
        None => b.leaf(s),
    };
    let t = match &opt.common_decision {
        Some(cd) => b.chain(cd, &own),
        None => own(&mut b),
    };
    layout::tree(&t, id)
}
