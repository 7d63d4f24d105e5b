//! The behavior timeline: a row per lane, a coloured box per value, a tick per event.

use super::{err, style, Res, PLOT_W};
use crate::lanes::{Lane, Source};
use plotters::prelude::*;

/// A colour for a value, the same every time.
pub(super) fn value_color(v: &str) -> RGBColor {
    const PASTEL: [RGBColor; 12] = [
        RGBColor(0xAE, 0xC7, 0xE8),
        RGBColor(0xFF, 0xBB, 0x78),
        RGBColor(0x98, 0xDF, 0x8A),
        RGBColor(0xFF, 0x98, 0x96),
        RGBColor(0xC5, 0xB0, 0xD5),
        RGBColor(0xC4, 0x9C, 0x94),
        RGBColor(0xF7, 0xB6, 0xD2),
        RGBColor(0xDB, 0xDB, 0x8D),
        RGBColor(0x9E, 0xDA, 0xE5),
        RGBColor(0xD9, 0xD9, 0xD9),
        RGBColor(0xBC, 0xE4, 0xB5),
        RGBColor(0xFD, 0xD0, 0xA2),
    ];
    // FNV-1a: stable across runs and builds
    let h = v.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    PASTEL[(h % PASTEL.len() as u64) as usize]
}

const LANE_H: u32 = 22;
const LABEL_W: u32 = 260;

/// The behavior timeline: one row per lane, a coloured box per value (labelled where it
/// fits), a tick per event.
/// `names` prefix the lanes' labels when there are several robots.
pub fn timeline_svg(lanes: &[Lane], names: &[String], t_end: f64) -> Res<String> {
    let shown = lanes;
    let n = shown.len().max(1);
    let height = 90 + LANE_H * n as u32;
    let t_end = t_end.max(1e-3);
    let multi = names.len() > 1;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (PLOT_W + 100, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .margin(15)
            .caption("Behavior timeline", ("sans-serif", 18))
            .x_label_area_size(35)
            .y_label_area_size(LABEL_W)
            .build_cartesian_2d(0.0..t_end, 0.0..n as f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .disable_y_mesh()
            .y_labels(0)
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(BLACK.mix(0.08))
            .draw()
            .map_err(err)?;
        let (xr, _) = chart.plotting_area().get_pixel_range();
        let px_per_s = f64::from(xr.end - xr.start) / t_end;
        for (k, lane) in shown.iter().enumerate() {
            // lane 0 at the top
            let y0 = (n - 1 - k) as f64;
            let label = if multi {
                format!(
                    "{} · {}",
                    names.get(lane.robot).map_or("?", String::as_str),
                    lane.label
                )
            } else {
                lane.label.clone()
            };
            let label: String = if label.chars().count() > 40 {
                let tail: String = label
                    .chars()
                    .rev()
                    .take(39)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                format!("…{tail}")
            } else {
                label
            };
            let (lx, ly) = chart.backend_coord(&(0.0, y0 + 0.5));
            let weight = if lane.source == Source::Events {
                FontStyle::Italic
            } else {
                FontStyle::Normal
            };
            root.draw(&Text::new(
                label,
                (lx - LABEL_W as i32 + 5, ly - 6),
                ("sans-serif", 12).into_font().style(weight).color(&BLACK),
            ))
            .map_err(err)?;
            for s in &lane.segments {
                let c = value_color(&s.value);
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(s.t0, y0 + 0.12), (s.t1.max(s.t0), y0 + 0.88)],
                        c.filled(),
                    )))
                    .map_err(err)?;
                let w = (s.t1 - s.t0) * px_per_s;
                let chars = s.value.chars().count() as f64;
                if w > chars * 6.5 + 6.0 {
                    chart
                        .draw_series(std::iter::once(Text::new(
                            s.value.clone(),
                            (s.t0, y0 + 0.78),
                            ("sans-serif", 11).into_font().color(&BLACK),
                        )))
                        .map_err(err)?;
                }
            }
            chart
                .draw_series(lane.marks.iter().map(|m| {
                    PathElement::new(
                        vec![(m.t, y0 + 0.1), (m.t, y0 + 0.9)],
                        style::MARK.stroke_width(2),
                    )
                }))
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}
