//! Laying out diagrams without Graphviz: a layered layout for directed graphs (state
//! machines, the option graph) and a top-down layout for decision trees, drawn as SVG.
//!
//! Layers are the distances from the root (breadth first; unreachable nodes go in layers
//! of their own below); within a layer nodes are ordered by the mean position of their
//! neighbours in the layer above, a few sweeps. Edges down are curves from the bottom of
//! one node to the top of the other; edges up or across bend around the side; an edge
//! from a node to itself is a loop on its right.

use std::fmt::Write as _;

/// How a node is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// an ellipse (a state)
    Ellipse,
    /// a double ellipse (a target state)
    DoubleEllipse,
    /// a box (an option, a condition)
    Box,
    /// a rounded box (a basic behavior)
    Rounded,
}

/// A node to draw.
#[derive(Debug, Clone)]
pub struct Node {
    /// its text
    pub label: String,
    /// how
    pub shape: Shape,
    /// drawn thicker (the initial state)
    pub bold: bool,
    /// a link (in the HTML documentation)
    pub href: Option<String>,
    /// a tooltip
    pub title: Option<String>,
}

const FONT: f64 = 12.0;
const CHAR_W: f64 = 7.0;
const NODE_H: f64 = 34.0;
const GAP_X: f64 = 30.0;
const GAP_Y: f64 = 60.0;
const MARGIN: f64 = 20.0;

/// Escape text for XML.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

fn width(label: &str) -> f64 {
    (label.chars().count() as f64 * CHAR_W + 28.0).max(50.0)
}

fn header(out: &mut String, w: f64, h: f64) {
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"{FONT}\">\n\
<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"#333\"/></marker></defs>\n\
<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
}

fn draw_node(out: &mut String, n: &Node, x: f64, y: f64, w: f64) {
    let h = NODE_H;
    if let Some(href) = &n.href {
        let _ = write!(out, "<a xlink:href=\"{}\">", esc(href));
    }
    out.push_str("<g>");
    if let Some(t) = &n.title {
        let _ = write!(out, "<title>{}</title>", esc(t));
    }
    let sw = if n.bold { 2.5 } else { 1.2 };
    match n.shape {
        Shape::Ellipse | Shape::DoubleEllipse => {
            let _ = write!(
                out,
                "<ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{:.1}\" ry=\"{:.1}\" fill=\"#f4f7fb\" stroke=\"#333\" stroke-width=\"{sw}\"/>",
                w / 2.0,
                h / 2.0
            );
            if n.shape == Shape::DoubleEllipse {
                let _ = write!(
                    out,
                    "<ellipse cx=\"{x:.1}\" cy=\"{y:.1}\" rx=\"{:.1}\" ry=\"{:.1}\" fill=\"none\" stroke=\"#333\" stroke-width=\"1\"/>",
                    w / 2.0 - 4.0,
                    h / 2.0 - 4.0
                );
            }
        }
        Shape::Box | Shape::Rounded => {
            let r = if n.shape == Shape::Rounded { 12.0 } else { 2.0 };
            let _ = write!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" rx=\"{r}\" fill=\"#fbf8f0\" stroke=\"#333\" stroke-width=\"{sw}\"/>",
                x - w / 2.0,
                y - h / 2.0
            );
        }
    }
    let _ = write!(
        out,
        "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></g>",
        y + FONT / 3.0,
        esc(&n.label)
    );
    if n.href.is_some() {
        out.push_str("</a>");
    }
    out.push('\n');
}

