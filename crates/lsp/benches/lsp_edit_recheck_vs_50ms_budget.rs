//! One edit of one file in an editor, on the generated agent of 100 options (seed
//! 12345, `crates/xabsl/benches/data/seed12345-N100`): the server re-checks the whole
//! agent with the edited text and makes every file's diagnostics. The budget the issue
//! sets is 50 ms per edit (typing stays fluid); `edit_recheck` is what one costs.
//! `edit_recheck_with_error` is the same with an error in the edited file (the
//! diagnostics are then not empty).

use criterion::{criterion_group, criterion_main, Criterion};
use skipper_lsp::Workspace;
use std::hint::black_box;
use std::path::Path;

fn bench(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../xabsl/benches/data/seed12345-N100")
        .canonicalize()
        .expect("the generated agent");
    let file = dir.join("o50.xabsl");
    let text = std::fs::read_to_string(&file).expect("o50.xabsl");
    let mut ws = Workspace::new();
    let first = ws.update(&file, text.clone());
    assert_eq!(first.len(), 103, "every file of the agent");
    assert!(first.iter().all(|f| f
        .diagnostics
        .iter()
        .all(|d| d.severity != Some(lsp_types::DiagnosticSeverity::ERROR))));
    // an edit that keeps the file valid: a number changed back and forth
    let edited = [text.replacen("0.", "1.", 1), text.clone()];
    let mut k = 0;
    c.bench_function("edit_recheck", |b| {
        b.iter(|| {
            k ^= 1;
            black_box(ws.update(&file, edited[k].clone()))
        })
    });
    let broken = text.replacen("goto s", "goto nowhere", 1);
    c.bench_function("edit_recheck_with_error", |b| {
        b.iter(|| black_box(ws.update(&file, broken.clone())))
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
