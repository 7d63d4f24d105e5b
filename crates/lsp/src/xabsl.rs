//! The XABSL features on a check of an agent: its diagnostics per file, and what a name
//! at a position refers to (definition, references, hover), and what may be written
//! there (completion).

use crate::index::LineIndex;
use crate::workspace::FileDiagnostics;
use lsp_types::{
    CompletionItem, CompletionItemKind, Diagnostic, DiagnosticRelatedInformation,
    DiagnosticSeverity, Location, NumberOrString, Position, Range, Url,
};
use skipper_xabsl::diag::Severity;
use skipper_xabsl::model::{Def, Program, Type};
use skipper_xabsl::source::{FileId, Span};
use skipper_xabsl::Compilation;
use std::path::Path;

/// The diagnostics of every file of a check (files without any get an empty list, so
/// the editor clears them); those about no place go to `edited`.
pub(crate) fn diagnostics(c: &Compilation, edited: &Path) -> Vec<FileDiagnostics> {
    let sources = &c.program.sources;
    let mut out: Vec<FileDiagnostics> = sources
        .files()
        .map(|(_, f)| FileDiagnostics {
            path: f.path.clone(),
            diagnostics: Vec::new(),
        })
        .collect();
    if !out.iter().any(|f| f.path == edited) {
        out.push(FileDiagnostics {
            path: edited.to_path_buf(),
            diagnostics: Vec::new(),
        });
    }
    for d in c.diagnostics.all() {
        let (file, range) = match d.span.and_then(|s| sources.get(s.file).map(|f| (s, f))) {
            Some((s, f)) => {
                let ix = LineIndex::new(&f.text);
                (f.path.clone(), ix.range(s.start as usize, s.end as usize))
            }
            None => (edited.to_path_buf(), Range::default()),
        };
        let mut message = d.message.clone();
        for n in &d.notes {
            message.push_str("\nnote: ");
            message.push_str(n);
        }
        let lsp = Diagnostic {
            range,
            severity: Some(match d.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(d.code.to_string())),
            source: Some("skipper xabsl".into()),
            message,
            related_information: related(c, d),
            ..Diagnostic::default()
        };
        if let Some(f) = out.iter_mut().find(|f| f.path == file) {
            f.diagnostics.push(lsp);
        }
    }
    out
}

/// Notes that name a place (`... at file:line:col`) as related locations.
fn related(
    c: &Compilation,
    d: &skipper_xabsl::Diagnostic,
) -> Option<Vec<DiagnosticRelatedInformation>> {
    let mut out = Vec::new();
    for n in &d.notes {
        let Some(at) = n.rsplit(' ').next() else {
            continue;
        };
        let mut parts = at.rsplitn(3, ':');
        let (Some(col), Some(line), Some(file)) = (parts.next(), parts.next(), parts.next()) else {
            continue;
        };
        let (Ok(line), Ok(col)) = (line.parse::<u32>(), col.parse::<u32>()) else {
            continue;
        };
        let Some(uri) = c
            .program
            .sources
            .find(Path::new(file))
            .and_then(|id| c.program.sources.get(id))
            .and_then(|f| Url::from_file_path(&f.path).ok())
        else {
            continue;
        };
        let p = Position::new(line.saturating_sub(1), col.saturating_sub(1));
        out.push(DiagnosticRelatedInformation {
            location: Location::new(uri, Range::new(p, p)),
            message: n.clone(),
        });
    }
    (!out.is_empty()).then_some(out)
}

/// The file id of a path in a check.
fn file_id(p: &Program, path: &Path) -> Option<FileId> {
    p.sources.find(path)
}

/// The byte offset of an LSP position in a file of the check.
fn offset(p: &Program, file: FileId, pos: Position) -> Option<usize> {
    let f = p.sources.get(file)?;
    Some(LineIndex::new(&f.text).offset(pos))
}

/// The LSP location of a span.
pub(crate) fn location(p: &Program, s: Span) -> Option<Location> {
    let f = p.sources.get(s.file)?;
    let uri = Url::from_file_path(&f.path).ok()?;
    Some(Location::new(
        uri,
        LineIndex::new(&f.text).range(s.start as usize, s.end as usize),
    ))
}

fn contains(s: Span, file: FileId, at: usize) -> bool {
    s.file == file && s.start as usize <= at && at <= s.end as usize
}

/// What the name at a position refers to: a use of it, or its definition.
pub(crate) fn def_at(p: &Program, path: &Path, pos: Position) -> Option<Def> {
    let file = file_id(p, path)?;
    let at = offset(p, file, pos)?;
    if let Some(r) = p.references.iter().find(|r| contains(r.span, file, at)) {
        return Some(r.def);
    }
    p.definitions()
        .into_iter()
        .find(|(_, s)| contains(*s, file, at))
        .map(|(d, _)| d)
}

