//! The process exit codes, in one place: docs/exit-codes.md and the manual list exactly these.

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

/// Every code with what it means, for the man page and `--help` readers: the sentences of
/// the constants above.
pub const MEANINGS: [(i32, &str); 10] = [
    (OK, "Done as asked."),
    (
        FAILURE,
        "Something on this machine failed that is none of the below (the async runtime could not start, the output could not be written).",
    ),
    (
        INVALID_INPUT,
        "Invalid input or settings (a flag, a field, the config or workspace file); nothing was sent.",
    ),
    (
        CREDENTIALS,
        "The token is missing or refused, or the credits cannot cover the call or run.",
    ),
    (
        SERVICE,
        "The service answered with an error or with a body that could not be read; or a job that jobs watch followed ended failed, expired or in error.",
    ),
    (
        NO_ANSWER,
        "No answer: DNS, connect (a refusing SOCKS5 proxy included), TLS, timeout.",
    ),
    (
        STORAGE,
        "Local storage failed: the history database could not be opened or written (read-only, damaged, a full disk). What the service answered was still printed.",
    ),
    (
        RUN_INCOMPLETE,
        "A tracking run waited for ended with calls that failed, expired or were refused; or the newest run track check would check has no answers.",
    ),
    (
        ALERTS,
        "Alerts of the set fired on its newest finished run (each is a line on stdout); takes the place of 7 when both apply.",
    ),
    (CANCELLED, "Interrupted with Ctrl+C."),
];
