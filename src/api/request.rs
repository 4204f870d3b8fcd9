//! Requests as typed values, checked against every rule of the contract before anything is
//! sent. Lengths are counted in characters, not bytes, as the service counts them.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::field::{
    Field, FieldError, InvalidRequest, check_range, check_text, country_problem, finish,
    subdivision_problem,
};
use super::model::{AiFormat, Awaiting, IpType, Model, SearchFormat};

pub(crate) const PROMPT_MAX_CHARS: usize = 2047;
pub(crate) const TERMS_MAX_CHARS: usize = 255;
pub(crate) const SERPS_RANGE: std::ops::RangeInclusive<u32> = 1..=10;
pub(crate) const SIZE_RANGE: std::ops::RangeInclusive<u32> = 0..=100;
pub(crate) const OFFSET_RANGE: std::ops::RangeInclusive<u32> = 0..=100;
/// Generous limits for free-text fields the contract leaves open, so that a pasted essay is
/// caught here rather than as a confusing 422 or an over-long URL.
const NAME_MAX_CHARS: usize = 100;
const UULE_MAX_CHARS: usize = 1000;

/// Where a request is made from. Subdivision and city require a country.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Location {
    pub country: Option<String>,
    pub subdivision: Option<String>,
    pub city: Option<String>,
}

impl Location {
    pub fn is_empty(&self) -> bool {
        self.country.is_none() && self.subdivision.is_none() && self.city.is_none()
    }

    /// "New York, NY, US" or "anywhere" when the service picks.
    pub(crate) fn describe(&self) -> String {
        let parts: Vec<&str> = [&self.city, &self.subdivision, &self.country]
            .into_iter()
            .filter_map(|p| p.as_deref())
            .collect();
        if parts.is_empty() {
            "random location".to_string()
        } else {
            parts.join(", ")
        }
    }

    pub(crate) fn check(&self, errors: &mut Vec<FieldError>) {
        if let Some(message) = self.country.as_deref().and_then(country_problem) {
            errors.push(FieldError::new(Field::Country, message));
        }
        if let Some(subdivision) = &self.subdivision {
            if self.country.is_none() {
                errors.push(requires_country(Field::Subdivision));
            }
            if let Some(message) = subdivision_problem(subdivision) {
                errors.push(FieldError::new(Field::Subdivision, message));
            }
        }
        if let Some(city) = &self.city {
            if self.country.is_none() {
                errors.push(requires_country(Field::City));
            }
            check_name(Field::City, city, errors);
        }
    }
}

fn requires_country(field: Field) -> FieldError {
    FieldError {
        field,
        message: "requires a country; choose the country first".to_string(),
    }
}

fn check_name(field: Field, value: &str, errors: &mut Vec<FieldError>) {
    check_text(field, value, NAME_MAX_CHARS, errors);
}

/// The fields both calls end with: the answer's language, the page's, and caching.
fn check_languages_and_expiration(
    language: &Option<String>,
    display: &Option<String>,
    expiration: Option<u32>,
    errors: &mut Vec<FieldError>,
) {
    if let Some(language) = language {
        check_name(Field::Language, language, errors);
    }
    if let Some(display) = display {
        check_name(Field::Display, display, errors);
    }
    check_range(Field::Expiration, expiration, 0..=1, errors);
}

/// The text a call is about (the prompt, the terms): required, not over-long, none of the
/// characters the service chokes on; the words agree with the field ("is", "are").
struct MainText {
    field: Field,
    max: usize,
    verb: &'static str,
    empty_hint: &'static str,
    forbidden: fn(char) -> bool,
    forbidden_message: &'static str,
}

const PROMPT: MainText = MainText {
    field: Field::Prompt,
    max: PROMPT_MAX_CHARS,
    verb: "is",
    empty_hint: "type what to ask",
    forbidden: is_nul,
    forbidden_message: "contains a NUL character",
};

const TERMS: MainText = MainText {
    field: Field::Terms,
    max: TERMS_MAX_CHARS,
    verb: "are",
    empty_hint: "type what to search for",
    forbidden: char::is_control,
    forbidden_message: "contain a control character (a line break?)",
};

fn is_nul(c: char) -> bool {
    c == '\0'
}

impl MainText {
    fn check(&self, value: &str, errors: &mut Vec<FieldError>) {
        let (verb, max) = (self.verb, self.max);
        let n = value.chars().count();
        if value.trim().is_empty() {
            errors.push(FieldError::new(
                self.field,
                format!("{verb} empty; {}", self.empty_hint),
            ));
        } else if n > max {
            errors.push(FieldError::new(
                self.field,
                format!("{verb} {n} characters; the service takes at most {max}"),
            ));
        } else if value.chars().any(self.forbidden) {
            errors.push(FieldError::new(self.field, self.forbidden_message));
        }
    }
}

