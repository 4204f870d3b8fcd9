//! Small HTML helpers shared by the chat pages and the results pages.

use super::seed::Mix;

/// Escapes text for element content and quoted attributes.
pub(crate) fn esc(text: &str) -> String {
    html_escape::encode_quoted_attribute(text).into_owned()
}

/// Percent-encodes a query value the way browsers do for search URLs (space as +).
pub(crate) fn query_value(text: &str) -> String {
    url::form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// Script and style noise like real pages carry (bundles, tracking, CSS utility classes),
/// so that converters are tested against pages where the content is a small part.
pub(crate) fn noise(mix: &mut Mix, blocks: usize) -> String {
    let mut out = String::new();
    for block in 0..blocks {
        let build = mix.next_u64();
        match block % 3 {
            0 => {
                out.push_str("<style data-emotion=\"css\">");
                for rule in 0..40 {
                    let class = mix.next_u64() & 0xffffff;
                    out.push_str(&format!(
                        ".c{class:06x}{{display:flex;gap:{}px;padding:{}px {}px;color:#{:06x}}}",
                        rule % 12,
                        rule % 7,
                        rule % 9,
                        mix.next_u64() & 0xffffff
                    ));
                }
                out.push_str("</style>");
            }
            1 => {
                out.push_str(&format!(
                    "<script nonce=\"{build:016x}\">window.__BOOTSTRAP__={{\"build\":\"{build:016x}\",\"flags\":["
                ));
                for flag in 0..30 {
                    if flag > 0 {
                        out.push(',');
                    }
                    out.push_str(&format!("\"f{:08x}\"", mix.next_u64() & 0xffff_ffff));
                }
                out.push_str("],\"sampleRate\":0.01};(function(){var q=[];window.track=function(e){q.push(e)};})();</script>");
            }
            _ => {
                out.push_str(&format!(
                    "<script type=\"module\" src=\"/assets/chunk-{build:012x}.js\" crossorigin=\"anonymous\"></script><link rel=\"modulepreload\" href=\"/assets/vendor-{:012x}.js\">",
                    mix.next_u64() & 0xffff_ffff_ffff
                ));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_characters() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#x27;"
        );
        assert_eq!(query_value("a b&c"), "a+b%26c");
    }
}
