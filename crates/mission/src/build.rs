//! Loading a mission: run the script (see the `lua` module), then walk `STACK` into the
//! flat, immutable [`Mission`], checking what can only be checked on the whole stack
//! (rules 8 and 42): the kinds of items, required settings, `ID`s, `WHEN`/`WHILE` on the
//! top level, `REPEAT` and `WITHIN` in table form, keys that mean nothing.

use crate::config::{parse_config, ConfigTable, ConfigValue};
use crate::error::{Diagnostic, MissionError, Severity};
use crate::lua::{self, as_clause, check_usage, repeat_count, Assign, Ctx, Limits, Obj, RawItem};
use crate::model::{Body, Clause, Guard, Item, Leaf, Mission, Repeat};
use mlua::{Table, Value};
use skipper_core::units;
use std::collections::HashSet;
use std::path::Path;

/// How to load.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// The sandbox's limits.
    pub limits: Limits,
    /// `workSite` (from `workSite.cfg` beside the mission); `None`: the built-in worksite.
    pub work_site: Option<ConfigTable>,
    /// `Control` (vehicle configuration); `None`: the built-in one.
    pub control: Option<ConfigTable>,
}

/// The built-in worksite: off Monterey Bay (the same as `examples/missions/workSite.cfg`).
pub fn default_work_site() -> ConfigTable {
    let mut t = ConfigTable::default();
    let deg = |v| ConfigValue::Number {
        value: v,
        unit: Some(&units::DEGREE),
    };
    t.set("name", ConfigValue::Text("Monterey Bay".into()));
    t.set("latitude", deg(36.80));
    t.set("longitude", deg(-121.90));
    t
}

/// The built-in vehicle configuration (`Control.SpeedControl.SPEED_SLOW` and `_FAST`).
pub fn default_control() -> ConfigTable {
    let mut t = ConfigTable::default();
    let mps = |v| ConfigValue::Number {
        value: v,
        unit: Some(&units::METER_PER_SECOND),
    };
    t.set("SpeedControl.SPEED_SLOW", mps(0.7));
    t.set("SpeedControl.SPEED_FAST", mps(1.0));
    t
}

/// Load a mission file, with `workSite.cfg` (and `Control.cfg`, if present) beside it.
pub fn load_file(path: &Path, limits: Limits) -> Result<Mission, MissionError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| MissionError::Io {
        file: file.clone(),
        message: format!("cannot read the mission: {e}"),
    })?;
    let source = String::from_utf8(bytes).map_err(|_| MissionError::Io {
        file: file.clone(),
        message: "the mission is not UTF-8 text".into(),
    })?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut opts = LoadOptions {
        limits,
        ..Default::default()
    };
    let mut warnings = Vec::new();
    for (name, slot) in [("workSite.cfg", 0), ("Control.cfg", 1)] {
        let p = dir.join(name);
        if !p.exists() {
            if slot == 0 {
                warnings.push(Diagnostic::at(
                    Severity::Warning,
                    &file.as_str().into(),
                    "",
                    0,
                    None,
                    format!(
                        "no {} beside the mission: using the built-in worksite off Monterey Bay",
                        p.display()
                    ),
                ));
            }
            continue;
        }
        let text = std::fs::read_to_string(&p).map_err(|e| MissionError::Io {
            file: p.display().to_string(),
            message: format!("cannot read: {e}"),
        })?;
        let t = parse_config(&text, &p.display().to_string()).map_err(MissionError::Invalid)?;
        if slot == 0 {
            opts.work_site = Some(t);
        } else {
            opts.control = Some(t);
        }
    }
    let mut m = load(&source, &file, &opts)?;
    warnings.append(&mut m.warnings);
    m.warnings = warnings;
    Ok(m)
}

/// Load a mission from text with the built-in configuration.
pub fn load_str(source: &str, file: &str) -> Result<Mission, MissionError> {
    load(source, file, &LoadOptions::default())
}

