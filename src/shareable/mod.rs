//! Files a user may open, render, share or `cat`: the one writer of every piece of text that
//! goes into an export or a report (Markdown, HTML and SVG, CSV, JSON).
//!
//! Whatever came from outside — an answer's words and links, a brand's or a set's name, a
//! title, a domain — is written so that it reads as itself and runs nothing wherever the file
//! is opened: in Markdown it is escaped text, never markup or raw HTML ([`markdown`]); in
//! HTML it is escaped text or a quoted attribute ([`html`]); a spreadsheet shows a CSV cell
//! and never evaluates it ([`csv`]); JSON carries control characters only as escapes
//! ([`json`]). A link is written only for an `http` or `https` URL ([`web_url`]): a
//! `javascript:`, `data:` or `vbscript:` target becomes its text alone. Control characters
//! become the visible marks of [`crate::sanitize`] (JSON's become `\u` escapes), so nothing
//! in a file drives the terminal it is printed on.

pub mod csv;
pub mod html;
pub mod json;
pub mod markdown;

/// The URL when it is an absolute `http` or `https` one, the only kind a file links to;
/// normalised by the `url` crate, so spaces, quotes, angle brackets and control characters
/// come out percent-encoded.
pub fn web_url(url: &str) -> Option<url::Url> {
    url::Url::parse(url.trim())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_web_urls_are_links() {
        for kept in [
            "https://example.com/a?b=c",
            "http://example.com",
            " HTTPS://Example.com/x ",
        ] {
            assert!(web_url(kept).is_some(), "{kept}");
        }
        for refused in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " javascript:alert(1)",
            "java\tscript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:msgbox(1)",
            "file:///etc/passwd",
            "/relative/path",
            "#fragment",
            "//example.com/x",
            "",
        ] {
            assert!(web_url(refused).is_none(), "{refused:?}");
        }
        let odd = web_url("https://e.example/a b\x1b\"<c>").unwrap();
        assert_eq!(odd.as_str(), "https://e.example/a%20b%1B%22%3Cc%3E");
    }
}
