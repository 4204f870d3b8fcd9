//! The process exit codes, in one place: the README's table lists exactly these.

/// Done as asked.
pub const OK: i32 = 0;
/// Something on this machine that is none of the below failed (the async runtime could not
/// start, the output could not be written).
pub const FAILURE: i32 = 1;
/// Invalid input or settings (a flag, a field, the config file); nothing was sent.
pub const INVALID_INPUT: i32 = 2;
/// The token is missing or refused, or the credits are used up.
pub const CREDENTIALS: i32 = 3;
/// The service answered with an error, or with a body that could not be read; or a job
/// `jobs watch` followed ended failed, expired or in error.
pub const SERVICE: i32 = 4;
/// No answer: DNS, connect (a refusing SOCKS5 proxy included), TLS, timeout.
pub const NO_ANSWER: i32 = 5;
/// Local storage failed: the history database could not be opened or written (read-only,
/// damaged, a full disk). What the service answered was still printed.
pub const STORAGE: i32 = 6;
/// A tracking run waited for (`track run --wait`) ended with calls that failed, expired or
/// were refused: its figures cover fewer answers than the set plans; or the newest run
/// `track check` would check has no answers at all.
pub const RUN_INCOMPLETE: i32 = 7;
/// Alerts of the set fired on its newest finished run (`track check`, `track run --wait`):
/// each is a line on stdout. Takes the place of 7 when both apply.
pub const ALERTS: i32 = 8;
/// Interrupted with Ctrl+C.
pub const CANCELLED: i32 = 130;
