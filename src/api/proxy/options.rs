//! The fields a message can point at, the targeting options, and the username that carries
//! them as `-key-value` pairs.

use std::fmt;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use serde::{Deserialize, Serialize};

use super::super::field::{FieldError, check_text, country_problem, subdivision_problem};
use super::{ConnectionType, Network, SESSION_TTL_MAX_MINUTES, SessionMode};

const TEXT_MAX_CHARS: usize = 100;

/// A part of a proxy request a message can point at. Option fields are named as the service
/// names them in the username.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProxyField {
    Username,
    Key,
    Country,
    Subdivision,
    City,
    Zipcode,
    Asn,
    Type,
    Session,
    SessionTtl,
    SessionMode,
    SessionErr,
    Subaccount,
    Network,
    Protocol,
    Fallback,
    TargetUrl,
}

impl ProxyField {
    pub fn as_str(self) -> &'static str {
        match self {
            ProxyField::Username => "username",
            ProxyField::Key => "key",
            ProxyField::Country => "country",
            ProxyField::Subdivision => "subdivision",
            ProxyField::City => "city",
            ProxyField::Zipcode => "zipcode",
            ProxyField::Asn => "asn",
            ProxyField::Type => "type",
            ProxyField::Session => "session",
            ProxyField::SessionTtl => "sessionttl",
            ProxyField::SessionMode => "sessionmode",
            ProxyField::SessionErr => "sessionerr",
            ProxyField::Subaccount => "subaccount",
            ProxyField::Network => "network",
            ProxyField::Protocol => "protocol",
            ProxyField::Fallback => "fallback",
            ProxyField::TargetUrl => "url",
        }
    }

    /// The username options, in the order they are written.
    pub const OPTIONS: [ProxyField; 11] = [
        ProxyField::Country,
        ProxyField::Subdivision,
        ProxyField::City,
        ProxyField::Zipcode,
        ProxyField::Asn,
        ProxyField::Type,
        ProxyField::Session,
        ProxyField::SessionTtl,
        ProxyField::SessionMode,
        ProxyField::SessionErr,
        ProxyField::Subaccount,
    ];

    /// Options that place the exit: each needs `country`; the ISP network takes none.
    pub fn is_geo(self) -> bool {
        matches!(
            self,
            ProxyField::Country
                | ProxyField::Subdivision
                | ProxyField::City
                | ProxyField::Zipcode
                | ProxyField::Asn
        )
    }

    fn option_named(key: &str) -> Option<ProxyField> {
        ProxyField::OPTIONS.into_iter().find(|f| f.as_str() == key)
    }
}

impl fmt::Display for ProxyField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One rule broken, at one proxy field.
pub(crate) type ProxyFieldError = FieldError<ProxyField>;

pub(super) fn field_error(field: ProxyField, message: impl Into<String>) -> ProxyFieldError {
    FieldError::new(field, message)
}

/// Targeting options. All optional; `None` leaves the choice to the service.
#[serde_with::skip_serializing_none]
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ProxyOptions {
    pub country: Option<String>,
    pub subdivision: Option<String>,
    pub city: Option<String>,
    pub zipcode: Option<String>,
    pub asn: Option<u32>,
    #[serde(rename = "type")]
    pub kind: Option<ConnectionType>,
    pub session: Option<String>,
    /// Minutes, 1 to 240.
    pub sessionttl: Option<u32>,
    pub sessionmode: Option<SessionMode>,
    pub sessionerr: Option<String>,
    pub subaccount: Option<String>,
}

impl ProxyOptions {
    /// The options that are set, as (field, value as text), in the order they are written.
    pub(crate) fn pairs(&self) -> Vec<(ProxyField, String)> {
        let text = |v: &Option<String>| v.clone();
        let values: [Option<String>; 11] = [
            text(&self.country),
            text(&self.subdivision),
            text(&self.city),
            text(&self.zipcode),
            self.asn.map(|n| n.to_string()),
            self.kind.map(|k| k.as_str().to_string()),
            text(&self.session),
            self.sessionttl.map(|n| n.to_string()),
            self.sessionmode.map(|m| m.as_str().to_string()),
            text(&self.sessionerr),
            text(&self.subaccount),
        ];
        ProxyField::OPTIONS
            .into_iter()
            .zip(values)
            .filter_map(|(field, value)| value.map(|v| (field, v)))
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs().is_empty()
    }

