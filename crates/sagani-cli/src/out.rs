//! Printing to standard output that ends the program quietly when its reader is gone
//! (`sagani hint … --json | head`): a closed pipe is no error worth a panic.
//!
//! A command whose product is a file (`train --out`, `solo --records`, `arena --svg`) calls
//! [`keep_going`] first: then a closed pipe stops the printing, not the work, so that
//! `sagani train … | head` still writes its file.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by [`keep_going`]: a closed pipe silences the output instead of ending the program.
static KEEP_GOING: AtomicBool = AtomicBool::new(false);
/// The reader went away while [`KEEP_GOING`] was set: nothing more is written.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// The command has files to write: a closed pipe must not end it before they are written.
pub fn keep_going() {
    KEEP_GOING.store(true, Ordering::Relaxed);
}

/// Writes one line to standard output; a closed pipe ends the program (status 0), or, after
/// [`keep_going`], silences the rest of the output.
pub fn line(args: std::fmt::Arguments) {
    if CLOSED.load(Ordering::Relaxed) {
        return;
    }
    let mut out = std::io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|_| out.write_all(b"\n"))
        .and_then(|_| out.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            if KEEP_GOING.load(Ordering::Relaxed) {
                CLOSED.store(true, Ordering::Relaxed);
            } else {
                std::process::exit(0)
            }
        }
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
