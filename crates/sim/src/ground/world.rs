//! The ground world: robots, walls and objects stepping together.
//!
//! Each advance splits the cycle into physics steps of at most 100 ms, so no robot moves
//! more than its own radius per step. In each step every robot's motion controller
//! brings its wheels toward their set-points; a move that would push the robot into a
//! wall or another robot is cut short at the contact, the wheels stall and the bumper
//! segment facing the contact closes. Balls and cans are pushed by robot bodies and
//! paddles, roll or slide with friction, bounce off walls, and are carried when held.
//! After the physics, every robot senses: sonar, laser, break beams, camera percepts.

use super::gripper::{self, Between, GripEvent};
use super::params;
use super::robot::{bearing_deg, GroundRobot, Percept};
use crate::error::WorldError;
use crate::spatial::{Circle, Contact, Segment, Space};
use crate::spec::{ObjectKind, PlaceSpec, WorldSpec};
use crate::world_file::WorldErrors;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};
use skipper_core::{Events, Pose2, Vec2, Vehicle, World};
use std::time::Duration;

/// A ball or can in the world.
#[derive(Debug, Clone)]
pub struct Object {
    /// Ball or can.
    pub kind: ObjectKind,
    /// Position (m).
    pub pos: Vec2,
    /// Velocity (m/s).
    pub vel: Vec2,
    /// Radius (m).
    pub radius: f64,
    /// Height above the floor (m), when lifted.
    pub z: f64,
    /// Held by this robot.
    pub held_by: Option<usize>,
}

impl Object {
    fn friction(&self) -> f64 {
        match self.kind {
            ObjectKind::Ball => 0.4,
            ObjectKind::Can => 4.0,
        }
    }
    fn restitution(&self) -> f64 {
        match self.kind {
            ObjectKind::Ball => 0.6,
            ObjectKind::Can => 0.1,
        }
    }
}

/// A simulated world of Pioneer robots.
pub struct GroundWorld {
    name: String,
    space: Space,
    robots: Vec<GroundRobot>,
    objects: Vec<Object>,
    goals: Vec<PlaceSpec>,
    landmarks: Vec<PlaceSpec>,
    points: Vec<Vec2>,
    settings: crate::spec::Settings,
    laser_dirs: Vec<Vec2>,
    /// the seed every random number comes from
    seed: u64,
}

/// Largest physics step (s).
const MAX_STEP: f64 = 0.1;

impl GroundWorld {
    /// Build a world; `seed` seeds every random number. Refuses robots or objects that
    /// overlap walls or each other, and worlds without robots.
    pub fn new(spec: &WorldSpec, seed: u64) -> Result<Self, WorldErrors> {
        validate(spec)?;
        let (lo, hi) = spec.bounds();
        let pad = Vec2::new(2.0, 2.0);
        let segments: Vec<Segment> = spec.walls.iter().map(|w| w.segment).collect();
        let space = Space::new(
            segments,
            spec.robots.len(),
            lo - pad,
            hi + pad,
            spec.settings.grid_cell,
        );
        let landmark_names: Vec<String> = spec.landmarks.iter().map(|l| l.name.clone()).collect();
        let mut master = ChaCha8Rng::seed_from_u64(seed);
        let robots = spec
            .robots
            .iter()
            .map(|r| {
                let rng = ChaCha8Rng::seed_from_u64(master.next_u64());
                let mut robot = GroundRobot::new(
                    r.clone(),
                    rng,
                    landmark_names.clone(),
                    spec.settings.temperature,
                );
                robot.sensors = super::sensors::of_model(&r.model, r.laser, &spec.settings);
                robot
            })
            .collect();
        let objects = spec
            .objects
            .iter()
            .map(|o| Object {
                kind: o.kind,
                pos: o.pos,
                vel: Vec2::default(),
                radius: o.radius,
                z: 0.0,
                held_by: None,
            })
            .collect();
        let laser_dirs = (0..params::LASER_BEAMS)
            .map(|k| {
                Vec2::from_angle(
                    (params::LASER_FIRST_DEG + k as f64 * params::LASER_STEP_DEG).to_radians(),
                )
            })
            .collect();
        let mut w = Self {
            name: spec.name.clone(),
            space,
            robots,
            objects,
            goals: spec.goals.clone(),
            landmarks: spec.landmarks.clone(),
            points: spec.points.clone(),
            settings: spec.settings.clone(),
            laser_dirs,
            seed,
        };
        w.index_robots_with(0.0);
        w.sense_all(Duration::ZERO, None);
        Ok(w)
    }

