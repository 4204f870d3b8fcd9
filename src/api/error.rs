//! Every way a call can fail, each with a sentence that says what happened, the server's own
//! words, and what to do next.

use std::fmt;
use std::time::Duration;

use super::field::{Field, InvalidRequest};

/// Which part of reaching the service failed, when no answer came.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TransportKind {
    Dns,
    Connect,
    Tls,
    Timeout,
    Reset,
    Other,
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ApiError {
    /// Rules of the contract broken; nothing was sent.
    #[error("Nothing was sent: {0}. Fix the field and try again.")]
    Invalid(InvalidRequest),

    /// No token configured; nothing was sent.
    #[error(
        "No API token is set, so nothing was sent. Set VANTAGE_TOKEN (or MASSIVE_TOKEN), or `token` in {config_hint}; or run with --demo to use the built-in simulator."
    )]
    MissingToken { config_hint: String },

    /// The token holds what no HTTP header carries; nothing was sent.
    #[error(
        "The API token holds a line break, a space or a character that is not plain ASCII (copied with more than the token?), which no request can carry, so nothing was sent. Set it again, the token alone, in VANTAGE_TOKEN (or MASSIVE_TOKEN) or `token` in {config_hint}."
    )]
    UnusableToken { config_hint: String },

    /// The token would travel in the clear; nothing was sent.
    #[error(
        "Refusing to send your token to {url}: the service URL must use https:// (plain http is allowed only on this machine). Fix render_url/search_url."
    )]
    InsecureUrl { url: String },

    /// A service URL that cannot be used; nothing was sent.
    #[error("The service URL {url:?} is not usable: {reason}. Fix render_url/search_url.")]
    BadUrl { url: String, reason: String },

    /// 401: the header was missing.
    #[error(
        "The service says \"{message}\" (401). Set VANTAGE_TOKEN (or MASSIVE_TOKEN), or `token` in the config file."
    )]
    Unauthorized { message: String },

    /// 401 or 403 with "Valid API token must be provided".
    #[error(
        "The service rejected the token: \"{message}\" ({status}). Check VANTAGE_TOKEN (or MASSIVE_TOKEN) or the config file's `token`."
    )]
    InvalidToken { status: u16, message: String },

    /// 402: the credit balance is 0.
    #[error("Out of credits: \"{message}\" (402). {}", topup_hint(.topup_url))]
    NoCredits {
        message: String,
        topup_url: Option<String>,
    },

    /// 403 with a captcha message.
    #[error(
        "The target showed a captcha: \"{message}\" (403). Try again, perhaps from another location or with cache off."
    )]
    Captcha { message: String },

    /// 403 for another reason.
    #[error("The service refused the request: \"{message}\" (403).")]
    Forbidden { message: String },

    /// 404: unknown id, or a job whose result is no longer kept.
    #[error(
        "The service does not know this job: \"{message}\" (404). It may have expired; re-submit the request."
    )]
    NotFound { message: String },

    /// 404 from `/browser`: the page's domain does not resolve.
    #[error(
        "The page's domain does not exist: \"{message}\" (404). Check the address for a typo; nothing was charged."
    )]
    NoSuchDomain { message: String },

    /// 422: a parameter the service refused.
    #[error("The service refused a parameter: \"{message}\" (422).{}", field_hint(.field))]
    Unprocessable {
        message: String,
        field: Option<Field>,
    },

    /// 429: rate limited.
    #[error("Rate limited: \"{message}\" (429). {}", wait_hint(.retry_after))]
    RateLimited {
        message: String,
        retry_after: Option<Duration>,
    },

    /// 500.
    #[error("The service failed: \"{message}\" (500). Try again in a moment.")]
    Server { message: String },

    /// 503: autoscaling.
    #[error("The service is busy: \"{message}\" (503). {}", wait_hint(.retry_after))]
    Unavailable {
        message: String,
        retry_after: Option<Duration>,
    },

    /// 504: the service gave up.
    #[error(
        "The service timed out: \"{message}\" (504). Long calls do better in async mode: the answer waits as a job."
    )]
    GatewayTimeout { message: String },

    /// Any other status.
    #[error("The service answered {status}: \"{message}\".")]
    OtherStatus { status: u16, message: String },

    /// A redirect not followed: to another host or port, to plain http, or one too many.
    #[error(
        "The service answered {status} with a redirect{}, which vantage does not follow: it follows at most {} redirects, on the same host over https (or on this machine), so the token and the prompt go nowhere else. Check render_url/search_url; if they are right, report it.",
        redirect_target(.location), super::network::MAX_REDIRECTS
    )]
    Redirect { status: u16, location: String },

    /// No answer at all.
    #[error("{}", transport_sentence(*.kind, .detail))]
    Transport { kind: TransportKind, detail: String },

    /// An answer that is not what the contract says.
    #[error(
        "The service's answer could not be read ({what}). It began: {excerpt:?}. Try again; if it persists, report it."
    )]
    BadBody { what: String, excerpt: String },

    /// A body over the size we accept.
    #[error(
        "The answer is larger than {} MiB, so it was refused rather than loaded.", .limit / (1024 * 1024)
    )]
    TooLarge { limit: usize },

    /// A queued job ended failed, with the service's words when it gave some.
    #[error("{}", crate::jobs::failure_sentence(.0.as_deref()))]
    JobFailed(Option<String>),

    /// A call that gave no answer, in a sentence made where that was learnt: a stored
    /// comparison's failed column, a queued column whose job ended without one.
    #[error("{0}")]
    Unanswered(String),

    /// The user cancelled.
    #[error("Cancelled.")]
    Cancelled,

    /// A 503 or 429 whose wait would pass the call's time limit, so it was not taken.
    #[error(
        "{cause} That is more than the {} s left of this call's time limit (`timeout_secs`), so vantage did not wait.",
        .left.as_secs()
    )]
    WaitBeyondLimit {
        cause: Box<ApiError>,
        left: Duration,
    },
}

