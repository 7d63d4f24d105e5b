//! The link's error type.

/// What can go wrong between the link and the agent or vehicle it connects.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// The vehicle lacks a signal the input-link needs.
    #[error("the vehicle has no `{0}` signal, which the SPS input-link needs")]
    MissingSignal(&'static str),
    /// A message from the agent could not be decoded.
    #[error("bad message from the agent: {0}")]
    Decode(String),
    /// The agent's side of the connection failed or closed.
    #[error("the agent's link failed: {0}")]
    Agent(String),
    /// The agent reported an error (a file that does not load, ...).
    #[error("{0}")]
    AgentReported(String),
    /// I/O on the connection.
    #[error("link I/O: {0}")]
    Io(#[from] std::io::Error),
}