    /// The robots.
    pub fn robots(&self) -> &[GroundRobot] {
        &self.robots
    }
    /// A robot, mutably (tests, servers).
    pub fn robot_mut(&mut self, i: usize) -> Option<&mut GroundRobot> {
        self.robots.get_mut(i)
    }
    /// The objects.
    pub fn objects(&self) -> &[Object] {
        &self.objects
    }
    /// The walls.
    pub fn walls(&self) -> &[Segment] {
        self.space.segments()
    }
    /// The named goals.
    pub fn goals(&self) -> &[PlaceSpec] {
        &self.goals
    }
    /// The world's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// Move a robot (simulator command SIM_SET_POSE); refused if the pose is in contact.
    pub fn set_robot_pose(&mut self, i: usize, pose: Pose2) -> Result<(), String> {
        if let Some((c, _)) = self
            .space
            .contact(pose.position(), params::RADIUS, i, |_| true)
        {
            return Err(format!(
                "the pose ({:.3}, {:.3}) touches {}",
                pose.x,
                pose.y,
                contact_name(&c, &self.robots)
            ));
        }
        let Some(r) = self.robots.get_mut(i) else {
            return Err(format!("no robot {i}"));
        };
        r.truth = pose;
        r.odom = pose;
        r.motion.halt();
        self.index_robots_with(0.0);
        Ok(())
    }

    /// Move a robot without touching its odometry (simulator command SIM_SET_POSE as
    /// MobileSim does it); refused if the pose is in contact.
    pub fn set_robot_true_pose(&mut self, i: usize, pose: Pose2) -> Result<(), String> {
        let odom = self
            .robots
            .get(i)
            .map(|r| r.odom)
            .ok_or_else(|| format!("no robot {i}"))?;
        self.set_robot_pose(i, pose)?;
        if let Some(r) = self.robots.get_mut(i) {
            r.odom = odom;
        }
        Ok(())
    }

    /// Ray-cast robot `i`'s laser at any resolution (a P2OS server streams it as
    /// MobileSim does): `out[k]` becomes the range (m) of the beam at `first_deg + k *
    /// step_deg` (robot frame, 0 straight ahead, counter-clockwise positive), cast from
    /// the laser's mounting point against walls, other robots and objects, up to
    /// [`GroundWorld::laser_range`] (what a beam that hits nothing reads). No noise is
    /// added. `None` if there is no robot `i` or it has no laser.
    pub fn laser_scan(
        &self,
        i: usize,
        first_deg: f64,
        step_deg: f64,
        out: &mut [f64],
    ) -> Option<()> {
        let r = self.robots.get(i).filter(|r| r.spec.laser)?;
        let pose = r.truth;
        let (sn, cs) = pose.yaw.sin_cos();
        let o = pose.position() + Vec2::new(params::LASER_X, 0.0).rotate_sc(sn, cs);
        let max = self.settings.laser_range;
        for (k, range) in out.iter_mut().enumerate() {
            let d = Vec2::from_angle(pose.yaw + (first_deg + k as f64 * step_deg).to_radians());
            *range = self.space.raycast(o, d, max, i, true);
        }
        Some(())
    }

    /// The laser's range (m): what a beam that hits nothing reads.
    pub fn laser_range(&self) -> f64 {
        self.settings.laser_range
    }

    fn index_robots_with(&mut self, margin: f64) {
        for (i, r) in self.robots.iter().enumerate() {
            self.space.set_circle(
                i,
                Circle {
                    c: r.truth.position(),
                    r: params::RADIUS,
                },
                true,
            );
        }
        self.space.index_circles_with_margin(margin);
    }