    /// Sets one option from its text, as parsed from a username.
    fn set(&mut self, field: ProxyField, value: String) -> Result<(), String> {
        let number = |v: &str| {
            v.parse::<u32>()
                .map_err(|_| format!("{field} must be a whole number, not {v:?}"))
        };
        match field {
            ProxyField::Country => self.country = Some(value),
            ProxyField::Subdivision => self.subdivision = Some(value),
            ProxyField::City => self.city = Some(value),
            ProxyField::Zipcode => self.zipcode = Some(value),
            ProxyField::Asn => self.asn = Some(number(&value)?),
            ProxyField::Type => self.kind = Some(value.parse()?),
            ProxyField::Session => self.session = Some(value),
            ProxyField::SessionTtl => self.sessionttl = Some(number(&value)?),
            ProxyField::SessionMode => self.sessionmode = Some(value.parse()?),
            ProxyField::SessionErr => self.sessionerr = Some(value),
            ProxyField::Subaccount => self.subaccount = Some(value),
            other => return Err(format!("{other} is not a username option")),
        }
        Ok(())
    }

    /// Every rule these options break on `network`; empty when they may be sent.
    pub(crate) fn check(&self, network: Network) -> Vec<ProxyFieldError> {
        let mut errors = Vec::new();
        let geo_set: Vec<ProxyField> = self
            .pairs()
            .into_iter()
            .map(|(f, _)| f)
            .filter(|f| f.is_geo())
            .collect();
        if network == Network::Isp {
            for field in &geo_set {
                errors.push(field_error(
                    *field,
                    "the ISP network takes no geo options (country, subdivision, city, zipcode, asn); use the residential network to target a location",
                ));
            }
        }
        if let Some(message) = self.country.as_deref().and_then(country_problem) {
            errors.push(field_error(ProxyField::Country, message));
        }
        if self.country.is_none() && network == Network::Residential {
            for field in geo_set.iter().filter(|f| **f != ProxyField::Country) {
                errors.push(field_error(
                    *field,
                    "requires a country; set country as well",
                ));
            }
        }
        if let Some(message) = self.subdivision.as_deref().and_then(subdivision_problem) {
            errors.push(field_error(ProxyField::Subdivision, message));
        }
        if let Some(zipcode) = &self.zipcode {
            let n = zipcode.chars().count();
            if !(2..=10).contains(&n)
                || !zipcode
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '-')
            {
                errors.push(field_error(
                    ProxyField::Zipcode,
                    format!(
                        "must be a postal code of 2 to 10 letters, digits, spaces or dashes, not {zipcode:?}"
                    ),
                ));
            }
        }
        if self.asn == Some(0) {
            errors.push(field_error(
                ProxyField::Asn,
                "must be an autonomous system number from 1 up (3320, not AS0)",
            ));
        }
        if let Some(ttl) = self.sessionttl
            && !(1..=SESSION_TTL_MAX_MINUTES).contains(&ttl)
        {
            errors.push(field_error(
                ProxyField::SessionTtl,
                format!("is {ttl}; it must be from 1 to {SESSION_TTL_MAX_MINUTES} minutes"),
            ));
        }
        for (field, value) in [
            (ProxyField::City, &self.city),
            (ProxyField::Session, &self.session),
            (ProxyField::SessionErr, &self.sessionerr),
            (ProxyField::Subaccount, &self.subaccount),
        ] {
            if let Some(value) = value {
                check_text(field, value, TEXT_MAX_CHARS, &mut errors);
            }
        }
        errors
    }
}

/// What a username value escapes: everything but ASCII letters, digits and `._~`.
const VALUE_ESCAPES: &AsciiSet = &NON_ALPHANUMERIC.remove(b'.').remove(b'_').remove(b'~');

/// Percent-encodes everything but ASCII letters, digits and `._~`: `-` becomes `%2D`,
/// a space `%20`, `:` `%3A`.
pub fn encode_value(value: &str) -> String {
    utf8_percent_encode(value, VALUE_ESCAPES).to_string()
}

