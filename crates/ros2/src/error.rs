//! The errors of the ROS 2 transport.

/// Something the ROS 2 transport could not do.
#[derive(Debug, thiserror::Error)]
pub enum Ros2Error {
    /// Bad `--ros-args`, name or environment variable.
    #[error("{0}")]
    Config(String),
    /// DDS would not create a participant, topic, reader or writer.
    #[error("ROS 2: cannot create {what}: {reason}")]
    Create {
        /// what (`topic /robot1/odom`)
        what: String,
        /// why, as DDS said
        reason: String,
    },
    /// A goal that could not be sent or followed: no server, a server of a type this
    /// client does not know, a lost connection.
    #[error("{0}")]
    Failed(String),
    /// The poll loop's operating-system calls failed.
    #[error("ROS 2 I/O: {0}")]
    Io(#[from] std::io::Error),
}

impl Ros2Error {
    pub(crate) fn create(what: impl Into<String>, reason: impl std::fmt::Display) -> Self {
        Self::Create {
            what: what.into(),
            reason: reason.to_string(),
        }
    }
}
