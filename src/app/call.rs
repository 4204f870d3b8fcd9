//! The state of one call from the UI's point of view: idle, running (with a spinner, elapsed
//! seconds and maybe a retry countdown), or failed with the error's sentence.

use std::time::Instant;

use crate::api::{ApiError, RetryNotice};

use super::Tag;

/// The mode cell's value.
pub(crate) fn mode_text(async_mode: bool) -> &'static str {
    if async_mode { "async" } else { "sync" }
}

/// The sentence a switch of mode shows; `send` is the form's key that sends.
pub(crate) fn mode_flash(async_mode: bool, send: &str) -> String {
    if async_mode {
        format!(
            "Async mode: {send} queues the request as a job; it lands in Jobs ({}).",
            super::Tab::Jobs.key_label()
        )
    } else {
        format!("Sync mode: {send} waits for the answer here.")
    }
}

/// A wait before an automatic retry, counted down on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Countdown {
    pub until: Instant,
    pub attempt: u32,
    /// The error that made the wait necessary.
    pub error: ApiError,
}

/// A response that has arrived and is being read (converted, laid out) before it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Landed {
    pub at: Instant,
    pub bytes: usize,
}

/// `E` is the error a failed call keeps: the service's `ApiError`, or a proxy's `ProxyError`.
#[derive(Clone, Debug, PartialEq)]
pub enum CallState<E = ApiError> {
    Idle,
    Running {
        tag: Tag,
        started: Instant,
        /// What is being waited for: "Asking ChatGPT".
        label: String,
        /// The usual duration, in seconds, shown beside the elapsed time.
        typical: Option<(u32, u32)>,
        retry: Option<Countdown>,
        /// Set once the response has arrived and is being read.
        landed: Option<Landed>,
    },
    Failed(E),
}

impl<E> CallState<E> {
    pub fn running(tag: Tag, started: Instant, label: String, typical: Option<(u32, u32)>) -> Self {
        CallState::Running {
            tag,
            started,
            label,
            typical,
            retry: None,
            landed: None,
        }
    }

    pub fn is_running(&self) -> bool {
        matches!(self, CallState::Running { .. })
    }

    /// Running and its answer not in yet: once it has landed it is kept in History, and only
    /// its reading is left, which quitting loses nothing of.
    pub fn is_waiting(&self) -> bool {
        matches!(self, CallState::Running { landed: None, .. })
    }

    pub fn tag(&self) -> Option<Tag> {
        match self {
            CallState::Running { tag, .. } => Some(*tag),
            _ => None,
        }
    }

    /// True when `tag` is the call this state waits for.
    pub fn is_for(&self, tag: Tag) -> bool {
        self.tag() == Some(tag)
    }

    /// Starts a countdown when the call waits to retry.
    pub fn on_retry(&mut self, tag: Tag, notice: RetryNotice, now: Instant) {
        if let CallState::Running { tag: t, retry, .. } = self
            && *t == tag
        {
            *retry = Some(Countdown {
                until: now + notice.wait,
                attempt: notice.attempt,
                error: notice.error,
            });
        }
    }

    /// The response has arrived: the call is no longer waiting on the service.
    pub fn on_landed(&mut self, tag: Tag, bytes: usize, now: Instant) {
        if let CallState::Running {
            tag: t,
            retry,
            landed,
            ..
        } = self
            && *t == tag
        {
            *retry = None;
            *landed = Some(Landed { at: now, bytes });
        }
    }

    pub fn error(&self) -> Option<&E> {
        match self {
            CallState::Failed(e) => Some(e),
            _ => None,
        }
    }
}

/// The spinner's frame at a given time: ten frames a second.
pub fn spinner_frame(started: Instant, now: Instant) -> char {
    const FRAMES: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
    let tenths = now.saturating_duration_since(started).as_millis() / 100;
    FRAMES[(tenths % FRAMES.len() as u128) as usize]
}
