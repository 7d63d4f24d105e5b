//! Finding message, service and action definitions at run time: a [`TypeLoader`] resolves
//! `package/Type` to a [`MsgSchema`] (and actions and services to theirs) from, in order,
//! the definitions added to it ([`TypeLoader::add_msg`], [`TypeLoader::add_action`],
//! [`TypeLoader::add_srv`]), the definitions compiled into this crate
//! ([`super::defs`]), and the package path: the packages (folders with a `package.xml`)
//! under each folder of `ROS_PACKAGE_PATH`, then `<prefix>/share/<package>` for each
//! prefix of `CMAKE_PREFIX_PATH`, `/opt/ros/*`, and `/usr/share/<package>` (where
//! Debian's `ros-*-msgs` packages put their `msg/`, `srv/` and `action/` folders).
//!
//! A message generated from an action (`pkg/NameActionGoal`, ...) that has no `.msg` file
//! is generated from `action/Name.action`; `pkg/NameRequest` / `NameResponse` from
//! `srv/Name.srv`. Resolved schemas are cached.

use super::parse::{parse_msg, sections};
use super::schema::{
    action_texts, build, resolve_name, split_type, ActionSchema, FieldKind, MsgSchema, SchemaError,
    SrvSchema, ACTION_SUFFIXES,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// How deep message types may nest.
pub const MAX_DEPTH: usize = 32;
/// How deep under a `ROS_PACKAGE_PATH` folder packages are looked for.
const MAX_WALK_DEPTH: usize = 6;
/// The largest definition file read.
const MAX_FILE: u64 = 1 << 20;

/// A definition text and where it came from (a path, or the type name).
#[derive(Debug, Clone)]
struct Source {
    text: String,
    origin: String,
}

#[derive(Default)]
struct State {
    msgs: HashMap<String, Source>,
    actions: HashMap<String, Source>,
    srvs: HashMap<String, Source>,
    cache: HashMap<String, Arc<MsgSchema>>,
    action_cache: HashMap<String, Arc<ActionSchema>>,
    srv_cache: HashMap<String, Arc<SrvSchema>>,
    /// package -> folder, found under the walked roots (built on first use)
    walked: Option<HashMap<String, PathBuf>>,
    /// the compiled-in registry's generation the caches were built at
    generation: u64,
}

/// Resolves type names to schemas; shareable between threads.
pub struct TypeLoader {
    /// folders walked for packages (`ROS_PACKAGE_PATH`)
    walk_roots: Vec<PathBuf>,
    /// folders holding `<package>/` directly (`/usr/share`, `<prefix>/share`)
    share_roots: Vec<PathBuf>,
    state: Mutex<State>,
}

impl std::fmt::Debug for TypeLoader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypeLoader")
            .field("walk_roots", &self.walk_roots)
            .field("share_roots", &self.share_roots)
            .finish()
    }
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Where a definition file of a package is.
#[derive(Clone, Copy)]
enum Kind {
    Msg,
    Srv,
    Action,
}

impl Kind {
    fn dir_ext(self) -> (&'static str, &'static str) {
        match self {
            Kind::Msg => ("msg", "msg"),
            Kind::Srv => ("srv", "srv"),
            Kind::Action => ("action", "action"),
        }
    }
}