/// The parameters of `GET /ai`. `None` leaves a choice to the service (it then picks at
/// random, or its default).
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AiRequest {
    pub prompt: String,
    pub model: Option<Model>,
    pub device: Option<String>,
    #[serde(default, flatten)]
    pub location: Location,
    pub language: Option<String>,
    pub display: Option<String>,
    #[serde(default)]
    pub format: AiFormat,
    /// 1 allows a cached answer up to a day old (the service's default); 0 asks for a fresh one.
    pub expiration: Option<u32>,
}

impl AiRequest {
    /// What this call's body must be.
    pub fn body_asked(&self) -> BodyAsked {
        match self.format {
            AiFormat::Json => BodyAsked::Json,
            AiFormat::Rendered | AiFormat::Raw => BodyAsked::Page,
        }
    }

    pub fn new(prompt: impl Into<String>) -> Self {
        AiRequest {
            prompt: prompt.into(),
            ..AiRequest::default()
        }
    }

    /// The model the service will use: the one chosen, else its default.
    pub(crate) fn effective_model(&self) -> Model {
        self.model.unwrap_or(Model::Chatgpt)
    }

    pub fn validate(&self) -> Result<(), InvalidRequest> {
        let mut errors = Vec::new();
        PROMPT.check(&self.prompt, &mut errors);
        if let Some(device) = &self.device {
            check_name(Field::Device, device, &mut errors);
        }
        self.location.check(&mut errors);
        check_languages_and_expiration(&self.language, &self.display, self.expiration, &mut errors);
        finish(errors)
    }

    /// The query string pairs, in a stable order. Validate first.
    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("prompt", self.prompt.clone())];
        if let Some(model) = self.model {
            pairs.push(("model", model.as_str().to_string()));
        }
        push_opt(&mut pairs, "device", &self.device);
        push_location(&mut pairs, &self.location);
        push_opt(&mut pairs, "language", &self.language);
        push_opt(&mut pairs, "display", &self.display);
        pairs.push(("format", self.format.as_str().to_string()));
        if let Some(e) = self.expiration {
            pairs.push(("expiration", e.to_string()));
        }
        pairs
    }

    /// One line for lists: model, a short prompt, location.
    pub fn summary(&self) -> String {
        format!(
            "{} · {} · {}",
            self.effective_model(),
            shorten(&self.prompt, 200),
            self.location.describe()
        )
    }
}

/// The parameters of `GET /search`.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SearchRequest {
    /// An exact phrase stays wrapped in double quotes, as typed.
    pub terms: String,
    pub serps: Option<u32>,
    pub size: Option<u32>,
    pub offset: Option<u32>,
    pub ip: Option<IpType>,
    /// A device the results page is fetched as (`/search/devices`); none is a desktop.
    pub device: Option<String>,
    #[serde(default, flatten)]
    pub location: Location,
    pub uule: Option<String>,
    pub language: Option<String>,
    pub display: Option<String>,
    #[serde(default)]
    pub format: SearchFormat,
    pub expiration: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub awaiting: Vec<Awaiting>,
}

impl SearchRequest {
    /// What this call's body must be.
    pub fn body_asked(&self) -> BodyAsked {
        match self.format {
            SearchFormat::Json => BodyAsked::Json,
            SearchFormat::Html => BodyAsked::Page,
        }
    }

    pub fn new(terms: impl Into<String>) -> Self {
        SearchRequest {
            terms: terms.into(),
            ..SearchRequest::default()
        }
    }

