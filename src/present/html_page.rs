//! Pages written for a browser (a comparison, a set's report): one self-contained file with
//! its style inline and nothing fetched when it opens. What goes in them is written through
//! `crate::shareable` (Markdown becomes HTML by `shareable::markdown::to_html`).

/// The style of every page: readable on a phone and printed.
pub const STYLE: &str = "body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d2329;max-width:960px;margin:0 auto;padding:16px;overflow-wrap:break-word}.meta,li{overflow-wrap:anywhere}h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.8em;border-bottom:1px solid #dde3ea;padding-bottom:.2em}table{border-collapse:collapse;width:100%;margin:.5em 0}th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eef1f4;vertical-align:top}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}svg{width:100%;max-width:100%;height:auto;display:block}.maps{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(360px,100%),1fr));gap:12px}svg.chart{max-width:640px}.how{color:#3b4550;margin:.3em 0 1em}figure{margin:0}.legend span{margin-right:12px;white-space:nowrap}.bar{display:inline-block;height:.7em;background:#1f77b4;vertical-align:middle;margin-right:6px}.meta{color:#5b6570}mark{background:#fff2a8;padding:0 1px}li{margin:.3em 0}.gained{color:#1a7f37}.lost{color:#b42318}.different{font-weight:600}blockquote{margin:.5em 0;padding-left:1em;border-left:3px solid #dde3ea;color:#3b4550}pre,code{white-space:pre-wrap;word-break:break-word}@media print{body{max-width:none;font-size:11pt}h2{break-after:avoid}section{break-inside:avoid-page}}@media (max-width:600px){body{padding:8px;font-size:14px}th,td{padding:3px 4px}td.n{white-space:normal}table{display:block;overflow-x:auto}}";

/// A whole page around `body` (HTML), titled `title` (text).
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body>{body}</body></html>\n",
        crate::shareable::html::line(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_is_text_on_one_line() {
        let html = page(
            "Boots \x1b]0;owned\x07</title><script>x</script>\nset",
            "<p>b</p>",
        );
        assert!(
            html.contains("<title>Boots ␛&lt;/title&gt;&lt;script&gt;x&lt;/script&gt; set</title>"),
            "{html}"
        );
    }
}