    fn step_robot(&mut self, i: usize, h: f64, now: Duration, events: &mut Events) {
        let noise = self.settings.odometry_noise;
        let Some(r) = self.robots.get_mut(i) else {
            return;
        };
        let (v, w) = r.motion.update(r.odom.yaw, h);
        let old = r.truth;
        if v == 0.0 && w == 0.0 {
            let r = &mut self.robots[i];
            r.wheels = (0.0, 0.0);
            r.stalled = false;
            r.bumpers = [0, 0];
            r.in_contact = false;
            r.battery.step(h, 0.0, 0.0);
            return;
        }
        let target = integrate(old, v, w, h);
        let mut frac = 1.0;
        let mut hit = None;
        if v != 0.0 {
            if let Some((t, c)) = self.space.sweep(
                old.position(),
                params::RADIUS,
                target.position() - old.position(),
                i,
            ) {
                // stop a hair short of the contact
                frac = (t - 1e-9).max(0.0);
                hit = Some(c);
            }
        }
        let moved = if hit.is_some() {
            integrate(old, v, w, h * frac)
        } else {
            target
        };
        let moved = Pose2::new(moved.x, moved.y, target.yaw);
        let contact = hit.map(|c| {
            (
                contact_name(&c, &self.robots),
                contact_point(&c),
                bumper_bits(moved, &c),
            )
        });
        let r = &mut self.robots[i];
        // odometry from wheel travel
        let ds = v * h * frac;
        let dth = w * h;
        let (mut dl, mut dr) = (
            ds - dth * params::TRACK / 2.0,
            ds + dth * params::TRACK / 2.0,
        );
        if noise > 0.0 {
            if let Ok(n) = Normal::new(0.0, noise) {
                dl *= 1.0 + n.sample(&mut r.rng);
                dr *= 1.0 + n.sample(&mut r.rng);
            }
        }
        r.odom = integrate_delta(r.odom, (dl + dr) / 2.0, (dr - dl) / params::TRACK);
        r.encoders_mm.0 += dl * 1000.0;
        r.encoders_mm.1 += dr * 1000.0;
        r.odometer += moved.position().dist(old.position());
        r.motion.travelled(ds);
        r.truth = moved;
        r.battery.step(h, v, w);
        match contact {
            Some((with, p, bumpers)) => {
                r.motion.blocked();
                r.wheels = (0.0, 0.0);
                r.stalled = true;
                r.bumpers = bumpers;
                if !r.in_contact {
                    r.collisions += 1;
                    events.push_for(
                        i,
                        now,
                        "collision",
                        serde_json::json!({ "with": with, "x": p.x, "y": p.y }),
                    );
                }
                r.in_contact = true;
            }
            None => {
                let (v, w) = (r.motion.v, r.motion.w);
                r.wheels = (v - w * params::TRACK / 2.0, v + w * params::TRACK / 2.0);
                r.stalled = false;
                r.bumpers = [0, 0];
                r.in_contact = false;
            }
        }
        let c = Circle {
            c: moved.position(),
            r: params::RADIUS,
        };
        self.space.set_circle(i, c, true);
    }

