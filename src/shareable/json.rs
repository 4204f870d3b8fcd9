//! JSON files and lines (an export's body, a comparison, a report's rows, a set's history):
//! `serde_json` escapes C0 controls but writes DEL, C1 controls and bidi overrides raw, and a
//! body kept as received may hold anything. [`escape_controls`] writes each as a `\u`
//! escape: the same JSON value, nothing a terminal obeys when the file is printed.

use std::borrow::Cow;

use crate::sanitize;

/// The JSON text with every character [`sanitize::is_unsafe`] names (but newline and tab)
/// written as a `\u` escape. Inside a string that is the same value; outside one such a
/// character was not JSON to begin with. Borrows when nothing changes.
pub fn escape_controls(json: &str) -> Cow<'_, str> {
    if !json.chars().any(sanitize::is_unsafe) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        if sanitize::is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A body as received, to write or copy: pretty when it is JSON (within the layout's
/// bounds), its control characters as escapes.
pub fn received(body: &str) -> String {
    let pretty = crate::render::pretty_json(body);
    escape_controls(pretty.as_deref().unwrap_or(body)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn raw_controls_become_escapes_of_the_same_value() {
        let value = serde_json::json!({ "name": "a\u{7f}b\u{9b}2J\u{202e}c\x1b" });
        let written = serde_json::to_string(&value).unwrap();
        let escaped = escape_controls(&written);
        assert_eq!(escaped, r#"{"name":"a\u007fb\u009b2J\u202ec\u001b"}"#);
        let read: serde_json::Value = serde_json::from_str(&escaped).unwrap();
        assert_eq!(read, value);
        assert!(matches!(escape_controls("{\"a\": 1}\n"), Cow::Borrowed(_)));
    }

    proptest! {
        #[test]
        fn any_string_keeps_its_value_and_loses_its_controls(text in any::<String>()) {
            let written = serde_json::to_string_pretty(&serde_json::json!([text])).unwrap();
            let escaped = escape_controls(&written);
            prop_assert!(!escaped.chars().any(sanitize::is_unsafe));
            let read: Vec<String> = serde_json::from_str(&escaped).unwrap();
            prop_assert_eq!(&read[0], &text);
        }
    }
}
