//! The intermediate code is byte for byte what the reference compiler writes, for the
//! golden agents of `tests/data/golden` (from the project's generator) and for the
//! agents of `tests/data/ic` that together use every element of the language (their
//! `.ic` files were written by the reference Ruby compiler, run outside the project).

use skipper_xabsl::compile_path;
use std::path::Path;

fn check_ic(agents: &Path, expected: &Path) {
    let c = compile_path(agents);
    assert!(
        !c.diagnostics.has_errors(),
        "{}: {}",
        agents.display(),
        c.render()
    );
    let ours = skipper_xabsl::ic::write(&c.program);
    let theirs = std::fs::read(expected).unwrap();
    if ours.as_bytes() != theirs.as_slice() {
        let theirs = String::from_utf8_lossy(&theirs);
        for (i, (a, b)) in ours.lines().zip(theirs.lines()).enumerate() {
            assert_eq!(
                a,
                b,
                "{}: first difference at line {}",
                expected.display(),
                i + 1
            );
        }
        panic!(
            "{}: lengths differ ({} vs {} bytes)",
            expected.display(),
            ours.len(),
            theirs.len()
        );
    }
}

fn data() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

#[test]
fn golden_seed7_n5() {
    let d = data().join("golden");
    check_ic(&d.join("seed7-N5/agents.xabsl"), &d.join("seed7-N5.ic"));
}

#[test]
fn golden_seed7_n20() {
    let d = data().join("golden");
    check_ic(&d.join("seed7-N20/agents.xabsl"), &d.join("seed7-N20.ic"));
}

#[test]
fn every_language_element() {
    let d = data().join("ic");
    check_ic(&d.join("coverage/agents.xabsl"), &d.join("coverage.ic"));
}

#[test]
fn benchmark_agents_seed12345() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for n in [5, 20, 100] {
        check_ic(
            &root.join(format!("benches/data/seed12345-N{n}/agents.xabsl")),
            &data().join(format!("ic/seed12345-N{n}.ic")),
        );
    }
}