    fn step_objects(&mut self, h: f64, now: Duration, events: &mut Events) {
        // grippers first: they decide what is held
        for (ri, r) in self.robots.iter_mut().enumerate() {
            if !r.spec.gripper {
                continue;
            }
            let candidate = if r.gripper.reaches_floor() && r.gripper.held.is_none() {
                nearest_between(&r.truth, r.gripper.gap(), &self.objects)
            } else {
                None
            };
            match r.gripper.step(h, candidate) {
                GripEvent::Grasped(k) => {
                    if let Some(o) = self.objects.get_mut(k) {
                        o.held_by = Some(ri);
                        o.vel = Vec2::default();
                        events.push_for(
                            ri,
                            now,
                            "gripper",
                            serde_json::json!({ "grasped": o.kind.name(), "object": k }),
                        );
                    }
                }
                GripEvent::Released(k) => {
                    if let Some(o) = self.objects.get_mut(k) {
                        o.held_by = None;
                        o.z = 0.0;
                        events.push_for(
                            ri,
                            now,
                            "gripper",
                            serde_json::json!({ "released": o.kind.name(), "object": k }),
                        );
                    }
                }
                GripEvent::None => {}
            }
        }
        for o in &mut self.objects {
            if let Some(ri) = o.held_by {
                if let (Some(r), Some(held)) = (
                    self.robots.get(ri),
                    self.robots.get(ri).and_then(|r| r.gripper.held),
                ) {
                    o.pos = r.truth.transform(Vec2::new(held.x, 0.0));
                    o.z = r.gripper.lift * gripper::LIFT_HEIGHT;
                    o.vel = Vec2::default();
                    continue;
                }
                o.held_by = None;
            }
            // roll or slide
            let speed = o.vel.norm();
            if speed > 0.0 {
                let new_speed = (speed - o.friction() * h).max(0.0);
                o.vel = o.vel * (new_speed / speed);
                o.pos = o.pos + o.vel * h;
            }
            // robots push
            for r in &self.robots {
                if r.truth.position().dist(o.pos) > 0.6 {
                    continue;
                }
                push_out_of_robot(o, r);
            }
            // walls
            if let Some((Contact::Wall(q), depth)) =
                self.space.contact(o.pos, o.radius, usize::MAX, |_| false)
            {
                let n = o.pos - q;
                let len = n.norm();
                if len > 1e-12 {
                    let n = n * (1.0 / len);
                    o.pos = o.pos + n * depth;
                    let vn = o.vel.dot(n);
                    if vn < 0.0 {
                        o.vel = o.vel - n * ((1.0 + o.restitution()) * vn);
                    }
                }
            }
        }
    }

    /// Sense after `dt` (`None`: the first reading, every sonar fires).
    fn sense_all(&mut self, now: Duration, dt: Option<Duration>) {
        let s = &self.settings;
        for i in 0..self.robots.len() {
            let r = &mut self.robots[i];
            let pose = r.truth;
            let (sn, cs) = pose.yaw.sin_cos();
            if r.sonar_enabled {
                // which transducers fire in this interval
                let mut fire = [false; params::SONARS];
                match dt {
                    Some(dt) if s.sonar_period > 0.0 => {
                        r.sonar_clock += dt.as_secs_f64();
                        let mut pings = 0;
                        while r.sonar_clock >= s.sonar_period - 1e-12 && pings < params::SONARS / 2
                        {
                            r.sonar_clock -= s.sonar_period;
                            for (bank, next) in r.sonar_next.iter_mut().enumerate() {
                                fire[*next] = true;
                                *next = bank * 8 + (*next + 1) % 8;
                            }
                            pings += 1;
                        }
                        if pings == params::SONARS / 2 {
                            r.sonar_clock = r.sonar_clock.min(s.sonar_period);
                        }
                    }
                    _ => fire = [true; params::SONARS],
                }
                // the transducers where the robot's model has them
                for (k, g) in r.sensors.sonar.iter().enumerate().take(params::SONARS) {
                    if !fire[k] {
                        continue;
                    }
                    let o = pose.position() + Vec2::new(g.x, g.y).rotate_sc(sn, cs);
                    let d = Vec2::from_angle(g.yaw);
                    let mut range =
                        self.space
                            .raycast(o, d.rotate_sc(sn, cs), s.sonar_range, i, true);
                    add_noise(
                        std::slice::from_mut(&mut range),
                        s.sonar_noise,
                        s.sonar_range,
                        &mut r.rng,
                    );
                    r.sonar[k] = range;
                    r.sonar_fresh[k] = true;
                }
            }
            if r.spec.laser {
                let x = r.sensors.laser.map_or(params::LASER_X, |l| l.x);
                let o = pose.position() + Vec2::new(x, 0.0).rotate_sc(sn, cs);
                for (k, d) in self.laser_dirs.iter().enumerate() {
                    r.laser[k] = self
                        .space
                        .raycast(o, d.rotate_sc(sn, cs), s.laser_range, i, true);
                }
                add_noise(&mut r.laser[..], s.laser_noise, s.laser_range, &mut r.rng);
            }
            // break beams
            let mut blocked = (false, false);
            let g = &r.gripper;
            if r.spec.gripper {
                let mut test = |x: f64, y: f64, rad: f64| {
                    blocked.0 |= g.beam_blocked(gripper::OUTER_BEAM_X, x, y, rad);
                    blocked.1 |= g.beam_blocked(gripper::INNER_BEAM_X, x, y, rad);
                };
                if let Some(hd) = g.held {
                    test(hd.x, 0.0, hd.r);
                } else if g.reaches_floor() {
                    for o in &self.objects {
                        if o.held_by.is_some() {
                            continue;
                        }
                        let p = pose.inverse_transform(o.pos);
                        test(p.x, p.y, o.radius);
                    }
                }
            }
            r.beams_blocked = blocked;
            // camera percepts
            for kind in [ObjectKind::Ball, ObjectKind::Can] {
                let mut best: Option<Percept> = None;
                for o in &self.objects {
                    if o.kind != kind {
                        continue;
                    }
                    let dist = o.pos.dist(pose.position());
                    let bearing = bearing_deg(pose, o.pos.x, o.pos.y);
                    if dist > s.camera_range
                        || bearing.abs() > s.camera_fov / 2.0
                        || best.is_some_and(|b| b.distance <= dist)
                    {
                        continue;
                    }
                    if o.held_by != Some(i) && !self.space.line_of_sight(pose.position(), o.pos) {
                        continue;
                    }
                    best = Some(Percept {
                        seen: true,
                        distance: dist,
                        bearing,
                        x: o.pos.x,
                        y: o.pos.y,
                        last_seen: Some(now),
                    });
                }
                let slot = if kind == ObjectKind::Ball {
                    &mut r.ball
                } else {
                    &mut r.can
                };
                match best {
                    Some(p) => *slot = p,
                    None => slot.seen = false,
                }
            }
            for (k, l) in self.landmarks.iter().enumerate() {
                if let Some(slot) = r.landmarks.get_mut(k) {
                    *slot = (
                        l.pos.dist(pose.position()),
                        bearing_deg(pose, l.pos.x, l.pos.y),
                    );
                }
            }
        }
    }
}

