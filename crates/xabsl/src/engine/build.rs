//! Turning a checked program into the executable form: slot allocation, the common
//! action and common decision inlined into every state, parameters written in the
//! reference's order (decimal, then boolean, then enumerated; every parameter at every
//! call).

use super::code::*;
use crate::model::{self, Program, Type};
use std::cell::{Cell, RefCell};

/// Allocation of slots.
struct Slots {
    symbol: Vec<u32>,
    symbol_params: Vec<u32>,
    option_params: Vec<u32>,
    behavior_params: Vec<u32>,
    initial: Vec<f64>,
}

fn alloc(n: usize, initial: &mut Vec<f64>) -> u32 {
    let first = initial.len() as u32;
    initial.extend(std::iter::repeat_n(0.0, n));
    first
}

/// Indices of `params` in the order the reference writes them: decimal, boolean,
/// enumerated, each in declaration order.
pub(crate) fn set_order(params: &[model::Param]) -> Vec<usize> {
    let rank = |t: Type| match t {
        Type::Decimal => 0,
        Type::Boolean => 1,
        Type::Enum(_) => 2,
    };
    let mut v: Vec<usize> = (0..params.len()).collect();
    v.sort_by_key(|&i| rank(params[i].ty));
    v
}

/// Build the executable form; `sources` gives each input symbol's binding (by index among
/// the inputs; missing ones are values the host sets).
pub(crate) fn build(p: &Program, sources: &[Source]) -> Code {
    let mut initial = Vec::new();
    let symbol: Vec<u32> = p.symbols.iter().map(|_| alloc(1, &mut initial)).collect();
    let symbol_params: Vec<u32> = p
        .symbols
        .iter()
        .map(|s| alloc(s.params.len(), &mut initial))
        .collect();
    let option_params: Vec<u32> = p
        .options
        .iter()
        .map(|o| alloc(o.params.len(), &mut initial))
        .collect();
    let behavior_params: Vec<u32> = p
        .behaviors
        .iter()
        .map(|b| alloc(b.params.len(), &mut initial))
        .collect();
    let slots = Slots {
        symbol,
        symbol_params,
        option_params,
        behavior_params,
        initial,
    };
    let mut code = Code::default();
    let mut symbol_input = vec![None; p.symbols.len()];
    for (i, s) in p.symbols.iter().enumerate() {
        if s.kind == model::SymbolKind::Input {
            symbol_input[i] = Some(code.inputs.len() as u32);
            code.inputs.push(Input {
                symbol: i as u32,
                slot: slots.symbol[i],
                first_param: slots.symbol_params[i],
                n_params: s.params.len() as u32,
                source: sources
                    .get(code.inputs.len())
                    .cloned()
                    .unwrap_or(Source::Value),
            });
        }
    }
    code.symbol_input = symbol_input;
    // global state numbering: option after option
    let mut first_state = Vec::with_capacity(p.options.len());
    let mut n = 0u32;
    for o in &p.options {
        first_state.push(n);
        n += o.states.len() as u32;
    }
    let b = Builder {
        p,
        slots: &slots,
        code: &code,
        first_state: &first_state,
        depth: Cell::new(0),
        subst: RefCell::new(Vec::new()),
    };
    let mut states = Vec::new();
    let mut options = Vec::new();
    for (oi, o) in p.options.iter().enumerate() {
        options.push(OptionCode {
            first_state: first_state[oi],
            n_states: o.states.len() as u32,
            initial: first_state[oi] + o.initial as u32,
            first_param: slots.option_params[oi],
            n_params: o.params.len() as u32,
        });
        for (si, s) in o.states.iter().enumerate() {
            let g = first_state[oi] + si as u32;
            let cx = Cx {
                option: oi,
                state: g,
            };
            let actions: Vec<Action> = o
                .common_action
                .iter()
                .chain(&s.actions)
                .map(|a| b.action(a, cx))
                .collect();
            let mut subsequent: Vec<u32> = Vec::new();
            for a in &actions {
                if let Action::Option(c) = a {
                    subsequent.push(c.callee);
                }
            }
            let own = match &s.decision {
                Some(t) => b.tree(t, cx),
                None => Stmt::Goto(g),
            };
            let decision = match &o.common_decision {
                Some(cd) => b.common(cd, cx, own),
                None => own,
            };
            states.push(State {
                option: oi as u32,
                local: si as u32,
                target: s.target,
                coop: match s.coop {
                    model::Coop::Normal => CoopKind::Normal,
                    model::Coop::Capacity(n, _) => CoopKind::Capacity(n),
                    model::Coop::Synchronized(n, _) => CoopKind::Synchronized(n),
                },
                coop_index: None,
                actions: actions.into(),
                subsequent: subsequent.into(),
                decision,
            });
        }
    }
    let mut by_name: Vec<usize> = (0..p.options.len()).collect();
    by_name.sort_by_key(|&o| p.options[o].name.to_lowercase());
    let mut coop = Vec::new();
    for o in by_name {
        for si in 0..p.options[o].states.len() {
            let g = first_state[o] as usize + si;
            if let Some(st) = states.get_mut(g) {
                if st.coop != CoopKind::Normal {
                    st.coop_index = Some(coop.len() as u32);
                    coop.push(g as u32);
                }
            }
        }
    }
    code.coop_states = coop;
    code.states = states;
    code.options = options;
    code.behaviors = p
        .behaviors
        .iter()
        .enumerate()
        .map(|(i, bh)| BehaviorCode {
            first_param: slots.behavior_params[i],
            n_params: bh.params.len() as u32,
        })
        .collect();
    code.symbol_slot = slots.symbol.clone();
    // enumerated symbols and parameters start at the first element: index 0, as all
    code.initial = slots.initial;
    code
}

