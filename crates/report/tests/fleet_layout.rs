//! A fleet's report reads well: the map comes first, every line of a plot has a legend
//! entry or a label (its `data-legend` is the text of one in its figure), no section has
//! more than one plot of individual robots' lines, and the robots table links to each
//! robot's own section. `scripts/dashboard/browser.mjs fleet-report` checks the same in
//! Chromium.

mod common;

use skipper_report::Digest;
use std::collections::{BTreeMap, BTreeSet};

const ROBOTS: usize = 30;

/// The value of attribute `name` in the attributes `attrs`.
fn attr<'a>(attrs: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = attrs.find(&key)? + key.len();
    let rest = &attrs[at..];
    Some(&rest[..rest.find('"')?])
}

/// The elements `<tag ...>` of `html`: their attributes.
fn elements<'a>(html: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag} ");
    html.match_indices(&open)
        .map(|(at, _)| {
            let rest = &html[at + open.len() - 1..];
            &rest[..rest.find('>').unwrap_or(rest.len())]
        })
        .collect()
}

/// The text between tags, each piece trimmed.
fn texts(html: &str) -> BTreeSet<&str> {
    html.split('<')
        .filter_map(|piece| piece.split_once('>').map(|(_, text)| text.trim()))
        .filter(|t| !t.is_empty())
        .collect()
}

/// Each figure: its id, the id of the section it is in, and its HTML.
fn figures(html: &str) -> Vec<(String, String, &str)> {
    let mut out = Vec::new();
    let mut sections: Vec<String> = Vec::new();
    let mut at = 0;
    while let Some(next) = html[at..].find('<').map(|k| at + k) {
        let rest = &html[next..];
        if rest.starts_with("<section") {
            let head = &rest[..rest.find('>').unwrap()];
            sections.push(attr(head, "id").unwrap_or("").to_string());
        } else if rest.starts_with("</section>") {
            sections.pop();
        } else if rest.starts_with("<figure") {
            let end = rest.find("</figure>").expect("a figure ends") + "</figure>".len();
            let head = &rest[..rest.find('>').unwrap()];
            let id = attr(head, "id").unwrap_or("").to_string();
            let section = sections.last().cloned().unwrap_or_default();
            out.push((id, section, &rest[..end]));
            at = next + end;
            continue;
        }
        at = next + 1;
    }
    out
}

#[test]
fn a_fleet_report_reads_well() {
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("fleet.mcap");
    common::fleet_log(&path, ROBOTS, 60);
    let d = Digest::open(&path).expect("the log reads");
    let html = skipper_report::render(&d);

    let figs = figures(&html);
    assert_eq!(
        figs.first().map(|f| f.0.as_str()),
        Some("map"),
        "the map first"
    );

    let mut robot_plots: BTreeMap<&str, usize> = BTreeMap::new();
    let mut lines = 0;
    for (id, section, fig) in &figs {
        if id.starts_with("timeline") {
            continue; // lanes and event ticks, labelled by lane
        }
        let known = texts(fig);
        let mut robots = false;
        for l in elements(fig, "polyline") {
            if attr(l, "stroke") == Some("#000000") {
                continue; // axes and grid
            }
            let class = attr(l, "class").unwrap_or("");
            assert!(class.starts_with("line"), "an unmarked line in {id}: {l}");
            let legend = attr(l, "data-legend").expect("a marked line has its legend");
            assert!(
                known.contains(legend),
                "the line {legend:?} of {id} has no legend entry or label"
            );
            robots |= class == "line robot";
            lines += 1;
        }
        if robots {
            *robot_plots.entry(section).or_default() += 1;
        }
    }
    assert!(lines > ROBOTS, "{lines} lines checked");
    for (section, n) in &robot_plots {
        assert!(*n <= 1, "{n} plots of robots' lines in section {section}");
    }
    // the map and every robot's own speed plot
    assert!(robot_plots.len() > ROBOTS, "{robot_plots:?}");

    // the robots table links to each robot's section
    let table = &html[html
        .find("id=\"robots-section\"")
        .expect("the robots table")..];
    let table = &table[..table.find("</section>").unwrap()];
    let links: BTreeSet<&str> = elements(table, "a")
        .iter()
        .filter_map(|a| attr(a, "href"))
        .collect();
    let robot_sections: Vec<&str> = elements(&html, "section")
        .into_iter()
        .filter(|s| attr(s, "class") == Some("robot"))
        .filter_map(|s| attr(s, "id"))
        .collect();
    assert_eq!(robot_sections.len(), ROBOTS);
    for id in robot_sections {
        assert!(links.contains(format!("#{id}").as_str()), "no link to {id}");
    }
}
