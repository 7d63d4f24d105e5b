//! The input-link as a tree of working-memory elements, and its per-cycle diff.
//!
//! Every WME has a small integer id (`w`); an identifier-valued WME names the identifier it
//! creates by that same id, and the input-link itself is identifier `0`. Changes are
//! recorded as they happen and taken once per cycle as a [`Diff`]: WMEs removed (roots of
//! removed subtrees), WMEs added (in creation order, parents first, with their final
//! value) and WMEs whose value changed (in id order). Setting an equal value is a no-op,
//! so the agent never sees a new timetag for an unchanged value (rule I1). Changing a
//! value's type removes the WME and adds a new one, as Soar requires.
//!
//! Slots are reused through a free list and every list keeps its capacity, so a steady
//! state cycle (values change, nothing is added or removed) does not allocate.

use std::sync::Arc;

/// The id of a WME, and of the identifier it creates if it is identifier-valued.
pub type WmeId = u32;

/// The input-link identifier.
pub const ROOT: WmeId = 0;

/// A WME's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// an integer constant
    Int(i64),
    /// a float constant
    Float(f64),
    /// a string constant
    Str(Arc<str>),
    /// a new identifier (named by the WME's id)
    Id,
}

impl Val {
    /// A string value.
    pub fn str(s: &str) -> Self {
        Val::Str(Arc::from(s))
    }
    fn same_type(&self, other: &Val) -> bool {
        std::mem::discriminant(self) == std::mem::discriminant(other)
    }
    /// The Soar type name used on the wire: `int`, `float`, `string`, `id`.
    pub fn type_name(&self) -> &'static str {
        match self {
            Val::Int(_) => "int",
            Val::Float(_) => "float",
            Val::Str(_) => "string",
            Val::Id => "id",
        }
    }
}

#[derive(Debug, Clone)]
struct Slot {
    parent: WmeId,
    attr: &'static str,
    value: Val,
    alive: bool,
    /// the other side has it (it went out in a diff)
    committed: bool,
    dirty: bool,
    first_child: Option<WmeId>,
    next_sibling: Option<WmeId>,
}

/// The WME tree of an input-link.
#[derive(Debug, Clone)]
pub struct Tree {
    slots: Vec<Slot>,
    free: Vec<WmeId>,
    added: Vec<WmeId>,
    updated: Vec<WmeId>,
    removed: Vec<WmeId>,
    stack: Vec<WmeId>,
}

impl Default for Tree {
    fn default() -> Self {
        Self::new()
    }
}

impl Tree {
    /// A tree with only the input-link identifier.
    pub fn new() -> Self {
        let root = Slot {
            parent: ROOT,
            attr: "input-link",
            value: Val::Id,
            alive: true,
            committed: true,
            dirty: false,
            first_child: None,
            next_sibling: None,
        };
        Self {
            slots: vec![root],
            free: Vec::new(),
            added: Vec::new(),
            updated: Vec::new(),
            removed: Vec::new(),
            stack: Vec::new(),
        }
    }

    /// Add `^attr value` under identifier `parent`; returns the new WME's id (which also
    /// names the identifier, for identifier values).
    pub fn add(&mut self, parent: WmeId, attr: &'static str, value: Val) -> WmeId {
        let slot = Slot {
            parent,
            attr,
            value,
            alive: true,
            committed: false,
            dirty: false,
            first_child: None,
            next_sibling: None,
        };
        let id = match self.free.pop() {
            Some(id) => {
                if let Some(s) = self.slots.get_mut(id as usize) {
                    *s = slot;
                }
                id
            }
            None => {
                self.slots.push(slot);
                (self.slots.len() - 1) as WmeId
            }
        };
        // append to the parent's children, keeping creation order
        let mut last = None;
        let mut c = self.slots.get(parent as usize).and_then(|p| p.first_child);
        while let Some(k) = c {
            last = Some(k);
            c = self.slots.get(k as usize).and_then(|s| s.next_sibling);
        }
        match last {
            Some(k) => {
                if let Some(s) = self.slots.get_mut(k as usize) {
                    s.next_sibling = Some(id);
                }
            }
            None => {
                if let Some(p) = self.slots.get_mut(parent as usize) {
                    p.first_child = Some(id);
                }
            }
        }
        self.added.push(id);
        id
    }

