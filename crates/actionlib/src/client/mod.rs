//! The client side: the CommState machine, the ActionClient and the SimpleActionClient.

pub mod action_client;
pub mod comm_state;
pub mod simple;
