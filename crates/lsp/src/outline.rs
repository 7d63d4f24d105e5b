//! Document symbols: the outline of one file, from its syntax alone (so it is there
//! while another file of the agent is broken): agents; an option with its parameters
//! and states; a namespace with its enumerations (and their elements), symbols,
//! constants and basic behaviors.

use crate::index::LineIndex;
use lsp_types::{DocumentSymbol, SymbolKind};
use skipper_xabsl::ast::{Body, Name, NamespaceItem, TypeSpec};
use skipper_xabsl::source::Span;

#[allow(deprecated)] // `deprecated` is a required field of the type
fn symbol(
    ix: &LineIndex,
    name: &str,
    kind: SymbolKind,
    span: Span,
    detail: Option<String>,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    let range = ix.range(span.start as usize, span.end as usize);
    DocumentSymbol {
        name: name.to_string(),
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: (!children.is_empty()).then_some(children),
    }
}

fn named(ix: &LineIndex, n: &Name, kind: SymbolKind, detail: &str) -> DocumentSymbol {
    let d = (!detail.is_empty()).then(|| detail.to_string());
    symbol(ix, &n.text, kind, n.span, d, Vec::new())
}

/// The outline of a file's text (empty if it does not parse).
pub(crate) fn outline(text: &str) -> Vec<DocumentSymbol> {
    let Ok(f) = skipper_xabsl::parser::parse_file(text, Default::default()) else {
        return Vec::new();
    };
    let ix = LineIndex::new(text);
    match &f.body {
        Body::Empty => Vec::new(),
        Body::Agents(agents) => agents
            .iter()
            .map(|a| {
                named(
                    &ix,
                    &a.name,
                    SymbolKind::OBJECT,
                    &format!("agent, root option {}", a.root.text),
                )
            })
            .collect(),
        Body::Option(o) => {
            let mut kids: Vec<DocumentSymbol> = o
                .params
                .iter()
                .map(|p| named(&ix, &p.name, SymbolKind::PROPERTY, "parameter"))
                .collect();
            for s in &o.states {
                let mut flags = Vec::new();
                if s.initial.is_some() {
                    flags.push("initial");
                }
                if s.target.is_some() {
                    flags.push("target");
                }
                flags.push("state");
                kids.push(named(&ix, &s.name, SymbolKind::EVENT, &flags.join(" ")));
            }
            vec![symbol(
                &ix,
                &o.name.text,
                SymbolKind::MODULE,
                o.name.span,
                Some("option".into()),
                kids,
            )]
        }
        Body::Namespace(ns) => {
            let kids = ns.items.iter().filter_map(|i| item(&ix, i)).collect();
            vec![symbol(
                &ix,
                &ns.name.text,
                SymbolKind::NAMESPACE,
                ns.name.span,
                Some(ns.title.clone()),
                kids,
            )]
        }
    }
}

fn item(ix: &LineIndex, i: &NamespaceItem) -> Option<DocumentSymbol> {
    Some(match i {
        NamespaceItem::Const(c) => {
            named(ix, &c.name, SymbolKind::CONSTANT, &format!("= {}", c.value))
        }
        NamespaceItem::Symbol(s) => named(ix, &s.name, SymbolKind::VARIABLE, "symbol"),
        NamespaceItem::Behavior(b) => {
            let kids = b
                .params
                .iter()
                .map(|p| named(ix, &p.name, SymbolKind::PROPERTY, "parameter"))
                .collect();
            symbol(
                ix,
                &b.name.text,
                SymbolKind::FUNCTION,
                b.name.span,
                Some("basic behavior".into()),
                kids,
            )
        }
        NamespaceItem::Enum(e) => {
            let TypeSpec::Enum(n) = &e.ty else {
                return None;
            };
            let kids = e
                .elements
                .iter()
                .map(|el| named(ix, el, SymbolKind::ENUM_MEMBER, ""))
                .collect();
            symbol(
                ix,
                &n.text,
                SymbolKind::ENUM,
                n.span,
                Some("enumeration".into()),
                kids,
            )
        }
    })
}