    /// Add an identifier-valued WME.
    pub fn add_id(&mut self, parent: WmeId, attr: &'static str) -> WmeId {
        self.add(parent, attr, Val::Id)
    }

    /// Set a WME's value. An equal value changes nothing; a value of another type
    /// replaces the WME (remove + add), and `w` then names the new one.
    pub fn set(&mut self, w: &mut WmeId, value: Val) {
        let Some(s) = self.slots.get_mut(*w as usize) else {
            return;
        };
        if !s.alive {
            return;
        }
        if s.value.same_type(&value) {
            let equal = match (&s.value, &value) {
                (Val::Float(a), Val::Float(b)) => a == b,
                (a, b) => a == b,
            };
            if equal {
                return;
            }
            s.value = value;
            if s.committed && !s.dirty {
                s.dirty = true;
                self.updated.push(*w);
            }
        } else {
            let (parent, attr) = (s.parent, s.attr);
            self.remove(*w);
            *w = self.add(parent, attr, value);
        }
    }

    /// Set a float value (the common case of a steady-state cycle: no `Val` is built or
    /// dropped when the WME already holds a float).
    #[inline]
    pub fn set_f64(&mut self, w: &mut WmeId, v: f64) {
        if let Some(s) = self.slots.get_mut(*w as usize) {
            if let (true, Val::Float(old)) = (s.alive, &mut s.value) {
                if *old != v {
                    *old = v;
                    if s.committed && !s.dirty {
                        s.dirty = true;
                        self.updated.push(*w);
                    }
                }
                return;
            }
        }
        self.set(w, Val::Float(v));
    }

    /// Set an integer value (as [`Tree::set_f64`], for ints).
    #[inline]
    pub fn set_i64(&mut self, w: &mut WmeId, v: i64) {
        if let Some(s) = self.slots.get_mut(*w as usize) {
            if let (true, Val::Int(old)) = (s.alive, &mut s.value) {
                if *old != v {
                    *old = v;
                    if s.committed && !s.dirty {
                        s.dirty = true;
                        self.updated.push(*w);
                    }
                }
                return;
            }
        }
        self.set(w, Val::Int(v));
    }

    /// Set an angle in degrees: an int (rounded half up) when `int`, else a float.
    #[inline]
    pub fn set_angle(&mut self, w: &mut WmeId, deg: f64, int: bool) {
        if int {
            self.set_i64(w, crate::input::round_half_up(deg));
        } else {
            self.set_f64(w, deg);
        }
    }

    /// Remove a WME and everything under it.
    pub fn remove(&mut self, w: WmeId) {
        if w == ROOT {
            return;
        }
        let Some(s) = self.slots.get(w as usize) else {
            return;
        };
        if !s.alive {
            return;
        }
        let parent = s.parent;
        let next = s.next_sibling;
        // unlink from the parent
        let first = self.slots.get(parent as usize).and_then(|p| p.first_child);
        if first == Some(w) {
            if let Some(p) = self.slots.get_mut(parent as usize) {
                p.first_child = next;
            }
        } else {
            let mut c = first;
            while let Some(k) = c {
                let sib = self.slots.get(k as usize).and_then(|s| s.next_sibling);
                if sib == Some(w) {
                    if let Some(s) = self.slots.get_mut(k as usize) {
                        s.next_sibling = next;
                    }
                    break;
                }
                c = sib;
            }
        }
        if self.slots.get(w as usize).is_some_and(|s| s.committed) {
            self.removed.push(w);
        }
        // free the subtree
        self.stack.clear();
        self.stack.push(w);
        while let Some(k) = self.stack.pop() {
            let Some(s) = self.slots.get_mut(k as usize) else {
                continue;
            };
            s.alive = false;
            s.dirty = false;
            s.committed = false;
            let mut c = s.first_child.take();
            s.next_sibling = None;
            while let Some(ch) = c {
                c = self.slots.get(ch as usize).and_then(|s| s.next_sibling);
                self.stack.push(ch);
            }
            self.free.push(k);
        }
    }

    /// Remove every child of identifier `parent`.
    pub fn clear_children(&mut self, parent: WmeId) {
        while let Some(c) = self.slots.get(parent as usize).and_then(|p| p.first_child) {
            self.remove(c);
        }
    }

