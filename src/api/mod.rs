//! The service contract as types, and the HTTP client. Knows nothing of the UI or storage.

pub mod browse;
pub mod client;
pub mod decode;
pub mod error;
pub mod field;
pub mod model;
pub mod network;
pub mod proxy;
pub mod request;
pub mod response;
pub mod secret;
pub mod webhook;

pub use browse::{
    BrowserFormat, BrowserRequest, Difficulty, Service, UsageGrouping, UsageRequest, UsageRow,
};
pub use client::{Client, ClientSettings, Fetched, JobAnswer, RetryNotice, RetryPolicy, Secret};
pub use error::{ApiError, TransportKind};
pub use field::{Field, FieldError, InvalidRequest};
pub use model::{AiFormat, Awaiting, IpType, JobKind, Model, SearchFormat};
pub use request::{AiRequest, BodyAsked, JobId, Location, SearchRequest};
pub use response::{
    Account, AiAnswer, AskedAnswer, Completion, JobPoll, ResultImage, ResultKind, SearchAnswer,
    SearchResult, SearchResults, Sitelink,
};
