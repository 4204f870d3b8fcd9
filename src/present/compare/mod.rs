//! What a comparison is, apart from the tab that drives it: the axes and the vantage points
//! they make, what a column received, and the facts the summary is computed from. The Compare
//! tab and `vantage compare` both use it.

pub mod export;
pub mod gaps;
pub mod mentions;
pub mod overview;
pub mod summary;
pub mod tidy;

use crate::api::{
    AiFormat, AiRequest, IpType, Location, Model, ResultKind, SearchFormat, SearchRequest,
};

use super::answer::PreparedAnswer;
use super::search_page::PreparedSearch;
pub use overview::{AI_OVERVIEW, AnswerSource};
use summary::{AnswerFacts, AnswerSummary, Ranked};

/// More columns than this are refused: each is a billed call.
pub const MAX_COLUMNS: usize = 16;
/// Calls of one comparison running at once against the service; the rest queue.
pub const MAX_IN_FLIGHT: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareMode {
    /// Chatbot answers, in columns.
    Answers,
    /// Search ranks, in a table.
    Search,
}

/// The axes whose product makes the columns; an empty axis leaves that setting unset.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Axes {
    pub models: Vec<Model>,
    pub devices: Vec<String>,
    pub locations: Vec<Location>,
    pub ips: Vec<IpType>,
    /// Google's AI Overview is a column per location beside the models' (answers only).
    pub overview: bool,
    pub format: AiFormat,
    pub no_cache: bool,
    /// How many times each answer column is asked (0 and 1: once); more than once, each ask
    /// is afresh (expiration=0).
    pub samples: usize,
}

impl Axes {
    /// How many times each answer column is asked.
    pub fn samples(&self) -> usize {
        self.samples.max(1)
    }

    /// Whether every call is asked afresh: the cache off, or several samples.
    fn fresh(&self) -> bool {
        self.no_cache || self.samples() > 1
    }

    /// The request of one vantage point.
    pub fn ai_request(&self, prompt: String, vantage: &Vantage) -> AiRequest {
        AiRequest {
            prompt,
            model: vantage.model,
            // A desktop column beside phones is asked with no device emulation.
            device: vantage.device.as_deref().and_then(crate::devices::emulated),
            location: vantage.location.clone(),
            language: None,
            display: None,
            format: self.format,
            expiration: self.fresh().then_some(0),
        }
    }

    /// The search that brings an overview column's AI Overview.
    pub fn overview_request(&self, prompt: String, vantage: &Vantage) -> SearchRequest {
        overview::overview_request(prompt, vantage.location.clone(), self.fresh().then_some(0))
    }

    /// The answer sources chosen: the models, then the overview when it is on.
    pub fn sources(&self) -> Vec<AnswerSource> {
        let mut sources: Vec<AnswerSource> = self
            .models
            .iter()
            .copied()
            .map(AnswerSource::Model)
            .collect();
        if self.overview {
            sources.push(AnswerSource::AiOverview);
        }
        sources
    }

    /// Sets the models and the overview from a list of answer sources.
    pub fn set_sources(&mut self, sources: &[AnswerSource]) {
        self.models.clear();
        self.overview = false;
        for source in sources {
            match source {
                AnswerSource::Model(model) if !self.models.contains(model) => {
                    self.models.push(*model)
                }
                AnswerSource::Model(_) => {}
                AnswerSource::AiOverview => self.overview = true,
            }
        }
    }

    /// The search request of a vantage point, on top of `base`'s other settings.
    pub fn search_request(
        &self,
        terms: String,
        base: &SearchRequest,
        vantage: &Vantage,
    ) -> SearchRequest {
        // A column's own device (desktop as none) stands over the base's.
        let device = match &vantage.device {
            Some(device) => crate::devices::emulated(device),
            None => base.device.clone(),
        };
        SearchRequest {
            terms,
            ip: vantage.ip,
            device,
            location: vantage.location.clone(),
            uule: None,
            format: SearchFormat::Json,
            expiration: self.no_cache.then_some(0),
            ..base.clone()
        }
    }
}

