//! The depth and altitude profile of underwater vehicles.

use super::{err, legend, mark_lines, robot_color, style, swatch, Res, PLOT_W};
use crate::series::{Bound, EnvelopeBound};
use plotters::prelude::*;

/// One AUV's profile: depth, the seafloor under it, and its envelopes.
pub struct Profile {
    /// Robot index.
    pub robot: usize,
    /// Name.
    pub name: String,
    /// Depth over time (m, positive down).
    pub depth: Vec<(f64, f64)>,
    /// Seafloor depth (depth + altitude) where the altitude was valid.
    pub seafloor: Vec<(f64, f64)>,
    /// Envelope bounds.
    pub envelopes: Vec<EnvelopeBound>,
}

/// The depth and altitude profile of underwater vehicles: depth downward, the seafloor
/// (depth + altitude) under it, depth envelopes as dashed lines, altitude envelopes as
/// dashed lines above the seafloor. The seafloor and the envelopes have one legend entry
/// each (`seafloor`, `envelopes`), and each envelope is labelled with its bound.
pub fn profile_svg(profiles: &[Profile], t_end: f64) -> Res<String> {
    let mut deepest: f64 = 1.0;
    for p in profiles {
        for &(_, d) in p.depth.iter().chain(&p.seafloor) {
            if d.is_finite() {
                deepest = deepest.max(d);
            }
        }
        for e in &p.envelopes {
            if e.bound.is_depth() {
                deepest = deepest.max(e.value);
            }
        }
    }
    let bottom = -(deepest * 1.08);
    let t_end = t_end.max(1e-3);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (PLOT_W, 320)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(15)
            .caption("Depth and altitude", ("sans-serif", 18))
            .x_label_area_size(35)
            .y_label_area_size(55)
            .build_cartesian_2d(0.0..t_end, bottom..(deepest * 0.04))
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc("depth (m)")
            .y_label_formatter(&|v| format!("{:.0}", -v + 0.0))
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.08))
            .draw()
            .map_err(err)?;
        let neg = |s: &[(f64, f64)]| s.iter().map(|&(t, d)| (t, -d)).collect::<Vec<_>>();
        let (mut seafloor_named, mut envelopes_named) = (false, false);
        for p in profiles {
            let c = robot_color(p.robot);
            if !p.seafloor.is_empty() {
                let s = chart
                    .draw_series(LineSeries::new(
                        neg(&p.seafloor),
                        style::SEAFLOOR.stroke_width(2),
                    ))
                    .map_err(err)?;
                if !seafloor_named {
                    s.label(SEAFLOOR).legend(swatch(style::SEAFLOOR, 2));
                    seafloor_named = true;
                }
            }
            chart
                .draw_series(LineSeries::new(neg(&p.depth), c.stroke_width(2)))
                .map_err(err)?
                .label(depth_label(&p.name))
                .legend(swatch(c, 2));
            for e in &p.envelopes {
                let line: Vec<(f64, f64)> = if e.bound.is_depth() {
                    vec![(e.t0, -e.value), (e.t1, -e.value)]
                } else {
                    // an altitude bound is a depth limit that follows the seafloor
                    p.seafloor
                        .iter()
                        .filter(|(t, _)| *t >= e.t0 && *t <= e.t1)
                        .map(|&(t, floor)| (t, -(floor - e.value)))
                        .collect()
                };
                if line.len() < 2 {
                    continue;
                }
                let s = chart
                    .draw_series(DashedLineSeries::new(
                        line,
                        6,
                        4,
                        style::ENVELOPE.stroke_width(2),
                    ))
                    .map_err(err)?;
                if !envelopes_named {
                    s.label(ENVELOPES).legend(swatch(style::ENVELOPE, 2));
                    envelopes_named = true;
                }
                let at = if e.bound.is_depth() {
                    (e.t0, -e.value)
                } else {
                    (e.t0, bottom * 0.98)
                };
                let text = match e.bound {
                    Bound::MinDepth | Bound::MaxDepth => {
                        format!("{} {} m", e.bound.name(), e.value)
                    }
                    _ => format!("{} {} m", e.bound.name(), e.value),
                };
                chart
                    .draw_series(std::iter::once(Text::new(
                        text,
                        at,
                        ("sans-serif", 11).into_font().color(&style::ENVELOPE),
                    )))
                    .map_err(err)?;
            }
        }
        legend(&mut chart, SeriesLabelPosition::LowerLeft)?;
        root.present().map_err(err)?;
    }
    let mut legends: Vec<_> = profiles
        .iter()
        .map(|p| (robot_color(p.robot), crate::esc(&depth_label(&p.name))))
        .collect();
    legends.push((style::SEAFLOOR, SEAFLOOR.to_string()));
    legends.push((style::ENVELOPE, ENVELOPES.to_string()));
    Ok(mark_lines(&svg, &legends))
}

/// The legend entry of the seafloor under the vehicles.
const SEAFLOOR: &str = "seafloor";
/// The legend entry of the depth and altitude envelopes.
const ENVELOPES: &str = "envelopes";

fn depth_label(name: &str) -> String {
    format!("{name} depth")
}
