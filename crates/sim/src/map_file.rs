//! Import of MobileSim/ARIA map files (`*.map`, "2D-Map"), the maps Pioneer users have.
//!
//! Lengths in a map are millimetres and angles degrees; they become metres and radians.
//! `LINES` become walls; `DATA` points are kept for drawing (as in MobileSim, the lines
//! are the obstacles); `Cairn: RobotHome` cairns become robot start poses (`robot1`,
//! `robot2`, ...), `Goal`, `GoalWithHeading` and `Dock` cairns become named goals;
//! `OriginLatLongAlt: LAT LON ALT` (degrees, degrees, metres) places the map's origin on
//! the globe, x east and y north (a line with no values says there is none, as in ARIA).
//! Header lines Skipper does not need are accepted and ignored, as are later format
//! variants (`2D-Map-Ex4`).

use crate::error::WorldError;
use crate::spatial::Segment;
use crate::spec::{GeoOrigin, PlaceSpec, RobotSpec, WallSpec, WorldSpec};
use crate::world_file::{tokens, LineCtx, WorldErrors};
use skipper_core::{Pose2, Vec2};
use std::sync::Arc;

#[derive(PartialEq)]
enum Section {
    Header,
    Lines,
    Data,
}

/// Parse the text of a `.map` file; `file` names it in errors.
pub fn parse_map(text: &str, file: &str) -> Result<WorldSpec, WorldErrors> {
    let file: Arc<str> = file.into();
    let mut spec = WorldSpec {
        name: std::path::Path::new(&*file)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
        file: file.to_string(),
        ..Default::default()
    };
    let mut errors = Vec::new();
    let mut section = Section::Header;
    let mut seen_magic = false;
    for (i, raw) in text.lines().enumerate() {
        let text: Arc<str> = raw.trim_end_matches('\r').into();
        let ctx = LineCtx {
            file: &file,
            line: i + 1,
            text: &text,
        };
        let toks = tokens(&text, false);
        let Some(head) = toks.first() else { continue };
        if !seen_magic {
            if head.text.starts_with("2D-Map") {
                seen_magic = true;
                continue;
            }
            errors.push(ctx.err(
                head,
                format!(
                    "expected `2D-Map` on the first line of a map file, found `{}`",
                    head.text
                ),
            ));
            break;
        }
        match head.text {
            "LINES" => {
                section = Section::Lines;
                continue;
            }
            "DATA" => {
                section = Section::Data;
                continue;
            }
            _ => {}
        }
        let r = match section {
            Section::Header if head.text == "Cairn:" => cairn(&ctx, &toks[1..], &mut spec),
            Section::Header if head.text == "OriginLatLongAlt:" => {
                origin(&ctx, &toks[1..]).map(|o| spec.origin = o)
            }
            Section::Header => Ok(()), // MinPos:, NumLines:, MapInfo:, ... not needed
            Section::Lines => numbers::<4>(&ctx, &toks, ["x1", "y1", "x2", "y2"]).map(|n| {
                let seg = Segment {
                    a: Vec2::new(n[0], n[1]) * 0.001,
                    b: Vec2::new(n[2], n[3]) * 0.001,
                };
                if seg.a.dist(seg.b) > 0.0 {
                    spec.walls.push(WallSpec {
                        segment: seg,
                        loc: Some(ctx.loc(head)),
                    });
                }
            }),
            Section::Data => numbers::<2>(&ctx, &toks, ["x", "y"])
                .map(|n| spec.points.push(Vec2::new(n[0], n[1]) * 0.001)),
        };
        if let Err(e) = r {
            errors.push(e);
        }
    }
    if !seen_magic && errors.is_empty() {
        errors.push(WorldError::Io {
            file: file.to_string(),
            message: "this map file is empty; expected `2D-Map` on the first line".into(),
        });
    }
    if errors.is_empty() {
        Ok(spec)
    } else {
        Err(WorldErrors(errors))
    }
}

fn numbers<const N: usize>(
    ctx: &LineCtx<'_>,
    toks: &[crate::world_file::Token<'_>],
    names: [&str; N],
) -> Result<[f64; N], WorldError> {
    let mut out = [0.0; N];
    for (i, name) in names.iter().enumerate() {
        out[i] = ctx.number(toks.get(i), name)?;
    }
    if let Some(t) = toks.get(N) {
        return Err(ctx.err(
            t,
            format!(
                "unexpected `{}`: this section has {N} numbers per line",
                t.text
            ),
        ));
    }
    Ok(out)
}

/// `OriginLatLongAlt:` with latitude, longitude and altitude, or with nothing (no origin).
fn origin(
    ctx: &LineCtx<'_>,
    args: &[crate::world_file::Token<'_>],
) -> Result<Option<GeoOrigin>, WorldError> {
    if args.is_empty() {
        return Ok(None);
    }
    let [lat, lon, alt] = numbers::<3>(ctx, args, ["latitude", "longitude", "altitude"])?;
    GeoOrigin::new(lat, lon, alt).map(Some).map_err(|e| {
        let loc = args
            .get(e.position())
            .map_or_else(|| ctx.end_loc(), |t| ctx.loc(t));
        WorldError::at(&loc, format!("OriginLatLongAlt: {e}"))
    })
}

fn cairn(
    ctx: &LineCtx<'_>,
    args: &[crate::world_file::Token<'_>],
    spec: &mut WorldSpec,
) -> Result<(), WorldError> {
    let Some(kind) = args.first() else {
        return Err(WorldError::at(
            &ctx.end_loc(),
            "expected a cairn type after `Cairn:` (RobotHome, Goal, GoalWithHeading, Dock, ...)",
        ));
    };
    let x = ctx.number(args.get(1), "x")? * 0.001;
    let y = ctx.number(args.get(2), "y")? * 0.001;
    let th = ctx.number(args.get(3), "th")?.to_radians();
    // the name follows ICON; the description is the first quoted string
    let name = args
        .iter()
        .position(|t| t.text == "ICON")
        .and_then(|i| args.get(i + 1))
        .map(|t| t.text)
        .filter(|s| !s.is_empty())
        .or_else(|| args.get(4).map(|t| t.text).filter(|s| !s.is_empty()));
    match kind.text {
        "RobotHome" => {
            let n = spec.robots.len() + 1;
            let mut r = RobotSpec::new(format!("robot{n}"), Pose2::new(x, y, th));
            r.loc = Some(ctx.loc(kind));
            spec.robots.push(r);
        }
        "Goal" | "GoalWithHeading" | "Dock" => {
            let n = spec.goals.len() + 1;
            spec.goals.push(PlaceSpec {
                name: name.map_or_else(|| format!("goal{n}"), str::to_string),
                pos: Vec2::new(x, y),
                heading: (kind.text != "Goal").then_some(th),
            });
        }
        _ => {} // ForbiddenLine, ForbiddenArea, ...: not simulated
    }
    Ok(())
}
