//! The link of one agent: its input-link tree, its output-link state, its waypoints and
//! messages, and what it read from the vehicle this cycle.
//!
//! One cycle, as the reference does it in its after-output callback (rule I1):
//! [`Link::cycle`] reads the vehicle's pose, processes the new output-link commands
//! (adding statuses and choosing the drive command), then updates the whole input-link.
//! [`Link::take`] then hands over the statuses and the tree diff for the agent.

use crate::messages::{Envelope, Message, PostOffice};
use crate::output::{OutputState, StatusUpdate};
use crate::tree::{Diff, Tree, WmeId};
use crate::waypoints::Waypoints;
use crate::wire::Step;
use crate::LinkError;
use skipper_core::geometry::wrap_rad;
use skipper_core::vocabulary::{ground, SignalSpec};
use skipper_core::{Actuation, SignalId, Signals};
use std::sync::Arc;
use std::time::Duration;

/// How a link is set up.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkConfig {
    /// the agent's name (`self.name`; also its name for messages)
    pub name: String,
    /// number of range slices (the reference's `ranges_count`, default 5)
    pub ranges: usize,
    /// bearing of laser beam 0 (deg, counter-clockwise positive)
    pub laser_first_deg: f64,
    /// angle between laser beams (deg)
    pub laser_step_deg: f64,
}

impl LinkConfig {
    /// The defaults for an agent: 5 ranges, laser beams from -90° at 1° (the signals
    /// `laser.0`.. of a Pioneer with an LMS-200).
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            name: name.into(),
            ranges: 5,
            laser_first_deg: -90.0,
            laser_step_deg: 1.0,
        }
    }
}

/// Signal ids the link reads.
#[derive(Debug, Clone)]
pub(crate) struct Binding {
    pub x: SignalId,
    pub y: SignalId,
    pub yaw: SignalId,
    pub laser: Vec<SignalId>,
}

/// The robot's pose as the input-link shows it, and what velocities need.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct PoseState {
    /// raw position (m, before offsets)
    pub x: f64,
    /// raw position (m)
    pub y: f64,
    /// yaw (rad, wrapped)
    pub yaw: f64,
    /// world-frame velocity (m/s)
    pub x_velocity: f64,
    /// world-frame velocity (m/s)
    pub y_velocity: f64,
    /// |velocity| (m/s)
    pub speed: f64,
    /// yaw rate (deg/s)
    pub yaw_velocity: f64,
    /// time of the pose datum these come from
    pub(crate) at: Option<Duration>,
}

/// WME ids of the fixed part of the input-link.
#[derive(Debug, Clone, Default)]
pub(crate) struct Layout {
    pub yaw_format: WmeId,
    pub offset: [WmeId; 3],
    pub seconds: WmeId,
    pub microseconds: WmeId,
    pub pose: [WmeId; 8],
    pub waypoints: WmeId,
    pub messages: WmeId,
    pub ranges: Vec<RangeWmes>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct RangeWmes {
    pub root: WmeId,
    pub slice: Option<[WmeId; 3]>,
}

/// Counters for the run summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// commands processed (each once)
    pub commands: u64,
    /// statuses added
    pub statuses: u64,
    /// commands that got `error`
    pub errors: u64,
}

/// The link of one agent.
#[derive(Debug)]
pub struct Link {
    pub(crate) config: LinkConfig,
    pub(crate) name: Arc<str>,
    pub(crate) tree: Tree,
    pub(crate) layout: Layout,
    pub(crate) binding: Option<Binding>,
    pub(crate) pose: PoseState,
    pub(crate) yaw_int: bool,
    pub(crate) offset: [f64; 3],
    pub(crate) waypoints: Waypoints,
    pub(crate) messages: Vec<Message>,
    pub(crate) next_message_id: i64,
    pub(crate) inbox: Vec<Envelope>,
    pub(crate) post: Option<PostOffice>,
    pub(crate) output: OutputState,
    pub(crate) statuses: Vec<StatusUpdate>,
    pub(crate) say: Vec<String>,
    pub(crate) counters: Counters,
    pub(crate) now: Duration,
    pub(crate) cycle: u64,
}

impl Link {
    /// A link; [`Link::start`] builds its input-link.
    pub fn new(config: LinkConfig) -> Self {
        let name: Arc<str> = Arc::from(config.name.as_str());
        Self {
            config,
            name,
            tree: Tree::new(),
            layout: Layout::default(),
            binding: None,
            pose: PoseState::default(),
            yaw_int: false,
            offset: [0.0; 3],
            waypoints: Waypoints::default(),
            messages: Vec::new(),
            next_message_id: 0,
            inbox: Vec::new(),
            post: None,
            output: OutputState::default(),
            statuses: Vec::new(),
            say: Vec::new(),
            counters: Counters::default(),
            now: Duration::ZERO,
            cycle: 0,
        }
    }

