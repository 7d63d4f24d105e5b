//! Where the messages a robot publishes every cycle go. An [`Outlet`] is the sending end
//! of one topic; [`Advertise`] makes them. A [`crate::node::Ros2Node`] advertises DDS
//! publishers: a ros2-client publisher takes its message by value, so its outlet hands
//! it a copy of the kept message, which costs no heap allocation because the messages'
//! texts and sequences are [`crate::msg::Shared`]. Tests advertise recorders instead, so
//! a cycle's publishing can be checked (and its allocations counted) without DDS.

use crate::error::Ros2Error;
use crate::msg::RosType;
use ros2_client::ros2::QosProfile;
use ros2_client::{Message, Publisher};

/// The sending end of one topic.
pub trait Outlet<M> {
    /// Publish `m` (the caller keeps it, to refill it next cycle).
    fn send(&self, m: &M);
}

/// Makes a topic's [`Outlet`].
pub trait Advertise {
    /// An outlet of `M` on `topic` (resolved as the node resolves names) with `qos`.
    fn advertise<M: Message + RosType + Clone + 'static>(
        &mut self,
        topic: &str,
        qos: QosProfile,
    ) -> Result<Box<dyn Outlet<M>>, Ros2Error>;
}

impl<M: Message + Clone> Outlet<M> for Publisher<M> {
    fn send(&self, m: &M) {
        // a full reliable send window or no matched reader is DDS's business: the next
        // cycle publishes again
        let _ = self.publish(m.clone());
    }
}
