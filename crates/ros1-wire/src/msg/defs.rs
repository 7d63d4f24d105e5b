//! The message definitions compiled into this crate: the `.msg` / `.action` texts of the
//! types Skipper declares as Rust structs (`std_msgs`, `geometry_msgs`, `nav_msgs`,
//! `actionlib_msgs`, `skipper_msgs`, ros/actionlib's test actions), and the md5sum and
//! full `message_definition` of each, computed from the texts by the ROS rule (see
//! [`super::schema`]) and kept as `&'static str` for the compiled-in [`Message`] types.
//!
//! [`Message`]: super::Message

use super::loader::TypeLoader;
use super::parse::parse_msg;
use super::schema::{action_texts, split_type, SchemaError};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Why a definition was refused.
pub type DefinitionError = SchemaError;

pub use super::schema::AUTOGEN;

#[derive(Default)]
struct Registry {
    texts: HashMap<String, &'static str>,
    md5: HashMap<String, &'static str>,
    full: HashMap<String, &'static str>,
    interned: HashMap<String, &'static str>,
}

/// Bumped whenever a definition is registered: loaders drop what they resolved before.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// The registry's generation (changes when a definition is registered).
pub(crate) fn generation() -> u64 {
    GENERATION.load(Ordering::SeqCst)
}

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    static R: OnceLock<Mutex<Registry>> = OnceLock::new();
    let m = R.get_or_init(|| {
        let mut r = Registry::default();
        builtin(&mut r);
        Mutex::new(r)
    });
    match m.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

/// The loader that resolves the compiled-in texts (nothing from files).
fn loader() -> &'static TypeLoader {
    static L: OnceLock<TypeLoader> = OnceLock::new();
    L.get_or_init(TypeLoader::builtin_only)
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// A `'static` copy of `s` (one per distinct string; type names are few).
pub fn intern(s: String) -> &'static str {
    let mut r = registry();
    if let Some(v) = r.interned.get(&s) {
        return v;
    }
    let v = leak(s.clone());
    r.interned.insert(s, v);
    v
}

fn builtin(r: &mut Registry) {
    let text = include_str!("defs/msgs.txt");
    for block in text.split("@@ ").filter(|b| !b.is_empty()) {
        if let Some((name, body)) = block.split_once('\n') {
            r.texts.insert(name.trim().to_string(), body);
        }
    }
    for (name, text) in [
        (
            "skipper_msgs/Goto",
            include_str!("defs/skipper_msgs_Goto.action"),
        ),
        (
            "skipper_msgs/RunOption",
            include_str!("defs/skipper_msgs_RunOption.action"),
        ),
        (
            "skipper_msgs/RunMission",
            include_str!("defs/skipper_msgs_RunMission.action"),
        ),
        ("actionlib/Test", include_str!("defs/actionlib_Test.action")),
        (
            "actionlib/TestRequest",
            include_str!("defs/actionlib_TestRequest.action"),
        ),
        (
            "actionlib/TwoInts",
            include_str!("defs/actionlib_TwoInts.action"),
        ),
        (
            "move_base_msgs/MoveBase",
            include_str!("defs/move_base_msgs_MoveBase.action"),
        ),
    ] {
        if let Ok(msgs) = action_texts(name, text) {
            for (n, t) in msgs {
                r.texts.insert(n, leak(t));
            }
        }
    }
}

/// Register a message type's `.msg` text (replacing an earlier one of the same name).
pub fn register_msg(ty: &str, text: &str) -> Result<(), DefinitionError> {
    split_type(ty)?;
    parse_msg(ty, text, 0)?;
    let mut r = registry();
    r.texts.insert(ty.to_string(), leak(text.to_string()));
    r.md5.clear();
    r.full.clear();
    GENERATION.fetch_add(1, Ordering::SeqCst);
    Ok(())
}

/// Register an action (`package/Name` and the `.action` text): its seven messages.
pub fn register_action(name: &str, text: &str) -> Result<(), DefinitionError> {
    for (n, t) in action_messages(name, text)? {
        register_msg(&n, &t)?;
    }
    Ok(())
}

/// The `.msg` text registered for a type.
pub fn text(ty: &str) -> Option<&'static str> {
    let ty = if ty == "Header" {
        "std_msgs/Header"
    } else {
        ty
    };
    registry().texts.get(ty).copied()
}

/// The seven messages of an action: (`package/Type`, text).
pub fn action_messages(name: &str, text: &str) -> Result<Vec<(String, String)>, DefinitionError> {
    action_texts(name, text)
}

/// The md5sum of a registered type.
pub fn md5sum(ty: &str) -> Option<&'static str> {
    try_md5sum(ty).ok()
}

