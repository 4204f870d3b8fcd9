//! Response bodies: typed, but tolerant of the live service's drift (renamed fields, missing
//! or null fields, unknown result types). One odd result never sinks a page.

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// Reads `null`, a missing field or a string; anything else becomes empty rather than an error.
fn lenient_string<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let v = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match v {
        Some(serde_json::Value::String(s)) => s,
        Some(serde_json::Value::Number(n)) => n.to_string(),
        _ => String::new(),
    })
}

/// An optional string where the empty string means unset, as the live service sends it.
fn lenient_opt_string<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let s = lenient_string(d)?;
    Ok((!s.trim().is_empty()).then_some(s))
}

fn lenient_strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let v = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match v {
        Some(serde_json::Value::Array(items)) => items
            .into_iter()
            .filter_map(|i| match i {
                serde_json::Value::String(s) => Some(s),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    })
}

/// A whole number that may arrive as a number, a numeric string or null.
fn lenient_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    let v = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match v {
        Some(serde_json::Value::Number(n)) => n.as_u64().or_else(|| n.as_f64().map(|f| f as u64)),
        Some(serde_json::Value::String(s)) => s.trim().replace(',', "").parse().ok(),
        _ => None,
    })
}

fn lenient_u32<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    Ok(lenient_u64(d)?.map_or(0, |n| n.min(u32::MAX as u64) as u32))
}

fn lenient_opt_u32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    Ok(lenient_u64(d)?.map(|n| n.min(u32::MAX as u64) as u32))
}

fn lenient_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let v = Option::<serde_json::Value>::deserialize(d)?;
    Ok(match v {
        Some(serde_json::Value::Number(n)) => n.as_f64(),
        Some(serde_json::Value::String(s)) => s.trim().parse().ok(),
        _ => None,
    })
}

/// A chat completion (`GET /ai` with format json). Every HTML field may be empty.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Completion {
    #[serde(default, deserialize_with = "lenient_string")]
    pub model: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub query: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub html: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub prompt: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub completion: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub sources: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub ads: String,
    /// Renamed from `subqueries` on the live service; both are read.
    #[serde(default, alias = "subqueries", deserialize_with = "lenient_strings")]
    pub fanouts: Vec<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub device: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub country: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub subdivision: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub city: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub language: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub display: Option<String>,
}

/// A page of search results (`GET /search` with format json, or `/search/results`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResults {
    #[serde(default, deserialize_with = "lenient_string")]
    pub engine: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub terms: String,
    #[serde(default, deserialize_with = "tolerant_results")]
    pub results: Vec<SearchResult>,
    #[serde(default, deserialize_with = "lenient_u64")]
    pub results_count: Option<u64>,
    #[serde(default, deserialize_with = "lenient_opt_u32")]
    pub page_count: Option<u32>,
    #[serde(default, deserialize_with = "lenient_opt_u32")]
    pub page_size: Option<u32>,
    #[serde(default, deserialize_with = "lenient_u64")]
    pub approx_results_count: Option<u64>,
    #[serde(default, deserialize_with = "lenient_opt_u32")]
    pub results_offset: Option<u32>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub country: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub subdivision: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub city: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub uule: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub language: Option<String>,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub display: Option<String>,
}

/// The kinds of result the app knows; anything else is kept with its type name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResultKind {
    Organic,
    OrganicWithSitelinks,
    AlsoAsked,
    TopStory,
    AlsoSearched,
    Other(String),
}

impl ResultKind {
    pub(crate) fn from_type(name: &str) -> ResultKind {
        match name {
            "organic" => ResultKind::Organic,
            "organic-with-sitelinks" => ResultKind::OrganicWithSitelinks,
            "also-asked" => ResultKind::AlsoAsked,
            "top-story" => ResultKind::TopStory,
            "also-searched" => ResultKind::AlsoSearched,
            other => ResultKind::Other(other.to_string()),
        }
    }

    pub fn type_name(&self) -> &str {
        match self {
            ResultKind::Organic => "organic",
            ResultKind::OrganicWithSitelinks => "organic-with-sitelinks",
            ResultKind::AlsoAsked => "also-asked",
            ResultKind::TopStory => "top-story",
            ResultKind::AlsoSearched => "also-searched",
            ResultKind::Other(name) => name,
        }
    }