fn add_noise(v: &mut [f64], sd: f64, max: f64, rng: &mut ChaCha8Rng) {
    if sd <= 0.0 {
        return;
    }
    if let Ok(n) = Normal::new(0.0, sd) {
        for x in v {
            if *x < max {
                *x = (*x + n.sample(rng)).clamp(0.0, max);
            }
        }
    }
}

/// Pose after moving at (v, w) for t seconds along an arc.
fn integrate(p: Pose2, v: f64, w: f64, t: f64) -> Pose2 {
    integrate_delta(p, v * t, w * t)
}

fn integrate_delta(p: Pose2, ds: f64, dth: f64) -> Pose2 {
    let mid = p.yaw + dth / 2.0;
    // exact arc: chord length = ds * sinc(dth/2)
    let k = if dth.abs() < 1e-9 {
        1.0
    } else {
        (dth / 2.0).sin() / (dth / 2.0)
    };
    Pose2::new(
        p.x + ds * k * mid.cos(),
        p.y + ds * k * mid.sin(),
        p.yaw + dth,
    )
}

fn contact_point(c: &Contact) -> Vec2 {
    match *c {
        Contact::Wall(p) | Contact::Circle(_, p) => p,
    }
}

fn contact_name(c: &Contact, robots: &[GroundRobot]) -> String {
    match *c {
        Contact::Wall(_) => "wall".into(),
        Contact::Circle(k, _) => robots
            .get(k)
            .map_or_else(|| "robot".into(), |r| format!("robot:{}", r.info.name)),
    }
}

/// Which bumper segment faces the contact: front bits 0-4 from the left end (+90°) to the
/// right end (-90°); rear bits 0-4 from the left end (+90°) round the back to the right.
fn bumper_bits(pose: Pose2, c: &Contact) -> [u8; 2] {
    let b = pose.bearing_to(contact_point(c)).to_degrees();
    let seg_width = 180.0 / params::BUMPER_SEGMENTS as f64;
    if b.abs() <= 90.0 {
        let k = (((90.0 - b) / seg_width) as usize).min(params::BUMPER_SEGMENTS - 1);
        [1 << k, 0]
    } else {
        let phi = if b > 0.0 { b } else { b + 360.0 }; // (90, 270)
        let k = (((phi - 90.0) / seg_width) as usize).min(params::BUMPER_SEGMENTS - 1);
        [0, 1 << k]
    }
}

