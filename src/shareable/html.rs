//! Text and attributes of the HTML and SVG files vantage writes (a set's report, its charts,
//! a comparison's page): escaped, with control characters shown as [`crate::sanitize`]
//! shows them (XML refuses most of them outright, and a title bar would obey them).

use html_escape::{encode_double_quoted_attribute, encode_text};

use crate::sanitize;

/// Text between tags: `<`, `>` and `&` escaped, control characters shown.
pub fn text(value: &str) -> String {
    encode_text(&sanitize::for_terminal(value)).into_owned()
}

/// Text on one line (a title, a caption): [`text`] with newlines and tabs as spaces.
pub fn line(value: &str) -> String {
    encode_text(&sanitize::one_line(value)).into_owned()
}

/// The value of a double-quoted attribute, on one line.
pub fn attr(value: &str) -> String {
    encode_double_quoted_attribute(&sanitize::one_line(value)).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_controls_are_escaped() {
        assert_eq!(
            text("<script>a & b</script>\x1b]0;t\x07\u{85}"),
            "&lt;script&gt;a &amp; b&lt;/script&gt;␛\u{FFFD}"
        );
        assert_eq!(line("a\nb\x07"), "a b␇");
        assert_eq!(attr("x\" onerror=\"y\n"), "x&quot; onerror=&quot;y ");
    }
}