    pub fn is_organic(&self) -> bool {
        matches!(self, ResultKind::Organic | ResultKind::OrganicWithSitelinks)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Sitelink {
    #[serde(default, deserialize_with = "lenient_opt_u32")]
    pub position: Option<u32>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub url: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub title: String,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ResultImage {
    #[serde(default, deserialize_with = "lenient_opt_u32")]
    pub position: Option<u32>,
    /// A URL, or a `data:` URI of the inlined image.
    #[serde(default, deserialize_with = "lenient_string")]
    pub source: String,
    /// `alt` on the live service, `altText` in the contract; both are read.
    #[serde(default, alias = "altText", deserialize_with = "lenient_string")]
    pub alt: String,
}

/// The answer under a "People also ask" question.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AskedAnswer {
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub heading: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub description: String,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub date: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub url: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub title: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub site: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub visible_url: String,
}

/// One result: the common fields, and the fields of its kind (absent ones stay empty).
/// A result of an unknown type, or one whose shape could not be read, keeps its JSON in `raw`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    #[serde(
        rename = "type",
        deserialize_with = "kind_from_type",
        default = "unknown_kind"
    )]
    pub kind: ResultKind,
    #[serde(default, deserialize_with = "lenient_u32")]
    pub page: u32,
    #[serde(default, deserialize_with = "lenient_string")]
    pub section: String,
    #[serde(default, deserialize_with = "lenient_u32")]
    pub feature: u32,
    #[serde(default, deserialize_with = "lenient_u32")]
    pub position: u32,
    #[serde(default, deserialize_with = "lenient_string")]
    pub url: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub title: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub site: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub visible_url: String,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub date: Option<String>,
    #[serde(default, deserialize_with = "lenient_string")]
    pub snippet: String,
    #[serde(default, deserialize_with = "lenient_f64")]
    pub rating: Option<f64>,
    #[serde(default, deserialize_with = "lenient_u64")]
    pub votes: Option<u64>,
    #[serde(default)]
    pub sitelinks: Vec<Sitelink>,
    #[serde(default)]
    pub images: Vec<ResultImage>,
    /// also-asked
    #[serde(default, deserialize_with = "lenient_string")]
    pub question: String,
    #[serde(default)]
    pub answer: Option<AskedAnswer>,
    /// top-story
    #[serde(default, deserialize_with = "lenient_string")]
    pub publisher: String,
    #[serde(default, deserialize_with = "lenient_string")]
    pub headline: String,
    #[serde(default, deserialize_with = "lenient_opt_string")]
    pub image: Option<String>,
    /// also-searched
    #[serde(default, deserialize_with = "lenient_string")]
    pub query: String,
    /// The result's JSON as received, for unknown types and unreadable shapes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw: Option<serde_json::Value>,
}

fn unknown_kind() -> ResultKind {
    ResultKind::Other("unknown".to_string())
}

fn kind_from_type<'de, D: Deserializer<'de>>(d: D) -> Result<ResultKind, D::Error> {
    let name = lenient_string(d)?;
    Ok(if name.is_empty() {
        unknown_kind()
    } else {
        ResultKind::from_type(&name)
    })
}

impl SearchResult {
    /// The result's main text: title, headline, question or query, whichever its kind has.
    pub fn heading(&self) -> &str {
        [&self.title, &self.headline, &self.question, &self.query]
            .into_iter()
            .find(|s| !s.is_empty())
            .map_or("", |s| s.as_str())
    }

    /// The URL the result points at (an also-asked answer's source when it has no own URL).
    pub fn target_url(&self) -> &str {
        if !self.url.is_empty() {
            &self.url
        } else {
            self.answer.as_ref().map_or("", |a| a.url.as_str())
        }
    }

    /// Reads one result from its JSON; a shape that does not fit becomes an unknown result
    /// holding the JSON, so the page still shows it.
    fn from_raw(raw: &RawValue) -> SearchResult {
        match serde_json::from_str::<SearchResult>(raw.get()) {
            Ok(mut result) => {
                if matches!(result.kind, ResultKind::Other(_)) {
                    result.raw = serde_json::from_str(raw.get()).ok();
                }
                result
            }
            Err(_) => {
                let value: serde_json::Value =
                    serde_json::from_str(raw.get()).unwrap_or(serde_json::Value::Null);
                let kind = value
                    .get("type")
                    .and_then(|t| t.as_str())
                    .map_or_else(unknown_kind, |t| ResultKind::Other(t.to_string()));
                let number = |key: &str| {
                    value
                        .get(key)
                        .and_then(|v| v.as_u64())
                        .map_or(0, |n| n.min(u32::MAX as u64) as u32)
                };
                SearchResult {
                    kind,
                    page: number("page"),
                    section: value
                        .get("section")
                        .and_then(|v| v.as_str())
                        .unwrap_or_default()
                        .to_string(),
                    feature: number("feature"),
                    position: number("position"),
                    raw: Some(value),
                    ..SearchResult::empty()
                }
            }
        }
    }

    fn empty() -> SearchResult {
        SearchResult {
            kind: unknown_kind(),
            page: 0,
            section: String::new(),
            feature: 0,
            position: 0,
            url: String::new(),
            title: String::new(),
            site: String::new(),
            visible_url: String::new(),
            date: None,
            snippet: String::new(),
            rating: None,
            votes: None,
            sitelinks: Vec::new(),
            images: Vec::new(),
            question: String::new(),
            answer: None,
            publisher: String::new(),
            headline: String::new(),
            image: None,
            query: String::new(),
            raw: None,
        }
    }
}