/// The floor object between the paddles nearest to the robot.
fn nearest_between(pose: &Pose2, gap: f64, objects: &[Object]) -> Option<Between> {
    let mut best: Option<Between> = None;
    for (k, o) in objects.iter().enumerate() {
        if o.held_by.is_some() {
            continue;
        }
        let p = pose.inverse_transform(o.pos);
        if p.x >= gripper::PADDLE_BASE_X
            && p.x <= gripper::PADDLE_TIP_X
            && p.y.abs() < gap / 2.0
            && best.is_none_or(|b| p.x < b.x)
        {
            best = Some(Between {
                index: k,
                x: p.x,
                y: p.y,
                r: o.radius,
            });
        }
    }
    best
}

/// Push an object out of a robot's body (the 511 × 425 mm box) and paddles.
fn push_out_of_robot(o: &mut Object, r: &GroundRobot) {
    let pose = r.truth;
    let local = pose.inverse_transform(o.pos);
    let half_w = params::WIDTH / 2.0;
    let mut boxes: [(Vec2, Vec2); 3] = [(
        Vec2::new(-params::LENGTH_REAR, -half_w),
        Vec2::new(params::LENGTH_FRONT, half_w),
    ); 3];
    let mut n = 1;
    if r.spec.gripper && r.gripper.reaches_floor() {
        let y = r.gripper.gap() / 2.0;
        boxes[1] = (
            Vec2::new(gripper::PADDLE_BASE_X, y),
            Vec2::new(gripper::PADDLE_TIP_X, y + 0.01),
        );
        boxes[2] = (
            Vec2::new(gripper::PADDLE_BASE_X, -y - 0.01),
            Vec2::new(gripper::PADDLE_TIP_X, -y),
        );
        n = 3;
    }
    for (lo, hi) in &boxes[..n] {
        let q = Vec2::new(local.x.clamp(lo.x, hi.x), local.y.clamp(lo.y, hi.y));
        let d = local - q;
        let dist = d.norm();
        let (normal, depth) = if dist > 1e-12 {
            (d * (1.0 / dist), o.radius - dist)
        } else {
            // centre inside the box: leave by the nearest side
            let opts = [
                (Vec2::new(1.0, 0.0), hi.x - local.x),
                (Vec2::new(-1.0, 0.0), local.x - lo.x),
                (Vec2::new(0.0, 1.0), hi.y - local.y),
                (Vec2::new(0.0, -1.0), local.y - lo.y),
            ];
            let (nrm, dd) = opts
                .iter()
                .fold(opts[0], |a, b| if b.1 < a.1 { *b } else { a });
            (nrm, dd + o.radius)
        };
        if depth <= 0.0 {
            continue;
        }
        let nw = normal.rotate(pose.yaw);
        o.pos = o.pos + nw * depth;
        // the body's velocity at the contact
        let (v, w) = (r.motion.v, r.motion.w);
        let lever = pose.transform(local) - pose.position();
        let body_v = Vec2::new(
            v * pose.yaw.cos() - w * lever.y,
            v * pose.yaw.sin() + w * lever.x,
        );
        let push = body_v.dot(nw) * if o.kind == ObjectKind::Ball { 1.3 } else { 1.0 };
        let vn = o.vel.dot(nw);
        if push > vn {
            o.vel = o.vel + nw * (push - vn);
        }
    }
}