fn topup_hint(url: &Option<String>) -> String {
    match url {
        Some(url) => format!("Top up at {url}, then try again."),
        None => "Top up your balance, then try again.".to_string(),
    }
}

fn field_hint(field: &Option<Field>) -> String {
    match field {
        Some(field) => format!(" Fix the {field} field and send again."),
        None => " Check the parameters and send again.".to_string(),
    }
}

fn redirect_target(location: &str) -> String {
    if location.is_empty() {
        String::new()
    } else {
        format!(" to {location}")
    }
}

fn wait_hint(wait: &Option<Duration>) -> String {
    match wait {
        Some(d) => format!("Wait {} s and try again.", d.as_secs().max(1)),
        None => "Wait a little and try again.".to_string(),
    }
}

fn transport_sentence(kind: TransportKind, detail: &str) -> String {
    match kind {
        TransportKind::Dns => format!(
            "The service's host name could not be resolved ({detail}). Check the URL and your network."
        ),
        TransportKind::Connect => format!(
            "Could not connect to the service ({detail}). Check the URL and your network, then try again."
        ),
        TransportKind::Tls => format!(
            "The secure connection to the service failed ({detail}). Check the URL, the system's certificates and any intercepting proxy."
        ),
        TransportKind::Timeout => format!(
            "No answer before the time limit ({detail}). Calls can take minutes: raise `timeout_secs` or use async mode."
        ),
        TransportKind::Reset => {
            format!("The connection was cut while waiting for the answer ({detail}). Try again.")
        }
        TransportKind::Other => format!("The request failed ({detail}). Try again."),
    }
}

impl ApiError {
    /// The call never left this machine: refused before sending (no token, a bad request, a
    /// URL not allowed) or no connection made. A service cannot have billed it.
    pub fn nothing_sent(&self) -> bool {
        matches!(
            self,
            ApiError::Invalid(_)
                | ApiError::MissingToken { .. }
                | ApiError::UnusableToken { .. }
                | ApiError::InsecureUrl { .. }
                | ApiError::BadUrl { .. }
                | ApiError::Transport {
                    kind: TransportKind::Dns | TransportKind::Connect,
                    ..
                }
        )
    }