#[derive(Clone, Copy)]
struct Cx {
    /// the option the expression is in (`usize::MAX` in an input definition)
    option: usize,
    /// the global state (in an input definition: the defined symbol)
    state: u32,
}

struct Builder<'a> {
    p: &'a Program,
    slots: &'a Slots,
    code: &'a Code,
    first_state: &'a [u32],
    /// nesting of inlined definitions (a guard; cycles are refused when defining)
    depth: Cell<u32>,
    /// parameters of inlined definitions given as constants or slots: (slot, value)
    subst: RefCell<Vec<(u32, Val)>>,
}

/// How an input symbol is compiled at a reference.
enum InputKind<'e> {
    Slot(u32),
    Function(Box<InputRef>),
    /// parameters to write, the definition, its context, and how many substitutions
    /// were pushed for it
    Definition(Box<[(u32, Val)]>, &'e model::Expr, Cx, usize),
}

fn is_leaf(v: &Val) -> bool {
    matches!(v, Val::Const(_) | Val::Slot(_))
}

impl<'a> Builder<'a> {
    fn action(&self, a: &model::Action, cx: Cx) -> Action {
        match a {
            model::Action::Option { option, args, .. } => {
                let params = &self.p.options[*option].params;
                Action::Option(Call {
                    callee: *option as u32,
                    params: self.assign(params, self.slots.option_params[*option], args, cx),
                })
            }
            model::Action::Behavior { behavior, args, .. } => {
                let params = &self.p.behaviors[*behavior].params;
                Action::Behavior(Call {
                    callee: *behavior as u32,
                    params: self.assign(params, self.slots.behavior_params[*behavior], args, cx),
                })
            }
            model::Action::Set { symbol, value, .. } => {
                let slot = self.slots.symbol[*symbol];
                let s = *symbol as u32;
                match value.ty() {
                    Type::Decimal => Action::SetD(s, slot, self.d(value, cx)),
                    Type::Boolean => Action::SetB(s, slot, self.b(value, cx)),
                    Type::Enum(_) => Action::SetE(s, slot, self.e(value, cx)),
                }
            }
        }
    }

    /// Every parameter, given or defaulted, in the reference's order.
    fn assign(
        &self,
        params: &[model::Param],
        first: u32,
        args: &[model::Arg],
        cx: Cx,
    ) -> Box<[(u32, Val)]> {
        set_order(params)
            .into_iter()
            .map(|i| {
                let slot = first + i as u32;
                let value = match args.iter().find(|a| a.param == i) {
                    Some(a) => self.val(&a.value, cx),
                    None => Val::Const(0.0),
                };
                (slot, value)
            })
            .collect()
    }

    fn tree(&self, t: &model::Tree, cx: Cx) -> Stmt {
        match t {
            model::Tree::Goto(s) => Stmt::Goto(self.global_state(cx, *s)),
            model::Tree::If {
                cond, then, other, ..
            } => Stmt::If(
                self.b(cond, cx),
                Box::new(self.tree(then, cx)),
                Box::new(self.tree(other, cx)),
            ),
        }
    }

    fn common(&self, cd: &model::CommonDecision, cx: Cx, own: Stmt) -> Stmt {
        let rest = match &cd.other {
            Some(o) => self.common(o, cx, own),
            None => own,
        };
        Stmt::If(
            self.b(&cd.cond, cx),
            Box::new(self.tree(&cd.then, cx)),
            Box::new(rest),
        )
    }

