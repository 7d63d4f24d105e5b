//! `actionlib_msgs` (GoalID, GoalStatus, GoalStatusArray), the [`Action`] trait that ties
//! an action's goal, result and feedback together, and the three wrapped messages that go
//! on the wire (`XActionGoal`, `XActionResult`, `XActionFeedback`).

use super::common::Header;
use super::dynamic::DynMessage;
use super::schema::{ActionSchema, MsgSchema};
use super::{DecodeError, Field, Message, MessageType, Reader};
use crate::ros_message;
use crate::time::Time;
use std::fmt;
use std::sync::Arc;

ros_message! {
    /// `actionlib_msgs/GoalID`: a goal's id and stamp (also the cancel message).
    pub struct GoalId = "actionlib_msgs/GoalID" { pub stamp: Time, pub id: String }
}
ros_message! {
    /// `actionlib_msgs/GoalStatus`: a goal's id, status code and text.
    pub struct GoalStatus = "actionlib_msgs/GoalStatus" { pub goal_id: GoalId, pub status: u8, pub text: String }
}
ros_message! {
    /// `actionlib_msgs/GoalStatusArray`: every goal a server tracks.
    pub struct GoalStatusArray = "actionlib_msgs/GoalStatusArray" { pub header: Header, pub status_list: Vec<GoalStatus> }
}

impl GoalStatus {
    /// The status code, if it is one of the ten known.
    pub fn code(&self) -> Option<StatusCode> {
        StatusCode::from_u8(self.status)
    }
    /// Become a copy of `other`, reusing this one's string buffers.
    pub fn assign(&mut self, other: &GoalStatus) {
        self.goal_id.stamp = other.goal_id.stamp;
        self.goal_id.id.clone_from(&other.goal_id.id);
        self.status = other.status;
        self.text.clone_from(&other.text);
    }
}

/// A `GoalStatusArray` as an action server publishes it: the header and the entries,
/// which are kept already serialised, one after another in the list's order (the server
/// re-encodes an entry only when its goal changes, so a publication is one contiguous
/// copy instead of a visit to every goal's strings).
#[derive(Debug, Clone, Copy)]
pub struct StatusList<'a> {
    /// The array's header.
    pub header: &'a Header,
    len: u32,
    entries: &'a [u8],
}

impl<'a> StatusList<'a> {
    /// A list of `len` entries serialised back to back in `entries`.
    pub fn new(header: &'a Header, len: u32, entries: &'a [u8]) -> Self {
        Self {
            header,
            len,
            entries,
        }
    }
    /// The number of entries.
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// `true` without entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The whole `GoalStatusArray` message body, appended to `w`.
    pub fn encode(&self, w: &mut Vec<u8>) {
        self.header.put(w);
        self.len.put(w);
        w.extend_from_slice(self.entries);
    }
    /// Become this list in `out`, reusing its buffers (no allocation once they are large
    /// enough).
    pub fn decode_into(&self, out: &mut GoalStatusArray) -> Result<(), DecodeError> {
        out.header.seq = self.header.seq;
        out.header.stamp = self.header.stamp;
        out.header.frame_id.clone_from(&self.header.frame_id);
        out.status_list.truncate(self.len());
        let mut r = Reader::new(self.entries);
        for i in 0..self.len() {
            let stamp = Time::get(&mut r)?;
            let id = r.str()?;
            let status = u8::get(&mut r)?;
            let text = r.str()?;
            match out.status_list.get_mut(i) {
                Some(s) => {
                    s.goal_id.stamp = stamp;
                    s.goal_id.id.clear();
                    s.goal_id.id.push_str(id);
                    s.status = status;
                    s.text.clear();
                    s.text.push_str(text);
                }
                None => out.status_list.push(GoalStatus {
                    goal_id: GoalId {
                        stamp,
                        id: id.to_owned(),
                    },
                    status,
                    text: text.to_owned(),
                }),
            }
        }
        r.finish()
    }
    /// The list as a message.
    pub fn to_array(&self) -> Result<GoalStatusArray, DecodeError> {
        let mut a = GoalStatusArray::default();
        self.decode_into(&mut a)?;
        Ok(a)
    }
}

/// The status codes of `actionlib_msgs/GoalStatus`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum StatusCode {
    /// received, not yet accepted or rejected
    Pending = 0,
    /// accepted, executing
    Active = 1,
    /// cancelled after it started, execution over
    Preempted = 2,
    /// finished successfully
    Succeeded = 3,
    /// the server gave up during execution
    Aborted = 4,
    /// refused without processing
    Rejected = 5,
    /// cancel received while active, not yet finished
    Preempting = 6,
    /// cancel received while pending, not yet confirmed
    Recalling = 7,
    /// cancelled before it started
    Recalled = 8,
    /// client-side verdict: the server forgot the goal
    Lost = 9,
}

