//! The fields a message can point at, one rule broken at one field, and the checks the
//! service's calls and the proxy's options share.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A query parameter, named as the service names it, so a message can point at its field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Field {
    Prompt,
    Model,
    Device,
    Country,
    Subdivision,
    City,
    Language,
    Display,
    Format,
    Expiration,
    Terms,
    Serps,
    Size,
    Offset,
    Ip,
    Uule,
    Awaiting,
    Id,
    Url,
    Difficulty,
    From,
    To,
    Service,
    By,
}

impl Field {
    pub fn as_str(self) -> &'static str {
        match self {
            Field::Prompt => "prompt",
            Field::Model => "model",
            Field::Device => "device",
            Field::Country => "country",
            Field::Subdivision => "subdivision",
            Field::City => "city",
            Field::Language => "language",
            Field::Display => "display",
            Field::Format => "format",
            Field::Expiration => "expiration",
            Field::Terms => "terms",
            Field::Serps => "serps",
            Field::Size => "size",
            Field::Offset => "offset",
            Field::Ip => "ip",
            Field::Uule => "uule",
            Field::Awaiting => "awaiting",
            Field::Id => "id",
            Field::Url => "url",
            Field::Difficulty => "difficulty",
            Field::From => "from",
            Field::To => "to",
            Field::Service => "service",
            Field::By => "by",
        }
    }

    /// Finds the field a server message speaks of ("Subdivision requires country" names
    /// subdivision): the first parameter name that appears as a word in the message.
    pub(crate) fn named_in(message: &str) -> Option<Field> {
        // from, to and by are left out: as words they are too common to name a field.
        const ORDER: [Field; 21] = [
            Field::Prompt,
            Field::Terms,
            Field::Model,
            Field::Device,
            Field::Subdivision,
            Field::City,
            Field::Country,
            Field::Language,
            Field::Display,
            Field::Format,
            Field::Expiration,
            Field::Serps,
            Field::Size,
            Field::Offset,
            Field::Ip,
            Field::Uule,
            Field::Awaiting,
            Field::Id,
            Field::Url,
            Field::Difficulty,
            Field::Service,
        ];
        let lower = message.to_ascii_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let first_word_position = |field: Field| words.iter().position(|w| *w == field.as_str());
        ORDER
            .into_iter()
            .filter_map(|f| first_word_position(f).map(|pos| (pos, f)))
            .min_by_key(|(pos, _)| *pos)
            .map(|(_, f)| f)
            .or_else(|| {
                // "Character counts must be no more than 255" is the service's text for terms.
                lower.contains("character count").then_some(Field::Terms)
            })
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One rule broken, at one field. `F` names the fields: [`Field`] for the service's calls,
/// `proxy::ProxyField` for proxy requests.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FieldError<F = Field> {
    pub field: F,
    pub message: String,
}

impl<F> FieldError<F> {
    pub fn new(field: F, message: impl Into<String>) -> Self {
        FieldError {
            field,
            message: message.into(),
        }
    }
}

impl<F: fmt::Display> fmt::Display for FieldError<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// Every broken rule as one sentence part: "country: …; city: …".
pub(crate) fn join_field_errors<F: fmt::Display>(errors: &[FieldError<F>]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Every rule a request breaks; a request with any is never sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidRequest(pub Vec<FieldError>);

impl InvalidRequest {
    pub fn fields(&self) -> impl Iterator<Item = Field> + '_ {
        self.0.iter().map(|e| e.field)
    }

    pub fn message_for(&self, field: Field) -> Option<&str> {
        self.0
            .iter()
            .find(|e| e.field == field)
            .map(|e| e.message.as_str())
    }
}

impl fmt::Display for InvalidRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&join_field_errors(&self.0))
    }
}

/// What is wrong with a country code, if anything.
pub(crate) fn country_problem(country: &str) -> Option<String> {
    let two_letters =
        country.chars().count() == 2 && country.chars().all(|c| c.is_ascii_alphabetic());
    (!two_letters)
        .then(|| format!("must be a two-letter ISO 3166-1 code such as US or DE, not {country:?}"))
}

/// What is wrong with a subdivision code (the part after the separator), if anything.
pub(crate) fn subdivision_problem(subdivision: &str) -> Option<String> {
    let n = subdivision.chars().count();
    let well_formed =
        (1..=3).contains(&n) && subdivision.chars().all(|c| c.is_ascii_alphanumeric());
    (!well_formed).then(|| {
        format!(
            "must be the part after the separator of an ISO 3166-2 code (NY for US-NY), not {subdivision:?}"
        )
    })
}

/// A free-text value: not blank, not over-long, no control characters.
pub(crate) fn check_text<F: Copy>(
    field: F,
    value: &str,
    max: usize,
    errors: &mut Vec<FieldError<F>>,
) {
    let n = value.chars().count();
    if value.trim().is_empty() {
        errors.push(FieldError::new(field, "is empty; leave it unset instead"));
    } else if n > max {
        errors.push(FieldError::new(
            field,
            format!("is {n} characters; at most {max} are allowed"),
        ));
    } else if value.chars().any(char::is_control) {
        errors.push(FieldError::new(field, "contains a control character"));
    }
}

/// A number, when set, within its range.
pub(crate) fn check_range(
    field: Field,
    value: Option<u32>,
    range: std::ops::RangeInclusive<u32>,
    errors: &mut Vec<FieldError>,
) {
    if let Some(v) = value
        && !range.contains(&v)
    {
        errors.push(FieldError::new(
            field,
            format!(
                "is {v}; it must be from {} to {}",
                range.start(),
                range.end()
            ),
        ));
    }
}

/// `Ok` when no rule is broken; else every broken rule.
pub(crate) fn finish(errors: Vec<FieldError>) -> Result<(), InvalidRequest> {
    if errors.is_empty() {
        Ok(())
    } else {
        Err(InvalidRequest(errors))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_named_in_server_messages() {
        assert_eq!(
            Field::named_in("Subdivision requires country"),
            Some(Field::Subdivision)
        );
        assert_eq!(
            Field::named_in("Character counts must be no more than 255"),
            Some(Field::Terms)
        );
        assert_eq!(Field::named_in("Unknown error occurred"), None);
    }
}
