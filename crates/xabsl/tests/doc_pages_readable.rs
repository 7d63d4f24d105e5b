//! The documentation pages read well: an option page's "States:" menu stands out from
//! the page's navigation bar (dark links on the page, not on the bar's navy), and the
//! pseudo code is indented by block.

use skipper_xabsl::{compile_path, doc};
use std::path::Path;

fn files() -> Vec<(String, String)> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/xabsl/turn_and_release/agents.xabsl");
    let c = compile_path(p);
    assert!(!c.diagnostics.has_errors(), "{}", c.render());
    doc::generate(&c.program)
}

fn file<'a>(files: &'a [(String, String)], name: &str) -> &'a str {
    files
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, t)| t.as_str())
        .unwrap_or_else(|| panic!("no {name}"))
}

/// The declarations of the CSS rule whose selector is exactly `selector`.
fn rule<'a>(css: &'a str, selector: &str) -> Option<&'a str> {
    css.lines()
        .find_map(|l| l.strip_prefix(&format!("{selector} {{")))
        .map(|r| r.trim_end_matches('}').trim())
}

#[test]
fn the_states_menu_is_not_navy_on_navy() {
    let f = files();
    let css = file(&f, "style.css");
    let page = file(&f, "option.turn_and_release.html");
    assert!(page.contains("<nav class=\"states\""), "{page}");
    // the menu is a `nav`, which the bar's rule paints navy: its own rule undoes that
    let own = rule(css, "nav.states").expect("a rule for nav.states");
    assert!(own.contains("background: none"), "{own}");
    let links = rule(css, "nav.states a").expect("a rule for the menu's links");
    assert!(links.contains("color: #124"), "{links}");
    assert!(rule(css, "nav").unwrap().contains("background: #234"));
}

#[test]
fn pseudo_code_is_indented_by_block() {
    let f = files();
    let page = file(&f, "option.turn_and_release.html");
    let start = page
        .find("Pseudo code of the decision tree:")
        .expect("pseudo code");
    let pre = &page[start..];
    let code = &pre[pre.find("<pre>").unwrap() + 5..pre.find("</pre>").unwrap()];
    let lines: Vec<&str> = code.lines().collect();
    assert!(
        lines.iter().all(|l| !l.trim().is_empty()),
        "blank lines:\n{code}"
    );
    // what follows an opening brace is two spaces further in, back out at the closing one
    let mut depth = 0usize;
    let mut nested = 0;
    for l in &lines {
        let t = l.trim();
        if t == "}" {
            depth -= 1;
        }
        let indent = l.len() - l.trim_start().len();
        assert_eq!(indent, 2 * depth, "line `{l}` in:\n{code}");
        if t == "{" {
            depth += 1;
        }
        if depth >= 2 && t.starts_with("transition-to-state") {
            nested += 1;
        }
    }
    assert_eq!(depth, 0);
    assert!(nested > 0, "no nested decision:\n{code}");
}
