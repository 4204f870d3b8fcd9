//! `GET /browser` (a page as a vantage point sees it), `GET /usage` (credits spent) and
//! `GET /users` (credit balances): their requests, checks before sending, and answers.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::client::{Base, Client, Fetched};
use super::decode::{RawResponse, decode_job_id};
use super::error::{ApiError, excerpt};
use super::field::{Field, FieldError, InvalidRequest, check_range, check_text, finish};
use super::model::value_enum;
use super::request::{JobId, Location, shorten};
use super::response::Account;

/// The contract's limit on the URL to browse.
pub(crate) const URL_MAX_CHARS: usize = 2047;
const DEVICE_MAX_CHARS: usize = 100;

value_enum!(
    /// What `/browser` answers: the page after scripts ran, the HTML as served, or Markdown.
    BrowserFormat { Rendered => "rendered", Raw => "raw", Markdown => "markdown" }
);

value_enum!(
    /// The difficulty pool a page is fetched from (harder sites need a higher one).
    Difficulty { Low => "low", Medium => "medium", High => "high" }
);

value_enum!(
    /// A service `/usage` reports on.
    Service { Search => "search", Browser => "browser" }
);

value_enum!(
    /// How `/usage` groups its rows: one per service over the range, or one per hour.
    UsageGrouping { Total => "total", Hour => "hour" }
);

/// The parameters of `GET /browser` with a URL.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrowserRequest {
    pub url: String,
    pub device: Option<String>,
    #[serde(default, flatten)]
    pub location: Location,
    pub difficulty: Option<Difficulty>,
    #[serde(default)]
    pub format: BrowserFormat,
    pub expiration: Option<u32>,
}

impl BrowserRequest {
    pub fn new(url: impl Into<String>) -> Self {
        BrowserRequest {
            url: url.into(),
            ..BrowserRequest::default()
        }
    }

    pub fn validate(&self) -> Result<(), InvalidRequest> {
        let mut errors = Vec::new();
        let url = self.url.trim();
        let n = url.chars().count();
        if url.is_empty() {
            errors.push(FieldError::new(
                Field::Url,
                "is empty; type the page's address",
            ));
        } else if n > URL_MAX_CHARS {
            errors.push(FieldError::new(
                Field::Url,
                format!("is {n} characters; the service takes at most {URL_MAX_CHARS}"),
            ));
        } else if !is_web_address(url) {
            errors.push(FieldError::new(
                Field::Url,
                format!(
                    "{:?} is not a web address; write it in full, like https://example.com/",
                    shorten(url, 60)
                ),
            ));
        }
        if let Some(device) = &self.device {
            check_text(Field::Device, device, DEVICE_MAX_CHARS, &mut errors);
        }
        self.location.check(&mut errors);
        check_range(Field::Expiration, self.expiration, 0..=1, &mut errors);
        finish(errors)
    }

    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("url", self.url.trim().to_string())];
        if let Some(device) = &self.device {
            pairs.push(("device", device.clone()));
        }
        if let Some(country) = &self.location.country {
            pairs.push(("country", country.to_ascii_uppercase()));
        }
        if let Some(subdivision) = &self.location.subdivision {
            pairs.push(("subdivision", subdivision.clone()));
        }
        if let Some(city) = &self.location.city {
            pairs.push(("city", city.clone()));
        }
        if let Some(difficulty) = self.difficulty {
            pairs.push(("difficulty", difficulty.as_str().to_string()));
        }
        pairs.push(("format", self.format.as_str().to_string()));
        if let Some(e) = self.expiration {
            pairs.push(("expiration", e.to_string()));
        }
        pairs
    }

    /// One line for lists: the URL and where from.
    pub fn summary(&self) -> String {
        format!("{} · {}", shorten(&self.url, 60), self.location.describe())
    }
}

fn is_web_address(text: &str) -> bool {
    url::Url::parse(text)
        .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some())
}

/// The parameters of `GET /usage`: both ends are inclusive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageRequest {
    pub from: OffsetDateTime,
    pub to: OffsetDateTime,
    /// Empty: every service.
    pub services: Vec<Service>,
    pub by: UsageGrouping,
}

impl UsageRequest {
    /// The last 24 hours up to `now`, every service, one row per service.
    pub fn last_day(now: OffsetDateTime) -> Self {
        UsageRequest {
            from: now - time::Duration::hours(24),
            to: now,
            services: Vec::new(),
            by: UsageGrouping::Total,
        }
    }

    pub fn validate(&self) -> Result<(), InvalidRequest> {
        let mut errors = Vec::new();
        if self.from > self.to {
            errors.push(FieldError::new(
                Field::From,
                "is after --to; the range must run forward in time",
            ));
        }
        finish(errors)
    }

    pub(crate) fn query_pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![("from", iso(self.from)), ("to", iso(self.to))];
        for service in &self.services {
            pairs.push(("service", service.as_str().to_string()));
        }
        pairs.push(("by", self.by.as_str().to_string()));
        pairs
    }
}

/// A time as the service writes it: RFC 3339 in UTC, whole seconds.
pub(crate) fn iso(at: OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC)
        .replace_nanosecond(0)
        .unwrap_or(at)
        .format(&Rfc3339)
        .unwrap_or_default()
}