    /// Join a post office (registers this agent's name there).
    pub fn with_post_office(mut self, post: PostOffice) -> Self {
        post.register(&self.config.name);
        self.post = Some(post);
        self
    }

    /// A new link with the same configuration and post office, for a new agent on the
    /// same robot: a new input-link, no waypoints or messages, message ids from 0.
    pub fn fresh(&self) -> Link {
        let link = Link::new(self.config.clone());
        match &self.post {
            Some(p) => link.with_post_office(p.clone()),
            None => link,
        }
    }

    /// Open or close this agent's mailbox at the post office (closed while no agent
    /// is there to read it).
    pub fn set_mailbox_open(&self, open: bool) {
        if let Some(p) = &self.post {
            p.set_open(&self.config.name, open);
        }
    }

    /// The agent's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Bind to the vehicle's signals and build the input-link (configuration, time,
    /// self, ranges), with the values sensed so far.
    pub fn start(&mut self, signals: &Signals, now: Duration) -> Result<(), LinkError> {
        let id =
            |spec: &'static SignalSpec| spec.id(signals).ok_or(LinkError::MissingSignal(spec.name));
        let binding = Binding {
            x: id(&ground::POSE_X)?,
            y: id(&ground::POSE_Y)?,
            yaw: id(&ground::POSE_YAW)?,
            laser: (0..).map_while(|k| ground::LASER.id(signals, k)).collect(),
        };
        self.binding = Some(binding);
        self.now = now;
        self.build_layout();
        self.sense(signals);
        self.update_input(signals);
        Ok(())
    }

    /// One cycle: read the pose, process the new commands of `step` (statuses, drive
    /// command into `actuation`), then update the input-link (rule I1).
    pub fn cycle(
        &mut self,
        step: &Step,
        signals: &Signals,
        now: Duration,
        cycle: u64,
        actuation: &mut Actuation,
    ) {
        self.now = now;
        self.cycle = cycle;
        self.sense(signals);
        self.process_output(step, actuation);
        self.update_input(signals);
    }

    /// Read the pose and work out velocities from the last pose datum.
    fn sense(&mut self, signals: &Signals) {
        let Some(b) = &self.binding else { return };
        let (Some(x), Some(y), Some(yaw)) =
            (signals.f64(b.x), signals.f64(b.y), signals.f64(b.yaw))
        else {
            return;
        };
        let at = signals.updated_at(b.x);
        let p = &mut self.pose;
        if at != p.at {
            if let (Some(t), Some(t0)) = (at, p.at) {
                let dt = t.saturating_sub(t0).as_secs_f64();
                if dt > 0.0 {
                    p.x_velocity = (x - p.x) / dt;
                    p.y_velocity = (y - p.y) / dt;
                    p.speed = p.x_velocity.hypot(p.y_velocity);
                    p.yaw_velocity = wrap_rad(yaw - p.yaw).to_degrees() / dt;
                }
            }
            p.at = at;
        }
        p.x = x;
        p.y = y;
        p.yaw = wrap_rad(yaw);
    }

    /// The pose as the agent sees it: (x, y, z) with offsets, yaw (rad).
    pub fn agent_pose(&self) -> (f64, f64, f64, f64) {
        (
            self.pose.x + self.offset[0],
            self.pose.y + self.offset[1],
            self.offset[2],
            self.pose.yaw,
        )
    }

    /// The pose state (velocities included).
    pub fn pose(&self) -> &PoseState {
        &self.pose
    }

    /// The input-link tree.
    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The waypoints.
    pub fn waypoints(&self) -> &Waypoints {
        &self.waypoints
    }

    /// The received messages still on the input-link.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// Counters for the summary.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// The yaw format: `true` for `int`.
    pub fn yaw_int(&self) -> bool {
        self.yaw_int
    }

    /// The offsets (x, y, z).
    pub fn offset(&self) -> [f64; 3] {
        self.offset
    }

    /// The statuses added since the last take.
    pub fn statuses(&self) -> &[StatusUpdate] {
        &self.statuses
    }

    /// Take the statuses and the tree diff since the last take into `out` (keeps
    /// capacity; allocates nothing in a steady state).
    pub fn take(&mut self, out: &mut Update) {
        out.statuses.clear();
        out.statuses.append(&mut self.statuses);
        self.tree.take_diff(&mut out.diff);
    }

    /// The whole input-link as adds (for an agent that connects late), plus pending
    /// statuses.
    pub fn snapshot(&mut self, out: &mut Update) {
        out.statuses.clear();
        out.statuses.append(&mut self.statuses);
        self.tree.snapshot(&mut out.diff);
    }
}

/// What goes to the agent after a cycle: statuses, then the input-link diff.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Update {
    /// statuses added to output-link commands
    pub statuses: Vec<StatusUpdate>,
    /// input-link changes
    pub diff: Diff,
}

impl Update {
    /// `true` if nothing to send.
    pub fn is_empty(&self) -> bool {
        self.statuses.is_empty() && self.diff.is_empty()
    }
}
