//! The parameters of each billed call, validated as the contract says (with the service's own
//! messages), and the body each call answers.

use axum::http::StatusCode;
use axum::response::Response;

use super::super::MODELS;
use super::super::browse::{BrowseFormat, Vantage, browse};
use super::super::chat::{self, AiRequest};
use super::super::devices::device_named;
use super::super::search::{self, SearchRequest};
use super::{html_response, json_response, with_type};

pub(super) struct Query(pub Vec<(String, String)>);

impl Query {
    pub(super) fn parse(raw: Option<&str>) -> Query {
        Query(
            url::form_urlencoded::parse(raw.unwrap_or("").as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect(),
        )
    }

    pub(super) fn first(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// An optional parameter; an empty value counts as unset.
    pub(super) fn optional(&self, name: &str) -> Option<&str> {
        self.first(name).map(str::trim).filter(|v| !v.is_empty())
    }

    pub(super) fn all(&self, name: &str) -> impl Iterator<Item = &str> {
        self.0
            .iter()
            .filter(move |(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The pairs to keep with a job: everything but the mode, so a rebuild is a sync build.
    pub(super) fn for_job(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .filter(|(k, _)| k != "mode")
            .cloned()
            .collect()
    }
}

fn choice(
    query: &Query,
    name: &str,
    label: &str,
    allowed: &[&'static str],
) -> Result<Option<&'static str>, String> {
    match query.optional(name) {
        None => Ok(None),
        Some(value) => allowed
            .iter()
            .find(|a| a.eq_ignore_ascii_case(value))
            .map(|a| Some(*a))
            .ok_or_else(|| format!("{label} must be one of {}", allowed.join(", "))),
    }
}

fn integer(
    query: &Query,
    name: &str,
    label: &str,
    lo: u32,
    hi: u32,
) -> Result<Option<u32>, String> {
    match query.optional(name) {
        None => Ok(None),
        Some(value) => value
            .parse::<u32>()
            .ok()
            .filter(|n| (lo..=hi).contains(n))
            .map(Some)
            .ok_or_else(|| format!("{label} must be an integer from {lo} to {hi}")),
    }
}

struct Location {
    country: Option<String>,
    subdivision: Option<String>,
    city: Option<String>,
    language: Option<String>,
    display: Option<String>,
}

fn location(query: &Query) -> Result<Location, String> {
    let country = match query.optional("country") {
        None => None,
        Some(c) if c.len() == 2 && c.chars().all(|ch| ch.is_ascii_alphabetic()) => {
            Some(c.to_ascii_uppercase())
        }
        Some(_) => return Err("Country must be a two-letter ISO code".into()),
    };
    let subdivision = match query.optional("subdivision") {
        None => None,
        Some(_) if country.is_none() => return Err("Subdivision requires country".into()),
        Some(s) if (1..=3).contains(&s.len()) && s.chars().all(|ch| ch.is_ascii_alphanumeric()) => {
            Some(s.to_ascii_uppercase())
        }
        Some(_) => {
            return Err(
                "Subdivision must be the alphanumeric part of a subdivision code, like CA in US-CA"
                    .into(),
            );
        }
    };
    let city = match query.optional("city") {
        None => None,
        Some(_) if country.is_none() => return Err("City requires country".into()),
        Some(c) if c.chars().count() <= 100 => Some(c.to_string()),
        Some(_) => return Err("City must be a city name of at most 100 characters".into()),
    };
    let language_like = |name: &str, label: &str| -> Result<Option<String>, String> {
        match query.optional(name) {
            None => Ok(None),
            Some(v)
                if v.chars().count() <= 40
                    && v.chars()
                        .all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '_') =>
            {
                Ok(Some(v.to_string()))
            }
            Some(_) => Err(format!(
                "{label} must be a language name or a two-letter ISO code"
            )),
        }
    };
    Ok(Location {
        country,
        subdivision,
        city,
        language: language_like("language", "Language")?,
        display: language_like("display", "Display")?,
    })
}

fn expiration(query: &Query) -> Result<bool, String> {
    match query.optional("expiration") {
        None | Some("1") => Ok(true),
        Some("0") => Ok(false),
        Some(_) => Err("Expiration must be 0 or 1".into()),
    }
}

fn is_async(query: &Query) -> Result<bool, String> {
    Ok(choice(query, "mode", "Mode", &["sync", "async"])? == Some("async"))
}

fn required_text(query: &Query, name: &str, label: &str, max: usize) -> Result<String, String> {
    let value = query.first(name).unwrap_or("");
    if value.trim().is_empty() {
        return Err(format!("{label} must be provided"));
    }
    if value.chars().count() > max {
        return Err(format!("Character counts must be no more than {max}"));
    }
    Ok(value.to_string())
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum AiFormat {
    Json,
    Rendered,
    Raw,
}

pub(super) struct AiSubmission {
    pub(super) request: AiRequest,
    pub(super) format: AiFormat,
    pub(super) cache: bool,
    pub(super) asynchronous: bool,
}

pub(super) fn validate_ai(query: &Query) -> Result<AiSubmission, String> {
    let prompt = required_text(query, "prompt", "Prompt", 2047)?;
    let model = choice(query, "model", "Model", &MODELS)?.unwrap_or(MODELS[0]);
    let device =
        match query.optional("device") {
            None => None,
            Some(name) => Some(device_named(name).ok_or_else(|| {
                "Device must be one of the names listed by /ai/devices".to_string()
            })?),
        };
    let place = location(query)?;
    let format = match choice(query, "format", "Format", &["json", "rendered", "raw"])? {
        Some("rendered") => AiFormat::Rendered,
        Some("raw") => AiFormat::Raw,
        _ => AiFormat::Json,
    };
    Ok(AiSubmission {
        request: AiRequest {
            prompt,
            model,
            device,
            country: place.country,
            subdivision: place.subdivision,
            city: place.city,
            language: place.language,
            display: place.display,
        },
        format,
        cache: expiration(query)?,
        asynchronous: is_async(query)?,
    })
}

pub(super) struct SearchSubmission {
    pub(super) request: SearchRequest,
    pub(super) html: bool,
    pub(super) cache: bool,
    pub(super) asynchronous: bool,
}

pub(super) fn validate_search(query: &Query) -> Result<SearchSubmission, String> {
    let terms = required_text(query, "terms", "Terms", 255)?;
    let serps = integer(query, "serps", "Serps", 1, 10)?.unwrap_or(1);
    let size = integer(query, "size", "Size", 0, 100)?;
    let offset = integer(query, "offset", "Offset", 0, 100)?;
    let ip = choice(query, "ip", "Ip", &["residential", "isp"])?;
    let place = location(query)?;
    let uule = query.optional("uule").map(str::to_string);
    let device = match query.optional("device") {
        None => None,
        Some(name) => Some(device_named(name).ok_or_else(|| {
            "Device must be one of the names listed by /search/devices".to_string()
        })?),
    };
    let html = choice(query, "format", "Format", &["html", "json"])? != Some("json");
    let mut awaiting = Vec::new();
    for value in query.all("awaiting") {
        let known = ["ai", "answers", "ads"]
            .into_iter()
            .find(|a| a.eq_ignore_ascii_case(value.trim()))
            .ok_or_else(|| "Awaiting must be one of ai, answers, ads".to_string())?;
        if !awaiting.contains(&known) {
            awaiting.push(known);
        }
    }
    Ok(SearchSubmission {
        request: SearchRequest {
            terms,
            serps,
            size,
            offset,
            ip,
            country: place.country,
            subdivision: place.subdivision,
            city: place.city,
            uule,
            language: place.language,
            display: place.display,
            awaiting,
            device,
        },
        html,
        cache: expiration(query)?,
        asynchronous: is_async(query)?,
    })
}

pub(super) struct BrowserSubmission {
    pub(super) url: url::Url,
    pub(super) format: BrowseFormat,
    country: Option<String>,
    subdivision: Option<String>,
    city: Option<String>,
    device: Option<&'static str>,
    pub(super) asynchronous: bool,
}

impl BrowserSubmission {
    /// What makes two browses the same page.
    pub(super) fn content_key(&self) -> String {
        [
            self.url.as_str(),
            &format!("{:?}", self.format),
            self.country.as_deref().unwrap_or(""),
            self.subdivision.as_deref().unwrap_or(""),
            self.city.as_deref().unwrap_or(""),
            self.device.unwrap_or(""),
        ]
        .join("\u{1f}")
    }
}

pub(super) fn validate_browser(query: &Query) -> Result<BrowserSubmission, String> {
    let raw = required_text(query, "url", "Url", 2047)?;
    let url = url::Url::parse(raw.trim())
        .ok()
        .filter(|u| (u.scheme() == "https" || u.scheme() == "http") && u.host_str().is_some())
        .ok_or_else(|| "Url must be an absolute http or https address".to_string())?;
    let format = match choice(query, "format", "Format", &["rendered", "raw", "markdown"])? {
        Some("raw") => BrowseFormat::Raw,
        Some("markdown") => BrowseFormat::Markdown,
        _ => BrowseFormat::Rendered,
    };
    let device = match query.optional("device") {
        None => None,
        Some(name) => Some(device_named(name).ok_or_else(|| {
            "Device must be one of the names listed by /browser/devices".to_string()
        })?),
    };
    let place = location(query)?;
    Ok(BrowserSubmission {
        url,
        format,
        country: place.country,
        subdivision: place.subdivision,
        city: place.city,
        device,
        asynchronous: is_async(query)?,
    })
}

pub(super) fn ai_body(submission: &AiSubmission, variation: u64) -> Response {
    let page = chat::build(&submission.request, variation);
    match submission.format {
        AiFormat::Json => json_response(
            StatusCode::OK,
            chat::completion_json(&submission.request, &page).to_string(),
        ),
        AiFormat::Rendered => html_response(page.page_html),
        AiFormat::Raw => html_response(chat::raw_page(&page)),
    }
}

pub(super) fn search_body(submission: &SearchSubmission, variation: u64) -> Response {
    let body = search::results_json(&submission.request, variation);
    if submission.html {
        html_response(search::results_html(&submission.request, &body))
    } else {
        json_response(StatusCode::OK, body.to_string())
    }
}

pub(super) fn browser_body(submission: &BrowserSubmission) -> Response {
    let vantage = Vantage {
        country: submission.country.as_deref(),
        subdivision: submission.subdivision.as_deref(),
        city: submission.city.as_deref(),
        device: submission.device,
    };
    let (content_type, body) = browse(&submission.url, &vantage, submission.format);
    with_type(StatusCode::OK, content_type, body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pairs: &[(&str, &str)]) -> Query {
        Query(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn ai_validation_names_the_parameter() {
        let long = "x".repeat(2048);
        let cases: [(&[(&str, &str)], &str); 6] = [
            (
                &[("prompt", long.as_str())],
                "Character counts must be no more than 2047",
            ),
            (
                &[("prompt", "hi"), ("model", "bard")],
                "Model must be one of chatgpt, gemini, perplexity, copilot",
            ),
            (
                &[("prompt", "hi"), ("subdivision", "CA")],
                "Subdivision requires country",
            ),
            (
                &[("prompt", "hi"), ("country", "USA")],
                "Country must be a two-letter ISO code",
            ),
            (
                &[("prompt", "hi"), ("format", "xml")],
                "Format must be one of json, rendered, raw",
            ),
            (
                &[("prompt", "hi"), ("expiration", "2")],
                "Expiration must be 0 or 1",
            ),
        ];
        for (pairs, message) in cases {
            assert_eq!(validate_ai(&query(pairs)).err().as_deref(), Some(message));
        }
        // Characters, not bytes: 2047 multi-byte characters pass.
        let wide = "é".repeat(2047);
        assert!(validate_ai(&query(&[("prompt", wide.as_str())])).is_ok());
        let ok = validate_ai(&query(&[
            ("prompt", "hi"),
            ("model", "GEMINI"),
            ("device", "pixel 4a (5g)"),
        ]))
        .ok()
        .map(|s| (s.request.model, s.request.device));
        assert_eq!(ok, Some(("gemini", Some("Pixel 4a (5G)"))));
    }
}
