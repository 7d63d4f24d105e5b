//! Reading an agents file and everything it includes.
//!
//! Includes are followed breadth first, each file read once; an include names a path
//! relative to the including file's folder and must end in `.xabsl` (or `.yabsl`), as in
//! the reference. Files come from a [`FileLoader`]: the file system, or memory (tests,
//! fuzzing).

use crate::ast;
use crate::diag::{Diagnostic, Diagnostics};
use crate::parser::parse_file;
use crate::source::{FileId, SourceFile, SourceMap, Span};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Where source files come from.
pub trait FileLoader {
    /// The bytes of a file.
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>>;
}

/// The file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct FsLoader;

impl FileLoader for FsLoader {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        std::fs::read(path)
    }
}

/// Files held in memory, by path.
#[derive(Debug, Clone, Default)]
pub struct MemLoader {
    files: HashMap<PathBuf, Vec<u8>>,
}

impl MemLoader {
    /// No files.
    pub fn new() -> Self {
        Self::default()
    }
    /// Add a file.
    pub fn add(&mut self, path: impl AsRef<Path>, text: impl Into<Vec<u8>>) -> &mut Self {
        self.files.insert(normalize(path.as_ref()), text.into());
        self
    }
}

impl FileLoader for MemLoader {
    fn read(&self, path: &Path) -> std::io::Result<Vec<u8>> {
        self.files
            .get(&normalize(path))
            .cloned()
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"))
    }
}

/// Remove `.` and resolve `..` without asking the file system.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => match out.last() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                _ => out.push(c),
            },
            c => out.push(c),
        }
    }
    if out.is_empty() {
        return PathBuf::from(".");
    }
    out.iter().collect()
}

/// The parsed files of a compilation.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// every file read (also those that did not parse)
    pub sources: SourceMap,
    /// the files that parsed, in the order they were read (the entry file first)
    pub files: Vec<(FileId, ast::File)>,
    /// reading and syntax errors
    pub diagnostics: Diagnostics,
}

/// Read and parse `entry` and every file it includes.
pub fn load(entry: &Path, loader: &dyn FileLoader) -> Loaded {
    let mut out = Loaded::default();
    let mut queue: Vec<(PathBuf, Option<Span>)> = vec![(normalize(entry), None)];
    let mut seen: Vec<PathBuf> = vec![normalize(entry)];
    let mut next = 0;
    while next < queue.len() {
        let (path, from) = queue[next].clone();
        next += 1;
        let bytes = match loader.read(&path) {
            Ok(b) => b,
            Err(e) => {
                let msg = format!("cannot read `{}`: {e}", path.display());
                out.diagnostics.push(match from {
                    Some(span) => Diagnostic::error("X2375", span, msg),
                    None => Diagnostic::global("X2375", msg),
                });
                continue;
            }
        };
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let id = out.sources.add(SourceFile::new(path.clone(), text));
        let parsed = match out.sources.get(id) {
            Some(f) => parse_file(&f.text, id),
            None => continue,
        };
        let file = match parsed {
            Ok(f) => f,
            Err(d) => {
                out.diagnostics.push(d);
                continue;
            }
        };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut here: Vec<&str> = Vec::new();
        for inc in &file.includes {
            if here.contains(&inc.path.as_str()) {
                out.diagnostics.push(Diagnostic::error(
                    "X9001",
                    inc.span,
                    format!("`{}` is included more than once in this file", inc.path),
                ));
                continue;
            }
            here.push(&inc.path);
            let ext_ok = inc.path.ends_with(".xabsl") || inc.path.ends_with(".yabsl");
            if !ext_ok {
                out.diagnostics.push(Diagnostic::error(
                    "X7253",
                    inc.span,
                    format!(
                        "cannot include `{}`: included files must have the extension .xabsl",
                        inc.path
                    ),
                ));
                continue;
            }
            let target = normalize(&dir.join(&inc.path));
            if !seen.contains(&target) {
                seen.push(target.clone());
                queue.push((target, Some(inc.span)));
            }
        }
        out.files.push((id, file));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_includes_once() {
        let mut m = MemLoader::new();
        m.add(
            "a/agents.xabsl",
            "include \"b.xabsl\";\ninclude \"sub/c.xabsl\";\n",
        )
        .add("a/b.xabsl", "include \"sub/c.xabsl\";")
        .add("a/sub/c.xabsl", "include \"../b.xabsl\";");
        let l = load(Path::new("a/agents.xabsl"), &m);
        assert!(!l.diagnostics.has_errors());
        assert_eq!(l.files.len(), 3);
    }

    #[test]
    fn include_errors() {
        let mut m = MemLoader::new();
        m.add(
            "x.xabsl",
            "include \"b.xabsl\";\ninclude \"b.xabsl\";\ninclude \"c.txt\";\ninclude \"none.xabsl\";",
        )
        .add("b.xabsl", "");
        let l = load(Path::new("x.xabsl"), &m);
        let codes: Vec<_> = l.diagnostics.all().iter().map(|d| d.code).collect();
        assert_eq!(codes, vec!["X9001", "X7253", "X2375"]);
    }
}
