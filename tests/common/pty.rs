//! A command run on a new pseudo-terminal of 100 × 30, as a user's terminal would run it.

use std::process::{Child, Command, Stdio};

/// Starts `cmd` with stdin, stdout and stderr on a new pseudo-terminal; the child and the
/// terminal's other side (what it draws is read there, keys are written there). Reading ends
/// (Linux answers EIO) once the child has ended: the command's copy of its side is dropped.
pub fn spawn(mut cmd: Command) -> (Child, std::fs::File) {
    let size = nix::pty::Winsize {
        ws_row: 30,
        ws_col: 100,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let pty = nix::pty::openpty(Some(&size), None).expect("openpty");
    let slave = pty.slave;
    cmd.stdin(Stdio::from(slave.try_clone().expect("dup")))
        .stdout(Stdio::from(slave.try_clone().expect("dup")))
        .stderr(Stdio::from(slave));
    let child = cmd.spawn().expect("vantage starts");
    drop(cmd);
    (child, std::fs::File::from(pty.master))
}
