//! JSON made readable without building a tree: one pass that re-indents the text as it is,
//! so a body of megabytes is laid out in a few milliseconds and numbers keep their spelling.

/// Nesting past this is not laid out (serde_json refuses to parse past it too): each level
/// indents every line below it, so a 30,000-deep array would take gigabytes to lay out.
pub const MAX_DEPTH: usize = crate::bounds::MAX_JSON_DEPTH;

/// The layout may take at most this many times the text, and a megabyte more: past it, the
/// text is shown as it came.
const MAX_GROWTH: usize = 8;

/// The JSON text indented by two spaces, as `serde_json::to_string_pretty` lays it out;
/// `None` when the text is not a JSON object or array (unbalanced, cut short, not JSON), is
/// nested deeper than [`MAX_DEPTH`], or would lay out to more than [`MAX_GROWTH`] times its
/// size.
pub fn pretty_json(text: &str) -> Option<String> {
    let trimmed = text.trim();
    if !(trimmed.starts_with('{') || trimmed.starts_with('[')) {
        return None;
    }
    let bytes = trimmed.as_bytes();
    let most = trimmed
        .len()
        .saturating_mul(MAX_GROWTH)
        .saturating_add(1 << 20);
    let mut out = String::with_capacity(trimmed.len() + trimmed.len() / 4);
    let mut depth: usize = 0;
    let mut closers: Vec<u8> = Vec::new();
    let mut i = 0;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                // Copy the string as it is, escapes included.
                let start = i;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                if i >= bytes.len() {
                    return None;
                }
                out.push_str(&trimmed[start..=i]);
            }
            b'{' | b'[' => {
                let close = if b == b'{' { b'}' } else { b']' };
                closers.push(close);
                // An empty container stays on one line.
                let mut j = i + 1;
                while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                    j += 1;
                }
                if j < bytes.len() && bytes[j] == close {
                    out.push(b as char);
                    out.push(close as char);
                    closers.pop();
                    i = j;
                } else {
                    out.push(b as char);
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return None;
                    }
                    newline(&mut out, depth);
                }
            }
            b'}' | b']' => {
                if closers.pop() != Some(b) {
                    return None;
                }
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(b as char);
            }
            b',' => {
                out.push(',');
                newline(&mut out, depth);
                if out.len() > most {
                    return None;
                }
            }
            b':' => out.push_str(": "),
            b if b.is_ascii_whitespace() => {}
            _ => {
                // A number, true, false or null: copy up to the next structural character.
                let start = i;
                while i + 1 < bytes.len()
                    && !matches!(bytes[i + 1], b',' | b'}' | b']' | b':' | b'"')
                    && !bytes[i + 1].is_ascii_whitespace()
                {
                    i += 1;
                }
                out.push_str(&trimmed[start..=i]);
            }
        }
        i += 1;
    }
    closers.is_empty().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lays_out_as_serde_json_does() {
        let samples = [
            r#"{"a":1,"b":[true,false,null],"c":{"d":"x,y:{}","e":[]},"f":{},"g":-1.5}"#,
            // Keys in order: serde_json's map sorts them, this keeps them as received.
            r#"[{"n":[1,[2,[3]]],"q":"say \"hi\"\\"}]"#,
            r#"  { "spaced" : [ 1 , 2 ] }  "#,
        ];
        for sample in samples {
            let value: serde_json::Value = serde_json::from_str(sample).unwrap();
            assert_eq!(
                pretty_json(sample).unwrap(),
                serde_json::to_string_pretty(&value).unwrap(),
                "{sample}"
            );
        }
    }

    #[test]
    fn numbers_keep_their_spelling() {
        assert_eq!(pretty_json("[-1.5e3,10]").unwrap(), "[\n  -1.5e3,\n  10\n]");
    }

    #[test]
    fn refuses_nesting_past_the_bound_and_layouts_past_the_growth_bound() {
        let deep = |d: usize| format!("{}{}", "[".repeat(d), "]".repeat(d));
        // The innermost pair is empty, so `d` brackets nest `d - 1` levels.
        assert!(pretty_json(&deep(MAX_DEPTH + 1)).is_some());
        assert_eq!(pretty_json(&deep(MAX_DEPTH + 2)), None);
        assert_eq!(pretty_json(&deep(30_000)), None);
        // 100 levels, then a million short items: each would take 200 spaces.
        let wide = format!(
            "{}{}{}",
            "[".repeat(100),
            vec!["1"; 1_000_000].join(","),
            "]".repeat(100)
        );
        assert_eq!(pretty_json(&wide), None);
        let ordinary = format!("[{}]", vec!["{\"a\": [1, 2]}"; 10_000].join(","));
        assert!(pretty_json(&ordinary).is_some());
    }

    #[test]
    fn refuses_what_is_not_json() {
        assert_eq!(pretty_json("<html>"), None);
        assert_eq!(pretty_json(r#"{"cut": "short"#), None);
        assert_eq!(pretty_json(r#"{"a": [1}"#), None);
        assert_eq!(pretty_json("{"), None);
    }
}