    /// The process exit code the CLI uses for this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            ApiError::Invalid(_) | ApiError::InsecureUrl { .. } | ApiError::BadUrl { .. } => 2,
            ApiError::MissingToken { .. }
            | ApiError::UnusableToken { .. }
            | ApiError::Unauthorized { .. }
            | ApiError::InvalidToken { .. }
            | ApiError::NoCredits { .. } => 3,
            ApiError::Transport { .. } => 5,
            ApiError::Cancelled => 130,
            _ => 4,
        }
    }

    /// How long to wait before the service may take the call again, if it said.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            ApiError::RateLimited { retry_after, .. }
            | ApiError::Unavailable { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// The message the server wrote, verbatim, when it answered with one.
    pub fn server_message(&self) -> Option<&str> {
        match self {
            ApiError::Unauthorized { message }
            | ApiError::InvalidToken { message, .. }
            | ApiError::NoCredits { message, .. }
            | ApiError::Captcha { message }
            | ApiError::Forbidden { message }
            | ApiError::NotFound { message }
            | ApiError::NoSuchDomain { message }
            | ApiError::Unprocessable { message, .. }
            | ApiError::RateLimited { message, .. }
            | ApiError::Server { message }
            | ApiError::Unavailable { message, .. }
            | ApiError::GatewayTimeout { message }
            | ApiError::OtherStatus { message, .. } => Some(message),
            ApiError::WaitBeyondLimit { cause, .. } => cause.server_message(),
            _ => None,
        }
    }

    /// The HTTP status, for errors that came with one.
    pub fn status(&self) -> Option<u16> {
        Some(match self {
            ApiError::Unauthorized { .. } => 401,
            ApiError::InvalidToken { status, .. }
            | ApiError::OtherStatus { status, .. }
            | ApiError::Redirect { status, .. } => *status,
            ApiError::NoCredits { .. } => 402,
            ApiError::Captcha { .. } | ApiError::Forbidden { .. } => 403,
            ApiError::NotFound { .. } | ApiError::NoSuchDomain { .. } => 404,
            ApiError::Unprocessable { .. } => 422,
            ApiError::RateLimited { .. } => 429,
            ApiError::Server { .. } => 500,
            ApiError::Unavailable { .. } => 503,
            ApiError::GatewayTimeout { .. } => 504,
            ApiError::WaitBeyondLimit { cause, .. } => return cause.status(),
            _ => return None,
        })
    }

    /// Builds the error for a non-success status from the server's text/plain body.
    pub fn from_status(status: u16, body: &str, retry_after_header: Option<&str>) -> ApiError {
        let message = clean_message(body);
        let lower = message.to_ascii_lowercase();
        let retry_after = retry_after_header
            .and_then(|h| h.trim().parse::<u64>().ok())
            .or_else(|| parse_retry_seconds(&message))
            .map(Duration::from_secs);
        if lower.contains("valid api token") {
            return ApiError::InvalidToken { status, message };
        }
        match status {
            401 => ApiError::Unauthorized { message },
            402 => ApiError::NoCredits {
                topup_url: find_url(&message),
                message,
            },
            403 if lower.contains("captcha") => ApiError::Captcha { message },
            403 => ApiError::Forbidden { message },
            // The OpenAPI's spelling, and the dictionary's should the service fix it.
            404 if lower.contains("domain is nonexist") => ApiError::NoSuchDomain { message },
            404 => ApiError::NotFound { message },
            422 => ApiError::Unprocessable {
                field: Field::named_in(&message),
                message,
            },
            429 => ApiError::RateLimited {
                message,
                retry_after,
            },
            500 => ApiError::Server { message },
            503 => ApiError::Unavailable {
                message,
                retry_after,
            },
            504 => ApiError::GatewayTimeout { message },
            _ => ApiError::OtherStatus { status, message },
        }
    }
}

/// The server's message as one readable line, bounded in length.
fn clean_message(body: &str) -> String {
    let one_line = body.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.is_empty() {
        "(no message)".to_string()
    } else {
        super::request::shorten(&one_line, 300)
    }
}

/// "please retry in 180 seconds" → 180.
pub(crate) fn parse_retry_seconds(message: &str) -> Option<u64> {
    let lower = message.to_ascii_lowercase();
    let at = lower.find("retry in")?;
    lower[at + "retry in".len()..]
        .split_whitespace()
        .next()?
        .trim_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .ok()
}