impl TypeLoader {
    /// A loader that knows the compiled-in definitions and searches the package path of
    /// the environment (`ROS_PACKAGE_PATH`, `CMAKE_PREFIX_PATH`, `/opt/ros/*`,
    /// `/usr/share`).
    pub fn from_env() -> Self {
        let split = |v: &str| -> Vec<PathBuf> {
            std::env::var(v)
                .ok()
                .map(|s| {
                    s.split(':')
                        .filter(|p| !p.is_empty())
                        .map(PathBuf::from)
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut share: Vec<PathBuf> = split("CMAKE_PREFIX_PATH")
            .into_iter()
            .map(|p| p.join("share"))
            .collect();
        if let Ok(rd) = std::fs::read_dir("/opt/ros") {
            let mut distros: Vec<PathBuf> = rd.flatten().map(|e| e.path().join("share")).collect();
            distros.sort();
            share.extend(distros);
        }
        share.push(PathBuf::from("/usr/share"));
        Self::with_paths(split("ROS_PACKAGE_PATH"), share)
    }

    /// A loader that knows only the compiled-in definitions and what is added to it.
    pub fn builtin_only() -> Self {
        Self::with_paths(Vec::new(), Vec::new())
    }

    /// A loader searching `walk_roots` (each walked for folders with a `package.xml`, as
    /// `ROS_PACKAGE_PATH`) and `share_roots` (each holding `<package>/` directly).
    pub fn with_paths(walk_roots: Vec<PathBuf>, share_roots: Vec<PathBuf>) -> Self {
        Self {
            walk_roots,
            share_roots,
            state: Mutex::new(State {
                generation: super::defs::generation(),
                ..State::default()
            }),
        }
    }

    /// The state, with the caches dropped if compiled-in definitions were registered
    /// since they were filled.
    fn lock(&self) -> MutexGuard<'_, State> {
        let mut st = lock(&self.state);
        let g = super::defs::generation();
        if st.generation != g {
            st.generation = g;
            st.cache.clear();
            st.action_cache.clear();
            st.srv_cache.clear();
        }
        st
    }

    /// The process-wide loader ([`TypeLoader::from_env`], made on first use).
    pub fn global() -> &'static TypeLoader {
        static G: OnceLock<TypeLoader> = OnceLock::new();
        G.get_or_init(TypeLoader::from_env)
    }

    /// Add a message definition (`package/Name` and its `.msg` text), checked and
    /// resolved at once. It is found before any file of the same name.
    pub fn add_msg(&self, name: &str, text: &str) -> Result<Arc<MsgSchema>, SchemaError> {
        split_type(name)?;
        parse_msg(name, text, 0)?;
        {
            let mut st = self.lock();
            st.msgs.insert(
                name.to_string(),
                Source {
                    text: text.to_string(),
                    origin: name.to_string(),
                },
            );
            st.cache.clear();
            st.action_cache.clear();
            st.srv_cache.clear();
        }
        self.message(name)
    }

    /// Add an action definition (`package/Name` and its `.action` text).
    pub fn add_action(&self, name: &str, text: &str) -> Result<Arc<ActionSchema>, SchemaError> {
        action_texts(name, text)?;
        {
            let mut st = self.lock();
            st.actions.insert(
                name.to_string(),
                Source {
                    text: text.to_string(),
                    origin: name.to_string(),
                },
            );
            st.cache.clear();
            st.action_cache.clear();
        }
        self.action(name)
    }

    /// Add a service definition (`package/Name` and its `.srv` text).
    pub fn add_srv(&self, name: &str, text: &str) -> Result<Arc<SrvSchema>, SchemaError> {
        split_type(name)?;
        {
            let mut st = self.lock();
            st.srvs.insert(
                name.to_string(),
                Source {
                    text: text.to_string(),
                    origin: name.to_string(),
                },
            );
            st.cache.clear();
            st.srv_cache.clear();
        }
        self.service(name)
    }

    /// The message type `name` (`package/Type`, or `Header`).
    pub fn message(&self, name: &str) -> Result<Arc<MsgSchema>, SchemaError> {
        let name = resolve_name("", name);
        split_type(&name)?;
        let mut stack = Vec::new();
        self.resolve(&name, None, &mut stack)
    }

    /// The action type `name` (`package/Name`, without `Action`).
    pub fn action(&self, name: &str) -> Result<Arc<ActionSchema>, SchemaError> {
        let name = name.strip_suffix("Action").unwrap_or(name);
        split_type(name)?;
        if let Some(a) = self.lock().action_cache.get(name) {
            return Ok(a.clone());
        }
        let get = |suffix: &str| self.message(&format!("{name}{suffix}"));
        let a = Arc::new(ActionSchema {
            name: name.to_string(),
            goal: get("Goal")?,
            result: get("Result")?,
            feedback: get("Feedback")?,
            action_goal: get("ActionGoal")?,
            action_result: get("ActionResult")?,
            action_feedback: get("ActionFeedback")?,
            action: get("Action")?,
        });
        self.lock().action_cache.insert(name.to_string(), a.clone());
        Ok(a)
    }

    /// The service type `name` (`package/Name`).
    pub fn service(&self, name: &str) -> Result<Arc<SrvSchema>, SchemaError> {
        split_type(name)?;
        if let Some(s) = self.lock().srv_cache.get(name) {
            return Ok(s.clone());
        }
        let src = self.srv_source(name)?;
        let request = self.message(&format!("{name}Request"))?;
        let response = self.message(&format!("{name}Response"))?;
        let s = Arc::new(SrvSchema::new(name, &src.text, request, response));
        self.lock().srv_cache.insert(name.to_string(), s.clone());
        Ok(s)
    }

    fn searched(&self) -> String {
        let mut parts = vec!["the definitions added and compiled in".to_string()];
        if !self.walk_roots.is_empty() {
            parts.push(format!("ROS_PACKAGE_PATH {}", join_paths(&self.walk_roots)));
        }
        if !self.share_roots.is_empty() {
            parts.push(join_paths(&self.share_roots));
        }
        parts.join(", ")
    }

    fn srv_source(&self, name: &str) -> Result<Source, SchemaError> {
        if let Some(s) = self.lock().srvs.get(name) {
            return Ok(s.clone());
        }
        self.file(name, Kind::Srv)?
            .ok_or_else(|| SchemaError::Unknown {
                ty: name.to_string(),
                used_by: None,
                searched: self.searched(),
            })
    }

    fn resolve(
        &self,
        name: &str,
        used_by: Option<&str>,
        stack: &mut Vec<String>,
    ) -> Result<Arc<MsgSchema>, SchemaError> {
        if let Some(s) = self.lock().cache.get(name) {
            return Ok(s.clone());
        }
        if stack.iter().any(|s| s == name) || stack.len() >= MAX_DEPTH {
            return Err(SchemaError::Recursive(name.to_string()));
        }
        let (pkg, _) = split_type(name)?;
        let src = self.msg_source(name)?.ok_or_else(|| SchemaError::Unknown {
            ty: name.to_string(),
            used_by: used_by.map(str::to_string),
            searched: self.searched(),
        })?;
        let spec = parse_msg(&src.origin, &src.text, 0)?;
        stack.push(name.to_string());
        let mut kinds = Vec::with_capacity(spec.fields.len());
        for f in &spec.fields {
            kinds.push(match f.ty.primitive {
                Some(p) => FieldKind::Primitive(p),
                None => {
                    let dep = resolve_name(pkg, &f.ty.base);
                    FieldKind::Message(self.resolve(&dep, Some(name), stack)?)
                }
            });
        }
        stack.pop();
        let schema = Arc::new(build(name, &src.text, spec, kinds)?);
        self.lock().cache.insert(name.to_string(), schema.clone());
        Ok(schema)
    }

    /// The `.msg` text of `name`, from wherever it is found first.
    fn msg_source(&self, name: &str) -> Result<Option<Source>, SchemaError> {
        {
            let st = self.lock();
            if let Some(s) = st.msgs.get(name) {
                return Ok(Some(s.clone()));
            }
            if let Some(s) = generated_from(name, &st.actions, &st.srvs)? {
                return Ok(Some(s));
            }
        }
        if let Some(t) = super::defs::text(name) {
            return Ok(Some(Source {
                text: t.to_string(),
                origin: name.to_string(),
            }));
        }
        if let Some(s) = self.file(name, Kind::Msg)? {
            return Ok(Some(s));
        }
        // a message of an action or a service found as a file
        for (suffix, kind) in ACTION_SUFFIXES
            .iter()
            .map(|s| (*s, Kind::Action))
            .chain([("Request", Kind::Srv), ("Response", Kind::Srv)])
        {
            let Some(base) = name.strip_suffix(suffix).filter(|b| !b.ends_with('/')) else {
                continue;
            };
            if let Some(src) = self.file(base, kind)? {
                let one = HashMap::from([(base.to_string(), src)]);
                let (actions, srvs) = match kind {
                    Kind::Srv => (HashMap::new(), one),
                    _ => (one, HashMap::new()),
                };
                if let Some(s) = generated_from(name, &actions, &srvs)? {
                    return Ok(Some(s));
                }
            }
        }
        Ok(None)
    }

    /// The folder of package `pkg`.
    fn package_dir(&self, pkg: &str) -> Option<PathBuf> {
        {
            let mut st = self.lock();
            let walked = st.walked.get_or_insert_with(|| walk(&self.walk_roots));
            if let Some(d) = walked.get(pkg) {
                return Some(d.clone());
            }
        }
        self.share_roots
            .iter()
            .map(|r| r.join(pkg))
            .find(|d| ["msg", "srv", "action"].iter().any(|s| d.join(s).is_dir()))
    }

    fn file(&self, name: &str, kind: Kind) -> Result<Option<Source>, SchemaError> {
        let (pkg, ty) = split_type(name)?;
        let Some(dir) = self.package_dir(pkg) else {
            return Ok(None);
        };
        let (sub, ext) = kind.dir_ext();
        let path = dir.join(sub).join(format!("{ty}.{ext}"));
        if !path.is_file() {
            return Ok(None);
        }
        read_text(&path).map(Some)
    }
}

fn join_paths(p: &[PathBuf]) -> String {
    p.iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(":")
}

fn read_text(path: &Path) -> Result<Source, SchemaError> {
    let io = |e: std::io::Error| SchemaError::Io {
        path: path.display().to_string(),
        msg: e.to_string(),
    };
    let len = std::fs::metadata(path).map_err(io)?.len();
    if len > MAX_FILE {
        return Err(SchemaError::Io {
            path: path.display().to_string(),
            msg: format!("{len} bytes is more than a definition file may have ({MAX_FILE})"),
        });
    }
    let text = std::fs::read_to_string(path).map_err(io)?;
    Ok(Source {
        text,
        origin: path.display().to_string(),
    })
}

/// The text of `name` if it is one of the messages of an action or service in the maps.
fn generated_from(
    name: &str,
    actions: &HashMap<String, Source>,
    srvs: &HashMap<String, Source>,
) -> Result<Option<Source>, SchemaError> {
    for suffix in ACTION_SUFFIXES {
        if let Some(src) = name.strip_suffix(suffix).and_then(|b| actions.get(b)) {
            let base = &name[..name.len() - suffix.len()];
            let texts = action_texts(base, &src.text)?;
            // a mistake in a section is reported against the .action file
            let secs = sections(&src.text);
            for (i, (_, body)) in secs.iter().enumerate().take(3) {
                parse_msg(&src.origin, body, secs[i].0)?;
            }
            return Ok(texts
                .into_iter()
                .find(|(n, _)| n == name)
                .map(|(_, text)| Source {
                    text,
                    origin: src.origin.clone(),
                }));
        }
    }
    for (suffix, i) in [("Request", 0), ("Response", 1)] {
        if let Some(src) = name.strip_suffix(suffix).and_then(|b| srvs.get(b)) {
            let secs = sections(&src.text);
            if secs.len() != 2 {
                return Err(SchemaError::Sections {
                    name: name[..name.len() - suffix.len()].to_string(),
                    what: "a service",
                    want: 2,
                    found: secs.len(),
                });
            }
            parse_msg(&src.origin, &secs[i].1, secs[i].0)?;
            return Ok(Some(Source {
                text: secs[i].1.clone(),
                origin: src.origin.clone(),
            }));
        }
    }
    Ok(None)
}

/// Every package (a folder with a `package.xml`) under `roots`; the first of a name wins.
fn walk(roots: &[PathBuf]) -> HashMap<String, PathBuf> {
    fn visit(dir: &Path, depth: usize, out: &mut HashMap<String, PathBuf>) {
        let manifest = dir.join("package.xml");
        if manifest.is_file() {
            let name = std::fs::read_to_string(&manifest)
                .ok()
                .and_then(|x| package_name(&x))
                .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()));
            if let Some(n) = name {
                out.entry(n).or_insert_with(|| dir.to_path_buf());
            }
            return; // packages do not nest
        }
        if depth >= MAX_WALK_DEPTH {
            return;
        }
        let Ok(rd) = std::fs::read_dir(dir) else {
            return;
        };
        let mut subs: Vec<PathBuf> = rd
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
            .map(|e| e.path())
            .collect();
        subs.sort();
        for s in subs {
            visit(&s, depth + 1, out);
        }
    }
    let mut out = HashMap::new();
    for r in roots {
        visit(r, 0, &mut out);
    }
    out
}

/// The `<name>` of a `package.xml`.
fn package_name(xml: &str) -> Option<String> {
    let start = xml.find("<name>")? + "<name>".len();
    let end = xml[start..].find("</name>")? + start;
    let n = xml[start..end].trim();
    (!n.is_empty()).then(|| n.to_string())
}
