//! The files an editor has open, and the agents they belong to.
//!
//! An XABSL file is checked as part of its agent: the agents file that includes it
//! (directly or not), found in its folder or the folders above; a file no agents file
//! includes is checked alone. Open files are read from the editor's text, the others
//! from the disk. A mission script is loaded alone, with the `workSite.cfg` and
//! `Control.cfg` beside it.

use crate::{mission, xabsl};
use lsp_types::Diagnostic;
use skipper_xabsl::ast::Body;
use skipper_xabsl::loader::{normalize, FileLoader};
use skipper_xabsl::Compilation;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How many folders above a file are searched for its agents file.
const SEARCH_UP: usize = 4;

/// The diagnostics of one file (an empty list clears the file's).
#[derive(Debug, Clone, PartialEq)]
pub struct FileDiagnostics {
    /// the file
    pub path: PathBuf,
    /// its diagnostics
    pub diagnostics: Vec<Diagnostic>,
}

/// The open files and the last check of each agent.
#[derive(Default)]
pub struct Workspace {
    /// open files: their text as the editor has it
    docs: HashMap<PathBuf, String>,
    /// the agents file of each XABSL file seen
    entries: HashMap<PathBuf, PathBuf>,
    /// the last check of each agents file
    checked: HashMap<PathBuf, Arc<Compilation>>,
    /// the last check without errors (names for completion while a file is broken)
    good: HashMap<PathBuf, Arc<Compilation>>,
}

/// Files from the editor where it has them, else from the disk.
struct Overlay<'a>(&'a HashMap<PathBuf, String>);

impl FileLoader for Overlay<'_> {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        match self.0.get(&normalize(path)) {
            Some(t) => Ok(t.clone().into_bytes()),
            None => std::fs::read(path),
        }
    }
}

/// Whether `path` is a mission script.
pub(crate) fn is_mission(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "lua")
}

impl Workspace {
    /// No files.
    pub fn new() -> Self {
        Self::default()
    }

    /// The editor opened a file, or changed it (its whole text): check what it belongs
    /// to; the diagnostics of every file of that check.
    pub fn update(&mut self, path: &Path, text: String) -> Vec<FileDiagnostics> {
        let path = normalize(path);
        self.docs.insert(path.clone(), text);
        self.check(&path)
    }

    /// The editor closed a file: it is read from the disk again.
    pub fn close(&mut self, path: &Path) {
        self.docs.remove(&normalize(path));
    }

    /// The text of a file: the editor's, or the disk's.
    pub fn text(&self, path: &Path) -> Option<String> {
        let path = normalize(path);
        match self.docs.get(&path) {
            Some(t) => Some(t.clone()),
            None => std::fs::read_to_string(&path).ok(),
        }
    }

    /// Check the file (its agent, or the mission script).
    pub fn check(&mut self, path: &Path) -> Vec<FileDiagnostics> {
        if is_mission(path) {
            let text = self.text(path).unwrap_or_default();
            return vec![FileDiagnostics {
                path: path.to_path_buf(),
                diagnostics: mission::diagnostics(path, &text),
            }];
        }
        let entry = self.entry(path);
        let c = Arc::new(skipper_xabsl::compile(&entry, &Overlay(&self.docs)));
        if !c.diagnostics.has_errors() {
            self.good.insert(entry.clone(), c.clone());
        }
        self.checked.insert(entry, c.clone());
        xabsl::diagnostics(&c, path)
    }

    /// The last check of the agent `path` belongs to (checked now if it was not).
    pub(crate) fn compilation(&mut self, path: &Path) -> Arc<Compilation> {
        let entry = self.entry(path);
        if let Some(c) = self.checked.get(&entry) {
            return c.clone();
        }
        self.check(path);
        self.checked
            .get(&entry)
            .cloned()
            .unwrap_or_else(|| Arc::new(skipper_xabsl::compile(&entry, &Overlay(&self.docs))))
    }

    /// The last check without errors of the agent `path` belongs to, if any.
    pub(crate) fn good_compilation(&mut self, path: &Path) -> Option<Arc<Compilation>> {
        let entry = self.entry(path);
        self.good.get(&entry).cloned()
    }

    /// The agents file `path` belongs to: itself if it declares agents, else the
    /// nearest agents file above that includes it, else itself.
    pub fn entry(&mut self, path: &Path) -> PathBuf {
        let path = normalize(path);
        if let Some(e) = self.entries.get(&path) {
            return e.clone();
        }
        let e = self.find_entry(&path).unwrap_or_else(|| path.clone());
        self.entries.insert(path, e.clone());
        e
    }

    fn find_entry(&self, path: &Path) -> Option<PathBuf> {
        if self.declares_agents(path) {
            return Some(path.to_path_buf());
        }
        let mut dir = path.parent();
        for _ in 0..=SEARCH_UP {
            let d = dir?;
            let mut candidates: Vec<PathBuf> = std::fs::read_dir(d)
                .ok()?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "xabsl"))
                .collect();
            // agents.xabsl first, then by name
            candidates.sort_by_key(|p| {
                (
                    p.file_name().is_some_and(|n| n != "agents.xabsl"),
                    p.clone(),
                )
            });
            for c in candidates {
                let c = normalize(&c);
                if c != path && self.declares_agents(&c) && self.includes(&c, path) {
                    return Some(c);
                }
            }
            dir = d.parent();
        }
        None
    }

    fn declares_agents(&self, path: &Path) -> bool {
        let Some(text) = self.text(path) else {
            return false;
        };
        matches!(
            skipper_xabsl::parser::parse_file(&text, Default::default()),
            Ok(f) if matches!(f.body, Body::Agents(_))
        )
    }

    /// Whether the agents file `entry` reads `path` (it or what it includes).
    fn includes(&self, entry: &Path, path: &Path) -> bool {
        let loaded = skipper_xabsl::loader::load(entry, &Overlay(&self.docs));
        loaded.sources.find(path).is_some()
    }
}
