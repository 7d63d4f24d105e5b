//! A ROS 2 robot's `cmd_vel`: `geometry_msgs/Twist`, or `TwistStamped` for a robot that
//! takes that (Jazzy's controllers with stamped velocity), stamped with the robot's
//! time. The writer is reliable (it also reaches best-effort readers), and it is a DDS
//! writer of its own so that the last zero velocity can be waited for: when the run ends
//! the robot has acknowledged it before the node leaves.

use crate::error::Ros2Error;
use crate::msg::geometry::{Twist, TwistStamped, Vector3};
use crate::msg::std::{Header, Time};
use crate::msg::RosType;
use crate::node::Ros2Node;
use crate::qos;
use ros2_client::dds::rustdds::no_key::DataWriterCdr;
use ros2_client::dds::rustdds::{self, QosPolicies, TopicDescription};
use ros2_client::{MessageTypeName, Name};
use skipper_core::vehicle::remote::{CommandOut, RobotClock};
use std::sync::Arc;
use std::time::Duration;

enum Writer {
    Twist(DataWriterCdr<Twist>),
    Stamped(DataWriterCdr<TwistStamped>),
}

/// The `cmd_vel` writer of one robot.
pub struct CmdVel {
    writer: Writer,
    _publisher: rustdds::Publisher,
    clock: Arc<RobotClock>,
    topic: String,
}

/// A writer of `T` on `topic`, with a DDS publisher of its own.
fn writer<T: serde::Serialize + RosType>(
    node: &mut Ros2Node,
    topic: &str,
) -> Result<(DataWriterCdr<T>, rustdds::Publisher), Ros2Error> {
    let full = node.resolve(topic);
    crate::names::check_name(&full).map_err(Ros2Error::Config)?;
    let name =
        Name::parse(&full).map_err(|e| Ros2Error::Config(format!("ROS 2 name {full}: {e}")))?;
    let q = qos::default();
    let t = node
        .inner()
        .create_topic(&name, MessageTypeName::new(T::PACKAGE, T::NAME), &q)
        .map_err(|e| Ros2Error::create(format!("topic {full}"), e))?;
    let publisher = t
        .participant()
        .ok_or_else(|| Ros2Error::create(format!("publisher {full}"), "no DDS participant"))?
        .create_publisher(&QosPolicies::from(&q))
        .map_err(|e| Ros2Error::create(format!("a DDS publisher for {full}"), e))?;
    let w = publisher
        .create_datawriter_no_key_cdr::<T>(&t, Some(QosPolicies::from(&q)))
        .map_err(|e| Ros2Error::create(format!("publisher {full}"), e))?;
    Ok((w, publisher))
}

impl CmdVel {
    /// Advertise `topic` (`/bot/cmd_vel`) as `TwistStamped` if `stamped`, else `Twist`.
    pub fn advertise(
        node: &mut Ros2Node,
        topic: &str,
        stamped: bool,
        clock: Arc<RobotClock>,
    ) -> Result<Self, Ros2Error> {
        let (writer, publisher) = if stamped {
            let (w, p) = writer(node, topic)?;
            (Writer::Stamped(w), p)
        } else {
            let (w, p) = writer(node, topic)?;
            (Writer::Twist(w), p)
        };
        Ok(Self {
            writer,
            _publisher: publisher,
            clock,
            topic: topic.to_string(),
        })
    }

    /// Is it `TwistStamped`?
    pub fn is_stamped(&self) -> bool {
        matches!(self.writer, Writer::Stamped(_))
    }

    /// Its topic.
    pub fn topic(&self) -> &str {
        &self.topic
    }
}

fn stamp_of(secs: Option<f64>) -> Time {
    secs.filter(|s| s.is_finite() && *s >= 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .map(Time::from_duration)
        .unwrap_or_default()
}

impl CommandOut for CmdVel {
    fn send(&mut self, forward: f64, turn: f64) {
        let twist = Twist {
            linear: Vector3 {
                x: forward,
                y: 0.0,
                z: 0.0,
            },
            angular: Vector3 {
                x: 0.0,
                y: 0.0,
                z: turn,
            },
        };
        // a full send window or no reader: the next cycle sends again
        let _ = match &self.writer {
            Writer::Twist(w) => w.write(twist, None).map_err(drop),
            Writer::Stamped(w) => w
                .write(
                    TwistStamped {
                        header: Header {
                            stamp: stamp_of(self.clock.now()),
                            frame_id: Default::default(),
                        },
                        twist,
                    },
                    None,
                )
                .map_err(drop),
        };
    }

    fn flush(&mut self, within: Duration) {
        let _ = match &self.writer {
            Writer::Twist(w) => w.wait_for_acknowledgments(within).map_err(drop),
            Writer::Stamped(w) => w.wait_for_acknowledgments(within).map_err(drop),
        };
    }
}
