//! `skipper-goals`: goals for any controller, on any vehicle, from any transport.
//!
//! - [`mailbox`]: one robot's goals between threads: a [`Mailbox`] is the
//!   [`GoalPort`](skipper_core::goals::GoalPort) every transport uses, holding the
//!   single-goal policy of [`GoalDesk`](skipper_core::goals::GoalDesk);
//! - [`runner`]: the [`GoalRunner`], which serves a controller's declared goals each cycle;
//! - [`goto`]: the `goto` goal kind for any vehicle ([`Goto`]): while a goal is active
//!   its [`pilot`] steers there and the controller under it is held;
//! - [`pilot`]: how a ground robot ([`pilot::GroundPilot`]) and an AUV
//!   ([`pilot::AuvPilot`]) steer to a point;
//! - [`velocity`]: velocity commands (ROS `cmd_vel`) that override a vehicle's
//!   controllers while fresh;
//! - [`bind`](mod@bind): all of it put together for one vehicle of a world, chosen by what the
//!   vehicle is;
//! - [`endpoint`]: what every transport receives for a robot, and the name it takes on
//!   ROS; [`transport`]: the seam every transport (ROS 1, ROS 2, the dashboard, yours)
//!   plugs into;
//! - [`probe`]: a goal kind with a field of every type and a controller that takes it,
//!   for testing that a transport carries any goal kind;
//! - [`package`]: an interface package of goal kinds as files, as `skipper interfaces`
//!   writes it for ROS 1 and ROS 2;
//! - [`wander`]: the built-in wander-and-avoid demo controller.
//!
//! This crate depends on skipper-core only: it knows no engine, vehicle or transport.

pub mod bind;
pub mod endpoint;
pub mod goto;
pub mod mailbox;
pub mod package;
pub mod pilot;
pub mod probe;
pub mod runner;
pub mod transport;
pub mod velocity;
pub mod wander;

pub use bind::{bind, BindOptions, Bound};
pub use endpoint::{ros_name, Endpoint};
pub use goto::{Goto, GOTO};
pub use mailbox::Mailbox;
pub use runner::GoalRunner;
pub use transport::{Transport, TransportError};
pub use velocity::{VelocityCommand, VelocityInbox, VelocityOverride};
pub use wander::Wander;