/// Reads a time typed on the command line: RFC 3339 (`2025-12-24T18:00:00-06:00`).
pub fn parse_time(field: Field, text: &str) -> Result<OffsetDateTime, InvalidRequest> {
    OffsetDateTime::parse(text.trim(), &Rfc3339).map_err(|_| {
        InvalidRequest(vec![FieldError::new(
            field,
            format!(
                "{:?} is not a date and time; write it like 2025-12-24T18:00:00Z or 2025-12-24T18:00:00-06:00",
                shorten(text, 40)
            ),
        )])
    })
}

/// One row of the usage report: calls of one service and outcome over a span of hours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UsageRow {
    #[serde(default)]
    pub email: String,
    pub from: String,
    pub to: String,
    pub service: String,
    /// `success` or `failure`.
    pub result: String,
    pub calls: u64,
    pub credits: u64,
    #[serde(default)]
    pub mean_secs: f64,
}

impl UsageRow {
    pub fn succeeded(&self) -> bool {
        self.result == "success"
    }

    /// The row's first hour, when the service wrote a time it can read.
    pub fn starts_at(&self) -> Option<OffsetDateTime> {
        OffsetDateTime::parse(&self.from, &Rfc3339).ok()
    }
}

fn decode_usage(raw: &RawResponse) -> Result<Vec<UsageRow>, ApiError> {
    serde_json::from_str(&raw.body).map_err(|e| ApiError::BadBody {
        what: format!("not a usage report: {e}"),
        excerpt: excerpt(raw.body.as_bytes()),
    })
}

fn decode_users(raw: &RawResponse) -> Result<Vec<Account>, ApiError> {
    serde_json::from_str(&raw.body).map_err(|e| ApiError::BadBody {
        what: format!("not a list of accounts: {e}"),
        excerpt: excerpt(raw.body.as_bytes()),
    })
}

impl Client {
    /// `GET /browser?url=`, sync: the page as text (HTML or Markdown, as asked).
    pub async fn browser(&self, request: &BrowserRequest) -> Result<Fetched<String>, ApiError> {
        request.validate()?;
        let raw = self
            .get(Base::Render, "/browser", &request.query_pairs())
            .await?;
        let page = raw.body.clone();
        Ok(raw.into_fetched(page))
    }

    /// `GET /browser?url=&mode=async`: queues the page and answers its job id.
    pub async fn browser_submit(&self, request: &BrowserRequest) -> Result<JobId, ApiError> {
        request.validate()?;
        let mut pairs = request.query_pairs();
        pairs.push(("mode", "async".to_string()));
        let raw = self.get(Base::Render, "/browser", &pairs).await?;
        decode_job_id(&raw)
    }

    /// `GET /usage`: credits and calls by service (and by hour when asked).
    pub async fn usage(&self, request: &UsageRequest) -> Result<Fetched<Vec<UsageRow>>, ApiError> {
        request.validate()?;
        let raw = self
            .get(Base::Render, "/usage", &request.query_pairs())
            .await?;
        let rows = decode_usage(&raw)?;
        Ok(raw.into_fetched(rows))
    }

    /// `GET /users`: the balance of every account the token may see.
    pub async fn users(&self) -> Result<Fetched<Vec<Account>>, ApiError> {
        let raw = self.get(Base::Render, "/users", &[]).await?;
        let accounts = decode_users(&raw)?;
        Ok(raw.into_fetched(accounts))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_urls_must_be_web_addresses() {
        assert!(
            BrowserRequest::new("https://example.com")
                .validate()
                .is_ok()
        );
        for bad in [
            "",
            "example.com",
            "ftp://example.com/x",
            "javascript:alert(1)",
        ] {
            let err = BrowserRequest::new(bad).validate().unwrap_err();
            assert_eq!(err.fields().collect::<Vec<_>>(), vec![Field::Url], "{bad}");
        }
        let long = format!("https://example.com/{}", "a".repeat(URL_MAX_CHARS));
        assert!(BrowserRequest::new(long).validate().is_err());
    }

    #[test]
    fn a_city_without_a_country_is_caught_before_sending() {
        let mut request = BrowserRequest::new("https://example.com");
        request.location.city = Some("Berlin".into());
        let err = request.validate().unwrap_err();
        assert!(err.message_for(Field::City).unwrap().contains("country"));
    }

    #[test]
    fn browser_pairs_name_every_choice() {
        let mut request = BrowserRequest::new(" https://example.com/a?b=c ");
        request.location.country = Some("de".into());
        request.difficulty = Some(Difficulty::High);
        request.format = BrowserFormat::Markdown;
        let pairs = request.query_pairs();
        assert_eq!(pairs[0], ("url", "https://example.com/a?b=c".to_string()));
        assert!(pairs.contains(&("country", "DE".to_string())));
        assert!(pairs.contains(&("difficulty", "high".to_string())));
        assert!(pairs.contains(&("format", "markdown".to_string())));
    }

    #[test]
    fn usage_ranges_run_forward_and_are_written_in_utc() {
        let now = OffsetDateTime::parse("2025-12-25T09:30:15.5-06:00", &Rfc3339).unwrap();
        let request = UsageRequest::last_day(now);
        assert!(request.validate().is_ok());
        let pairs = request.query_pairs();
        assert_eq!(pairs[0], ("from", "2025-12-24T15:30:15Z".to_string()));
        assert_eq!(pairs[1], ("to", "2025-12-25T15:30:15Z".to_string()));
        let backwards = UsageRequest {
            from: request.to,
            to: request.from,
            ..request
        };
        assert!(backwards.validate().is_err());
        assert!(parse_time(Field::To, "yesterday").is_err());
    }
}
