//! What happens to the app: a key, a mouse event, a call's answer, a store's read. Each one
//! goes through `update`.

use std::path::PathBuf;

use crossterm::event::{KeyEvent, MouseEvent};

use crate::api::proxy::ProxyError;
use crate::api::{Account, ApiError, JobId, RetryNotice};
use crate::jobs::PollOutcome;
use crate::present::answer::PreparedAnswer;
use crate::present::compare::{CompareMode, Outcome, Vantage};
use crate::present::{search_page, text};
use crate::store::{Body, JobRecord, RequestParams};

use super::proxy::{PreparedProxy, ProxyDefaults};
use super::{Connection, Tag};

/// How the calls of a tracking run started in the app went out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackRunSent {
    pub set: String,
    /// The run's short id.
    pub run: String,
    /// An earlier run of the set, cut short, went on instead of a new one.
    pub resumed: bool,
    /// A past run's missing calls were asked again into it (`R` on a run that lacks cells).
    pub filled: bool,
    pub planned: usize,
    pub queued: usize,
    pub refused: usize,
    /// Not sent now; the next run of the set sends them.
    pub later: usize,
    /// Why sending stopped early (the token, the credits, no answer).
    pub halted: Option<String>,
}

pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Paste(String),
    Resize(u16, u16),
    /// The terminal got the focus back: what another process wrote meanwhile is looked at.
    FocusGained,
    /// Time to look whether the store changed, while a view of stored rows shows.
    LookAtStore,
    /// The store's `data_version`: a change means something was committed since.
    StoreVersion(Result<i64, String>),
    /// Time passes while something animates.
    Tick,
    AiDone {
        tag: Tag,
        result: Result<Box<PreparedAnswer>, ApiError>,
    },
    SearchDone {
        tag: Tag,
        result: Result<Box<search_page::PreparedSearch>, ApiError>,
    },
    ProxyDone {
        tag: Tag,
        result: Result<Box<PreparedProxy>, ProxyError>,
    },
    /// Where the proxies are and whose credentials to use (at start, after a switch to demo).
    ProxyDefaults(ProxyDefaults),
    Retrying {
        tag: Tag,
        notice: RetryNotice,
    },
    /// The response of `tag` has arrived (`bytes` long) and is being read.
    Landed {
        tag: Tag,
        bytes: usize,
    },
    Devices(crate::devices::DeviceList, Result<Vec<String>, ApiError>),
    /// A device list saved in an earlier session.
    DevicesCached(crate::devices::DeviceList, Vec<String>),
    Account(Result<Account, ApiError>),
    /// The text of a copy, made off the UI task: now to the clipboard.
    CopyMade(String),
    FileWritten {
        path: PathBuf,
        result: Result<(), super::export::WriteFailure>,
    },
    Opened {
        url: String,
        result: Result<(), String>,
    },
    /// The demo simulator started after a switch, or could not.
    DemoStarted(Result<Connection, String>),
    /// The stored jobs, read at start.
    JobsLoaded(Result<Vec<JobRecord>, String>),
    /// The stored jobs counted by state, read after them.
    JobsCounted(Result<Vec<(crate::jobs::JobState, usize)>, String>),
    /// A tracking run started in the app sent its calls (or could not start).
    TrackRunSent(Result<TrackRunSent, String>),
    /// A queued comparison column's job, stored with its column (or why it was not queued).
    GridQueued {
        tag: Tag,
        result: Result<JobRecord, String>,
    },
    /// A job recorded in the store (submitted, re-submitted or imported).
    JobQueued(Result<JobRecord, String>),
    /// A poll answered; `result` is the body when the job is ready.
    JobPolled {
        id: JobId,
        outcome: PollOutcome,
        result: Option<Body>,
    },
    /// The scheduler's next poll is due.
    JobsWake,
    /// A page of the History list (or of a search's results) read from the store.
    HistoryPage(super::history::Page),
    /// The count of History's listing, read after its page.
    HistoryCounted(super::history::Count),
    /// The workspace file as read at start (or an empty one when there is none).
    WorkspaceLoaded(Result<super::brands::LoadedWorkspace, String>),
    /// The workspace file was written, or not.
    WorkspaceSaved {
        path: PathBuf,
        created: bool,
        result: Result<(), String>,
    },
    /// The tracking runs and one set's trends.
    TrackLoaded(Result<Box<crate::track::view::TrackView>, String>),
    /// One cell's answers over the runs, read for Track's cell view.
    CellAnswersLoaded(Result<Box<crate::track::answers::CellHistory>, String>),
    /// How far the Track tab's reading of its set's answers by the current rules has got.
    TrackReading(crate::track::stored::Progress),
    /// The names stored answers put forward that no tracked brand covers.
    Discovered(Result<crate::app::brands::Discovered, String>),
    /// A stored request, to put back into its form.
    Rerun(Result<RequestParams, String>),
    /// A stored response (a job's result or a history entry), prepared for its viewer.
    StoredOpened(Result<StoredView, String>),
    /// The remembered settings could not be written: the sentence to show.
    SettingsNotSaved(String),
    /// A page fetched for the Page tab, prepared.
    PageDone {
        tag: Tag,
        result: Result<Box<crate::present::page::PreparedPage>, ApiError>,
    },
    /// The word diff of two pages.
    PageDiffed {
        tag: Tag,
        diff: Box<crate::present::page::PageDiff>,
    },
    /// Credits spent today, summed by service and hour.
    Usage(Result<crate::present::usage::UsageSummary, ApiError>),
    /// The store stopped writing (read-only or damaged): its sentence. The rest of the
    /// session keeps jobs and history in memory.
    StoreUnwritable(String),
    /// `keys.toml` or the theme file read again, because it changed (or at start).
    UserFileRead(UserFile),
}

/// What a file the user writes to make vantage theirs read as.
pub enum UserFile {
    /// `keys.toml`: the keymap it makes (the defaults when there is no file).
    Keys(Result<Box<super::keymap::Keymap>, FileUnusable>),
    /// The theme: the built-in one or the file's.
    Theme(Result<Box<crate::theme::Theme>, FileUnusable>),
}

/// Why a user's file is not used: a mistake at a line, or it could not be read at all (its
/// sentence).
pub enum FileUnusable {
    Mistake(crate::user_file::FileMistakes),
    Unreadable(String),
}

/// A stored response made ready for the viewer of its kind.
pub enum StoredView {
    Answer(Box<PreparedAnswer>),
    Search(Box<search_page::PreparedSearch>),
    Text {
        title: String,
        body: text::TextBody,
        /// The page request it answered, when known: it goes back into the Page form.
        request: Option<Box<crate::api::BrowserRequest>>,
    },
    /// A comparison: its prompt or terms, its axes, and each column's vantage and answer.
    Comparison {
        mode: CompareMode,
        prompt: String,
        axes: crate::present::compare::Axes,
        columns: Vec<(Vantage, Result<Outcome, String>)>,
    },
}