/// Load a mission from text.
pub fn load(source: &str, file: &str, opts: &LoadOptions) -> Result<Mission, MissionError> {
    let work_site = opts.work_site.clone().unwrap_or_else(default_work_site);
    let mut control = default_control();
    if let Some(c) = &opts.control {
        for (k, v) in &c.entries {
            control.set(k, v.clone());
        }
    }
    let ran = lua::run(
        source,
        file,
        &[("workSite", &work_site), ("Control", &control)],
        opts.limits,
    )
    .map_err(MissionError::Invalid)?;
    let c = &ran.ctx;
    let g = ran.lua.globals();
    let name = match g.get::<Value>("NAME") {
        Ok(Value::String(s)) => s.to_string_lossy(),
        _ => {
            c.error(
                0,
                None,
                "NAME is missing: a mission needs `NAME = \"Mission Name\"`",
            );
            String::new()
        }
    };
    let mut items = Vec::new();
    match g.get::<Value>("STACK") {
        Ok(Value::Table(t)) => {
            let mut w = Walker {
                ctx: c,
                seen: HashSet::new(),
            };
            let root = w.stack(&t, 0, 0);
            flatten(c, Node::Stack(root), None, String::new(), &mut items);
            check_top(c, &items);
            for f in crate::speed::never_moves(&items, &control) {
                c.warn(f.line, f.word, f.message);
            }
        }
        Ok(other) if !other.is_nil() => c.error(
            0,
            None,
            format!(
                "STACK must be a table of items, not a {}",
                other.type_name()
            ),
        ),
        _ => c.error(
            0,
            None,
            "STACK is missing: a mission needs `STACK = { ... }`",
        ),
    }
    let diags = c.diags.borrow().clone();
    if diags.iter().any(Diagnostic::is_error) {
        return Err(MissionError::Invalid(diags));
    }
    Ok(Mission {
        name,
        file: file.to_string(),
        items,
        warnings: diags,
        work_site,
        control,
    })
}

struct RawStack {
    line: usize,
    id: Option<(String, usize)>,
    item: RawItem,
    children: Vec<Node>,
    span: (usize, usize),
}

enum Node {
    Leaf(RawItem),
    Stack(RawStack),
}

impl Node {
    fn span(&self) -> (usize, usize) {
        match self {
            Node::Leaf(i) => (i.line, i.line),
            Node::Stack(s) => s.span,
        }
    }
}

const MODIFIERS: &[&str] = &[
    "ID",
    "WHEN",
    "WHILE",
    "PREEMPTIVE",
    "UNTIL",
    "WITHIN",
    "REPEAT",
];

struct Walker<'a> {
    ctx: &'a Ctx,
    seen: HashSet<usize>,
}

