//! A recorded run at one moment: what a replay frame is made from. Each robot's last pose,
//! the signals the replay keeps (their last values), its last laser scan and its
//! controller's state; the balls and cans; the events of the last few seconds.
//!
//! A moment is built by applying the log's messages in order ([`Moment::apply`]), so a
//! replay can keep a few moments of a long run (its keyframes) and reach any time from
//! the one before it; or it is read from a [`Recording`] held in memory.

use serde_json::Value;
use skipper_runlog::message::{Message, PoseSample, ScanSample};
use skipper_runlog::reader::{EventSample, Recording};
use std::collections::{BTreeMap, HashMap, VecDeque};

/// Events of this many seconds before a moment go with it.
pub const EVENT_WINDOW_S: f64 = 10.0;
/// Events kept in a moment at most (the newest).
const MAX_EVENTS: usize = 2000;

/// One robot at a moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RobotMoment {
    /// Its last pose.
    pub pose: Option<PoseSample>,
    /// The kept signals' last values.
    pub signals: BTreeMap<String, Value>,
    /// Its last laser scan.
    pub scan: Option<ScanSample>,
    /// Its controller's name and state.
    pub controller: Option<(String, Value)>,
}

/// The run at a moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Moment {
    /// The time of the last message applied (s).
    pub t: f64,
    /// Per robot, in the order of the log.
    pub robots: Vec<RobotMoment>,
    /// Balls and cans.
    pub objects: Option<Value>,
    /// The events of the last [`EVENT_WINDOW_S`] seconds, oldest first.
    pub events: VecDeque<EventSample>,
}

impl Moment {
    /// The start of a run of `n` robots.
    pub fn new(n: usize) -> Self {
        Self {
            robots: vec![RobotMoment::default(); n],
            ..Self::default()
        }
    }

    /// Apply one message; `robot` maps a robot's name to its index.
    pub fn apply(&mut self, msg: Message<'_>, robot: &HashMap<String, usize>) {
        if let Some(t) = msg.t().filter(|t| t.is_finite() && *t > self.t) {
            self.t = t;
        }
        let slot = |name: &str, robots: &mut Vec<RobotMoment>| -> Option<usize> {
            let i = *robot.get(name)?;
            (i < robots.len()).then_some(i)
        };
        match msg {
            Message::Pose(name, p) => {
                if let Some(r) = slot(&name, &mut self.robots).and_then(|i| self.robots.get_mut(i))
                {
                    r.pose = Some(p);
                }
            }
            Message::Scan(name, s) => {
                if let Some(r) = slot(&name, &mut self.robots).and_then(|i| self.robots.get_mut(i))
                {
                    r.scan = Some(s);
                }
            }
            Message::Signals(name, _, values) => {
                if let Some(r) = slot(&name, &mut self.robots).and_then(|i| self.robots.get_mut(i))
                {
                    r.signals.extend(values);
                }
            }
            Message::Controller(name, _, controller, state) => {
                if let Some(r) = slot(&name, &mut self.robots).and_then(|i| self.robots.get_mut(i))
                {
                    r.controller = Some((controller, state));
                }
            }
            Message::Event(name, t, kind, data) => {
                if let Some(i) = slot(&name, &mut self.robots) {
                    self.event(EventSample {
                        robot: i,
                        t,
                        kind,
                        data,
                    });
                }
            }
            Message::Objects(_, objects) => self.objects = Some(objects),
            Message::World(_) | Message::Summary(_) | Message::Other(_) => {}
        }
    }

    fn event(&mut self, e: EventSample) {
        let from = e.t - EVENT_WINDOW_S;
        while self.events.front().is_some_and(|o| o.t <= from) || self.events.len() >= MAX_EVENTS {
            self.events.pop_front();
        }
        self.events.push_back(e);
    }

    /// The events in the window before `t` (after `t - EVENT_WINDOW_S`, up to `t`).
    pub fn events_before(&self, t: f64) -> impl Iterator<Item = &EventSample> + '_ {
        self.events
            .iter()
            .filter(move |e| e.t > t - EVENT_WINDOW_S && e.t <= t)
    }

    /// The moment `t` of a recording held in memory.
    pub fn of_recording(rec: &Recording, keep: &dyn Fn(&str) -> bool, t: f64) -> Self {
        let robots = rec
            .robots
            .iter()
            .map(|r| RobotMoment {
                pose: r
                    .poses
                    .get(..r.poses.partition_point(|p| p.t <= t))
                    .and_then(<[_]>::last)
                    .copied(),
                signals: r
                    .signals
                    .iter()
                    .filter(|(name, _)| keep(name))
                    .filter_map(|(name, _)| Some((name.clone(), r.signal_at(name, t)?.clone())))
                    .collect(),
                scan: r.scan_at(t).cloned(),
                controller: r
                    .controller_at(t)
                    .map(|c| (c.controller.clone(), c.state.clone())),
            })
            .collect();
        let from = rec.events.partition_point(|e| e.t <= t - EVENT_WINDOW_S);
        let to = rec.events.partition_point(|e| e.t <= t);
        Self {
            t,
            robots,
            objects: rec.objects_at(t).cloned(),
            events: rec
                .events
                .get(from..to)
                .unwrap_or_default()
                .iter()
                .cloned()
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::borrow::Cow;

    #[test]
    fn messages_build_the_moment_and_old_events_leave() {
        let names: HashMap<String, usize> = [("a".to_string(), 0)].into();
        let mut m = Moment::new(1);
        let pose = PoseSample {
            t: 1.0,
            x: 2.0,
            ..PoseSample::default()
        };
        m.apply(Message::Pose(Cow::Borrowed("a"), pose), &names);
        m.apply(
            Message::Signals(
                Cow::Borrowed("a"),
                1.0,
                vec![("sonar.0".into(), json!(1.5))],
            ),
            &names,
        );
        m.apply(
            Message::Event(Cow::Borrowed("a"), 1.0, "collision".into(), json!({})),
            &names,
        );
        m.apply(
            Message::Event(Cow::Borrowed("a"), 20.0, "speech".into(), json!({})),
            &names,
        );
        m.apply(
            Message::Pose(Cow::Borrowed("nobody"), PoseSample::default()),
            &names,
        );
        assert_eq!(m.t, 20.0);
        assert_eq!(m.robots[0].pose.map(|p| p.x), Some(2.0));
        assert_eq!(m.robots[0].signals["sonar.0"], json!(1.5));
        assert_eq!(m.events.len(), 1, "the collision is more than 10 s old");
        assert_eq!(m.events_before(20.0).count(), 1);
        assert_eq!(m.events_before(5.0).count(), 0);
    }
}
