//! The input-link: its layout (section 1.1 of the reference) and its update from the
//! vehicle's signals each cycle (rules I2–I8).
//!
//! ```text
//! ^io.input-link
//!    ^configuration   ^yaw-format ^offset-x ^offset-y ^offset-z
//!    ^time            ^seconds ^microseconds
//!    ^self            ^name ^pose ^waypoints ^received-messages
//!       ^pose         ^x ^y ^z ^yaw ^x-velocity ^y-velocity ^speed ^yaw-velocity
//!       ^waypoints    ^waypoint <w> (^id ^x ^y ^z ^distance ^yaw ^relative-bearing ^abs-relative-bearing)
//!       ^received-messages ^message <m> (^from ^id ^first <n> (^word ^next <n2>|nil))
//!    ^ranges          ^range <r> (^id ^start ^end ^distance), N of them, ids -N/2..N/2
//! ```
//!
//! Angles are degrees, counter-clockwise positive, wrapped to [-180, 180]; with
//! yaw-format `int` they are rounded half up.

use crate::link::{Link, RangeWmes};
use crate::tree::{Val, WmeId, ROOT};
use crate::waypoints::WaypointWmes;
use skipper_core::geometry::wrap_rad;
use skipper_core::Signals;

/// Round half up, as the reference's `Math.round`.
pub fn round_half_up(x: f64) -> i64 {
    (x + 0.5).floor() as i64
}

/// An angle value in degrees, as int or float.
pub(crate) fn angle(deg: f64, int: bool) -> Val {
    if int {
        Val::Int(round_half_up(deg))
    } else {
        Val::Float(deg)
    }
}

fn finite(v: f64) -> f64 {
    if v.is_finite() {
        v
    } else {
        0.0
    }
}

impl Link {
    /// Create the fixed identifiers, in the reference's order: configuration, time,
    /// self, ranges.
    pub(crate) fn build_layout(&mut self) {
        let t = &mut self.tree;
        let l = &mut self.layout;
        let cfg = t.add_id(ROOT, "configuration");
        l.yaw_format = t.add(cfg, "yaw-format", Val::str("float"));
        l.offset = [
            t.add(cfg, "offset-x", Val::Float(0.0)),
            t.add(cfg, "offset-y", Val::Float(0.0)),
            t.add(cfg, "offset-z", Val::Float(0.0)),
        ];
        let time = t.add_id(ROOT, "time");
        l.seconds = t.add(time, "seconds", Val::Int(0));
        l.microseconds = t.add(time, "microseconds", Val::Int(0));
        let me = t.add_id(ROOT, "self");
        t.add(me, "name", Val::Str(self.name.clone()));
        let pose = t.add_id(me, "pose");
        let names = [
            "x",
            "y",
            "z",
            "yaw",
            "x-velocity",
            "y-velocity",
            "speed",
            "yaw-velocity",
        ];
        for (k, n) in names.into_iter().enumerate() {
            if let Some(slot) = l.pose.get_mut(k) {
                *slot = t.add(pose, n, Val::Float(0.0));
            }
        }
        l.waypoints = t.add_id(me, "waypoints");
        l.messages = t.add_id(me, "received-messages");
        let ranges = t.add_id(ROOT, "ranges");
        let n = self.config.ranges as i64;
        l.ranges = (0..n)
            .map(|k| {
                let root = t.add_id(ranges, "range");
                t.add(root, "id", Val::Int(k - n / 2));
                RangeWmes { root, slice: None }
            })
            .collect();
    }

    /// Update the whole input-link from the pose read this cycle and the signals.
    pub(crate) fn update_input(&mut self, signals: &Signals) {
        self.update_configuration();
        self.update_time();
        self.update_pose();
        self.update_waypoints();
        self.update_messages();
        self.update_ranges(signals);
    }

    fn update_configuration(&mut self) {
        let fmt = if self.yaw_int { "int" } else { "float" };
        let t = &mut self.tree;
        let l = &mut self.layout;
        let same = matches!(t.value(l.yaw_format), Some(Val::Str(s)) if &**s == fmt);
        if !same {
            t.set(&mut l.yaw_format, Val::str(fmt));
        }
        for (w, v) in l.offset.iter_mut().zip(self.offset) {
            t.set_f64(w, v);
        }
    }

    fn update_time(&mut self) {
        let t = &mut self.tree;
        t.set_i64(
            &mut self.layout.seconds,
            i64::try_from(self.now.as_secs()).unwrap_or(i64::MAX),
        );
        t.set_i64(
            &mut self.layout.microseconds,
            i64::from(self.now.subsec_micros()),
        );
    }

    fn update_pose(&mut self) {
        let (x, y, z, yaw) = self.agent_pose();
        let p = self.pose;
        let t = &mut self.tree;
        let [wx, wy, wz, wyaw, wxv, wyv, wspeed, wyawv] = &mut self.layout.pose;
        t.set_f64(wx, finite(x));
        t.set_f64(wy, finite(y));
        t.set_f64(wz, finite(z));
        t.set_angle(wyaw, finite(yaw.to_degrees()), self.yaw_int);
        t.set_f64(wxv, finite(p.x_velocity));
        t.set_f64(wyv, finite(p.y_velocity));
        t.set_f64(wspeed, finite(p.speed));
        t.set_f64(wyawv, finite(p.yaw_velocity));
    }