/// Reverses [`encode_value`]; `None` for a malformed escape or bytes that are not UTF-8.
pub fn decode_value(text: &str) -> Option<String> {
    // The library passes a malformed escape through unchanged; the username grammar refuses it.
    let hex_pair = |pair: &str| pair.bytes().all(|b| b.is_ascii_hexdigit());
    if !text
        .split('%')
        .skip(1)
        .all(|after| after.get(..2).is_some_and(hex_pair))
    {
        return None;
    }
    percent_decode_str(text).decode_utf8().ok().map(Into::into)
}

/// The username as sent: the account's username followed by `-key-value` for each option set,
/// values percent-encoded. `USER-country-US-subdivision-NY-city-New%20York-session-abc`.
pub fn build_username(user: &str, options: &ProxyOptions) -> String {
    let mut out = user.to_string();
    for (field, value) in options.pairs() {
        out.push('-');
        out.push_str(field.as_str());
        out.push('-');
        out.push_str(&encode_value(&value));
    }
    out
}

/// Splits a username as sent into the account's username and its options: `-key-value`
/// pairs are read from the end while the key is an option name, leaving at least one part.
pub fn parse_username(text: &str) -> Result<(String, ProxyOptions), String> {
    let parts: Vec<&str> = text.split('-').collect();
    let mut end = parts.len();
    let mut found = Vec::new();
    while end >= 3 {
        let Some(field) = ProxyField::option_named(parts[end - 2]) else {
            break;
        };
        found.push((field, parts[end - 1]));
        end -= 2;
    }
    let user = parts[..end].join("-");
    let mut options = ProxyOptions::default();
    for (field, raw) in found.into_iter().rev() {
        if options.pairs().iter().any(|(f, _)| *f == field) {
            return Err(format!("{field} is given twice"));
        }
        let value =
            decode_value(raw).ok_or_else(|| format!("{field} is badly encoded: {raw:?}"))?;
        options.set(field, value)?;
    }
    Ok((user, options))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options() -> ProxyOptions {
        ProxyOptions {
            country: Some("US".into()),
            subdivision: Some("NY".into()),
            city: Some("New York".into()),
            session: Some("abc".into()),
            ..ProxyOptions::default()
        }
    }

    #[test]
    fn the_username_reads_as_the_documentation_writes_it() {
        assert_eq!(
            build_username("USER", &options()),
            "USER-country-US-subdivision-NY-city-New%20York-session-abc"
        );
        assert_eq!(build_username("USER", &ProxyOptions::default()), "USER");
        let hostile = ProxyOptions {
            session: Some("a-b:c%d".into()),
            ..ProxyOptions::default()
        };
        assert_eq!(
            build_username("demo-user", &hostile),
            "demo-user-session-a%2Db%3Ac%25d"
        );
        assert_eq!(
            parse_username("demo-user-session-a%2Db%3Ac%25d"),
            Ok(("demo-user".to_string(), hostile))
        );
    }

    #[test]
    fn malformed_escapes_and_bytes_that_are_not_utf8_are_refused() {
        assert_eq!(decode_value("New%20York").as_deref(), Some("New York"));
        assert_eq!(decode_value("a%2"), None);
        assert_eq!(decode_value("a%zz-b"), None);
        assert_eq!(decode_value("%FF"), None);
    }

    #[test]
    fn geo_options_need_country_and_isp_takes_none() {
        let city_only = ProxyOptions {
            city: Some("Paris".into()),
            asn: Some(3215),
            ..ProxyOptions::default()
        };
        let fields: Vec<ProxyField> = city_only
            .check(Network::Residential)
            .into_iter()
            .map(|e| e.field)
            .collect();
        assert_eq!(fields, vec![ProxyField::City, ProxyField::Asn]);
        let errors = options().check(Network::Isp);
        assert_eq!(errors.len(), 3);
        assert!(errors[0].message.contains("ISP network"));
        assert!(
            ProxyOptions {
                session: Some("x".into()),
                kind: Some(ConnectionType::Mobile),
                ..ProxyOptions::default()
            }
            .check(Network::Isp)
            .is_empty()
        );
        let ttl = ProxyOptions {
            sessionttl: Some(241),
            ..ProxyOptions::default()
        };
        assert_eq!(
            ttl.check(Network::Residential)[0].field,
            ProxyField::SessionTtl
        );
    }
}
