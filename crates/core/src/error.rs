//! Typed failures of controllers and vehicles: each says what kind of failure it is (so
//! a program decides what to do by its kind, not by reading its text) and keeps the
//! error it came from (`std::error::Error::source`).

use std::error::Error;
use std::fmt;
use std::sync::Arc;

/// What kind of failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// What the user gave cannot work: a file, a setting, an agent that does not load.
    BadInput,
    /// The vehicle lacks what the controller needs (a signal, the right kind).
    Vehicle,
    /// The controller failed while it ran.
    Failed,
    /// An external party the controller depends on went away (an agent's bridge, a link).
    Link,
}

type Source = Arc<dyn Error + Send + Sync>;

/// A controller failed: it cannot go on.
#[derive(Debug, Clone)]
pub struct ControllerError {
    kind: ErrorKind,
    message: String,
    source: Option<Source>,
}

impl ControllerError {
    /// A failure of the controller while it ran.
    pub fn new(msg: impl Into<String>) -> Self {
        Self::of(ErrorKind::Failed, msg)
    }
    /// A failure of kind `kind`.
    pub fn of(kind: ErrorKind, msg: impl Into<String>) -> Self {
        Self {
            kind,
            message: msg.into(),
            source: None,
        }
    }
    /// What the user gave cannot work.
    pub fn bad_input(msg: impl Into<String>) -> Self {
        Self::of(ErrorKind::BadInput, msg)
    }
    /// The vehicle lacks what the controller needs.
    pub fn vehicle(msg: impl Into<String>) -> Self {
        Self::of(ErrorKind::Vehicle, msg)
    }
    /// With the error this one came from.
    pub fn with_source(mut self, e: impl Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(e));
        self
    }
    /// Its kind.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }
    /// What went wrong, in a sentence.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ControllerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl Error for ControllerError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

impl PartialEq for ControllerError {
    /// Equal when of one kind and message (sources are not compared).
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind && self.message == other.message
    }
}

/// What kind of vehicle failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VehicleFault {
    /// The link to the vehicle is gone for good.
    LinkLost,
    /// The vehicle broke (a simulated failure, a device fault).
    Device,
}

/// A vehicle failed (a link dropped, a device fault).
#[derive(Debug, Clone)]
pub struct VehicleError {
    /// Robot name.
    pub vehicle: String,
    /// What went wrong.
    pub message: String,
    /// What kind of fault.
    pub fault: VehicleFault,
    source: Option<Source>,
}

impl VehicleError {
    /// Vehicle `vehicle` failed with `fault`.
    pub fn new(vehicle: impl Into<String>, fault: VehicleFault, msg: impl Into<String>) -> Self {
        Self {
            vehicle: vehicle.into(),
            message: msg.into(),
            fault,
            source: None,
        }
    }
    /// With the error this one came from.
    pub fn with_source(mut self, e: impl Error + Send + Sync + 'static) -> Self {
        self.source = Some(Arc::new(e));
        self
    }
}

impl fmt::Display for VehicleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "vehicle {}: {}", self.vehicle, self.message)
    }
}

impl Error for VehicleError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn Error + 'static))
    }
}

impl PartialEq for VehicleError {
    fn eq(&self, other: &Self) -> bool {
        self.vehicle == other.vehicle && self.fault == other.fault && self.message == other.message
    }
}

/// Why a run failed, as its outcome keeps it: the kind of the failure and what it said.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFailure {
    /// what kind of failure (a vehicle's failure is [`ErrorKind::Vehicle`])
    pub kind: ErrorKind,
    /// the controller or vehicle and what went wrong
    pub text: String,
}

impl fmt::Display for RunFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl std::ops::Deref for RunFailure {
    type Target = str;
    fn deref(&self) -> &str {
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_keep_their_kind_and_source() {
        let io = std::io::Error::other("pipe closed");
        let e = ControllerError::of(ErrorKind::Link, "the agent left").with_source(io);
        assert_eq!(e.kind(), ErrorKind::Link);
        assert_eq!(e.to_string(), "the agent left");
        assert_eq!(
            e.source().map(|s| s.to_string()).as_deref(),
            Some("pipe closed")
        );
        assert_eq!(e, ControllerError::of(ErrorKind::Link, "the agent left"));
        let v = VehicleError::new("r", VehicleFault::LinkLost, "gone");
        assert_eq!(v.to_string(), "vehicle r: gone");
    }
}
