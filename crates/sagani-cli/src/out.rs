//! Printing to standard output that ends the program quietly when its reader is gone
//! (`sagani hint … --json | head`): a closed pipe is no error worth a panic.

use std::io::Write;

/// Writes one line to standard output; a closed pipe ends the program (status 0).
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("error: cannot write to standard output: {e}");
            std::process::exit(1)
        }
    }
}

/// `println!`, ending quietly on a closed pipe.
macro_rules! say {
    ($($t:tt)*) => {
        $crate::out::line(format_args!($($t)*))
    };
}
pub(crate) use say;