impl Walker<'_> {
    fn stack(&mut self, t: &Table, depth: usize, hint: usize) -> RawStack {
        let mut s = RawStack {
            line: hint,
            id: None,
            item: RawItem::default(),
            children: Vec::new(),
            span: (usize::MAX, 0),
        };
        if depth > 64 {
            self.ctx
                .error(hint, None, "substacks nest more than 64 deep");
            return s;
        }
        if !self.seen.insert(t.to_pointer() as usize) {
            self.ctx.error(
                hint,
                None,
                "a substack table is used twice (or contains itself)",
            );
            return s;
        }
        let len = t.raw_len();
        for i in 1..=len {
            let v: Value = t.raw_get(i).unwrap_or(Value::Nil);
            if let Some(n) = self.node(&v, depth, s.span_hint()) {
                let (a, b) = n.span();
                s.span = (s.span.0.min(a), s.span.1.max(b));
                s.children.push(n);
            }
        }
        if s.span.0 == usize::MAX {
            s.span = (hint, hint);
        }
        s.line = s.span.0;
        // modifiers
        for pair in t.pairs::<Value, Value>() {
            let Ok((k, v)) = pair else { continue };
            match &k {
                Value::Integer(i) if *i >= 1 && (*i as usize) <= len => continue,
                Value::String(key) => {
                    let key = key.to_string_lossy();
                    self.modifier(&mut s, &key, &v);
                }
                other => {
                    let l = s.line;
                    self.ctx.error(
                        l,
                        None,
                        format!(
                            "a substack holds items in order and the keys {}; not the key {}",
                            MODIFIERS.join(", "),
                            match other {
                                Value::Integer(i) => i.to_string(),
                                Value::Number(n) => n.to_string(),
                                o => o.type_name().to_string(),
                            }
                        ),
                    );
                }
            }
        }
        s
    }

    fn key_line(&self, s: &RawStack, key: &str) -> usize {
        let src = &self.ctx.source;
        let lines: Vec<&str> = src.lines().collect();
        let (lo, hi) = s.span;
        let nested: Vec<(usize, usize)> = s
            .children
            .iter()
            .filter_map(|c| match c {
                Node::Stack(st) => Some(st.span),
                Node::Leaf(_) => None,
            })
            .collect();
        let is_key = |l: &str| {
            let mut rest = l;
            while let Some(p) = rest.find(key) {
                let before_ok = rest[..p]
                    .chars()
                    .last()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'));
                let after = rest[p + key.len()..].trim_start();
                if before_ok && after.starts_with('=') && !after.starts_with("==") {
                    return true;
                }
                rest = &rest[p + key.len()..];
            }
            false
        };
        let candidates = (lo.saturating_sub(12).max(1)..=hi + 12)
            .filter(|&n| !nested.iter().any(|&(a, b)| n >= a && n <= b))
            .filter(|&n| lines.get(n - 1).is_some_and(|l| is_key(l)));
        candidates
            .min_by_key(|&n| if n < lo { lo - n } else { n.saturating_sub(hi) })
            .unwrap_or(s.line)
    }

    fn modifier(&mut self, s: &mut RawStack, key: &str, v: &Value) {
        let c = self.ctx;
        let at = self.key_line(s, key);
        match key {
            "ID" => match v {
                Value::String(id) => s.id = Some((id.to_string_lossy(), at)),
                _ => c.error(at, Some("ID"), "ID must be a string, e.g. ID=\"SurfOps\""),
            },
            "WHEN" | "WHILE" | "PREEMPTIVE" | "UNTIL" => {
                let cl = as_clause(c, v, at, key);
                match key {
                    "WHEN" => s.item.when = Some(cl),
                    "WHILE" => s.item.while_ = Some(cl),
                    "PREEMPTIVE" => s.item.preemptive = Some(cl),
                    _ => s.item.until = Some(cl),
                }
            }
            "WITHIN" => match within(v) {
                Some(secs) => s.item.within = Some((secs, at)),
                None => c.error(
                    at,
                    Some("WITHIN"),
                    "WITHIN must be a time, e.g. WITHIN = Units.MINUTE(30)",
                ),
            },
            "REPEAT" => match repeat_count(v) {
                Some(r) => s.item.repeat = Some((r, at)),
                None => c.error(
                    at,
                    Some("REPEAT"),
                    "REPEAT must be a non-negative whole number (or math.huge)",
                ),
            },
            "BEHAVIOR" | "COMMAND" => c.error(
                at,
                Some(key),
                format!("{key} = ... makes a table a single item; it cannot also hold other items"),
            ),
            _ => c.error(
                at,
                Some(key),
                format!(
                    "unknown key `{key}` in a substack (expected {})",
                    MODIFIERS.join(", ")
                ),
            ),
        }
    }

    fn node(&mut self, v: &Value, depth: usize, hint: usize) -> Option<Node> {
        let c = self.ctx;
        match v {
            Value::Table(t) => {
                let b: Value = t.raw_get("BEHAVIOR").unwrap_or(Value::Nil);
                let cmd: Value = t.raw_get("COMMAND").unwrap_or(Value::Nil);
                if !b.is_nil() || !cmd.is_nil() {
                    return self.table_item(t, hint).map(Node::Leaf);
                }
                Some(Node::Stack(self.stack(t, depth + 1, hint)))
            }
            Value::UserData(ud) => match ud.borrow::<Obj>().map(|o| o.clone()) {
                Ok(Obj::Item(i)) => Some(Node::Leaf(i.borrow().clone())),
                Ok(Obj::Assign(a)) => {
                    c.error(
                        a.line,
                        None,
                        "a setting belongs in a table with BEHAVIOR= or COMMAND=, not directly in a substack",
                    );
                    None
                }
                Ok(o) => {
                    c.error(
                        hint,
                        None,
                        format!(
                            "expected a behavior, a command or a substack in the stack, found {}",
                            describe(&o)
                        ),
                    );
                    None
                }
                Err(_) => None,
            },
            Value::Nil => None,
            other => {
                c.error(
                    hint,
                    None,
                    format!(
                        "expected a behavior, a command or a substack in the stack, found a {}",
                        other.type_name()
                    ),
                );
                None
            }
        }
    }

    /// `{ BEHAVIOR = Guidance.X, Guidance.X.S:SET(v), WHEN = c, ... }`
    fn table_item(&mut self, t: &Table, hint: usize) -> Option<RawItem> {
        let c = self.ctx;
        let b: Value = t.raw_get("BEHAVIOR").unwrap_or(Value::Nil);
        let cmd: Value = t.raw_get("COMMAND").unwrap_or(Value::Nil);
        let command = !cmd.is_nil();
        if !b.is_nil() && command {
            c.error(
                hint,
                Some("BEHAVIOR"),
                "an item is a BEHAVIOR or a COMMAND, not both",
            );
            return None;
        }
        let which = if command { cmd } else { b };
        let word = if command { "COMMAND" } else { "BEHAVIOR" };
        let (spec, line, name) = match &which {
            Value::UserData(ud) => match ud.borrow::<Obj>().map(|o| o.clone()) {
                Ok(Obj::Behavior {
                    spec, line, name, ..
                }) => (spec, line, name),
                _ => {
                    c.error(
                        hint,
                        Some(word),
                        format!("{word} = must name a behavior such as Guidance.Waypoint"),
                    );
                    return None;
                }
            },
            _ => {
                c.error(
                    hint,
                    Some(word),
                    format!("{word} = must name a behavior such as Guidance.Waypoint"),
                );
                return None;
            }
        };
        if let Some(s) = spec {
            check_usage(c, s, command, line, &name);
        }
        let mut item = RawItem {
            line,
            command,
            behavior: spec,
            ..RawItem::default()
        };
        let len = t.raw_len();
        for i in 1..=len {
            let v: Value = t.raw_get(i).unwrap_or(Value::Nil);
            match &v {
                Value::UserData(ud) => match ud.borrow::<Obj>().map(|o| o.clone()) {
                    Ok(Obj::Assign(a)) => {
                        if let Some(s) = spec {
                            if a.behavior.kind != s.kind {
                                c.error(
                                    a.line,
                                    Some(a.behavior.name),
                                    format!(
                                        "a setting of {} in an item of {}",
                                        a.behavior.name, s.name
                                    ),
                                );
                                continue;
                            }
                        }
                        item.sets.push(a);
                    }
                    _ => c.error(line, None, format!("the items of a {word} table are settings, e.g. Guidance.X.S:SET(Units.METER(5))")),
                },
                Value::Nil => {}
                _ => c.error(line, None, format!("the items of a {word} table are settings, e.g. Guidance.X.S:SET(Units.METER(5))")),
            }
        }
        for pair in t.pairs::<Value, Value>() {
            let Ok((k, v)) = pair else { continue };
            let key = match &k {
                Value::Integer(i) if *i >= 1 && (*i as usize) <= len => continue,
                Value::String(s) => s.to_string_lossy(),
                _ => {
                    c.error(line, None, "unexpected key in a behavior table");
                    continue;
                }
            };
            let at = line;
            match key.as_str() {
                "BEHAVIOR" | "COMMAND" => {}
                "WHEN" | "WHILE" | "PREEMPTIVE" | "UNTIL" => {
                    let cl = as_clause(c, &v, at, &key);
                    match key.as_str() {
                        "WHEN" => item.when = Some(cl),
                        "WHILE" => item.while_ = Some(cl),
                        "PREEMPTIVE" => item.preemptive = Some(cl),
                        _ => item.until = Some(cl),
                    }
                }
                "WITHIN" => match within(&v) {
                    Some(s) => item.within = Some((s, at)),
                    None => c.error(at, Some("WITHIN"), "WITHIN must be a time, e.g. WITHIN = Units.MINUTE(30)"),
                },
                "REPEAT" => match repeat_count(&v) {
                    Some(r) => item.repeat = Some((r, at)),
                    None => c.error(at, Some("REPEAT"), "REPEAT must be a non-negative whole number (or math.huge)"),
                },
                other => c.error(
                    at,
                    None,
                    format!("unknown key `{other}` in a {word} table (expected WHEN, WHILE, PREEMPTIVE, UNTIL, WITHIN, REPEAT)"),
                ),
            }
        }
        Some(item)
    }
}

