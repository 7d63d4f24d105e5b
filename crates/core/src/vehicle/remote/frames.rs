//! Where a remote robot's sensors sit on its base, from the transforms it publishes
//! (`/tf_static`, `/tf`): a small tree of child → parent transforms, and the mount of a
//! sensor frame on the base frame, projected on the ground plane (position, heading, and
//! whether the sensor is upside down, which reverses a scan's direction).

use std::collections::HashMap;

/// The most frames kept (a robot's tree has tens; a flood of names is not kept).
const MAX_FRAMES: usize = 1024;

/// A rigid transform: the child frame's origin and orientation in its parent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transform {
    /// translation (m)
    pub translation: [f64; 3],
    /// rotation as a quaternion `[x, y, z, w]`
    pub rotation: [f64; 4],
}

impl Transform {
    /// No translation, no rotation.
    pub const IDENTITY: Self = Self {
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
    };

    /// `None` unless every number is finite and the rotation has a length.
    pub fn checked(self) -> Option<Self> {
        let finite = self
            .translation
            .iter()
            .chain(&self.rotation)
            .all(|v| v.is_finite());
        let n = self.rotation.iter().map(|v| v * v).sum::<f64>().sqrt();
        (finite && n > 1e-9).then(|| Self {
            rotation: self.rotation.map(|v| v / n),
            ..self
        })
    }

    /// `self` then `inner` (`inner` given in `self`'s child frame): the pose of
    /// `inner`'s child in `self`'s parent.
    fn then(&self, inner: &Transform) -> Transform {
        let t = rotate(self.rotation, inner.translation);
        Transform {
            translation: [
                self.translation[0] + t[0],
                self.translation[1] + t[1],
                self.translation[2] + t[2],
            ],
            rotation: mul(self.rotation, inner.rotation),
        }
    }
}

fn mul(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

fn rotate(q: [f64; 4], v: [f64; 3]) -> [f64; 3] {
    let p = mul(mul(q, [v[0], v[1], v[2], 0.0]), [-q[0], -q[1], -q[2], q[3]]);
    [p[0], p[1], p[2]]
}

/// A sensor's place on the base, on the ground plane.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mount {
    /// ahead of the base frame's origin (m)
    pub x: f64,
    /// left of it (m)
    pub y: f64,
    /// the direction of the sensor's x axis (rad, counter-clockwise)
    pub yaw: f64,
    /// the sensor's z axis points down: its counter-clockwise is the base's clockwise
    pub upside_down: bool,
}

impl Mount {
    /// At the base's origin, facing ahead.
    pub const AT_BASE: Self = Self {
        x: 0.0,
        y: 0.0,
        yaw: 0.0,
        upside_down: false,
    };

    fn of(t: &Transform) -> Self {
        let x_axis = rotate(t.rotation, [1.0, 0.0, 0.0]);
        let z_axis = rotate(t.rotation, [0.0, 0.0, 1.0]);
        Self {
            x: t.translation[0],
            y: t.translation[1],
            yaw: x_axis[1].atan2(x_axis[0]),
            upside_down: z_axis[2] < 0.0,
        }
    }
}

/// A frame name as tf2 keeps it: without a leading `/` (ROS 1's tf wrote one).
pub fn frame_name(name: &str) -> &str {
    name.trim_start_matches('/')
}

/// The transforms heard so far, child → (parent, transform).
#[derive(Debug, Default, Clone)]
pub struct FrameTree {
    parents: HashMap<String, (String, Transform)>,
}

impl FrameTree {
    /// Keep `child`'s transform in `parent` (the newest wins). `false` when it was not
    /// kept: a number not finite, a frame naming itself, or too many frames.
    pub fn set(&mut self, parent: &str, child: &str, t: Transform) -> bool {
        let (parent, child) = (frame_name(parent), frame_name(child));
        let Some(t) = t.checked() else {
            return false;
        };
        if parent == child || parent.is_empty() || child.is_empty() {
            return false;
        }
        let room = self.parents.len() < MAX_FRAMES;
        match self.parents.get_mut(child) {
            Some(slot) => {
                if slot.0 != parent {
                    slot.0 = parent.to_string();
                }
                slot.1 = t;
            }
            None if room => {
                self.parents
                    .insert(child.to_string(), (parent.to_string(), t));
            }
            None => return false,
        }
        true
    }

    /// Is `frame` known (as a child) at all?
    pub fn knows(&self, frame: &str) -> bool {
        self.parents.contains_key(frame_name(frame))
    }

    /// Where `frame` sits on `base`: its chain of parents up to `base`, composed. `None`
    /// if the chain does not reach `base` (a transform not heard yet, or another tree).
    pub fn mount(&self, frame: &str, base: &str) -> Option<Mount> {
        let (mut at, base) = (frame_name(frame), frame_name(base));
        let mut t = Transform::IDENTITY;
        for _ in 0..=self.parents.len() {
            if at == base {
                return Some(Mount::of(&t));
            }
            let (parent, up) = self.parents.get(at)?;
            t = up.then(&t);
            at = parent;
        }
        None // a cycle
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yaw(a: f64) -> [f64; 4] {
        [0.0, 0.0, (a / 2.0).sin(), (a / 2.0).cos()]
    }

    fn at(x: f64, y: f64, q: [f64; 4]) -> Transform {
        Transform {
            translation: [x, y, 0.2],
            rotation: q,
        }
    }

    #[test]
    fn a_chain_of_transforms_composes_to_the_mount() {
        let mut tree = FrameTree::default();
        assert!(tree.set("base_footprint", "base_link", at(0.0, 0.0, yaw(0.0))));
        assert!(tree.set("/base_link", "/laser_mount", at(0.1, 0.0, yaw(0.5))));
        assert!(tree.set("laser_mount", "laser", at(0.1, 0.0, yaw(0.5))));
        let m = tree.mount("laser", "base_footprint").unwrap();
        assert!((m.x - (0.1 + 0.1 * 0.5f64.cos())).abs() < 1e-9, "{m:?}");
        assert!((m.y - 0.1 * 0.5f64.sin()).abs() < 1e-9, "{m:?}");
        assert!((m.yaw - 1.0).abs() < 1e-9 && !m.upside_down, "{m:?}");
        assert_eq!(tree.mount("laser", "laser"), Some(Mount::AT_BASE));
        assert_eq!(tree.mount("laser", "odom"), None);
        assert_eq!(tree.mount("sonar_0", "base_link"), None);
    }

    #[test]
    fn an_upside_down_laser_is_told() {
        let mut tree = FrameTree::default();
        // rolled by pi about x: z points down, x still ahead
        tree.set("base_link", "laser", at(0.2, 0.0, [1.0, 0.0, 0.0, 0.0]));
        let m = tree.mount("laser", "base_link").unwrap();
        assert!(m.upside_down && m.yaw.abs() < 1e-9, "{m:?}");
    }

    #[test]
    fn bad_transforms_are_not_kept_and_cycles_end() {
        let mut tree = FrameTree::default();
        assert!(!tree.set("a", "b", at(f64::NAN, 0.0, yaw(0.0))));
        assert!(!tree.set("a", "b", at(0.0, 0.0, [0.0; 4])));
        assert!(!tree.set("a", "a", at(0.0, 0.0, yaw(0.0))));
        assert!(tree.set("a", "b", at(0.0, 0.0, yaw(0.0))));
        assert!(tree.set("b", "a", at(0.0, 0.0, yaw(0.0))));
        assert_eq!(tree.mount("a", "base"), None);
    }
}