    pub fn validate(&self) -> Result<(), InvalidRequest> {
        let mut errors = Vec::new();
        TERMS.check(&self.terms, &mut errors);
        check_range(Field::Serps, self.serps, SERPS_RANGE, &mut errors);
        check_range(Field::Size, self.size, SIZE_RANGE, &mut errors);
        check_range(Field::Offset, self.offset, OFFSET_RANGE, &mut errors);
        if let Some(device) = &self.device {
            check_name(Field::Device, device, &mut errors);
        }
        self.location.check(&mut errors);
        if let Some(uule) = &self.uule {
            check_text(Field::Uule, uule, UULE_MAX_CHARS, &mut errors);
        }
        check_languages_and_expiration(&self.language, &self.display, self.expiration, &mut errors);
        let mut seen = Vec::new();
        for a in &self.awaiting {
            if seen.contains(a) {
                errors.push(FieldError {
                    field: Field::Awaiting,
                    message: format!("lists {a} twice"),
                });
            }
            seen.push(*a);
        }
        finish(errors)
    }

    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("terms", self.terms.clone())];
        for (name, value) in [
            ("serps", self.serps),
            ("size", self.size),
            ("offset", self.offset),
        ] {
            if let Some(v) = value {
                pairs.push((name, v.to_string()));
            }
        }
        if let Some(ip) = self.ip {
            pairs.push(("ip", ip.as_str().to_string()));
        }
        push_opt(&mut pairs, "device", &self.device);
        push_location(&mut pairs, &self.location);
        push_opt(&mut pairs, "uule", &self.uule);
        push_opt(&mut pairs, "language", &self.language);
        push_opt(&mut pairs, "display", &self.display);
        pairs.push(("format", self.format.as_str().to_string()));
        if let Some(e) = self.expiration {
            pairs.push(("expiration", e.to_string()));
        }
        for a in &self.awaiting {
            pairs.push(("awaiting", a.as_str().to_string()));
        }
        pairs
    }

    pub fn summary(&self) -> String {
        let ip = self.ip.map(|ip| format!(" · {ip}")).unwrap_or_default();
        let device = self
            .device
            .as_deref()
            .map(|d| format!(" · {}", shorten(d, 40)))
            .unwrap_or_default();
        format!(
            "{} · {}{ip}{device}",
            shorten(&self.terms, 200),
            self.location.describe()
        )
    }
}

/// What a call's body must be: the JSON the contract describes, or a page (a rendered or
/// raw chat, a results page as HTML). A body that is not what was asked (a gateway's HTML
/// error page sent with status 200 where JSON was asked) is a failed call, not an answer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BodyAsked {
    #[default]
    Json,
    Page,
}

/// A queued job's identifier, checked to be a UUID before it is used in a URL.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JobId(String);

impl JobId {
    pub fn parse(text: &str) -> Result<JobId, InvalidRequest> {
        let trimmed = text.trim();
        match uuid::Uuid::try_parse(trimmed) {
            Ok(uuid) => Ok(JobId(uuid.hyphenated().to_string())),
            Err(_) => Err(InvalidRequest(vec![FieldError {
                field: Field::Id,
                message: format!(
                    "{:?} is not a job id; ids are UUIDs like 0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20",
                    shorten(trimmed, 60)
                ),
            }])),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first eight characters, for tables.
    pub(crate) fn short(&self) -> &str {
        self.0.get(..8).unwrap_or(&self.0)
    }
}

impl fmt::Display for JobId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn push_opt(pairs: &mut Vec<(&'static str, String)>, name: &'static str, value: &Option<String>) {
    if let Some(v) = value {
        pairs.push((name, v.clone()));
    }
}

fn push_location(pairs: &mut Vec<(&'static str, String)>, location: &Location) {
    if let Some(c) = &location.country {
        pairs.push(("country", c.to_ascii_uppercase()));
    }
    push_opt(pairs, "subdivision", &location.subdivision);
    push_opt(pairs, "city", &location.city);
}

/// The first `max` characters of one line of text, with an ellipsis when cut.
pub(crate) fn shorten(text: &str, max: usize) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max {
        one_line
    } else {
        let cut: String = one_line.chars().take(max.saturating_sub(1)).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompt_limit_counts_characters_not_bytes() {
        let at_limit = AiRequest::new("é".repeat(PROMPT_MAX_CHARS));
        assert!(at_limit.validate().is_ok());
        let over = AiRequest::new("é".repeat(PROMPT_MAX_CHARS + 1));
        let err = over.validate().unwrap_err();
        assert_eq!(err.fields().collect::<Vec<_>>(), vec![Field::Prompt]);
    }

    #[test]
    fn city_without_country_names_the_city() {
        let mut req = AiRequest::new("hi");
        req.location.city = Some("Berlin".into());
        let err = req.validate().unwrap_err();
        assert!(err.message_for(Field::City).unwrap().contains("country"));
    }

    #[test]
    fn query_pairs_keep_exact_phrases_and_repeat_awaiting() {
        let mut req = SearchRequest::new("\"best hiking boots\"");
        req.awaiting = vec![Awaiting::Ai, Awaiting::Ads];
        let pairs = req.query_pairs();
        assert_eq!(pairs[0], ("terms", "\"best hiking boots\"".to_string()));
        assert_eq!(pairs.iter().filter(|(k, _)| *k == "awaiting").count(), 2);
    }

    #[test]
    fn job_ids_must_be_uuids() {
        assert!(JobId::parse(" 0b6f1c2e-8f4a-4c1e-9d2b-5a7e3c9f1b20 ").is_ok());
        assert!(JobId::parse("../etc/passwd").is_err());
        assert!(JobId::parse("").is_err());
    }
}