    /// A WME's value (`None` if it does not exist).
    pub fn value(&self, w: WmeId) -> Option<&Val> {
        self.slots
            .get(w as usize)
            .filter(|s| s.alive)
            .map(|s| &s.value)
    }

    /// A WME's attribute.
    pub fn attr(&self, w: WmeId) -> Option<&'static str> {
        self.slots
            .get(w as usize)
            .filter(|s| s.alive)
            .map(|s| s.attr)
    }

    /// A WME's parent identifier.
    pub fn parent(&self, w: WmeId) -> Option<WmeId> {
        self.slots
            .get(w as usize)
            .filter(|s| s.alive)
            .map(|s| s.parent)
    }

    /// The children of identifier `id`, in creation order.
    pub fn children(&self, id: WmeId) -> Children<'_> {
        Children {
            tree: self,
            next: self
                .slots
                .get(id as usize)
                .filter(|s| s.alive)
                .and_then(|s| s.first_child),
        }
    }

    /// The first child of `id` with attribute `attr`.
    pub fn child(&self, id: WmeId, attr: &str) -> Option<WmeId> {
        self.children(id).find(|&c| self.attr(c) == Some(attr))
    }

    /// Follow a path of attributes from `id` (`["self", "pose", "x"]`).
    pub fn path(&self, id: WmeId, path: &[&str]) -> Option<WmeId> {
        path.iter().try_fold(id, |at, a| self.child(at, a))
    }

    /// Live WMEs, the input-link excluded.
    pub fn len(&self) -> usize {
        self.slots.iter().skip(1).filter(|s| s.alive).count()
    }

    /// `true` if the input-link has no children.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Are there changes not yet taken?
    pub fn has_changes(&self) -> bool {
        !(self.added.is_empty() && self.updated.is_empty() && self.removed.is_empty())
    }

    /// Take the changes since the last take into `out` (cleared first), and consider
    /// them applied on the other side.
    pub fn take_diff(&mut self, out: &mut Diff) {
        out.clear();
        out.removes.append(&mut self.removed);
        self.updated.sort_unstable();
        for &w in &self.updated {
            if let Some(s) = self.slots.get_mut(w as usize) {
                if s.alive && s.committed && s.dirty {
                    s.dirty = false;
                    out.updates.push((w, s.value.clone()));
                }
            }
        }
        self.updated.clear();
        for &w in &self.added {
            if let Some(s) = self.slots.get_mut(w as usize) {
                if s.alive && !s.committed {
                    s.committed = true;
                    s.dirty = false;
                    out.adds.push(Added {
                        w,
                        parent: s.parent,
                        attr: s.attr,
                        value: s.value.clone(),
                    });
                }
            }
        }
        self.added.clear();
    }

    /// The whole tree as adds, in an order that creates parents first (a snapshot for a
    /// newly connected agent). Marks everything committed and forgets pending changes.
    pub fn snapshot(&mut self, out: &mut Diff) {
        out.clear();
        self.added.clear();
        self.updated.clear();
        self.removed.clear();
        self.stack.clear();
        let mut order = Vec::new();
        let mut c = self.slots.first().and_then(|r| r.first_child);
        // depth-first, children in order
        let mut pending: Vec<WmeId> = Vec::new();
        while let Some(k) = c {
            pending.push(k);
            c = self.slots.get(k as usize).and_then(|s| s.next_sibling);
        }
        pending.reverse();
        while let Some(k) = pending.pop() {
            order.push(k);
            let mut kids = Vec::new();
            let mut c = self.slots.get(k as usize).and_then(|s| s.first_child);
            while let Some(ch) = c {
                kids.push(ch);
                c = self.slots.get(ch as usize).and_then(|s| s.next_sibling);
            }
            kids.reverse();
            pending.extend(kids);
        }
        for w in order {
            if let Some(s) = self.slots.get_mut(w as usize) {
                s.committed = true;
                s.dirty = false;
                out.adds.push(Added {
                    w,
                    parent: s.parent,
                    attr: s.attr,
                    value: s.value.clone(),
                });
            }
        }
    }
}

/// Iterator over an identifier's children.
pub struct Children<'a> {
    tree: &'a Tree,
    next: Option<WmeId>,
}