    fn global_state(&self, cx: Cx, local: usize) -> u32 {
        self.first_state.get(cx.option).copied().unwrap_or(0) + local as u32
    }

    /// A value of any type, constants and slots in place.
    fn val(&self, e: &model::Expr, cx: Cx) -> Val {
        match e.ty() {
            Type::Decimal => match self.d(e, cx) {
                D::Const(c) => Val::Const(c),
                D::Slot(s) => Val::Slot(s),
                d => Val::D(d),
            },
            Type::Boolean => match self.b(e, cx) {
                B::Const(c) => Val::Const(if c { 1.0 } else { 0.0 }),
                B::Slot(s) => Val::Slot(s),
                b => Val::B(b),
            },
            Type::Enum(_) => match self.e(e, cx) {
                E::Const(c) => Val::Const(f64::from(c)),
                E::Slot(s) => Val::Slot(s),
                x => Val::E(x),
            },
        }
    }

    fn op(&self, e: &model::Expr, cx: Cx) -> Op {
        match self.d(e, cx) {
            D::Const(c) => Op::Const(c),
            D::Slot(s) => Op::Slot(s),
            d => Op::D(Box::new(d)),
        }
    }

    fn eop(&self, x: &model::Expr, cx: Cx) -> EOp {
        match self.e(x, cx) {
            E::Const(c) => EOp::Const(c),
            E::Slot(s) => EOp::Slot(s),
            e => EOp::E(Box::new(e)),
        }
    }

    fn param_slot(&self, option: usize, index: usize, cx: Cx) -> u32 {
        if option == usize::MAX {
            // a parameter of the input symbol being defined
            let sym = cx.state as usize;
            self.slots.symbol_params.get(sym).copied().unwrap_or(0) + index as u32
        } else {
            self.slots.option_params.get(option).copied().unwrap_or(0) + index as u32
        }
    }

    /// A parameter reference: a substituted value, or its slot.
    fn param(&self, option: usize, index: usize, cx: Cx) -> Val {
        let slot = self.param_slot(option, index, cx);
        if option == usize::MAX {
            if let Some((_, v)) = self.subst.borrow().iter().rev().find(|(s, _)| *s == slot) {
                return v.clone();
            }
        }
        Val::Slot(slot)
    }