fn validate(spec: &WorldSpec) -> Result<(), WorldErrors> {
    let mut errors = Vec::new();
    // errors of no line name the file it came from, or a built world's name
    let file = if spec.file.is_empty() {
        &spec.name
    } else {
        &spec.file
    };
    let err = |loc: &Option<crate::error::Location>, message: String| match loc {
        Some(l) => WorldError::at(l, message),
        None => WorldError::Io {
            file: file.clone(),
            message,
        },
    };
    if spec.robots.is_empty() {
        errors.push(err(
            &None,
            "the world has no robot: add a line `robot NAME X Y [YAW]` (or a RobotHome cairn to a .map)".into(),
        ));
    }
    for (i, r) in spec.robots.iter().enumerate() {
        let p = r.pose.position();
        for w in &spec.walls {
            let q = w.segment.closest_point(p);
            let d = q.dist(p);
            if d < params::RADIUS {
                errors.push(err(
                    &r.loc,
                    format!(
                        "robot `{}` at ({:.2}, {:.2}) is inside a wall: the wall from ({:.2}, {:.2}) to ({:.2}, {:.2}) passes {:.2} m from its centre, and a Pioneer needs {:.2} m; move the robot away from the wall",
                        r.name, p.x, p.y, w.segment.a.x, w.segment.a.y, w.segment.b.x, w.segment.b.y, d, params::RADIUS
                    ),
                ));
                break;
            }
        }
        for o in &spec.robots[..i] {
            let d = o.pose.position().dist(p);
            if d < 2.0 * params::RADIUS {
                errors.push(err(&r.loc, format!("robot `{}` overlaps robot `{}`: their centres are {:.2} m apart, and two Pioneers need {:.2} m", r.name, o.name, d, 2.0 * params::RADIUS)));
            }
        }
    }
    furniture(spec, &mut errors, &err);
    for o in &spec.objects {
        for w in &spec.walls {
            if w.segment.closest_point(o.pos).dist(o.pos) < o.radius {
                errors.push(err(
                    &o.loc,
                    format!(
                        "this {} at ({:.2}, {:.2}) is inside a wall",
                        o.kind.name(),
                        o.pos.x,
                        o.pos.y
                    ),
                ));
                break;
            }
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(WorldErrors(errors))
    }
}

/// Robots and goals inside furniture: in a place walls close off within the floor the
/// robots stand on (a cupboard, a desk drawn as a box, a room without a door), where no
/// robot can get to or from; and goals no robot fits on (within a robot's radius of a
/// wall).
fn furniture(
    spec: &WorldSpec,
    errors: &mut Vec<WorldError>,
    err: &dyn Fn(&Option<crate::error::Location>, String) -> WorldError,
) {
    use crate::enclosure::{depth_bound, Enclosures};
    let segments: Vec<Segment> = spec.walls.iter().map(|w| w.segment).collect();
    // the grid only when a straight line out does not rule furniture out
    let bound = |p: Vec2| depth_bound(&segments, p);
    let robots_least = spec.robots.iter().map(|r| bound(r.pose.position())).min();
    let goals_most = spec.goals.iter().map(|g| bound(g.pos)).max();
    let robots_most = spec.robots.iter().map(|r| bound(r.pose.position())).max();
    let may_be_walled_in = robots_most.is_some_and(|b| b >= 2)
        || goals_most.is_some_and(|b| b >= 2 || (b >= 1 && robots_least == Some(0)));
    if !may_be_walled_in {
        goals_inside_walls(spec, errors, err, &[]);
        return;
    }
    let regions = Enclosures::new(&segments);
    let depths: Vec<Option<u32>> = spec
        .robots
        .iter()
        .map(|r| regions.depth_at(r.pose.position()))
        .collect();
    // the floor: the least walled-in place a robot stands on
    let floor = depths.iter().flatten().copied().min().unwrap_or(0);
    let walled_in = |d: Option<u32>| d.is_some_and(|d| d >= 2 || d > floor);
    const WHY: &str = "walls close that place off within the floor around it (a piece of furniture drawn as a box, or a room without a door), so no robot can get in or out";
    for (r, &d) in spec.robots.iter().zip(depths.iter()) {
        if walled_in(d) {
            let p = r.pose.position();
            errors.push(err(
                &r.loc,
                format!(
                    "robot `{}` at ({:.2}, {:.2}) is inside furniture: {WHY}; move it onto the floor",
                    r.name, p.x, p.y
                ),
            ));
        }
    }
    let mut inside = Vec::new();
    for (i, g) in spec.goals.iter().enumerate() {
        let loc = goal_location(spec, i);
        let (p, name) = (g.pos, &g.name);
        if walled_in(regions.depth_at(p)) {
            inside.push(i);
            errors.push(err(
                &loc,
                format!(
                    "goal `{name}` at ({:.2}, {:.2}) is inside furniture: {WHY}; move the goal onto the floor",
                    p.x, p.y
                ),
            ));
        }
    }
    goals_inside_walls(spec, errors, err, &inside);
}

/// Where the goals a world file names were written.
fn goal_location(spec: &WorldSpec, i: usize) -> Option<crate::error::Location> {
    spec.goal_locations
        .iter()
        .find(|(k, _)| *k == i)
        .map(|(_, l)| l.clone())
}

/// Goals no robot fits on: within a robot's radius of a wall (but for those in `skip`,
/// already refused).
fn goals_inside_walls(
    spec: &WorldSpec,
    errors: &mut Vec<WorldError>,
    err: &dyn Fn(&Option<crate::error::Location>, String) -> WorldError,
    skip: &[usize],
) {
    for (i, g) in spec.goals.iter().enumerate() {
        if skip.contains(&i) {
            continue;
        }
        let (p, name) = (g.pos, &g.name);
        if let Some(d) = spec
            .walls
            .iter()
            .map(|w| w.segment.closest_point(p).dist(p))
            .find(|&d| d < params::RADIUS)
        {
            errors.push(err(
                &goal_location(spec, i),
                format!(
                    "goal `{name}` at ({:.2}, {:.2}) is inside a wall: a wall passes {d:.2} m from it, and a Pioneer's centre stays {:.2} m from walls; move the goal away from the wall",
                    p.x, p.y, params::RADIUS
                ),
            ));
        }
    }
}

impl World for GroundWorld {
    fn len(&self) -> usize {
        self.robots.len()
    }
    fn vehicle(&self, i: usize) -> Option<&dyn Vehicle> {
        self.robots.get(i).map(|r| r as &dyn Vehicle)
    }
    fn vehicle_mut(&mut self, i: usize) -> Option<&mut dyn Vehicle> {
        self.robots.get_mut(i).map(|r| r as &mut dyn Vehicle)
    }
    fn advance(&mut self, now: Duration, dt: Duration, events: &mut Events) {
        let total = dt.as_secs_f64();
        let steps = ((total / MAX_STEP).ceil() as usize).max(1);
        let h = total / steps as f64;
        for k in 0..steps {
            let t = now + dt.mul_f64(k as f64 / steps as f64);
            // no robot can move further than this in the step: index circles grown by it
            let reach = self.robots.iter().fold(0.0f64, |m, r| {
                m.max((r.motion.v.abs() + r.motion.accel.max(r.motion.decel) * h) * h)
            });
            self.index_robots_with(reach + 1e-3);
            for i in 0..self.robots.len() {
                self.step_robot(i, h, t, events);
            }
            self.step_objects(h, t, events);
        }
        // sensing needs only the exact circles
        self.index_robots_with(0.0);
        self.sense_all(now + dt, Some(dt));
    }
    fn describe(&self) -> serde_json::Value {
        let (lo, hi) = self.space.bounds();
        serde_json::json!({
            "kind": "ground",
            "name": self.name,
            "bounds": [lo.x, lo.y, hi.x, hi.y],
            "walls": self.space.segments().iter().map(|s| [s.a.x, s.a.y, s.b.x, s.b.y]).collect::<Vec<_>>(),
            "goals": self.goals.iter().map(|g| serde_json::json!({"name": g.name, "x": g.pos.x, "y": g.pos.y, "heading": g.heading})).collect::<Vec<_>>(),
            "landmarks": self.landmarks.iter().map(|g| serde_json::json!({"name": g.name, "x": g.pos.x, "y": g.pos.y})).collect::<Vec<_>>(),
            "points": self.points.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
            "robot_radius": params::RADIUS,
        })
    }
    fn summary(&self, out: &mut serde_json::Map<String, serde_json::Value>) {
        out.insert("noise".into(), self.settings.noise_summary().into());
        out.insert("seed".into(), self.seed.into());
    }
    fn objects(&self) -> serde_json::Value {
        serde_json::Value::Array(
            self.objects
                .iter()
                .map(|o| serde_json::json!({"kind": o.kind.name(), "x": o.pos.x, "y": o.pos.y, "z": o.z, "r": o.radius, "held_by": o.held_by}))
                .collect(),
        )
    }
}
