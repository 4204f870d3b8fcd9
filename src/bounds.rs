//! Bounds on what comes from outside, shared by every reader of it: the service's answers as
//! they arrive, stored rows read again, files imported.

/// JSON nested deeper than this is refused: real answers nest a handful of levels, serde_json
/// refuses to parse past 128, and a layout indents every line below each level.
pub const MAX_JSON_DEPTH: usize = 128;

/// True when `text`, read as JSON, nests objects and arrays deeper than `max` (strings and
/// their escapes skipped). One pass that stops at the first level past `max`.
pub fn json_nests_deeper_than(text: &str, max: usize) -> bool {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for &b in text.as_bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_nesting_outside_strings_only() {
        assert!(!json_nests_deeper_than(
            r#"{"a": [1, {"b": "[[[[[[[["}]}"#,
            3
        ));
        assert!(json_nests_deeper_than(r#"{"a": [1, {"b": [[]]}]}"#, 4));
        assert!(!json_nests_deeper_than(r#"{"a": [1, {"b": [[]]}]}"#, 5));
        assert!(!json_nests_deeper_than(r#"["\"[[[[\\", []]"#, 2));
        let deep = format!("{}{}", "[".repeat(30_000), "]".repeat(30_000));
        assert!(json_nests_deeper_than(&deep, MAX_JSON_DEPTH));
        let limit = format!("{}{}", "[".repeat(128), "]".repeat(128));
        assert!(!json_nests_deeper_than(&limit, MAX_JSON_DEPTH));
    }
}
