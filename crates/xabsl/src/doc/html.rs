//! Text for the pages: escaped HTML in which every name an expression, an action or the
//! pseudo code mentions links to its definition (a symbol, constant or enumeration to
//! its row on the symbols page, an option parameter to its row on the option's page, a
//! basic behavior or its parameter to the basic behaviors page, an option to its page, a
//! state to its section), and the conditions of the pseudo code carry the anchors the
//! decision tree diagrams link to.

use super::layout::esc;
use super::text::{Out, Ref};
use crate::model::Program;

/// HTML being written.
pub struct Html<'a> {
    p: &'a Program,
    /// the state whose pseudo code this is (anchors are `code.{state}.{k}`)
    state: String,
    out: String,
}

impl<'a> Html<'a> {
    /// Empty, for names of `p`; `state` names the anchors of the conditions.
    pub fn new(p: &'a Program, state: &str) -> Self {
        Self {
            p,
            state: state.to_string(),
            out: String::new(),
        }
    }
    /// The HTML.
    pub fn finish(self) -> String {
        self.out
    }
}

/// Pseudo code laid out for reading: the lines inside each `{` `}` block indented two
/// spaces per level, and the spec's whitespace-only lines after an opening brace left
/// out. (The plain text of [`super::text::pseudo_code`] stays as the spec prints it.)
pub fn indented(code: &str) -> String {
    let mut out = String::with_capacity(code.len() * 2);
    let mut depth = 0usize;
    for line in code.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t == "}" {
            depth = depth.saturating_sub(1);
        }
        for _ in 0..depth {
            out.push_str("  ");
        }
        out.push_str(line.trim_start());
        out.push('\n');
        if t == "{" {
            depth += 1;
        }
    }
    out
}

/// The id of the `k`-th condition of a state's pseudo code.
pub fn condition_anchor(state: &str, k: usize) -> String {
    format!("code.{state}.{k}")
}

/// Where a name is defined, as a link from any page.
pub fn href(p: &Program, r: Ref) -> String {
    let opt = |o: usize| p.options.get(o).map_or("", |o| o.name.as_str());
    match r {
        Ref::Symbol(s) | Ref::InputParam(s, _) => format!(
            "symbols.html#symbol.{}",
            p.symbols.get(s).map_or("", |s| s.name.as_str())
        ),
        Ref::Constant(c) => format!(
            "symbols.html#const.{}",
            p.constants.get(c).map_or("", |c| c.name.as_str())
        ),
        Ref::Enum(e) => format!(
            "symbols.html#enum.{}",
            p.enums.get(e).map_or("", |e| e.name.as_str())
        ),
        Ref::OptionParam(o, i) => format!(
            "option.{}.html#param.{}",
            opt(o),
            p.options
                .get(o)
                .and_then(|x| x.params.get(i))
                .map_or("", |x| x.short.as_str())
        ),
        Ref::BehaviorParam(b, i) => {
            let bh = p.behaviors.get(b);
            format!(
                "basic-behaviors.html#behavior.{}.param.{}",
                bh.map_or("", |b| b.name.as_str()),
                bh.and_then(|b| b.params.get(i))
                    .map_or("", |x| x.short.as_str())
            )
        }
        Ref::Option(o) => format!("option.{}.html", opt(o)),
        Ref::Behavior(b) => format!(
            "basic-behaviors.html#behavior.{}",
            p.behaviors.get(b).map_or("", |b| b.name.as_str())
        ),
        Ref::State(o, s) => format!(
            "option.{}.html#state.{}",
            opt(o),
            p.options
                .get(o)
                .and_then(|x| x.states.get(s))
                .map_or("", |s| s.name.as_str())
        ),
    }
}

impl Out for Html<'_> {
    fn text(&mut self, s: &str) {
        self.out.push_str(&esc(s));
    }
    fn name(&mut self, r: Ref, s: &str) {
        self.out.push_str(&format!(
            "<a href=\"{}\">{}</a>",
            esc(&href(self.p, r)),
            esc(s)
        ));
    }
    fn condition_start(&mut self, k: usize) {
        self.out.push_str(&format!(
            "<span class=\"cond\" id=\"{}\">",
            esc(&condition_anchor(&self.state, k))
        ));
    }
    fn condition_end(&mut self) {
        self.out.push_str("</span>");
    }
}
