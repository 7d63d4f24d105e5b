//! The Skipper world file (`*.world`): a line-oriented text format for ground worlds.
//!
//! ```text
//! # an office: lengths in metres, angles in degrees, '#' starts a comment
//! world office
//! set laser_range 8                 # settings (see below)
//! wall -10 -5 10 -5                 # wall x1 y1 x2 y2
//! box 0 0 25 25                     # the 4 walls of a rectangle: box cx cy width height [yaw]
//! ball 1.5 0                        # ball x y [radius]
//! can 2 1                           # can x y [radius]
//! robot alice 0 0 90 digin=0x0f     # robot name x y [yaw] [key=value ...]
//! goal dock 4 3 180                 # a named goal: goal name x y [heading]
//! landmark blue_goal 4.5 0          # a landmark robots perceive: landmark name x y
//! map lab.map                       # walls, goals and home of a MobileSim/ARIA map
//! origin 42.1234567 -71.7654321 60  # the origin on the globe: origin LAT LON [ALT]
//! ```
//!
//! Robot options: `model=p3dx` (or `splinter`, the SPS robot: see `ground::models`), `digin=<byte>`, `analog<N>=<0..1023>`, `battery=<volts>`,
//! `gripper=yes|no`, `laser=yes|no`. Settings: `laser_range`, `sonar_range`,
//! `sonar_period` (s between pings of one sonar array; 0 = every sonar every cycle),
//! `odometry_noise` (fraction of distance), `sonar_noise` and `laser_noise` (m),
//! `temperature` (°C), `grid_cell` (m), `camera_fov` (deg), `camera_range` (m).
//! The frame is x east (right), y north (up), yaw counter-clockwise from +x. `origin`
//! places (0, 0) on the globe (WGS84 degrees, altitude in metres, 0 if left out) for the
//! simulated GPS; a `map` with an `OriginLatLongAlt` gives the world its origin unless an
//! `origin` line says otherwise.

use crate::error::{Location, WorldError};
use crate::spatial::Segment;
use crate::spec::{GeoOrigin, ObjectKind, ObjectSpec, PlaceSpec, RobotSpec, WallSpec, WorldSpec};
use skipper_core::{Pose2, Vec2};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Every error of a world file that does not load.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct WorldErrors(pub Vec<WorldError>);

impl fmt::Display for WorldErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            match e {
                // a diagnostic says `error:` after its location
                WorldError::At { .. } => write!(f, "{e}")?,
                WorldError::Io { .. } => write!(f, "error: {e}")?,
            }
        }
        Ok(())
    }
}

impl From<WorldError> for WorldErrors {
    fn from(e: WorldError) -> Self {
        WorldErrors(vec![e])
    }
}

/// A token with its column (from 1, in characters) and width.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token<'a> {
    pub text: &'a str,
    pub col: usize,
    pub len: usize,
}

/// Split a line into whitespace-separated tokens, dropping a `#` comment; a token in
/// double quotes may contain spaces (the quotes are not part of it).
pub(crate) fn tokens(line: &str, comment: bool) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    let mut chars = line.char_indices().enumerate().peekable();
    while let Some((col, (byte, c))) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        if comment && c == '#' {
            break;
        }
        if c == '"' {
            let start = byte + 1;
            let mut end = line.len();
            let mut width = 1;
            for (_, (b, c2)) in chars.by_ref() {
                width += 1;
                if c2 == '"' {
                    end = b;
                    break;
                }
            }
            out.push(Token {
                text: line.get(start..end).unwrap_or(""),
                col: col + 1,
                len: width,
            });
            continue;
        }
        let mut end = byte + c.len_utf8();
        let mut width = 1;
        while let Some(&(_, (b, c2))) = chars.peek() {
            if c2.is_whitespace() {
                break;
            }
            end = b + c2.len_utf8();
            width += 1;
            chars.next();
        }
        out.push(Token {
            text: &line[byte..end],
            col: col + 1,
            len: width,
        });
    }
    out
}

pub(crate) struct LineCtx<'a> {
    pub file: &'a Arc<str>,
    pub line: usize,
    pub text: &'a Arc<str>,
}

impl LineCtx<'_> {
    pub fn loc(&self, t: &Token<'_>) -> Location {
        Location {
            file: self.file.clone(),
            line: self.line,
            col: t.col,
            len: t.len,
            text: self.text.clone(),
        }
    }
    pub fn end_loc(&self) -> Location {
        let n = self.text.trim_end().chars().count();
        Location {
            file: self.file.clone(),
            line: self.line,
            col: n + 1,
            len: 1,
            text: self.text.clone(),
        }
    }
    pub fn err(&self, t: &Token<'_>, msg: impl Into<String>) -> WorldError {
        WorldError::at(&self.loc(t), msg)
    }
    pub fn number(&self, t: Option<&Token<'_>>, what: &str) -> Result<f64, WorldError> {
        let Some(t) = t else {
            return Err(WorldError::at(
                &self.end_loc(),
                format!("expected a number for {what} here, found the end of the line"),
            ));
        };
        match t.text.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(self.err(
                t,
                format!("expected a number for {what}, found `{}`", t.text),
            )),
        }
    }
}