/// Reads the results array one element at a time, each from its raw JSON, so that a bad
/// element costs only itself.
fn tolerant_results<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<SearchResult>, D::Error> {
    struct ResultsVisitor;
    impl<'de> Visitor<'de> for ResultsVisitor {
        type Value = Vec<SearchResult>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an array of results")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(16));
            while let Some(raw) = seq.next_element::<Box<RawValue>>()? {
                out.push(SearchResult::from_raw(&raw));
            }
            Ok(out)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
    }
    d.deserialize_any(ResultsVisitor)
}

/// The balance, from `GET /user`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Account {
    #[serde(default, deserialize_with = "lenient_string")]
    pub email: String,
    #[serde(default, deserialize_with = "lenient_u64")]
    pub credits: Option<u64>,
}

/// What `GET /ai` answered: the JSON completion, or the chat page as HTML (rendered/raw).
#[derive(Clone, Debug, PartialEq)]
pub enum AiAnswer {
    Completion(Box<Completion>),
    Html(String),
}

/// What `GET /search` answered: parsed results, or the results page as HTML.
#[derive(Clone, Debug, PartialEq)]
pub enum SearchAnswer {
    Results(Box<SearchResults>),
    Html(String),
}

/// What a retrieval of a queued job answered.
#[derive(Clone, Debug, PartialEq)]
pub enum JobPoll<T> {
    /// Still `retrieving`; the status text as the service gave it.
    Pending(String),
    /// The job failed; re-submit the request. The service's own words, when it gave some.
    Failed(Option<String>),
    Ready(T),
}

/// If a body is a job state (`{"status": "retrieving"}`, perhaps with an id or a message),
/// says which. Large bodies are never job states, so they are not parsed here.
pub(crate) fn job_state(body: &str) -> Option<JobPoll<()>> {
    if body.len() > 1024 || !body.trim_start().starts_with('{') {
        return None;
    }
    let map: serde_json::Map<String, serde_json::Value> = serde_json::from_str(body).ok()?;
    let status = map.get("status")?.as_str()?.to_ascii_lowercase();
    let only_status = map
        .keys()
        .all(|k| matches!(k.as_str(), "status" | "id" | "message" | "error"));
    if !only_status {
        return None;
    }
    Some(match status.as_str() {
        "failed" | "failure" | "error" => {
            // Its words on one line, bounded: they are shown and stored.
            let said = ["message", "error"]
                .iter()
                .find_map(|key| map.get(*key)?.as_str())
                .map(|words| crate::sanitize::one_line(words).chars().take(300).collect())
                .filter(|words: &String| !words.trim().is_empty());
            JobPoll::Failed(said)
        }
        _ => JobPoll::Pending(status),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_states_are_recognised_whatever_else_they_carry() {
        assert_eq!(
            job_state(r#"{"status":"retrieving"}"#),
            Some(JobPoll::Pending("retrieving".into()))
        );
        assert_eq!(
            job_state(r#"{"status":"failed","id":"x"}"#),
            Some(JobPoll::Failed(None))
        );
        assert_eq!(
            job_state(r#"{"status":"failed","message":"Out of\u001b[2J workers"}"#),
            Some(JobPoll::Failed(Some("Out of␛ workers".into())))
        );
        assert_eq!(job_state(r#"{"status":"ok","results":[]}"#), None);
        assert_eq!(job_state("<html>"), None);
    }

    #[test]
    fn an_odd_result_does_not_sink_the_page() {
        let body = r#"{"engine":"google","terms":"x","results":[
            {"type":"organic","page":1,"section":"main","feature":1,"position":1,"url":"https://a","title":"A","site":"A","visibleUrl":"https://a","date":null,"snippet":"s","rating":null,"votes":null,"sitelinks":[],"images":[]},
            {"type":"organic","page":"one","sitelinks":"oops"},
            {"type":"shopping-carousel","page":1,"items":[1,2]}
        ],"resultsCount":3,"pageCount":1}"#;
        let page: SearchResults = serde_json::from_str(body).unwrap();
        assert_eq!(page.results.len(), 3);
        assert_eq!(page.results[0].kind, ResultKind::Organic);
        assert!(page.results[1].raw.is_some());
        assert_eq!(
            page.results[2].kind,
            ResultKind::Other("shopping-carousel".into())
        );
        assert!(page.results[2].raw.is_some());
    }

    #[test]
    fn completion_accepts_subqueries_and_nulls() {
        let c: Completion = serde_json::from_str(
            r#"{"model":"chatgpt","query":"q","html":null,"subqueries":["a","b"],"device":"","sse":true}"#,
        )
        .unwrap();
        assert_eq!(c.fanouts, vec!["a", "b"]);
        assert_eq!(c.device, None);
        assert_eq!(c.html, "");
    }
}