    fn update_waypoints(&mut self) {
        let (rx, ry, rz, ryaw) = self.agent_pose();
        let parent = self.layout.waypoints;
        for wp in self.waypoints.list.iter_mut() {
            if !wp.enabled {
                continue;
            }
            let (dx, dy, dz) = (wp.x - rx, wp.y - ry, wp.z - rz);
            let distance = finite((dx * dx + dy * dy + dz * dz).sqrt());
            let to = dy.atan2(dx);
            let yaw = finite(to.to_degrees());
            let rel = finite(wrap_rad(to - ryaw).to_degrees());
            let t = &mut self.tree;
            match &mut wp.wmes {
                Some(w) => {
                    t.set_f64(&mut w.distance, distance);
                    t.set_angle(&mut w.yaw, yaw, wp.yaw_int);
                    t.set_angle(&mut w.relative_bearing, rel, wp.yaw_int);
                    t.set_angle(&mut w.abs_relative_bearing, rel.abs(), wp.yaw_int);
                }
                None => {
                    let vals = [
                        Val::Float(distance),
                        angle(yaw, wp.yaw_int),
                        angle(rel, wp.yaw_int),
                        angle(rel.abs(), wp.yaw_int),
                    ];
                    let root = t.add_id(parent, "waypoint");
                    let id = match &wp.id {
                        crate::waypoints::WaypointId::Int(i) => Val::Int(*i),
                        crate::waypoints::WaypointId::Float(f) => Val::Float(*f),
                        crate::waypoints::WaypointId::Str(s) => Val::Str(s.clone()),
                    };
                    t.add(root, "id", id);
                    t.add(root, "x", Val::Float(wp.x));
                    t.add(root, "y", Val::Float(wp.y));
                    t.add(root, "z", Val::Float(wp.z));
                    let [a, b, c, d] = vals;
                    wp.wmes = Some(WaypointWmes {
                        root,
                        distance: t.add(root, "distance", a),
                        yaw: t.add(root, "yaw", b),
                        relative_bearing: t.add(root, "relative-bearing", c),
                        abs_relative_bearing: t.add(root, "abs-relative-bearing", d),
                    });
                }
            }
        }
    }

    fn update_messages(&mut self) {
        if let Some(post) = &self.post {
            post.collect(&self.config.name, self.cycle.max(1), &mut self.inbox);
        }
        if self.inbox.is_empty() && self.messages.iter().all(|m| m.wme.is_some()) {
            return;
        }
        for env in self.inbox.drain(..) {
            let words: Vec<_> = env.words.into_iter().filter(|w| !w.is_empty()).collect();
            if words.is_empty() {
                continue; // empty messages are dropped (I7)
            }
            self.messages.push(crate::messages::Message {
                id: self.next_message_id,
                from: env.from,
                words,
                wme: None,
            });
            self.next_message_id += 1;
        }
        let parent = self.layout.messages;
        for m in self.messages.iter_mut().filter(|m| m.wme.is_none()) {
            let t = &mut self.tree;
            let root = t.add_id(parent, "message");
            t.add(root, "from", Val::Str(m.from.clone()));
            t.add(root, "id", Val::Int(m.id));
            let mut at: WmeId = t.add_id(root, "first");
            for (k, w) in m.words.iter().enumerate() {
                t.add(at, "word", Val::Str(w.clone()));
                if k + 1 == m.words.len() {
                    t.add(at, "next", Val::str("nil"));
                } else {
                    at = t.add_id(at, "next");
                }
            }
            m.wme = Some(root);
        }
    }

    fn update_ranges(&mut self, signals: &Signals) {
        let Some(b) = &self.binding else { return };
        let n = self.layout.ranges.len();
        let beams = b.laser.len();
        // slices appear only once the laser has scanned (I5)
        if n == 0
            || beams < n
            || b.laser
                .first()
                .and_then(|&id| signals.updated_at(id))
                .is_none()
        {
            return;
        }
        let chunk = beams / n;
        let (first, step) = (self.config.laser_first_deg, self.config.laser_step_deg);
        for (k, r) in self.layout.ranges.iter_mut().enumerate() {
            let lo = k * chunk;
            let start = first + lo as f64 * step;
            let end = first + (lo + chunk - 1) as f64 * step;
            let mut distance = f64::INFINITY;
            for id in b.laser.iter().skip(lo).take(chunk) {
                if let Some(d) = signals.f64(*id) {
                    distance = distance.min(d);
                }
            }
            let distance = if distance.is_finite() { distance } else { 0.0 };
            let t = &mut self.tree;
            match &mut r.slice {
                Some([ws, we, wd]) => {
                    t.set_angle(ws, start, self.yaw_int);
                    t.set_angle(we, end, self.yaw_int);
                    t.set_f64(wd, distance);
                }
                None => {
                    r.slice = Some([
                        t.add(r.root, "start", angle(start, self.yaw_int)),
                        t.add(r.root, "end", angle(end, self.yaw_int)),
                        t.add(r.root, "distance", Val::Float(distance)),
                    ]);
                }
            }
        }
    }
}