impl RawStack {
    fn span_hint(&self) -> usize {
        if self.span.1 > 0 {
            self.span.1
        } else {
            self.line
        }
    }
}

fn describe(o: &Obj) -> String {
    match o {
        Obj::Behavior { module, name, .. } => {
            format!(
                "{module}.{name} (wrap it: BEHAVIOR({module}.{name}) or COMMAND({module}.{name}))"
            )
        }
        Obj::Clause(..) => "a ValueClause".into(),
        Obj::Uri(..) => "a URI".into(),
        Obj::Data(..) => "a value".into(),
        Obj::Unit(..) => "a unit".into(),
        _ => "a value that is not an item".into(),
    }
}

fn within(v: &Value) -> Option<f64> {
    match v {
        Value::UserData(ud) => match ud.borrow::<Obj>().ok()?.clone() {
            Obj::Data(lua::Data::Num(x, u), _) if u.dimension == units::Dimension::Time => {
                let s = u.to_canonical(x);
                (s >= 0.0).then_some(s)
            }
            _ => None,
        },
        _ => None,
    }
}

fn guard(c: &Ctx, item: &RawItem) -> Guard {
    match (&item.when, &item.while_) {
        (Some((w, _)), None) => Guard::When(w.clone()),
        (None, Some((w, _))) => Guard::While(w.clone()),
        (Some((w, _)), Some((_, l))) => {
            c.error(*l, Some("WHILE"), "an item has WHEN or WHILE, not both");
            Guard::When(w.clone())
        }
        (None, None) => Guard::None,
    }
}

