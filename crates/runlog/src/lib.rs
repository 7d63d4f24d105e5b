//! Skipper's run log: one MCAP file per run, JSON messages with JSON Schemas, one channel per
//! topic.
//!
//! | topic | when | content |
//! | --- | --- | --- |
//! | `/world` | once, at the start | the world (walls, goals, ...), the robots, the period |
//! | `/signals` | per robot, when a signal changed | the signals whose logged value changed |
//! | `/actuation` | per robot, when it differs from the last written (and with every `say`, `reset_odometry`) | the actuation |
//! | `/events` | as they happen | speech, collisions, statuses, transitions, goals, estop |
//! | `/controller` | per robot, when it changed | the engine's state |
//! | `/pose` | every cycle, per robot | a Foxglove `PoseInFrame` (plus `robot`, `t`) |
//! | `/scan` | per robot, when its laser scanned | a Foxglove `LaserScan` (ranges to the mm), instead of `laser.*` in `/signals`, with the pose and time the ranges were cast at (the cycle's start) |
//! | `/objects` | when balls or cans moved | their positions |
//! | `/summary` | once, at the end | the summary, without wall time |
//!
//! Every message carries the simulated time `t` (s); the MCAP log and publish times are
//! the simulated time in nanoseconds. Floats are rounded to what the sensors resolve
//! (docs/run-log.md). Nothing depends on the wall clock or on thread timing (a writer
//! thread compresses, in the order messages were made), so equal runs give
//! byte-identical files.
//!
//! One MCAP story, two halves:
//!
//! - [`writer`]: [`RunLog`] writes with an MCAP encoder of its own ([`mcap_file`]):
//!   records framed straight into the chunk, one zstd call and one write per chunk, CRCs
//!   over whole buffers, no allocation on the cycle's thread in a steady run, and bytes
//!   that depend only on the messages (zstd on one thread), so that equal runs give equal
//!   files and a killed run keeps every chunk already written. The `mcap` crate's
//!   streaming writer does none of these by itself.
//! - [`reader`]: [`Recording`] reads with the `mcap` crate's record reader (`sans_io`),
//!   and decodes chunks and the schema, channel and message records itself, with every
//!   length bounded by the file, so that a malformed log is counted and skipped, never a
//!   panic or a huge allocation.
//!
//! [`schemas`] holds each topic's JSON Schema; [`Error`] is what opening or creating a
//! log can fail with.

mod error;
mod json;
pub mod mcap_file;
pub mod message;
pub mod naming;
pub mod reader;
mod records;
mod robot;
mod scan;
pub mod schemas;
mod sink;
pub mod stream;
pub mod track;
pub mod writer;

pub use error::Error;
pub use naming::{utc_stamp, Destination};
pub use reader::{Recording, SignalFilter};
pub use writer::{LogStatus, RunLog};