/// Where the name at a position is defined.
pub(crate) fn definition(p: &Program, path: &Path, pos: Position) -> Option<Location> {
    location(p, p.def_span(def_at(p, path, pos)?)?)
}

/// Every place the name at a position is written (its definition first, if asked).
pub(crate) fn references(p: &Program, path: &Path, pos: Position, decl: bool) -> Vec<Location> {
    let Some(d) = def_at(p, path, pos) else {
        return Vec::new();
    };
    let mut spans: Vec<Span> = Vec::new();
    if decl {
        spans.extend(p.def_span(d));
    }
    spans.extend(p.references.iter().filter(|r| r.def == d).map(|r| r.span));
    spans.dedup();
    spans.into_iter().filter_map(|s| location(p, s)).collect()
}

fn type_name(p: &Program, t: Type) -> String {
    match t {
        Type::Decimal => "float".into(),
        Type::Boolean => "bool".into(),
        Type::Enum(e) => format!("enum {}", p.enums.get(e).map_or("?", |e| e.name.as_str())),
    }
}

fn extras(range: &Option<String>, measure: &Option<String>) -> String {
    let mut s = String::new();
    if let Some(r) = range {
        s.push_str(&format!(" [{r}]"));
    }
    if let Some(m) = measure {
        s.push_str(&format!(" \"{m}\""));
    }
    s
}

/// The declaration of a definition, as XABSL writes it, and its doc comment.
pub(crate) fn describe(p: &Program, d: Def) -> Option<(String, Option<String>)> {
    let param = |ps: &[skipper_xabsl::model::Param], i: usize, owner: &str, at: &str| {
        ps.get(i).map(|x| {
            (
                format!(
                    "{} {at}{}{} // parameter of {owner}",
                    type_name(p, x.ty),
                    x.short,
                    extras(&x.range, &x.measure)
                ),
                x.doc.clone(),
            )
        })
    };
    Some(match d {
        Def::Option(o) => {
            let o = p.options.get(o)?;
            let ps: Vec<String> = o
                .params
                .iter()
                .map(|x| format!("{} @{}", type_name(p, x.ty), x.short))
                .collect();
            (
                format!("option {}({})", o.name, ps.join(", ")),
                o.doc.clone(),
            )
        }
        Def::State(o, s) => describe_state(p, o, s)?,
        Def::Symbol(s) => describe_symbol(p, s)?,
        Def::Constant(c) => {
            let c = p.constants.get(c)?;
            (
                format!("const {} = {}{}", c.name, c.raw, extras(&None, &c.measure)),
                c.doc.clone(),
            )
        }
        Def::Behavior(b) => {
            let b = p.behaviors.get(b)?;
            let ps: Vec<String> = b
                .params
                .iter()
                .map(|x| format!("{} {};", type_name(p, x.ty), x.short))
                .collect();
            (
                format!("behavior {} {{ {} }}", b.name, ps.join(" ")),
                b.doc.clone(),
            )
        }
        Def::Enum(e) => {
            let e = p.enums.get(e)?;
            let els: Vec<&str> = (0..e.elements.len()).map(|i| e.short(i)).collect();
            (
                format!("enum {} {{ {} }}", e.name, els.join(", ")),
                e.doc.clone(),
            )
        }
        Def::Element(e, i) => {
            let e = p.enums.get(e)?;
            (
                format!("{} // element {i} of enum {}", e.elements.get(i)?, e.name),
                e.doc.clone(),
            )
        }
        Def::OptionParam(o, i) => {
            let o = p.options.get(o)?;
            param(&o.params, i, &format!("option {}", o.name), "@")?
        }
        Def::BehaviorParam(b, i) => {
            let b = p.behaviors.get(b)?;
            param(&b.params, i, &format!("behavior {}", b.name), "")?
        }
        Def::InputParam(s, i) => {
            let s = p.symbols.get(s)?;
            param(&s.params, i, &format!("input symbol {}", s.name), "")?
        }
    })
}

fn describe_state(p: &Program, o: usize, s: usize) -> Option<(String, Option<String>)> {
    let opt = p.options.get(o)?;
    let st = opt.states.get(s)?;
    let mut flags = String::new();
    if s == opt.initial {
        flags.push_str("initial ");
    }
    if st.target {
        flags.push_str("target ");
    }
    Some((
        format!("{flags}state {} // of option {}", st.name, opt.name),
        st.doc.clone(),
    ))
}

