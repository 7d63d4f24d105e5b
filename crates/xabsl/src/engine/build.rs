//! Turning a checked program into the executable form: slot allocation, the common
//! action and common decision inlined into every state, parameters written in the
//! reference's order (decimal, then boolean, then enumerated; every parameter at every
//! call).

use super::code::*;
use crate::model::{self, Program, Type};

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

/// Build the executable form.
pub(crate) fn build(p: &Program) -> Code {
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
                source: Source::Value,
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

/// Compile the definition of a parameterised input symbol.
pub(crate) fn definition(p: &Program, code: &Code, symbol: usize, e: &model::Expr) -> Any {
    let slots = Slots {
        symbol: code.symbol_slot.clone(),
        symbol_params: code
            .inputs
            .iter()
            .fold(vec![0; p.symbols.len()], |mut v, i| {
                if let Some(x) = v.get_mut(i.symbol as usize) {
                    *x = i.first_param;
                }
                v
            }),
        option_params: Vec::new(),
        behavior_params: Vec::new(),
        initial: Vec::new(),
    };
    let first_state = Vec::new();
    let b = Builder {
        p,
        slots: &slots,
        code,
        first_state: &first_state,
    };
    b.any(
        e,
        Cx {
            option: usize::MAX,
            state: symbol as u32,
        },
    )
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
}

impl Builder<'_> {
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
                match self.any(value, cx) {
                    Any::D(d) => Action::SetD(s, slot, d),
                    Any::B(b) => Action::SetB(s, slot, b),
                    Any::E(e) => Action::SetE(s, slot, e),
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
    ) -> Box<[(u32, Any)]> {
        set_order(params)
            .into_iter()
            .map(|i| {
                let slot = first + i as u32;
                let value = match args.iter().find(|a| a.param == i) {
                    Some(a) => self.any(&a.value, cx),
                    None => match params[i].ty {
                        Type::Decimal => Any::D(D::Const(0.0)),
                        Type::Boolean => Any::B(B::Const(false)),
                        Type::Enum(_) => Any::E(E::Const(0)),
                    },
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
                Box::new(self.b(cond, cx)),
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
            Box::new(self.b(&cd.cond, cx)),
            Box::new(self.tree(&cd.then, cx)),
            Box::new(rest),
        )
    }

    fn global_state(&self, cx: Cx, local: usize) -> u32 {
        self.first_state.get(cx.option).copied().unwrap_or(0) + local as u32
    }

    fn any(&self, e: &model::Expr, cx: Cx) -> Any {
        match e.ty() {
            Type::Decimal => Any::D(self.d(e, cx)),
            Type::Boolean => Any::B(self.b(e, cx)),
            Type::Enum(_) => Any::E(self.e(e, cx)),
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

    fn input_ref(&self, symbol: usize, args: &[model::Arg], cx: Cx) -> Box<InputRef> {
        let s = &self.p.symbols[symbol];
        let input = self
            .code
            .symbol_input
            .get(symbol)
            .copied()
            .flatten()
            .unwrap_or(0);
        let first = self.slots.symbol_params.get(symbol).copied().unwrap_or(0);
        Box::new(InputRef {
            input,
            params: self.assign(&s.params, first, args, cx),
        })
    }

    fn d(&self, e: &model::Expr, cx: Cx) -> D {
        use model::Expr as X;

        match e {
            X::Number(v) => D::Const(*v),
            X::Constant(c) => D::Const(self.p.constants[*c].value),
            X::Param { option, index, .. } => D::Slot(self.param_slot(*option, *index, cx)),
            X::Input { symbol, args, .. } => D::Input(self.input_ref(*symbol, args, cx)),
            X::Output { symbol, .. } => D::Slot(self.slots.symbol[*symbol]),
            X::Arith(op, a, b) => {
                let (a, b) = (Box::new(self.d(a, cx)), Box::new(self.d(b, cx)));
                match op {
                    model::ArithOp::Add => D::Add(a, b),
                    model::ArithOp::Sub => D::Sub(a, b),
                    model::ArithOp::Mul => D::Mul(a, b),
                    model::ArithOp::Div => D::Div(a, b),
                    model::ArithOp::Mod => D::Mod(a, b),
                }
            }
            X::StateTime => D::StateTime(cx.state),
            X::OptionTime => D::OptionTime(cx.option as u32),
            X::Cond {
                cond, then, other, ..
            } => D::Cond(
                Box::new(self.b(cond, cx)),
                Box::new(self.d(then, cx)),
                Box::new(self.d(other, cx)),
            ),
            _ => D::Const(0.0),
        }
    }

    fn b(&self, e: &model::Expr, cx: Cx) -> B {
        use model::Expr as X;

        match e {
            X::Bool(v) => B::Const(*v),
            X::Param { option, index, .. } => B::Slot(self.param_slot(*option, *index, cx)),
            X::Input { symbol, args, .. } => B::Input(self.input_ref(*symbol, args, cx)),
            X::Output { symbol, .. } => B::Slot(self.slots.symbol[*symbol]),
            X::ActionDone => B::ActionDone(cx.state),
            X::Conflict => B::Conflict(cx.state),
            X::EnumEq(a, b) => B::EnumEq(Box::new(self.e(a, cx)), Box::new(self.e(b, cx))),
            X::Not(a) => B::Not(Box::new(self.b(a, cx))),
            X::And(v) => B::And(v.iter().map(|x| self.b(x, cx)).collect()),
            X::Or(v) => B::Or(v.iter().map(|x| self.b(x, cx)).collect()),
            X::Compare(op, a, b) => {
                let (a, b) = (Box::new(self.d(a, cx)), Box::new(self.d(b, cx)));
                match op {
                    model::CmpOp::Eq => B::Eq(a, b),
                    model::CmpOp::Ne => B::Ne(a, b),
                    model::CmpOp::Lt => B::Lt(a, b),
                    model::CmpOp::Gt => B::Gt(a, b),
                    model::CmpOp::Le => B::Le(a, b),
                    model::CmpOp::Ge => B::Ge(a, b),
                }
            }
            _ => B::Const(false),
        }
    }

    fn e(&self, e: &model::Expr, cx: Cx) -> E {
        use model::Expr as X;

        match e {
            X::Element { index, .. } => E::Const(*index as u32),
            X::Param { option, index, .. } => E::Slot(self.param_slot(*option, *index, cx)),
            X::Input { symbol, args, .. } => E::Input(self.input_ref(*symbol, args, cx)),
            X::Output { symbol, .. } => E::Slot(self.slots.symbol[*symbol]),
            X::Cond {
                cond, then, other, ..
            } => E::Cond(
                Box::new(self.b(cond, cx)),
                Box::new(self.e(then, cx)),
                Box::new(self.e(other, cx)),
            ),
            _ => E::Const(0),
        }
    }
}