impl StatusCode {
    /// All ten, in code order.
    pub const ALL: [StatusCode; 10] = [
        StatusCode::Pending,
        StatusCode::Active,
        StatusCode::Preempted,
        StatusCode::Succeeded,
        StatusCode::Aborted,
        StatusCode::Rejected,
        StatusCode::Preempting,
        StatusCode::Recalling,
        StatusCode::Recalled,
        StatusCode::Lost,
    ];
    /// The code for a byte.
    pub fn from_u8(b: u8) -> Option<Self> {
        Self::ALL.get(usize::from(b)).copied()
    }
    /// The ROS name (`SUCCEEDED`).
    pub fn name(self) -> &'static str {
        match self {
            StatusCode::Pending => "PENDING",
            StatusCode::Active => "ACTIVE",
            StatusCode::Preempted => "PREEMPTED",
            StatusCode::Succeeded => "SUCCEEDED",
            StatusCode::Aborted => "ABORTED",
            StatusCode::Rejected => "REJECTED",
            StatusCode::Preempting => "PREEMPTING",
            StatusCode::Recalling => "RECALLING",
            StatusCode::Recalled => "RECALLED",
            StatusCode::Lost => "LOST",
        }
    }
    /// `true` for the states a goal never leaves.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            StatusCode::Preempted
                | StatusCode::Succeeded
                | StatusCode::Aborted
                | StatusCode::Rejected
                | StatusCode::Recalled
                | StatusCode::Lost
        )
    }
}

impl fmt::Display for StatusCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An action type: its `package/Name`, and how its goal, result and feedback are made,
/// written and read. Compiled-in actions are zero-sized structs declared with
/// [`action_type!`](crate::action_type) (`Goto`, whose goal is a `GotoGoal`); an action
/// known only at run time is a [`DynAction`] (goal, result and feedback are
/// [`DynMessage`]s). Servers and clients hold one value of it.
pub trait Action: Clone + Send + Sync + 'static {
    /// The goal (`XGoal`).
    type Goal: Clone + Send + Sync + fmt::Debug + 'static;
    /// The result (`XResult`).
    type Result: Clone + Send + Sync + fmt::Debug + 'static;
    /// The feedback (`XFeedback`).
    type Feedback: Clone + Send + Sync + fmt::Debug + 'static;
    /// `package/Name` (`skipper_msgs/Goto`); the wire types are `<name>ActionGoal`, ...
    fn name(&self) -> &str;
    /// The goal's type.
    fn goal_type(&self) -> &dyn MessageType<Self::Goal>;
    /// The result's type.
    fn result_type(&self) -> &dyn MessageType<Self::Result>;
    /// The feedback's type.
    fn feedback_type(&self) -> &dyn MessageType<Self::Feedback>;
    /// The name, md5sum and definition of a wrapped message on the wire
    /// (`XActionGoal`, `XActionResult`, `XActionFeedback`).
    fn wire_type(&self, part: Wire) -> WireType<'_>;
}

/// One of the three wrapped messages of an action that go on its topics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    /// `XActionGoal` on `<ns>/goal`
    Goal,
    /// `XActionResult` on `<ns>/result`
    Result,
    /// `XActionFeedback` on `<ns>/feedback`
    Feedback,
}

/// A message type's identity on a topic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WireType<'a> {
    /// `package/Type`
    pub name: &'a str,
    /// its md5sum
    pub md5sum: &'a str,
    /// its full definition
    pub definition: &'a str,
}

impl<'a> WireType<'a> {
    /// The identity of a compiled-in message.
    pub fn of<M: Message>() -> WireType<'static> {
        WireType {
            name: M::type_name(),
            md5sum: M::md5sum(),
            definition: M::definition(),
        }
    }
    /// The identity of a runtime message type.
    pub fn of_schema(s: &'a MsgSchema) -> Self {
        WireType {
            name: s.name(),
            md5sum: s.md5sum(),
            definition: s.definition(),
        }
    }
}

/// An action type known at run time (from an `.action` text or the package path): its
/// goal, result and feedback are [`DynMessage`]s.
#[derive(Debug, Clone)]
pub struct DynAction(pub Arc<ActionSchema>);

impl DynAction {
    /// The action's schema.
    pub fn schema(&self) -> &Arc<ActionSchema> {
        &self.0
    }
    /// The action `name` (`package/Name`) from the process-wide
    /// [`TypeLoader`](super::loader::TypeLoader) (the package path and the definitions
    /// compiled in).
    pub fn load(name: &str) -> Result<Self, super::schema::SchemaError> {
        super::loader::TypeLoader::global().action(name).map(Self)
    }
    /// A new goal with every field at its default.
    pub fn new_goal(&self) -> DynMessage {
        DynMessage::new(self.0.goal().clone())
    }
    /// A new result with every field at its default.
    pub fn new_result(&self) -> DynMessage {
        DynMessage::new(self.0.result().clone())
    }
    /// A new feedback with every field at its default.
    pub fn new_feedback(&self) -> DynMessage {
        DynMessage::new(self.0.feedback().clone())
    }
}