impl Iterator for Children<'_> {
    type Item = WmeId;
    fn next(&mut self) -> Option<WmeId> {
        let k = self.next?;
        self.next = self.tree.slots.get(k as usize).and_then(|s| s.next_sibling);
        Some(k)
    }
}

/// A WME added this cycle.
#[derive(Debug, Clone, PartialEq)]
pub struct Added {
    /// its id
    pub w: WmeId,
    /// the identifier it hangs under
    pub parent: WmeId,
    /// its attribute
    pub attr: &'static str,
    /// its value
    pub value: Val,
}

/// The changes of one cycle, in the order they are applied: removes, adds, updates.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Diff {
    /// WMEs removed (with everything under them)
    pub removes: Vec<WmeId>,
    /// WMEs added, parents before children
    pub adds: Vec<Added>,
    /// WMEs whose value changed, with the new value
    pub updates: Vec<(WmeId, Val)>,
}

impl Diff {
    /// Forget everything (keeping capacity).
    pub fn clear(&mut self) {
        self.removes.clear();
        self.adds.clear();
        self.updates.clear();
    }
    /// `true` if nothing changed.
    pub fn is_empty(&self) -> bool {
        self.removes.is_empty() && self.adds.is_empty() && self.updates.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adds_updates_removes_in_order() {
        let mut t = Tree::new();
        let mut d = Diff::default();
        let s = t.add_id(ROOT, "self");
        let mut x = t.add(s, "x", Val::Float(1.0));
        t.take_diff(&mut d);
        assert_eq!(d.adds.len(), 2);
        assert_eq!(d.adds[0].parent, ROOT);
        assert_eq!(d.adds[1].parent, s);
        // equal value: no change
        t.set_f64(&mut x, 1.0);
        t.take_diff(&mut d);
        assert!(d.is_empty());
        t.set_f64(&mut x, 2.0);
        t.set_f64(&mut x, 3.0);
        t.take_diff(&mut d);
        assert_eq!(d.updates, vec![(x, Val::Float(3.0))]);
        // type change: remove + add
        let old = x;
        t.set(&mut x, Val::Int(3));
        t.take_diff(&mut d);
        assert_eq!(d.removes, vec![old]);
        assert_eq!(d.adds.len(), 1);
        assert_eq!(d.adds[0].value, Val::Int(3));
        assert_eq!(d.adds[0].w, x);
        // remove the subtree: one remove, nothing else
        t.remove(s);
        t.take_diff(&mut d);
        assert_eq!(d.removes, vec![s]);
        assert!(d.adds.is_empty() && d.updates.is_empty());
        assert!(t.is_empty());
    }

    #[test]
    fn added_and_removed_in_one_cycle_is_nothing() {
        let mut t = Tree::new();
        let mut d = Diff::default();
        let a = t.add_id(ROOT, "a");
        t.add(a, "b", Val::Int(1));
        t.remove(a);
        t.take_diff(&mut d);
        assert!(d.is_empty());
    }

    #[test]
    fn reused_slots_are_removed_then_added() {
        let mut t = Tree::new();
        let mut d = Diff::default();
        let a = t.add(ROOT, "a", Val::Int(1));
        t.take_diff(&mut d);
        t.remove(a);
        let b = t.add(ROOT, "b", Val::str("x"));
        assert_eq!(a, b, "the slot is reused");
        t.take_diff(&mut d);
        assert_eq!(d.removes, vec![a]);
        assert_eq!(d.adds[0].attr, "b");
    }

    #[test]
    fn snapshot_lists_parents_first() {
        let mut t = Tree::new();
        let mut d = Diff::default();
        let a = t.add_id(ROOT, "a");
        let b = t.add_id(ROOT, "b");
        t.add(a, "x", Val::Int(1));
        t.add(b, "y", Val::Int(2));
        t.take_diff(&mut d);
        t.snapshot(&mut d);
        let attrs: Vec<_> = d.adds.iter().map(|a| a.attr).collect();
        assert_eq!(attrs, ["a", "x", "b", "y"]);
        assert_eq!(
            t.path(ROOT, &["b", "y"]).and_then(|w| t.value(w).cloned()),
            Some(Val::Int(2))
        );
    }
}
