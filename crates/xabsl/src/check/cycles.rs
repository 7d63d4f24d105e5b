//! The last pass: cycles in the option graph (X8001, which the engine would refuse to
//! load) and chains of calls deeper than the engine goes (X8009).

use super::Checker;
use crate::diag::Diagnostic;
use crate::model::*;
use crate::source::Span;

impl Checker {
    /// Cycles in the option graph (the engine refuses them), and chains of calls deeper
    /// than the engine will go. The cycles are searched from the agents' root options,
    /// so that a cycle is reported at the call that closes it as the engine meets it from
    /// the root (the other calls of the cycle are notes), then from the options no agent
    /// reaches; the depth is measured as before, from the options in the order their
    /// files were read.
    pub(super) fn check_cycles(&mut self) {
        let n = self.prog.options.len();
        let callees: Vec<Vec<OptionId>> = (0..n).map(|o| self.prog.callees(o)).collect();
        let roots: Vec<OptionId> = self.prog.agents.iter().map(|a| a.root).collect();
        let order: Vec<OptionId> = roots.into_iter().chain(0..n).collect();
        self.search(&callees, &order, true);
        self.search(&callees, &(0..n).collect::<Vec<_>>(), false);
    }

    /// Depth first from each option of `order` not yet seen, without recursion:
    /// reporting cycles (`cycles`) or chains of calls deeper than the engine goes.
    fn search(&mut self, callees: &[Vec<OptionId>], order: &[OptionId], cycles: bool) {
        const MAX_CALL_DEPTH: usize = 256;
        // 0 = unvisited, 1 = on the path, 2 = done
        let mut mark = vec![0u8; callees.len()];
        let mut reported = vec![false; callees.len()];
        for &start in order {
            if mark.get(start) != Some(&0) {
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
                if mark[c] == 1 && cycles && !reported[c] {
                    reported[c] = true;
                    let pos = stack.iter().position(|&(x, _)| x == c).unwrap_or(0);
                    let path: Vec<OptionId> = stack[pos..].iter().map(|&(x, _)| x).collect();
                    self.report_cycle(&path, c);
                } else if mark[c] == 0 {
                    if !cycles && stack.len() >= MAX_CALL_DEPTH {
                        let span = self.call_span(o, c);
                        self.err(
                            "X8009",
                            span,
                            format!(
                                "options call each other more than {MAX_CALL_DEPTH} levels deep"
                            ),
                        );
                        return;
                    }
                    mark[c] = 1;
                    stack.push((c, 0));
                }
            }
        }
    }

    /// X8001 at the call from the last option of `path` back to `c` (the first of the
    /// path); the other calls of the cycle as notes.
    fn report_cycle(&mut self, path: &[OptionId], c: OptionId) {
        let name = |x: OptionId| format!("`{}`", self.prog.options[x].name);
        let chain: Vec<String> = path.iter().copied().chain([c]).map(name).collect();
        let closing = path.last().copied().unwrap_or(c);
        let mut d = Diagnostic::error(
            "X8001",
            self.call_span(closing, c),
            format!(
                "the options call each other in a cycle: {}",
                chain.join(" calls ")
            ),
        );
        if let Some(a) = self.prog.agents.iter().find(|a| a.root == c) {
            d = d.note(format!(
                "this call closes the cycle that starts at `{}`, the root option of agent `{}`",
                self.prog.options[c].name, a.name
            ));
        }
        for w in path.windows(2) {
            let at = self.prog.sources.position(self.call_span(w[0], w[1]));
            d = d.note(format!("{} calls {} at {at}", name(w[0]), name(w[1])));
        }
        d = d.note("the option graph must be a tree or a DAG; the engine refuses to load a cycle");
        self.push(d);
    }

    pub(super) fn call_span(&self, from: OptionId, to: OptionId) -> Span {
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