    fn input(&self, symbol: usize, args: &[model::Arg], cx: Cx) -> InputKind<'a> {
        let s = &self.p.symbols[symbol];
        let input = self
            .code
            .symbol_input
            .get(symbol)
            .copied()
            .flatten()
            .unwrap_or(0);
        let first = self.slots.symbol_params.get(symbol).copied().unwrap_or(0);
        let code: &'a Code = self.code;
        let source = code.inputs.get(input as usize).map(|i| &i.source);
        match source {
            Some(Source::Function(_)) => InputKind::Function(Box::new(InputRef {
                input,
                params: self.assign(&s.params, first, args, cx),
            })),
            Some(Source::Definition(x)) if self.depth.get() < 64 => {
                let params = self.assign(&s.params, first, args, cx);
                let dcx = Cx {
                    option: usize::MAX,
                    state: symbol as u32,
                };
                // parameters given as constants or plain slots are substituted (the
                // parameter slots of a definition are read by nothing else); others are
                // written before the definition is evaluated, as the reference does
                if params.iter().all(|(_, v)| is_leaf(v)) {
                    let n = params.len();
                    self.subst.borrow_mut().extend(params.iter().cloned());
                    InputKind::Definition(Box::new([]), x, dcx, n)
                } else {
                    InputKind::Definition(params, x, dcx, 0)
                }
            }
            // a value the host sets: its parameters cannot be observed, read the slot
            _ => InputKind::Slot(self.slots.symbol.get(symbol).copied().unwrap_or(0)),
        }
    }

    /// Compile a definition inline, then drop its substitutions.
    fn inlined<T>(&self, pushed: usize, f: impl FnOnce() -> T) -> T {
        self.depth.set(self.depth.get() + 1);
        let v = f();
        self.depth.set(self.depth.get() - 1);
        let mut s = self.subst.borrow_mut();
        let keep = s.len().saturating_sub(pushed);
        s.truncate(keep);
        v
    }

    fn d(&self, e: &model::Expr, cx: Cx) -> D {
        use model::Expr as X;
        match e {
            X::Number(v) => D::Const(*v),
            X::Constant(c) => D::Const(self.p.constants[*c].value),
            X::Param { option, index, .. } => match self.param(*option, *index, cx) {
                Val::Const(c) => D::Const(c),
                Val::Slot(s) => D::Slot(s),
                Val::D(d) => d,
                _ => D::Const(0.0),
            },
            X::Input { symbol, args, .. } => match self.input(*symbol, args, cx) {
                InputKind::Slot(s) => D::Slot(s),
                InputKind::Function(r) => D::Input(r),
                InputKind::Definition(params, x, dcx, n) => {
                    let value = self.inlined(n, || self.d(x, dcx));
                    if params.is_empty() {
                        value
                    } else {
                        D::Def(Box::new(Defined { params, value }))
                    }
                }
            },
            X::Output { symbol, .. } => D::Slot(self.slots.symbol[*symbol]),
            X::Arith(op, a, b) => {
                let op = match op {
                    model::ArithOp::Add => Arith::Add,
                    model::ArithOp::Sub => Arith::Sub,
                    model::ArithOp::Mul => Arith::Mul,
                    model::ArithOp::Div => Arith::Div,
                    model::ArithOp::Mod => Arith::Mod,
                };
                D::Bin(op, self.op(a, cx), self.op(b, cx))
            }
            X::StateTime => D::StateTime(cx.state),
            X::OptionTime => D::OptionTime(cx.option as u32),
            X::Cond {
                cond, then, other, ..
            } => D::Cond(
                Box::new(self.b(cond, cx)),
                self.op(then, cx),
                self.op(other, cx),
            ),
            _ => D::Const(0.0),
        }
    }

    fn b(&self, e: &model::Expr, cx: Cx) -> B {
        use model::Expr as X;
        match e {
            X::Bool(v) => B::Const(*v),
            X::Param { option, index, .. } => match self.param(*option, *index, cx) {
                Val::Const(c) => B::Const(c != 0.0),
                Val::Slot(s) => B::Slot(s),
                Val::B(b) => b,
                _ => B::Const(false),
            },
            X::Input { symbol, args, .. } => match self.input(*symbol, args, cx) {
                InputKind::Slot(s) => B::Slot(s),
                InputKind::Function(r) => B::Input(r),
                InputKind::Definition(params, x, dcx, n) => {
                    let value = self.inlined(n, || self.b(x, dcx));
                    if params.is_empty() {
                        value
                    } else {
                        B::Def(Box::new(Defined { params, value }))
                    }
                }
            },
            X::Output { symbol, .. } => B::Slot(self.slots.symbol[*symbol]),
            X::ActionDone => B::ActionDone(cx.state),
            X::Conflict => B::Conflict(cx.state),
            X::EnumEq(a, b) => B::EnumEq(self.eop(a, cx), self.eop(b, cx)),
            X::Not(a) => B::Not(Box::new(self.b(a, cx))),
            X::And(v) => B::And(v.iter().map(|x| self.b(x, cx)).collect()),
            X::Or(v) => B::Or(v.iter().map(|x| self.b(x, cx)).collect()),
            X::Compare(op, a, b) => {
                let op = match op {
                    model::CmpOp::Eq => Cmp::Eq,
                    model::CmpOp::Ne => Cmp::Ne,
                    model::CmpOp::Lt => Cmp::Lt,
                    model::CmpOp::Gt => Cmp::Gt,
                    model::CmpOp::Le => Cmp::Le,
                    model::CmpOp::Ge => Cmp::Ge,
                };
                B::Cmp(op, self.op(a, cx), self.op(b, cx))
            }
            _ => B::Const(false),
        }
    }

    fn e(&self, e: &model::Expr, cx: Cx) -> E {
        use model::Expr as X;
        match e {
            X::Element { index, .. } => E::Const(*index as u32),
            X::Param { option, index, .. } => match self.param(*option, *index, cx) {
                Val::Const(c) => E::Const(c as u32),
                Val::Slot(s) => E::Slot(s),
                Val::E(x) => x,
                _ => E::Const(0),
            },
            X::Input { symbol, args, .. } => match self.input(*symbol, args, cx) {
                InputKind::Slot(s) => E::Slot(s),
                InputKind::Function(r) => E::Input(r),
                InputKind::Definition(params, x, dcx, n) => {
                    let value = self.inlined(n, || self.e(x, dcx));
                    if params.is_empty() {
                        value
                    } else {
                        E::Def(Box::new(Defined { params, value }))
                    }
                }
            },
            X::Output { symbol, .. } => E::Slot(self.slots.symbol[*symbol]),
            X::Cond {
                cond, then, other, ..
            } => E::Cond(
                Box::new(self.b(cond, cx)),
                self.eop(then, cx),
                self.eop(other, cx),
            ),
            _ => E::Const(0),
        }
    }
}
