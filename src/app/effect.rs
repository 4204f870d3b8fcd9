//! What `update` asks the outside world to do, as data. `tui` carries each kind out in its own
//! runner, matched exhaustively: a new variant does not compile until it is carried out.

use std::path::PathBuf;

use crate::api::proxy::ProxyRequest;
use crate::api::{AiRequest, BrowserRequest, JobId, JobKind, SearchRequest, UsageRequest};
use crate::jobs::Transition;
use crate::present::page::DiffSide;
use crate::store::{Body, EntryId, RequestParams};

use super::Tag;

/// One thing to do, by kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// A call of the service or a proxy; its answer comes back as a message.
    Call(CallEffect),
    /// A read or a write of the local store: history, queued jobs, the device list.
    Store(StoreEffect),
    /// The terminal and the operating system: clipboard, browser, files, the demo, quitting.
    Os(OsEffect),
}

impl Effect {
    /// The request a form queues in async mode.
    pub fn submit_job(request: RequestParams) -> Effect {
        Effect::Call(CallEffect::SubmitJob {
            request,
            replaces: None,
        })
    }
}

/// Calls of the service and the proxies, run in tasks.
#[derive(Clone, Debug, PartialEq)]
pub enum CallEffect {
    SendAi {
        tag: Tag,
        request: AiRequest,
    },
    SendSearch {
        tag: Tag,
        request: SearchRequest,
    },
    /// A search awaiting Google's AI Overview, answered as an AI answer (`Msg::AiDone`).
    SendOverview {
        tag: Tag,
        request: SearchRequest,
    },
    SendProxy {
        tag: Tag,
        request: Box<ProxyRequest>,
    },
    /// A call of a comparison's column: no History entry of its own, since the whole
    /// comparison is one entry (written when its last column lands).
    Column(Box<CallEffect>),
    Cancel(Tag),
    /// Fetches one of the service's device lists.
    FetchDevices(crate::devices::DeviceList),
    FetchAccount,
    /// Runs a tracking set: its calls planned in the store, then each submitted as a job and
    /// its id stored as it arrives (as `vantage track run`, under the set's lock).
    RunSet {
        set: String,
        calls: Vec<RequestParams>,
    },
    /// Asks again, into a past run of the set, the calls it lacks (jobs failed or expired,
    /// calls not sent), as `vantage track run SET --retry-failed RUN` does.
    FillRun {
        set: String,
        run: crate::store::RunId,
    },
    /// Queues one column of a comparison asked through the queue: its job is stored with
    /// its column the moment its id comes (`Msg::GridQueued`).
    SubmitGridColumn {
        tag: Tag,
        entry: crate::store::EntryId,
        column: usize,
        request: RequestParams,
    },
    /// Reads a queued column's result off the UI task (`Msg::AiDone` for its tag).
    PrepareGridColumn {
        tag: Tag,
        request: RequestParams,
        body: crate::store::Body,
    },
    /// Submits a request in async mode and records its job before anything else.
    SubmitJob {
        request: RequestParams,
        /// The failed or expired job this one re-submits: a tracking run's call then
        /// counts the new job, not the old one.
        replaces: Option<JobId>,
    },
    PollJob {
        id: JobId,
        kind: JobKind,
        asked: crate::api::BodyAsked,
    },
    /// A page as a vantage point sees it (`GET /browser`), kept in History.
    FetchPage {
        tag: Tag,
        request: BrowserRequest,
    },
    /// The word diff of two pages, computed off the UI task.
    DiffPages {
        tag: Tag,
        left: DiffSide,
        right: DiffSide,
    },
    /// Credits spent over a range, by service and hour (`GET /usage`).
    FetchUsage(UsageRequest),
}