/// The first http(s) URL in a message, without trailing punctuation.
fn find_url(message: &str) -> Option<String> {
    let start = message
        .find("https://")
        .or_else(|| message.find("http://"))?;
    let url: String = message[start..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    Some(url.trim_end_matches(['.', ',', ';', ')', '"']).to_string())
}

impl From<InvalidRequest> for ApiError {
    fn from(e: InvalidRequest) -> Self {
        ApiError::Invalid(e)
    }
}

/// A short, printable excerpt of a body, for errors about unreadable answers.
pub fn excerpt(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(160)]);
    let one_line: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    one_line.trim().to_string()
}

/// An error and its causes as text, outermost first, with the kind of the innermost I/O error
/// among them: what the HTTP library's errors are classified by.
pub(crate) struct ErrorChain {
    pub messages: Vec<String>,
    pub io_kind: Option<std::io::ErrorKind>,
}

impl ErrorChain {
    pub(crate) fn of(error: &(dyn std::error::Error + 'static)) -> ErrorChain {
        let mut messages = Vec::new();
        let mut io_kind = None;
        let mut source = Some(error);
        while let Some(e) = source {
            messages.push(e.to_string());
            if let Some(io) = e.downcast_ref::<std::io::Error>() {
                io_kind = Some(io.kind());
            }
            source = e.source();
        }
        ErrorChain { messages, io_kind }
    }

    /// Every message, outermost first, as one line.
    pub(crate) fn joined(&self) -> String {
        self.messages.join(": ")
    }

    /// The innermost cause: it says most.
    pub(crate) fn innermost(&self) -> Option<&str> {
        self.messages.last().map(String::as_str)
    }
}

impl fmt::Display for TransportKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TransportKind::Dns => "DNS",
            TransportKind::Connect => "connect",
            TransportKind::Tls => "TLS",
            TransportKind::Timeout => "timeout",
            TransportKind::Reset => "reset",
            TransportKind::Other => "transport",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_their_errors_with_the_message_verbatim() {
        let e = ApiError::from_status(
            402,
            "Credit balance is 0; top up at https://example.test/plans",
            None,
        );
        assert_eq!(
            e,
            ApiError::NoCredits {
                message: "Credit balance is 0; top up at https://example.test/plans".into(),
                topup_url: Some("https://example.test/plans".into())
            }
        );
        assert!(
            e.to_string()
                .contains("Top up at https://example.test/plans")
        );
        assert_eq!(e.exit_code(), 3);

        let e = ApiError::from_status(
            503,
            "Service is autoscaling; please retry in 180 seconds",
            None,
        );
        assert_eq!(e.retry_after(), Some(Duration::from_secs(180)));
        let e = ApiError::from_status(503, "busy", Some("7"));
        assert_eq!(e.retry_after(), Some(Duration::from_secs(7)));

        let e = ApiError::from_status(403, "Valid API token must be provided", None);
        assert!(matches!(e, ApiError::InvalidToken { status: 403, .. }));
        let e = ApiError::from_status(403, "Captcha was detected", None);
        assert!(matches!(e, ApiError::Captcha { .. }));
        let e = ApiError::from_status(422, "Subdivision requires country", None);
        assert!(matches!(
            e,
            ApiError::Unprocessable {
                field: Some(Field::Subdivision),
                ..
            }
        ));
        assert_eq!(e.exit_code(), 4);

        let e = ApiError::from_status(404, "Domain is nonexistant", None);
        assert!(matches!(e, ApiError::NoSuchDomain { .. }), "{e:?}");
        assert!(
            e.to_string().contains("\"Domain is nonexistant\" (404)"),
            "{e}"
        );
        assert_eq!((e.status(), e.exit_code()), (Some(404), 4));
        let e = ApiError::from_status(404, "Job not found", None);
        assert!(matches!(e, ApiError::NotFound { .. }), "{e:?}");
    }

    #[test]
    fn retry_seconds_are_read_from_messages() {
        assert_eq!(
            parse_retry_seconds("please retry in 180 seconds"),
            Some(180)
        );
        assert_eq!(parse_retry_seconds("Retry in 5s"), Some(5));
        assert_eq!(parse_retry_seconds("retry later"), None);
    }
}
