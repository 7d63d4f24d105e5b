//! Check an agent many times over (for `perf stat`, `valgrind --tool=callgrind` or a
//! whole-process timer): what `skipper xabsl check` costs without process start-up.
//!
//! `cargo run --release -p skipper-xabsl --example check_cost -- AGENTS.xabsl [TIMES]`
//!
//! The files are read once into memory; each round loads, parses and checks them all.

use skipper_xabsl::loader::{FileLoader, FsLoader, MemLoader};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: check_cost AGENTS.xabsl [TIMES]");
        std::process::exit(2);
    };
    let times: usize = args.get(2).and_then(|n| n.parse().ok()).unwrap_or(100);
    // read every file once (a first compilation finds them)
    let first = skipper_xabsl::compile_path(path);
    let mut files = MemLoader::new();
    for (_, f) in first.program.sources.files() {
        if let Ok(bytes) = FsLoader.read(&f.path) {
            files.add(&f.path, bytes);
        }
    }
    let mut errors = 0;
    for _ in 0..times {
        let c = skipper_xabsl::compile(Path::new(path), &files);
        errors += c.diagnostics.error_count();
    }
    println!(
        "{times} checks of {} files: {errors} errors",
        first.program.sources.len()
    );
}