/// A directed graph drawn in layers from `root`.
pub fn layered(nodes: &[Node], edges: &[(usize, usize, Option<String>)], root: usize) -> String {
    let n = nodes.len();
    if n == 0 {
        let mut out = String::new();
        header(&mut out, 100.0, 40.0);
        out.push_str("</svg>\n");
        return out;
    }
    // layers: breadth-first distance from the root; the rest below
    let mut layer = vec![usize::MAX; n];
    let mut order: Vec<usize> = Vec::new();
    let mut queue = std::collections::VecDeque::new();
    let root = root.min(n - 1);
    layer[root] = 0;
    queue.push_back(root);
    let mut next_free = 0;
    loop {
        while let Some(u) = queue.pop_front() {
            order.push(u);
            for &(a, b, _) in edges {
                if a == u && b < n && layer[b] == usize::MAX {
                    layer[b] = layer[u] + 1;
                    queue.push_back(b);
                }
            }
        }
        let max = layer
            .iter()
            .filter(|&&l| l != usize::MAX)
            .max()
            .copied()
            .unwrap_or(0);
        match (next_free..n).find(|&i| layer[i] == usize::MAX) {
            Some(i) => {
                next_free = i;
                layer[i] = max + 1;
                queue.push_back(i);
            }
            None => break,
        }
    }
    let depth = layer.iter().copied().max().unwrap_or(0) + 1;
    let mut rows: Vec<Vec<usize>> = vec![Vec::new(); depth];
    for &u in &order {
        rows[layer[u]].push(u);
    }
    // barycentre sweeps
    let mut pos = vec![0.0f64; n];
    for row in &rows {
        for (i, &u) in row.iter().enumerate() {
            pos[u] = i as f64;
        }
    }
    for _ in 0..4 {
        #[allow(clippy::needless_range_loop)]
        for l in 1..depth {
            let mut keyed: Vec<(f64, usize)> = rows[l]
                .iter()
                .map(|&u| {
                    let ps: Vec<f64> = edges
                        .iter()
                        .filter_map(|&(a, b, _)| {
                            if b == u && a < n && layer[a] + 1 == l {
                                Some(pos[a])
                            } else if a == u && b < n && layer[b] + 1 == l {
                                Some(pos[b])
                            } else {
                                None
                            }
                        })
                        .collect();
                    let k = if ps.is_empty() {
                        pos[u]
                    } else {
                        ps.iter().sum::<f64>() / ps.len() as f64
                    };
                    (k, u)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap_or(std::cmp::Ordering::Equal));
            rows[l] = keyed.into_iter().map(|(_, u)| u).collect();
            for (i, &u) in rows[l].iter().enumerate() {
                pos[u] = i as f64;
            }
        }
    }
    // coordinates
    let widths: Vec<f64> = nodes.iter().map(|x| width(&x.label)).collect();
    let row_w: Vec<f64> = rows
        .iter()
        .map(|r| {
            r.iter().map(|&u| widths[u]).sum::<f64>() + GAP_X * r.len().saturating_sub(1) as f64
        })
        .collect();
    let total_w = row_w.iter().copied().fold(0.0, f64::max) + 2.0 * MARGIN + 120.0;
    // (120 px kept for loops and bends while placing; trimmed below)
    let mut xy = vec![(0.0f64, 0.0f64); n];
    for (l, r) in rows.iter().enumerate() {
        let mut x = (total_w - 120.0 - row_w[l]) / 2.0 + 60.0;
        let y = MARGIN + NODE_H / 2.0 + l as f64 * (NODE_H + GAP_Y);
        for &u in r {
            xy[u] = (x + widths[u] / 2.0, y);
            x += widths[u] + GAP_X;
        }
    }
    let total_h = MARGIN * 2.0 + depth as f64 * NODE_H + (depth.saturating_sub(1)) as f64 * GAP_Y;
    // edges up or across go around the right of every node of the layers they span,
    // each a little further out than the one before
    let mut paths = String::new();
    let mut seen: Vec<(usize, usize)> = Vec::new();
    let mut back = 0usize;
    let mut right_edge = 0.0f64;
    for &(a, b, ref label) in edges {
        if a >= n || b >= n || seen.contains(&(a, b)) {
            continue;
        }
        seen.push((a, b));
        let (ax, ay) = xy[a];
        let (bx, by) = xy[b];
        let path = if a == b {
            let x0 = ax + widths[a] / 2.0 - 6.0;
            right_edge = right_edge.max(x0 + 40.0);
            format!(
                "M {:.1} {:.1} C {:.1} {:.1} {:.1} {:.1} {:.1} {:.1}",
                x0,
                ay - 8.0,
                x0 + 40.0,
                ay - 30.0,
                x0 + 40.0,
                ay + 30.0,
                x0,
                ay + 8.0
            )
        } else if layer[b] > layer[a] {
            let (y0, y1) = (ay + NODE_H / 2.0, by - NODE_H / 2.0);
            let m = (y0 + y1) / 2.0;
            format!("M {ax:.1} {y0:.1} C {ax:.1} {m:.1} {bx:.1} {m:.1} {bx:.1} {y1:.1}")
        } else {
            let (lo, hi) = (layer[a].min(layer[b]), layer[a].max(layer[b]));
            let spanned: Vec<usize> = (0..n)
                .filter(|&u| layer[u] >= lo && layer[u] <= hi)
                .collect();
            let centre = (0..n).map(|u| xy[u].0).sum::<f64>() / n as f64;
            if ax < centre {
                // around the left
                let span_left = spanned
                    .iter()
                    .map(|&u| xy[u].0 - widths[u] / 2.0)
                    .fold(f64::INFINITY, f64::min);
                let side = (span_left - 18.0 - 10.0 * back as f64).max(4.0);
                back += 1;
                let (x0, x1) = (ax - widths[a] / 2.0, bx - widths[b] / 2.0);
                format!(
                    "M {x0:.1} {ay:.1} C {side:.1} {ay:.1} {side:.1} {by:.1} {x1:.1} {:.1}",
                    by + 4.0
                )
            } else {
                let span_right = spanned
                    .iter()
                    .map(|&u| xy[u].0 + widths[u] / 2.0)
                    .fold(0.0, f64::max);
                let side = span_right + 18.0 + 10.0 * back as f64;
                back += 1;
                right_edge = right_edge.max(side);
                let (x0, x1) = (ax + widths[a] / 2.0, bx + widths[b] / 2.0);
                format!(
                    "M {x0:.1} {ay:.1} C {side:.1} {ay:.1} {side:.1} {by:.1} {x1:.1} {:.1}",
                    by + 4.0
                )
            }
        };
        let _ = writeln!(
            paths,
            "<path d=\"{path}\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.1\" marker-end=\"url(#arrow)\"/>"
        );
        if let Some(l) = label {
            let _ = writeln!(
                paths,
                "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#555\">{}</text>",
                (ax + bx) / 2.0 + 4.0,
                (ay + by) / 2.0,
                esc(l)
            );
        }
    }
    let total_w = total_w.max(right_edge + MARGIN);
    let mut out = String::new();
    header(&mut out, total_w, total_h);
    out.push_str(&paths);
    for (u, node) in nodes.iter().enumerate() {
        draw_node(&mut out, node, xy[u].0, xy[u].1, widths[u]);
    }
    out.push_str("</svg>\n");
    out
}

/// A binary decision tree to draw.
#[derive(Debug, Clone)]
pub enum DTree {
    /// a condition: true branch, false branch
    If(Node, Box<DTree>, Box<DTree>),
    /// a transition
    Leaf(Node),
}

struct Placed {
    width: f64,
}

fn measure(t: &DTree) -> Placed {
    match t {
        DTree::Leaf(n) => Placed {
            width: width(&n.label),
        },
        DTree::If(n, a, b) => {
            let (a, b) = (measure(a), measure(b));
            Placed {
                width: width(&n.label).max(a.width + GAP_X + b.width),
            }
        }
    }
}

fn depth(t: &DTree) -> usize {
    match t {
        DTree::Leaf(_) => 1,
        DTree::If(_, a, b) => 1 + depth(a).max(depth(b)),
    }
}

fn draw_tree(out: &mut String, t: &DTree, left: f64, y: f64) -> (f64, f64) {
    let w = measure(t).width;
    let cx = left + w / 2.0;
    match t {
        DTree::Leaf(n) => {
            draw_node(out, n, cx, y, width(&n.label));
            (cx, y)
        }
        DTree::If(n, a, b) => {
            let (wa, wb) = (measure(a).width, measure(b).width);
            let inner = wa + GAP_X + wb;
            let start = left + (w - inner) / 2.0;
            let cy = y + NODE_H + GAP_Y;
            let (ax, ay) = draw_tree(out, a, start, cy);
            let (bx, by) = draw_tree(out, b, start + wa + GAP_X, cy);
            for (x, yy, label) in [(ax, ay, "true"), (bx, by, "false")] {
                let _ = write!(
                    out,
                    "<path d=\"M {cx:.1} {:.1} L {x:.1} {:.1}\" fill=\"none\" stroke=\"#333\" stroke-width=\"1.1\" marker-end=\"url(#arrow)\"/>\n<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" fill=\"#555\" text-anchor=\"middle\">{label}</text>\n",
                    y + NODE_H / 2.0,
                    yy - NODE_H / 2.0,
                    (cx + x) / 2.0,
                    (y + yy) / 2.0
                );
            }
            draw_node(out, n, cx, y, width(&n.label));
            (cx, y)
        }
    }
}

/// A decision tree drawn top down: conditions above their true (left) and false (right)
/// branches.
pub fn tree(t: &DTree) -> String {
    let w = measure(t).width + 2.0 * MARGIN;
    let d = depth(t);
    let h = 2.0 * MARGIN + d as f64 * NODE_H + d.saturating_sub(1) as f64 * GAP_Y;
    let mut out = String::new();
    header(&mut out, w, h);
    draw_tree(&mut out, t, MARGIN, MARGIN + NODE_H / 2.0);
    out.push_str("</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(s: &str) -> Node {
        Node {
            label: s.into(),
            shape: Shape::Ellipse,
            bold: false,
            href: None,
            title: None,
        }
    }

    #[test]
    fn graphs_and_trees_are_svg() {
        let nodes = vec![node("a"), node("b <&>"), node("c"), node("lonely")];
        let svg = layered(
            &nodes,
            &[(0, 1, None), (1, 2, None), (2, 0, None), (1, 1, None)],
            0,
        );
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("b &lt;&amp;&gt;"));
        assert_eq!(svg.matches("<path").count(), 4 + 1); // 4 edges + the marker
        let t = DTree::If(
            node("x > 1"),
            Box::new(DTree::Leaf(node("s1"))),
            Box::new(DTree::Leaf(node("s2"))),
        );
        let svg = tree(&t);
        assert!(svg.contains(">true<") && svg.contains(">false<"));
        assert!(layered(&[], &[], 0).contains("</svg>"));
        // an edge to a node that does not exist is ignored, not a panic
        assert!(layered(&nodes[..1], &[(0, 7, None)], 3).contains("</svg>"));
    }
}
