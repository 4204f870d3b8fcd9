//! What `update` asks the outside world to do, as data. `tui` carries each kind out in its own
//! runner, matched exhaustively: a new variant does not compile until it is carried out.

use std::path::PathBuf;

use crate::api::proxy::ProxyRequest;
use crate::api::{AiRequest, JobId, JobKind, SearchRequest};
use crate::jobs::Transition;
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
    SendProxy {
        tag: Tag,
        request: Box<ProxyRequest>,
    },
    Cancel(Tag),
    FetchDevices,
    FetchAccount,
    /// Submits a request in async mode and records its job before anything else.
    SubmitJob {
        request: RequestParams,
    },
    PollJob {
        id: JobId,
        kind: JobKind,
    },
}

/// Reads and writes of the store: reads off the UI task, writes through its writer thread.
#[derive(Clone, Debug, PartialEq)]
pub enum StoreEffect {
    /// Stores a finished comparison as one history entry.
    RecordComparison {
        params: Box<crate::store::RequestParams>,
        /// A JSON array of each column's status, elapsed time and body as received.
        columns: String,
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
    LoadHistory,
    /// Reads the tracking runs, and the trends of this set (else of the newest run's).
    LoadTrack {
        set: Option<String>,
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
    SaveDevices(Vec<String>),
    /// Reads the device list saved last time, shown until a fresh one arrives.
    LoadDevices,
}

/// What touches the terminal or the machine.
#[derive(Clone, Debug, PartialEq)]
pub enum OsEffect {
    Copy(String),
    OpenUrl(String),
    /// Writes an export, creating a missing folder; an existing file only when `overwrite`.
    WriteFile {
        path: PathBuf,
        contents: String,
        overwrite: bool,
    },
    SwitchToDemo,
    Quit,
}