impl Axes {
    /// The axes a set of columns was made from: each model, device, location and IP type
    /// they use, in order of first use. Columns outside the product of these were added by
    /// hand.
    pub fn covering(vantages: &[Vantage], format: AiFormat, no_cache: bool) -> Axes {
        fn push_new<T: PartialEq>(list: &mut Vec<T>, value: Option<T>) {
            if let Some(value) = value
                && !list.contains(&value)
            {
                list.push(value);
            }
        }
        let mut axes = Axes {
            format,
            no_cache,
            ..Axes::default()
        };
        for vantage in vantages {
            axes.overview |= vantage.overview;
            push_new(&mut axes.models, vantage.model);
            push_new(&mut axes.devices, vantage.device.clone());
            let location =
                (vantage.location != Location::default()).then(|| vantage.location.clone());
            push_new(&mut axes.locations, location);
            push_new(&mut axes.ips, vantage.ip);
        }
        axes
    }
}

/// One vantage point.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Vantage {
    pub model: Option<Model>,
    pub device: Option<String>,
    pub location: Location,
    pub ip: Option<IpType>,
    /// The column is Google's AI Overview for this location rather than a model's answer.
    pub overview: bool,
}

impl Vantage {
    /// An AI Overview column.
    pub fn overview_at(location: Location) -> Vantage {
        Vantage {
            location,
            overview: true,
            ..Vantage::default()
        }
    }

    /// Who answers in this column: the model, or the AI Overview.
    pub fn source_name(&self) -> &'static str {
        if self.overview {
            overview::AI_OVERVIEW_NAME
        } else {
            self.model.unwrap_or(Model::Chatgpt).display_name()
        }
    }

    pub fn label(&self, mode: CompareMode) -> String {
        let location = summary::location_label(&self.location);
        match mode {
            CompareMode::Answers if self.overview => {
                format!("{} · {location}", overview::AI_OVERVIEW_NAME)
            }
            CompareMode::Answers => {
                let model = self.model.unwrap_or(Model::Chatgpt).display_name();
                match &self.device {
                    Some(device) => format!("{model} · {device} · {location}"),
                    None => format!("{model} · {location}"),
                }
            }
            CompareMode::Search => {
                let ip = self.ip.map_or("any IP", |ip| ip.as_str());
                match &self.device {
                    Some(device) => format!("{location} · {device} · {ip}"),
                    None => format!("{location} · {ip}"),
                }
            }
        }
    }
}

/// The vantage points of the axes, in order: models, then devices, then locations vary
/// slowest to fastest (answers); locations, then devices, then IP types (search).
pub fn vantages(axes: &Axes, mode: CompareMode) -> Vec<Vantage> {
    fn or_unset<T: Clone>(list: &[T]) -> Vec<Option<T>> {
        if list.is_empty() {
            vec![None]
        } else {
            list.iter().cloned().map(Some).collect()
        }
    }
    let locations = or_unset(&axes.locations);
    let mut out = Vec::new();
    match mode {
        CompareMode::Answers => {
            // The overview alone asks no chatbot; with no model chosen otherwise, the
            // service's default model answers.
            let models = if axes.overview && axes.models.is_empty() {
                Vec::new()
            } else {
                or_unset(&axes.models)
            };
            for model in models {
                for device in or_unset(&axes.devices) {
                    for location in &locations {
                        out.push(Vantage {
                            model,
                            device: device.clone(),
                            location: location.clone().unwrap_or_default(),
                            ip: None,
                            overview: false,
                        });
                    }
                }
            }
            if axes.overview {
                // A search has no device: one overview column per location.
                for location in &locations {
                    out.push(Vantage::overview_at(location.clone().unwrap_or_default()));
                }
            }
        }
        CompareMode::Search => {
            for location in &locations {
                for device in or_unset(&axes.devices) {
                    for ip in or_unset(&axes.ips) {
                        out.push(Vantage {
                            device: device.clone(),
                            location: location.clone().unwrap_or_default(),
                            ip,
                            ..Vantage::default()
                        });
                    }
                }
            }
        }
    }
    out
}