/// The md5sum of a registered type, or why there is none.
pub fn try_md5sum(ty: &str) -> Result<&'static str, DefinitionError> {
    if let Some(m) = registry().md5.get(ty) {
        return Ok(m);
    }
    let s = loader().message(ty)?;
    let m = leak(s.md5sum().to_string());
    registry().md5.insert(ty.to_string(), m);
    Ok(m)
}

/// The full definition (`message_definition`): the type's text, then each type it uses
/// (depth first, once each) after a line of 80 `=` and `MSG: package/Type`.
pub fn full_definition(ty: &str) -> Option<&'static str> {
    if let Some(f) = registry().full.get(ty) {
        return Some(f);
    }
    let s = loader().message(ty).ok()?;
    let f = leak(s.definition().to_string());
    registry().full.insert(ty.to_string(), f);
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values ros/actionlib's generated Python classes ship (reference note 2.4).
    #[test]
    fn md5_vectors_match_the_shipped_values() {
        for (ty, md5) in [
            ("actionlib_msgs/GoalID", "302881f31927c1df708a2dbab0e80ee8"),
            (
                "actionlib_msgs/GoalStatus",
                "d388f9b87b3c471f784434d671988d4a",
            ),
            (
                "actionlib_msgs/GoalStatusArray",
                "8b2b82f13216d0a8ea88bd3af735e619",
            ),
            ("std_msgs/Header", "2176decaecbce78abc3b96ef049fabed"),
            ("std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1"),
            ("actionlib/TestGoal", "18df0149936b7aa95588e3862476ebde"),
            ("actionlib/TestResult", "034a8e20d6a306665e3a5b340fab3f09"),
            ("actionlib/TestFeedback", "49ceb5b32ea3af22073ede4a0328249e"),
            (
                "actionlib/TestActionGoal",
                "348369c5b403676156094e8c159720bf",
            ),
            (
                "actionlib/TestActionResult",
                "3d669e3a63aa986c667ea7b0f46ce85e",
            ),
            (
                "actionlib/TestActionFeedback",
                "6d3d0bf7fb3dda24779c010a9f3eb7cb",
            ),
            ("actionlib/TestAction", "991e87a72802262dfbe5d1b3cf6efc9a"),
            (
                "actionlib/TestRequestGoal",
                "db5d00ba98302d6c6dd3737e9a03ceea",
            ),
            (
                "actionlib/TestRequestActionGoal",
                "1889556d3fef88f821c7cb004e4251f3",
            ),
            (
                "actionlib/TwoIntsActionGoal",
                "684a2db55d6ffb8046fb9d6764ce0860",
            ),
            // Debian's python3-geometry-msgs / python3-nav-msgs classes
            (
                "geometry_msgs/PoseStamped",
                "d3812c3cbc69362b77dc0b19b345f8f5",
            ),
            ("geometry_msgs/Twist", "9f195f881246fdfa2798d1d3eebca84a"),
            ("nav_msgs/Odometry", "cd5e73d190d741a2f92e81eda573aca7"),
        ] {
            assert_eq!(md5sum(ty), Some(md5), "{ty}");
        }
    }

    #[test]
    fn full_definition_lists_dependencies_once_depth_first() {
        let f = full_definition("actionlib_msgs/GoalStatusArray").unwrap();
        let order: Vec<&str> = f.lines().filter_map(|l| l.strip_prefix("MSG: ")).collect();
        assert_eq!(
            order,
            [
                "std_msgs/Header",
                "actionlib_msgs/GoalStatus",
                "actionlib_msgs/GoalID"
            ]
        );
        assert!(f.starts_with("# Every goal"));
    }

    #[test]
    fn string_constants_keep_their_hash_and_bad_lines_are_refused() {
        use md5::{Digest, Md5};
        register_msg("t_msgs/C", "string S = a # not a comment\nint32 x\n").unwrap();
        let m = try_md5sum("t_msgs/C").unwrap();
        let digest = Md5::digest(b"string S=a # not a comment\nint32 x");
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(m, hex);
        assert!(matches!(
            register_msg("t_msgs/D", "int32\n"),
            Err(DefinitionError::Parse(e)) if e.line == 1
        ));
        assert!(matches!(
            register_msg("nopackage", "int32 x\n"),
            Err(DefinitionError::BadName(_))
        ));
        assert!(matches!(
            register_action("t_msgs/A", "int32 x\n---\n"),
            Err(DefinitionError::Sections { found: 2, .. })
        ));
        register_msg("t_msgs/E", "Missing m\n").unwrap();
        assert!(
            matches!(try_md5sum("t_msgs/E"), Err(DefinitionError::Unknown { ty, .. }) if ty == "t_msgs/Missing")
        );
    }
}
