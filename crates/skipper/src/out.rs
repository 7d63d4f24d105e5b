//! Standard output whose reader may be gone (`| head`, `| grep -q`): once the pipe is
//! closed the rest of the output goes nowhere. It stops no command (a goal is still
//! followed to its end, a run's log still finished) and panics nothing, where `println!`
//! panics on the first write after the reader left.

/// Write `args` to standard output; a write that fails is dropped.
pub fn write(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_fmt(args);
}

/// `print!` through [`write()`].
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*))
    };
}

/// `println!` through [`write()`].
#[macro_export]
macro_rules! outln {
    () => {
        $crate::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