fn describe_symbol(p: &Program, s: usize) -> Option<(String, Option<String>)> {
    let s = p.symbols.get(s)?;
    let io = match s.kind {
        skipper_xabsl::model::SymbolKind::Input => "input",
        skipper_xabsl::model::SymbolKind::Output => "output",
        skipper_xabsl::model::SymbolKind::Internal => "internal",
    };
    let ps: Vec<String> = s
        .params
        .iter()
        .map(|x| format!("{} {};", type_name(p, x.ty), x.short))
        .collect();
    let ps = if ps.is_empty() {
        String::new()
    } else {
        format!(" ({})", ps.join(" "))
    };
    Some((
        format!(
            "{} {io} {}{}{ps}",
            type_name(p, s.ty),
            s.name,
            extras(&s.range, &s.measure)
        ),
        s.doc.clone(),
    ))
}

/// Hover text (markdown) for the name at a position.
pub(crate) fn hover(p: &Program, path: &Path, pos: Position) -> Option<(String, Range)> {
    let file = file_id(p, path)?;
    let at = offset(p, file, pos)?;
    let span = p
        .references
        .iter()
        .map(|r| r.span)
        .chain(p.definitions().into_iter().map(|(_, s)| s))
        .find(|s| contains(*s, file, at))?;
    let (decl, doc) = describe(p, def_at(p, path, pos)?)?;
    let mut md = format!("```xabsl\n{decl}\n```");
    if let Some(d) = doc.filter(|d| !d.trim().is_empty()) {
        md.push_str("\n\n");
        md.push_str(d.trim());
    }
    let f = p.sources.get(file)?;
    Some((
        md,
        LineIndex::new(&f.text).range(span.start as usize, span.end as usize),
    ))
}

const KEYWORDS: &[&str] = &[
    "option",
    "initial",
    "target",
    "state",
    "common",
    "decision",
    "action",
    "stay",
    "goto",
    "if",
    "else",
    "state_time",
    "option_time",
    "action_done",
    "true",
    "false",
    "agent",
    "namespace",
    "behavior",
    "include",
    "enum",
    "input",
    "output",
    "internal",
    "bool",
    "float",
    "const",
    "capacity",
    "synchronized",
    "conflict",
];

fn item(label: String, kind: CompletionItemKind, detail: String) -> CompletionItem {
    CompletionItem {
        label,
        kind: Some(kind),
        detail: Some(detail),
        ..CompletionItem::default()
    }
}

/// What may be written at a position: after `goto` the option's states; else symbols,
/// constants, options, basic behaviors, enumeration elements, the option's states and
/// parameters, and keywords. The editor filters by what is typed.
pub(crate) fn completion(
    p: &Program,
    path: &Path,
    text: &str,
    pos: Position,
) -> Vec<CompletionItem> {
    let at = LineIndex::new(text).offset(pos);
    let before = text.get(..at).unwrap_or("");
    let word_start = before
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '@'))
        .map_or(0, |i| i + 1);
    let after_goto = before[..word_start].trim_end().ends_with("goto");
    // the option of this file: its states and parameters
    let file = file_id(p, path);
    let here = p
        .options
        .iter()
        .enumerate()
        .find(|(_, o)| Some(o.file) == file);
    let mut out = Vec::new();
    if let Some((_, o)) = here {
        for s in &o.states {
            out.push(item(
                s.name.clone(),
                CompletionItemKind::EVENT,
                format!("state of {}", o.name),
            ));
        }
        if after_goto {
            return out;
        }
        for x in &o.params {
            out.push(item(
                format!("@{}", x.short),
                CompletionItemKind::PROPERTY,
                format!("{} parameter of {}", type_name(p, x.ty), o.name),
            ));
        }
    }
    for s in &p.symbols {
        out.push(item(
            s.name.clone(),
            CompletionItemKind::VARIABLE,
            type_name(p, s.ty),
        ));
    }
    for c in &p.constants {
        out.push(item(
            c.name.clone(),
            CompletionItemKind::CONSTANT,
            format!("const = {}", c.raw),
        ));
    }
    for o in &p.options {
        out.push(item(
            o.name.clone(),
            CompletionItemKind::MODULE,
            "option".into(),
        ));
    }
    for b in &p.behaviors {
        out.push(item(
            b.name.clone(),
            CompletionItemKind::FUNCTION,
            "basic behavior".into(),
        ));
    }
    for e in &p.enums {
        for (i, q) in e.elements.iter().enumerate() {
            let mut it = item(
                e.short(i).to_string(),
                CompletionItemKind::ENUM_MEMBER,
                format!("element of enum {}", e.name),
            );
            it.filter_text = Some(format!("{} {q}", e.short(i)));
            out.push(it);
        }
    }
    for k in KEYWORDS {
        out.push(item(
            k.to_string(),
            CompletionItemKind::KEYWORD,
            "keyword".into(),
        ));
    }
    out
}