impl Action for DynAction {
    type Goal = DynMessage;
    type Result = DynMessage;
    type Feedback = DynMessage;
    fn name(&self) -> &str {
        self.0.name()
    }
    fn goal_type(&self) -> &dyn MessageType<DynMessage> {
        &self.0.goal
    }
    fn result_type(&self) -> &dyn MessageType<DynMessage> {
        &self.0.result
    }
    fn feedback_type(&self) -> &dyn MessageType<DynMessage> {
        &self.0.feedback
    }
    fn wire_type(&self, part: Wire) -> WireType<'_> {
        WireType::of_schema(match part {
            Wire::Goal => &self.0.action_goal,
            Wire::Result => &self.0.action_result,
            Wire::Feedback => &self.0.action_feedback,
        })
    }
}

fn intern(s: String) -> &'static str {
    super::defs::intern(s)
}

/// `XActionGoal`: header, goal id, goal.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ActionGoal<G> {
    /// header
    pub header: Header,
    /// the goal's id and stamp
    pub goal_id: GoalId,
    /// the goal
    pub goal: G,
}

/// `XActionResult`: header, the goal's final status, result.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ActionResult<R> {
    /// header
    pub header: Header,
    /// the goal's status (terminal)
    pub status: GoalStatus,
    /// the result
    pub result: R,
}

/// `XActionFeedback`: header, the goal's status, feedback.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ActionFeedback<F> {
    /// header
    pub header: Header,
    /// the goal's current status
    pub status: GoalStatus,
    /// the feedback
    pub feedback: F,
}

/// Names the action a wrapped message belongs to (`Goto` for `GotoGoal`): implemented by
/// [`action_type!`](crate::action_type) for an action's goal, result and feedback.
pub trait ActionPart: Message {
    /// `package/Name` of the action.
    const ACTION: &'static str;
}

macro_rules! wrapped {
    ($t:ident, $suffix:literal, $second:ident: $st:ty, $third:ident) => {
        impl<P: ActionPart> Message for $t<P> {
            fn type_name() -> &'static str {
                static NAMES: std::sync::OnceLock<
                    std::sync::Mutex<std::collections::HashMap<&'static str, &'static str>>,
                > = std::sync::OnceLock::new();
                let m = NAMES.get_or_init(Default::default);
                let mut m = match m.lock() {
                    Ok(g) => g,
                    Err(p) => p.into_inner(),
                };
                m.entry(P::ACTION)
                    .or_insert_with(|| intern(format!("{}{}", P::ACTION, $suffix)))
            }
            fn encode(&self, w: &mut Vec<u8>) {
                self.header.put(w);
                self.$second.put(w);
                self.$third.encode(w);
            }
            fn decode_fields(r: &mut Reader<'_>) -> Result<Self, DecodeError> {
                Ok(Self {
                    header: Header::get(r)?,
                    $second: <$st>::get(r)?,
                    $third: P::decode_fields(r)?,
                })
            }
        }
    };
}
wrapped!(ActionGoal, "ActionGoal", goal_id: GoalId, goal);
wrapped!(ActionResult, "ActionResult", status: GoalStatus, result);
wrapped!(ActionFeedback, "ActionFeedback", status: GoalStatus, feedback);

/// Declare an action type from its three messages (declared with
/// [`ros_message!`](crate::ros_message)); the `.action` text must be registered with
/// [`defs::register_action`](super::defs::register_action) for md5sums and definitions.
#[macro_export]
macro_rules! action_type {
    ($(#[$m:meta])* $vis:vis $name:ident = $ty:literal { goal: $g:ty, result: $r:ty, feedback: $f:ty }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, Default)]
        $vis struct $name;
        impl $name {
            /// `package/Name`.
            pub const NAME: &'static str = $ty;
        }
        impl $crate::msg::actionlib_msgs::Action for $name {
            type Goal = $g;
            type Result = $r;
            type Feedback = $f;
            fn name(&self) -> &str {
                $ty
            }
            fn goal_type(&self) -> &dyn $crate::msg::MessageType<$g> {
                static T: $crate::msg::Typed<$g> = $crate::msg::Typed::NEW;
                &T
            }
            fn result_type(&self) -> &dyn $crate::msg::MessageType<$r> {
                static T: $crate::msg::Typed<$r> = $crate::msg::Typed::NEW;
                &T
            }
            fn feedback_type(&self) -> &dyn $crate::msg::MessageType<$f> {
                static T: $crate::msg::Typed<$f> = $crate::msg::Typed::NEW;
                &T
            }
            fn wire_type(
                &self,
                part: $crate::msg::actionlib_msgs::Wire,
            ) -> $crate::msg::actionlib_msgs::WireType<'_> {
                use $crate::msg::actionlib_msgs::{ActionFeedback, ActionGoal, ActionResult, Wire, WireType};
                match part {
                    Wire::Goal => WireType::of::<ActionGoal<$g>>(),
                    Wire::Result => WireType::of::<ActionResult<$r>>(),
                    Wire::Feedback => WireType::of::<ActionFeedback<$f>>(),
                }
            }
        }
        impl $crate::msg::actionlib_msgs::ActionPart for $g { const ACTION: &'static str = $ty; }
        impl $crate::msg::actionlib_msgs::ActionPart for $r { const ACTION: &'static str = $ty; }
        impl $crate::msg::actionlib_msgs::ActionPart for $f { const ACTION: &'static str = $ty; }
    };
}