/// Reads and writes of the store: reads off the UI task, writes through its writer thread.
#[derive(Clone, Debug, PartialEq)]
pub enum StoreEffect {
    /// Writes the History entry of a comparison asked through the queue, before any of its
    /// columns is queued.
    StartComparison {
        entry: crate::store::EntryId,
        params: Box<crate::store::RequestParams>,
    },
    /// Stores a finished comparison as one history entry (the answer of `entry`, when it
    /// was started through the queue).
    RecordComparison {
        entry: Option<crate::store::EntryId>,
        params: Box<crate::store::RequestParams>,
        /// A JSON array of each column's status, elapsed time and body as received.
        columns: String,
        /// The whole run's time, from its first call out to its last answer in.
        elapsed_ms: u64,
    },
    /// Records a job id received elsewhere (checked to be a UUID).
    ImportJob {
        id: JobId,
        kind: JobKind,
    },
    /// Stores what a poll changed (and the result, when it landed).
    SaveJob {
        transition: Transition,
        result: Option<Body>,
    },
    DeleteJob(JobId),
    LoadJobs,
    /// Reads the store's `data_version` (cheap), to see whether anyone wrote it.
    ReadDataVersion,
    /// One page of the History list: of every entry, or of those a full-text search finds.
    LoadHistoryPage(super::history::PageRequest),
    /// Reads the tracking runs, and the trends of this set (else of the newest run's).
    LoadTrack {
        set: Option<String>,
    },
    /// Reads one cell's answers over the set's runs (its readings brought up to date for
    /// `brands` first), the words of the runs `texts` names and of the newest two answered.
    LoadCellAnswers {
        set: String,
        cell: crate::track::answers::Cell,
        brands: Vec<crate::analysis::mentions::Brand>,
        texts: Vec<String>,
    },
    /// Writes a set's report as one HTML page (`track report --format html`), off the UI
    /// task: the set as the workspace file has it, and the brands it watches.
    WriteReport {
        set: String,
        definition: Option<Box<crate::analysis::workspace::TrackSet>>,
        brands: Vec<crate::analysis::mentions::Brand>,
        path: std::path::PathBuf,
        overwrite: bool,
    },
    DeleteHistory(EntryId),
    /// Reads a finished job's result from the store and prepares it for its viewer.
    OpenJob {
        id: JobId,
        kind: JobKind,
        request: Option<RequestParams>,
    },
    OpenHistory(EntryId),
    /// Reads a history entry's request back, to re-run it.
    LoadRerun(EntryId),
    SaveDevices(crate::devices::DeviceList, Vec<String>),
    /// Reads the device lists saved last time, shown until fresh ones arrive.
    LoadDevices,
    /// Reads the workspace file (`explicit`, else `vantage.toml` in the current folder).
    LoadWorkspace {
        explicit: Option<PathBuf>,
        /// Read again only if the file's text is no longer this (`Some(None)`: there was no
        /// file); `None` reads it whatever it holds.
        unless_read: Option<Option<String>>,
    },
    /// Reads the stored answers (the newest 2,000) for names no tracked brand covers.
    DiscoverNames {
        tracked: Vec<crate::analysis::mentions::Brand>,
    },
    /// Writes the workspace file's new text (parsed again, then written atomically).
    SaveWorkspace {
        path: PathBuf,
        text: String,
        /// The text the change was made on (none when there was no file): a file that no
        /// longer reads so is not written over.
        read: Option<String>,
        /// True when the file did not exist before: the status line says where it went.
        created: bool,
    },
}

/// What touches the terminal or the machine.
#[derive(Clone, Debug, PartialEq)]
pub enum OsEffect {
    Copy(super::export::ExportText),
    OpenUrl(String),
    /// Writes an export, creating a missing folder; an existing file only when `overwrite`.
    WriteFile {
        path: PathBuf,
        contents: super::export::ExportText,
        overwrite: bool,
    },
    /// Writes the remembered settings beside the store, replacing the last ones.
    SaveSettings(Box<super::settings_memory::Remembered>),
    /// Starts the embedded simulator, billing by the app's price table.
    SwitchToDemo(crate::price::Prices),
    /// Reads `keys.toml` and the theme file again; a change comes back as `Msg::UserFileRead`.
    ReadUserFiles,
    Quit,
}