fn flatten(c: &Ctx, node: Node, parent: Option<usize>, path: String, items: &mut Vec<Item>) {
    let me = items.len();
    match node {
        Node::Leaf(raw) => {
            let Some(spec) = raw.behavior else {
                // unknown behavior: already reported; keep a placeholder out of the stack
                return;
            };
            let mut settings = vec![None; spec.settings.len()];
            for Assign {
                index, value, line, ..
            } in &raw.sets
            {
                if let Some(slot) = settings.get_mut(*index) {
                    if slot.is_some() {
                        let name = spec.settings.get(*index).map_or("", |s| s.name);
                        c.warn(
                            *line,
                            Some(name),
                            format!("{}.{name} is set twice; the last value counts", spec.name),
                        );
                    }
                    *slot = Some(*value);
                }
            }
            for (i, s) in spec.settings.iter().enumerate() {
                if s.required && settings.get(i).is_some_and(Option::is_none) {
                    c.error(
                        raw.line,
                        Some(spec.name),
                        format!(
                            "{} needs the setting {}.{} ({})",
                            spec.name, spec.name, s.name, s.doc
                        ),
                    );
                }
            }
            let mut repeat = raw.repeat.map_or(Repeat::Times(1), |r| r.0);
            if !raw.command {
                if let Some((_, l)) = raw.repeat {
                    c.warn(
                        l,
                        Some("REPEAT"),
                        "REPEAT on a behavior is ignored: behaviors run until their stack ends",
                    );
                    repeat = Repeat::Times(1);
                }
            }
            if let Some((Repeat::Times(0), l)) = raw.repeat {
                if raw.command {
                    c.warn(l, Some("REPEAT"), "REPEAT = 0: this command is skipped");
                }
            }
            items.push(Item {
                path,
                line: raw.line,
                parent,
                end: me + 1,
                body: Body::Leaf(Leaf {
                    kind: spec.kind,
                    command: raw.command,
                    settings,
                }),
                guard: guard(c, &raw),
                preemptive: raw.preemptive.map(|p| p.0),
                until: raw.until.map(|p| p.0),
                within: raw.within.map(|p| p.0),
                repeat,
            });
        }
        Node::Stack(s) => {
            if let Some((Repeat::Times(0), l)) = s.item.repeat {
                c.warn(l, Some("REPEAT"), "REPEAT = 0: this substack is skipped");
            }
            items.push(Item {
                path: if parent.is_none() {
                    "STACK".into()
                } else {
                    path.clone()
                },
                line: s.line,
                parent,
                end: me + 1,
                body: Body::Stack {
                    id: s.id.as_ref().map(|i| i.0.clone()),
                    children: Vec::new(),
                    sequence: Vec::new(),
                },
                guard: guard(c, &s.item),
                preemptive: s.item.preemptive.map(|p| p.0),
                until: s.item.until.map(|p| p.0),
                within: s.item.within.map(|p| p.0),
                repeat: s.item.repeat.map_or(Repeat::Times(1), |r| r.0),
            });
            let mut ids: Vec<(String, usize)> = Vec::new();
            let mut children = Vec::new();
            for (k, child) in s.children.into_iter().enumerate() {
                let label = match &child {
                    Node::Stack(cs) => match &cs.id {
                        Some((id, l)) => {
                            if let Some((_, first)) = ids.iter().find(|(x, _)| x == id) {
                                c.error(*l, Some(id), format!("duplicate ID \"{id}\": a sibling on line {first} has it already"));
                            }
                            ids.push((id.clone(), *l));
                            id.clone()
                        }
                        None => (k + 1).to_string(),
                    },
                    Node::Leaf(_) => (k + 1).to_string(),
                };
                let child_path = if path.is_empty() {
                    label
                } else {
                    format!("{path}/{label}")
                };
                let idx = items.len();
                let before = items.len();
                flatten(c, child, Some(me), child_path, items);
                if items.len() > before {
                    children.push(idx);
                }
            }
            let sequence: Vec<usize> = children
                .iter()
                .copied()
                .filter(|&i| items.get(i).is_some_and(Item::is_sequential))
                .collect();
            let end = items.len();
            if let Some(it) = items.get_mut(me) {
                it.end = end;
                it.body = Body::Stack {
                    id: s.id.map(|i| i.0),
                    children,
                    sequence,
                };
            }
        }
    }
}

fn check_top(c: &Ctx, items: &[Item]) {
    let Some(root) = items.first() else { return };
    if !matches!(root.guard, Guard::None) {
        let (word, line) = match &root.guard {
            Guard::When(_) => ("WHEN", root.line),
            _ => ("WHILE", root.line),
        };
        c.error(line, Some(word), format!("{word} on the top-level STACK: the mission itself cannot be guarded (use UNTIL or WITHIN to end it)"));
    }
    // rule 6: a substack with an empty sequence in sequence position blocks what follows
    for it in items.iter().skip(1) {
        if let Body::Stack { sequence, .. } = &it.body {
            if sequence.is_empty()
                && it.is_sequential()
                && it.until.is_none()
                && it.within.is_none()
            {
                c.warn(it.line, None, format!("substack {} has no commands, so it never completes: the items after it in sequence never run (give it UNTIL, WITHIN, or a WHEN/WHILE guard)", it.path));
            }
        }
    }
    let _ = Clause::Const(true);
}
