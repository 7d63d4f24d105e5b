//! Skipper's core: what every other part of Skipper shares.
//!
//! - [`time`]: simulated and wall clocks, duration parsing (`90s`, `10m`, `4h`);
//! - [`geometry`]: 2-D and 3-D poses (x forward, y left, yaw counter-clockwise positive)
//!   and angle wrapping;
//! - [`geo`]: places on the globe in a local frame, compass headings;
//! - [`units`]: units with dimensions and conversions;
//! - [`signals`]: the table of named, typed, time-stamped values a vehicle senses into;
//! - [`actuation`]: what a controller asks a vehicle to do in one cycle;
//! - [`vehicle`] and [`controller`]: the two traits that meet in the cycle runner;
//! - [`goals`]: goal kinds a controller offers, and the single-goal policy;
//! - [`velocity`]: velocity commands from outside the run;
//! - [`error`]: typed failures of controllers and vehicles;
//! - [`excerpt`]: the source line and caret under a diagnostic, every language's;
//! - [`event`]: things that happen (speech, collisions, statuses) for logs and views;
//! - [`vocabulary`]: every signal a vehicle kind senses, declared once;
//! - [`runner`]: the fixed-rate cycle runner;
//! - [`alloc_count`]: a counting allocator for the zero-allocation tests;
//! - [`fuzz_corpus`]: which inputs of a committed fuzz corpus the fuzzer found.
//!
//! This crate depends on no other Skipper crate.

pub mod actuation;
pub mod alloc_count;
pub mod controller;
pub mod error;
pub mod event;
pub mod excerpt;
pub mod fuzz_corpus;
pub mod geo;
pub mod geometry;
pub mod goals;
pub mod runner;
pub mod seconds;
pub mod sensors;
pub mod signals;
pub mod time;
pub mod units;
pub mod vehicle;
pub mod velocity;
pub mod vocabulary;

pub use actuation::{
    Actuation, AuvSetpoints, Drive, GripperCommand, MotionLimits, Rotation, Translation,
};
pub use controller::{Controller, ControllerError, Cycle, Status};
pub use error::{ErrorKind, RunFailure};
pub use event::{Event, Events};
pub use geometry::{Pose2, Pose3, Vec2};
pub use runner::{Observer, RunConfig, RunControl, RunOutcome, RunReport, Runner};
pub use signals::{SignalId, Signals, Value};
pub use units::{Dimension, Quantity, Unit};
pub use vehicle::{Handling, Vehicle, VehicleError, VehicleInfo, VehicleKind, World};