const KEYWORDS: &str = "world, set, wall, box, ball, can, robot, goal, landmark, map, origin";

/// What parsing a file remembers from one line to the next.
#[derive(Default)]
struct FileState {
    /// the line of the `origin` line, once one was read
    origin_line: Option<usize>,
}

/// Parse a world file's text. `file` names it in errors; `base` resolves `map` paths.
pub fn parse_world(text: &str, file: &str, base: Option<&Path>) -> Result<WorldSpec, WorldErrors> {
    let file: Arc<str> = file.into();
    let mut spec = WorldSpec {
        name: Path::new(&*file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        file: file.to_string(),
        ..Default::default()
    };
    let mut errors = Vec::new();
    let mut state = FileState::default();
    for (i, raw) in text.lines().enumerate() {
        let text: Arc<str> = raw.into();
        let ctx = LineCtx {
            file: &file,
            line: i + 1,
            text: &text,
        };
        let toks = tokens(raw, true);
        let Some(head) = toks.first() else { continue };
        if let Err(e) = parse_line(&ctx, head, &toks[1..], &mut spec, &mut state, base) {
            errors.extend(e.0);
        }
    }
    if errors.is_empty() {
        Ok(spec)
    } else {
        Err(WorldErrors(errors))
    }
}

fn expect_count(
    ctx: &LineCtx<'_>,
    head: &Token<'_>,
    args: &[Token<'_>],
    min: usize,
    max: usize,
    usage: &str,
) -> Result<(), WorldError> {
    if args.len() < min {
        return Err(WorldError::at(
            &ctx.end_loc(),
            format!(
                "`{}` needs {min} values here, found {}: write `{usage}`",
                head.text,
                args.len()
            ),
        ));
    }
    if args.len() > max {
        return Err(ctx.err(
            &args[max],
            format!(
                "unexpected `{}`: `{}` takes at most {max} values (`{usage}`)",
                args[max].text, head.text
            ),
        ));
    }
    Ok(())
}

fn name_ok(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn parse_line(
    ctx: &LineCtx<'_>,
    head: &Token<'_>,
    args: &[Token<'_>],
    spec: &mut WorldSpec,
    state: &mut FileState,
    base: Option<&Path>,
) -> Result<(), WorldErrors> {
    let loc = Some(ctx.loc(head));
    match head.text {
        "world" => {
            expect_count(ctx, head, args, 1, 1, "world NAME")?;
            spec.name = args[0].text.to_string();
        }
        "set" => {
            expect_count(ctx, head, args, 2, 2, "set KEY VALUE")?;
            let v = ctx.number(args.get(1), args[0].text)?;
            let s = &mut spec.settings;
            let (slot, min) = match args[0].text {
                "laser_range" => (&mut s.laser_range, 0.1),
                "sonar_range" => (&mut s.sonar_range, 0.1),
                "sonar_period" => (&mut s.sonar_period, 0.0),
                "odometry_noise" => (&mut s.odometry_noise, 0.0),
                "sonar_noise" => (&mut s.sonar_noise, 0.0),
                "laser_noise" => (&mut s.laser_noise, 0.0),
                "temperature" => (&mut s.temperature, -273.15),
                "grid_cell" => (&mut s.grid_cell, 0.1),
                "camera_fov" => (&mut s.camera_fov, 1.0),
                "camera_range" => (&mut s.camera_range, 0.1),
                other => {
                    return Err(ctx
                        .err(&args[0], format!("unknown setting `{other}`; expected one of laser_range, sonar_range, sonar_period, odometry_noise, sonar_noise, laser_noise, temperature, grid_cell, camera_fov, camera_range"))
                        .into())
                }
            };
            if v < min {
                return Err(ctx
                    .err(
                        &args[1],
                        format!("`{}` must be at least {min}", args[0].text),
                    )
                    .into());
            }
            *slot = v;
        }
        "wall" => {
            expect_count(ctx, head, args, 4, 4, "wall X1 Y1 X2 Y2")?;
            let n: Vec<f64> = ["x1", "y1", "x2", "y2"]
                .iter()
                .enumerate()
                .map(|(i, w)| ctx.number(args.get(i), w))
                .collect::<Result<_, _>>()?;
            let seg = Segment {
                a: Vec2::new(n[0], n[1]),
                b: Vec2::new(n[2], n[3]),
            };
            if seg.a.dist(seg.b) < 1e-6 {
                return Err(ctx
                    .err(
                        head,
                        "this wall has no length: its two ends are the same point",
                    )
                    .into());
            }
            spec.walls.push(WallSpec { segment: seg, loc });
        }
        "box" => {
            expect_count(ctx, head, args, 4, 5, "box CX CY WIDTH HEIGHT [YAW]")?;
            let cx = ctx.number(args.first(), "the centre's x")?;
            let cy = ctx.number(args.get(1), "the centre's y")?;
            let w = ctx.number(args.get(2), "width")?;
            let h = ctx.number(args.get(3), "height")?;
            if w <= 0.0 {
                return Err(ctx.err(&args[2], "width must be positive").into());
            }
            if h <= 0.0 {
                return Err(ctx.err(&args[3], "height must be positive").into());
            }
            let yaw = if args.len() > 4 {
                ctx.number(args.get(4), "yaw")?
            } else {
                0.0
            };
            spec.add_box(Vec2::new(cx, cy), w, h, yaw.to_radians(), loc);
        }
        "ball" | "can" => {
            let kind = if head.text == "ball" {
                ObjectKind::Ball
            } else {
                ObjectKind::Can
            };
            expect_count(
                ctx,
                head,
                args,
                2,
                3,
                &format!("{} X Y [RADIUS]", head.text),
            )?;
            let x = ctx.number(args.first(), "x")?;
            let y = ctx.number(args.get(1), "y")?;
            let radius = if args.len() > 2 {
                ctx.number(args.get(2), "radius")?
            } else {
                kind.default_radius()
            };
            if !(0.005..=0.1).contains(&radius) {
                return Err(ctx
                    .err(
                        &args[2],
                        "the radius must be between 0.005 and 0.1 m to fit the gripper",
                    )
                    .into());
            }
            spec.objects.push(ObjectSpec {
                kind,
                pos: Vec2::new(x, y),
                radius,
                loc,
            });
        }
        "robot" => {
            if args.len() < 3 {
                return Err(WorldError::at(
                    &ctx.end_loc(),
                    "`robot` needs a name, x and y: write `robot NAME X Y [YAW] [key=value ...]`",
                )
                .into());
            }
            if !name_ok(args[0].text) {
                return Err(ctx
                    .err(
                        &args[0],
                        format!(
                            "`{}` is not a robot name: use letters, digits, `_` and `-`",
                            args[0].text
                        ),
                    )
                    .into());
            }
            let x = ctx.number(args.get(1), "x")?;
            let y = ctx.number(args.get(2), "y")?;
            let mut rest = &args[3..];
            let mut yaw = 0.0;
            if let Some(t) = rest.first() {
                if !t.text.contains('=') {
                    yaw = ctx.number(Some(t), "yaw")?;
                    rest = &rest[1..];
                }
            }
            let mut r = RobotSpec::new(args[0].text, Pose2::new(x, y, yaw.to_radians()));
            r.loc = Some(ctx.loc(&args[0]));
            for t in rest {
                robot_option(ctx, t, &mut r)?;
            }
            if spec.robots.iter().any(|o| o.name == r.name) {
                return Err(ctx
                    .err(
                        &args[0],
                        format!(
                            "a robot named `{}` already exists; robot names must be unique",
                            r.name
                        ),
                    )
                    .into());
            }
            spec.robots.push(r);
        }
        "goal" | "landmark" => {
            expect_count(
                ctx,
                head,
                args,
                3,
                4,
                &format!("{} NAME X Y [HEADING]", head.text),
            )?;
            let x = ctx.number(args.get(1), "x")?;
            let y = ctx.number(args.get(2), "y")?;
            let heading = if args.len() > 3 {
                Some(ctx.number(args.get(3), "heading")?.to_radians())
            } else {
                None
            };
            let place = PlaceSpec {
                name: args[0].text.to_string(),
                pos: Vec2::new(x, y),
                heading,
            };
            if head.text == "goal" {
                spec.goal_locations
                    .push((spec.goals.len(), ctx.loc(&args[0])));
                spec.goals.push(place);
            } else {
                spec.landmarks.push(place);
            }
        }
        "map" => {
            expect_count(ctx, head, args, 1, 1, "map PATH.map")?;
            let p = PathBuf::from(args[0].text);
            let path = match base {
                Some(b) if p.is_relative() => b.join(p),
                _ => p,
            };
            let text = std::fs::read_to_string(&path).map_err(|e| {
                ctx.err(
                    &args[0],
                    format!("cannot read map `{}`: {e}", path.display()),
                )
            })?;
            let m = crate::map_file::parse_map(&text, &path.display().to_string())?;
            spec.walls.extend(m.walls);
            spec.goals.extend(m.goals);
            spec.points.extend(m.points);
            if spec.robots.is_empty() {
                spec.robots.extend(m.robots);
            }
            if spec.origin.is_none() {
                spec.origin = m.origin;
            }
        }
        "origin" => {
            expect_count(
                ctx,
                head,
                args,
                2,
                3,
                "origin LATITUDE LONGITUDE [ALTITUDE]",
            )?;
            if let Some(line) = state.origin_line {
                return Err(ctx
                    .err(head, format!("the origin is already set on line {line}"))
                    .into());
            }
            let lat = ctx.number(args.first(), "the latitude")?;
            let lon = ctx.number(args.get(1), "the longitude")?;
            let alt = match args.get(2) {
                Some(t) => ctx.number(Some(t), "the altitude")?,
                None => 0.0,
            };
            let origin = GeoOrigin::new(lat, lon, alt).map_err(|e| {
                let at = args.get(e.position()).unwrap_or(head);
                ctx.err(at, e.to_string())
            })?;
            spec.origin = Some(origin);
            state.origin_line = Some(ctx.line);
        }
        other => {
            return Err(ctx
                .err(
                    head,
                    format!("unknown keyword `{other}`; expected one of {KEYWORDS}"),
                )
                .into());
        }
    }
    Ok(())
}

fn robot_option(ctx: &LineCtx<'_>, t: &Token<'_>, r: &mut RobotSpec) -> Result<(), WorldError> {
    let Some((k, v)) = t.text.split_once('=') else {
        return Err(ctx.err(
            t,
            format!("expected an option `key=value` here, found `{}`", t.text),
        ));
    };
    let int = |v: &str| -> Option<i64> {
        if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
            i64::from_str_radix(h, 16).ok()
        } else if let Some(b) = v.strip_prefix("0b") {
            i64::from_str_radix(b, 2).ok()
        } else {
            v.parse().ok()
        }
    };
    let yesno = |v: &str| match v {
        "yes" | "true" | "1" | "on" => Some(true),
        "no" | "false" | "0" | "off" => Some(false),
        _ => None,
    };
    match k {
        "model" => {
            if crate::ground::models::motion_model(v).is_none() {
                let expected = crate::ground::models::expected();
                return Err(ctx.err(t, format!("unknown model `{v}`; {expected}")));
            }
            r.model = v.to_string();
        }
        "digin" => match int(v) {
            Some(b) if (0..=255).contains(&b) => r.digin = b as u8,
            _ => {
                return Err(ctx.err(
                    t,
                    format!("`digin` must be a byte (0..255, 0x.., 0b..), found `{v}`"),
                ))
            }
        },
        "battery" => match v.parse::<f64>() {
            Ok(b) if (6.0..=30.0).contains(&b) => r.battery = b,
            _ => {
                return Err(ctx.err(
                    t,
                    format!("`battery` must be a voltage between 6 and 30, found `{v}`"),
                ))
            }
        },
        "gripper" | "laser" => match yesno(v) {
            Some(b) if k == "gripper" => r.gripper = b,
            Some(b) => r.laser = b,
            None => return Err(ctx.err(t, format!("`{k}` must be yes or no, found `{v}`"))),
        },
        _ if k.starts_with("analog") => {
            let port = k["analog".len()..].parse::<usize>().ok().filter(|p| *p < 8);
            let val = int(v).filter(|x| (0..=1023).contains(x));
            match (port, val) {
                (Some(p), Some(x)) => r.analog[p] = x as u16,
                (None, _) => {
                    return Err(ctx.err(
                        t,
                        format!("unknown analog port in `{k}`; expected analog0 .. analog7"),
                    ))
                }
                (_, None) => {
                    return Err(ctx.err(t, format!("an analog value must be 0..1023, found `{v}`")))
                }
            }
        }
        _ => {
            return Err(ctx.err(t, format!("unknown robot option `{k}`; expected model, digin, analog0..analog7, battery, gripper, laser")));
        }
    }
    Ok(())
}

/// Load a world from a file: `*.map` files are read as MobileSim/ARIA maps, anything else
/// as a Skipper world file.
pub fn load_world(path: &Path) -> Result<WorldSpec, WorldErrors> {
    let text = std::fs::read_to_string(path).map_err(|e| WorldError::Io {
        file: path.display().to_string(),
        message: format!("cannot read the world file: {e}"),
    })?;
    let name = path.display().to_string();
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("map"))
    {
        crate::map_file::parse_map(&text, &name)
    } else {
        parse_world(&text, &name, path.parent())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_have_columns() {
        let t = tokens("  wall 1 2 # comment", true);
        assert_eq!(t.len(), 3);
        assert_eq!((t[0].text, t[0].col, t[0].len), ("wall", 3, 4));
        assert_eq!((t[2].text, t[2].col), ("2", 10));
        let q = tokens(r#"Cairn: Goal 1 2 0 "" ICON "kitchen door""#, false);
        assert_eq!(q[5].text, "");
        assert_eq!(q[7].text, "kitchen door");
    }
}