/// The vantage point each column's request was asked from, as a stored comparison keeps
/// them. A desktop beside phones was sent with no device: read back, it is named desktop.
pub fn vantages_of(requests: &[crate::store::RequestParams]) -> Result<Vec<Vantage>, String> {
    use crate::store::RequestParams;
    let mut vantages = Vec::with_capacity(requests.len());
    for request in requests {
        vantages.push(match request {
            RequestParams::Ai(r) => Vantage {
                model: r.model,
                device: r.device.clone(),
                location: r.location.clone(),
                ..Vantage::default()
            },
            RequestParams::Search(r) if overview::is_overview_request(r) => {
                Vantage::overview_at(r.location.clone())
            }
            RequestParams::Search(r) => Vantage {
                device: r.device.clone(),
                location: r.location.clone(),
                ip: r.ip,
                ..Vantage::default()
            },
            other => return Err(format!("a {} column cannot be shown", other.kind())),
        });
    }
    let asked_as_device = |v: &Vantage| !v.overview;
    if vantages
        .iter()
        .any(|v| asked_as_device(v) && v.device.is_some())
    {
        for vantage in vantages.iter_mut().filter(|v| asked_as_device(v)) {
            vantage
                .device
                .get_or_insert_with(|| crate::devices::DESKTOP.to_string());
        }
    }
    Ok(vantages)
}

/// What a column received.
#[derive(Debug)]
pub enum Outcome {
    Answer(Box<PreparedAnswer>),
    Results(Box<PreparedSearch>),
}

/// What the summary needs of one answer column: its answer, or why there is none. `place`
/// is where the column asks from (its group in "Sources by kind").
pub fn answer_facts(
    label: String,
    place: &Location,
    answer: Option<&PreparedAnswer>,
    error: Option<String>,
) -> AnswerFacts {
    match answer {
        Some(answer) => AnswerFacts {
            label,
            // An overview's header names a model only to stand in for one.
            model: match answer.ai_overview {
                true => AI_OVERVIEW.to_string(),
                false => answer.header.model.as_str().to_string(),
            },
            place: summary::location_label(place),
            elapsed: Some(answer.header.elapsed),
            chars: answer.plain_text.chars().count(),
            domains: AnswerSummary::distinct(answer.sources.iter().map(|s| s.domain.clone())),
            fanouts: answer.fanouts.clone(),
            text: Some(answer.plain_text.clone()),
            error: None,
        },
        None => AnswerFacts {
            label,
            model: String::new(),
            place: summary::location_label(place),
            elapsed: None,
            chars: 0,
            domains: Vec::new(),
            fanouts: Vec::new(),
            text: None,
            error,
        },
    }
}

/// The ranked results of a page: results with a URL, numbered in the order received.
pub fn ranked_results(page: &PreparedSearch) -> Vec<Ranked> {
    page.results
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                ResultKind::Organic | ResultKind::OrganicWithSitelinks
            ) && !r.url.is_empty()
        })
        .enumerate()
        .map(|(i, r)| Ranked {
            url: r.url.clone(),
            rank: i as u32 + 1,
            sitelinks: r.sitelinks.len(),
        })
        .collect()
}

/// One column of a comparison as its History entry keeps it (the entry's answer is a JSON
/// array of these): the status, the time taken and the body as received, or the error's
/// sentence with status 0. The app and the command line store comparisons alike.
pub fn stored_column(status: u16, body: &str, elapsed: std::time::Duration) -> serde_json::Value {
    serde_json::json!({
        "status": status,
        "elapsed_ms": u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX),
        "body": body,
    })
}
