//! A command run on a new pseudo-terminal of 100 × 30, as a user's terminal would run it.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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

/// The app on a new pseudo-terminal, and what the terminal receives, as it comes.
pub struct OnTerminal {
    pub child: Child,
    keys: std::fs::File,
    received: mpsc::Receiver<Vec<u8>>,
    seen: Vec<u8>,
}

impl OnTerminal {
    /// Starts `cmd` on a new pseudo-terminal and reads what it draws as it comes.
    pub fn start(cmd: Command) -> OnTerminal {
        let (child, master) = spawn(cmd);
        let keys = master.try_clone().expect("dup");
        let (tx, received) = mpsc::channel();
        std::thread::spawn(move || {
            let mut master = master;
            let mut buffer = [0u8; 8192];
            while let Ok(n @ 1..) = master.read(&mut buffer) {
                if tx.send(buffer[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        OnTerminal {
            child,
            keys,
            received,
            seen: Vec::new(),
        }
    }

    pub fn press(&mut self, bytes: &[u8]) {
        self.keys.write_all(bytes).expect("key");
        self.keys.flush().expect("flush");
    }

    /// Waits until the terminal received `text` (after what was seen before); false at the
    /// deadline.
    pub fn wait_for(&mut self, text: &str, within: Duration) -> bool {
        let from = self.seen.len();
        let deadline = Instant::now() + within;
        loop {
            let tail = String::from_utf8_lossy(&self.seen[from..]);
            if tail.contains(text) {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            if let Ok(bytes) = self
                .received
                .recv_timeout(left.min(Duration::from_millis(20)))
            {
                self.seen.extend(bytes);
            }
        }
    }

    /// Ctrl+C, then how long the app took to end.
    pub fn quit(&mut self) -> Duration {
        let pressed = Instant::now();
        self.press(b"\x03");
        loop {
            if self.child.try_wait().expect("wait").is_some() {
                let took = pressed.elapsed();
                while let Ok(bytes) = self.received.recv_timeout(Duration::from_millis(200)) {
                    self.seen.extend(bytes);
                }
                return took;
            }
            if pressed.elapsed() > Duration::from_secs(10) {
                let _ = self.child.kill();
                panic!("the app did not end within 10 s of Ctrl+C");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The terminal is left as it was found: the main screen back and the cursor shown.
    pub fn assert_restored(&self) {
        let all = String::from_utf8_lossy(&self.seen);
        let left = all
            .rfind("\x1b[?1049l")
            .expect("the main screen is restored");
        let entered = all
            .rfind("\x1b[?1049h")
            .expect("the app drew on its own screen");
        assert!(left > entered, "the app's screen is left last");
        let shown = all.rfind("\x1b[?25h").expect("the cursor is shown");
        assert!(
            shown > entered,
            "the cursor is shown again after the app drew"
        );
    }
}
