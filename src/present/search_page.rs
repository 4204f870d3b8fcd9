//! A search response made ready to browse: one flat list of entries (page and section
//! headers, results, their sitelinks and images) with fixed heights, built once when the
//! response lands, so drawing and scrolling cost what is on screen.

use std::borrow::Cow;
use std::time::Duration;

use crate::analysis::overview::{self, AiOverview, BlockKind, OrganicResult, RelatedQuestion};
use crate::api::{
    Awaiting, Fetched, ResultKind, SearchAnswer, SearchFormat, SearchRequest, SearchResult,
    SearchResults,
};
use crate::render::{self, Link, RenderOptions};

use super::text::TextBody;

/// What a row of the results list shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryKind {
    /// "Page 2": the start of a page group.
    Page(u32),
    /// A section other than main begins ("top", "bottom", "right").
    Section(String),
    Result(usize),
    Sitelink {
        result: usize,
        link: usize,
    },
    Image {
        result: usize,
        image: usize,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kind: EntryKind,
    /// Rows on screen, whatever the width: the snippet is cut to two.
    pub height: u16,
    pub page: u32,
}

impl Entry {
    /// Results and sitelinks can be selected; headers and images are only shown.
    pub fn selectable(&self) -> bool {
        matches!(self.kind, EntryKind::Result(_) | EntryKind::Sitelink { .. })
    }

    pub fn result(&self) -> Option<usize> {
        match self.kind {
            EntryKind::Result(r) | EntryKind::Sitelink { result: r, .. } => Some(r),
            EntryKind::Image { result, .. } => Some(result),
            _ => None,
        }
    }
}

/// The views of a search answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SearchView {
    Results,
    /// The HTML results page as text, links numbered.
    Page,
    /// The links of the HTML page, selectable.
    Links,
    Html,
    Json,
}

impl SearchView {
    pub fn title(self) -> &'static str {
        match self {
            SearchView::Results => "Results",
            SearchView::Page => "Page",
            SearchView::Links => "Links",
            SearchView::Html => "HTML",
            SearchView::Json => "JSON",
        }
    }
}

/// The header line: what the service says it searched, and how it went.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchHeader {
    pub engine: String,
    pub terms: String,
    pub results_count: Option<u64>,
    pub approx_results_count: Option<u64>,
    pub page_count: Option<u32>,
    pub page_size: Option<u32>,
    pub results_offset: Option<u32>,
    /// The location the service reports back (else the one asked for).
    pub location: String,
    pub elapsed: Duration,
    pub bytes: usize,
}

impl SearchHeader {
    pub fn describe(&self) -> String {
        let mut parts = vec![format!(
            "{} · {}",
            if self.engine.is_empty() {
                "search"
            } else {
                &self.engine
            },
            self.terms
        )];
        if let Some(n) = self.results_count {
            let mut count = crate::plural::count(n, "result", "results");
            if let Some(approx) = self.approx_results_count {
                count.push_str(&format!(" (about {})", thousands(approx)));
            }
            parts.push(count);
        }
        if let Some(pages) = self.page_count {
            let size = self.page_size.map_or(String::new(), |s| format!(" × {s}"));
            parts.push(format!(
                "{}{size}",
                crate::plural::count(u64::from(pages), "page", "pages")
            ));
        }
        if let Some(offset) = self.results_offset {
            parts.push(format!("offset {offset}"));
        }
        parts.push(format!("from {}", self.location));
        parts.push(format!(
            "{:.1} s · {}",
            self.elapsed.as_secs_f64(),
            super::answer::human_size(self.bytes)
        ));
        parts.join(" · ")
    }
}

/// 255000000 → "255,000,000".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The HTML form of a results page.
#[derive(Debug)]
pub struct HtmlPage {
    pub text: TextBody,
    pub links: Vec<Link>,
    pub raw: TextBody,
}

#[derive(Debug)]
pub struct PreparedSearch {
    pub request: SearchRequest,
    pub header: SearchHeader,
    pub views: Vec<SearchView>,
    pub results: Vec<SearchResult>,
    pub entries: Vec<Entry>,
    /// What the filter matches for each result: title, site, URL, snippet.
    pub haystacks: Vec<String>,
    pub html: Option<HtmlPage>,
    pub json: Option<TextBody>,
    /// Google's AI overview, or why the page shows none.
    pub overview: OverviewPane,
    /// The questions Google lists as "People also ask", read from the HTML page.
    pub related_questions: Vec<RelatedQuestion>,
    /// The body as received.
    pub body: String,
}

/// The AI overview of a results page, ready to draw, or the reason there is none.
#[derive(Debug)]
pub enum OverviewPane {
    Found {
        overview: Box<AiOverview>,
        /// Its blocks through the render path.
        text: TextBody,
    },
    /// The search did not wait for it (`awaiting=ai`), so Google's page has none.
    NotAwaited,
    /// It is read from the HTML page; a JSON answer does not carry it.
    NotHtml,
    /// Awaited, yet Google showed none for these terms from here.
    NoneOnPage,
}

impl OverviewPane {
    /// One line on why there is no overview; `None` when there is one.
    pub fn reason(&self) -> Option<&'static str> {
        match self {
            OverviewPane::Found { .. } => None,
            OverviewPane::NotAwaited => {
                Some("No AI overview: not awaited (set awaiting to ai, format html).")
            }
            OverviewPane::NotHtml => {
                Some("No AI overview: it is read from the HTML page (set format to html).")
            }
            OverviewPane::NoneOnPage => {
                Some("No AI overview on this page: awaited, but Google showed none here.")
            }
        }
    }
}

impl OverviewPane {
    /// The reason in a few words, for a header with little room.
    pub fn short_reason(&self) -> Option<&'static str> {
        match self {
            OverviewPane::Found { .. } => None,
            OverviewPane::NotAwaited => Some("no AI overview (not awaited)"),
            OverviewPane::NotHtml => Some("no AI overview (not HTML)"),
            OverviewPane::NoneOnPage => Some("no AI overview here"),
        }
    }
}

/// The overview's blocks as HTML for the render path (its sources are listed apart, to be
/// picked and opened), its headings as `heading` (`h4` in Search's pane, under the page's
/// own; `h3` where it stands as an answer).
pub(crate) fn overview_html(found: &AiOverview, heading: &str) -> String {
    let escape = |text: &str| html_escape::encode_text(text).into_owned();
    let mut html = String::new();
    let mut open_list: Option<&str> = None;
    for block in &found.blocks {
        let list = match block.kind {
            BlockKind::BulletItem => Some("ul"),
            BlockKind::NumberedItem => Some("ol"),
            BlockKind::Heading | BlockKind::Paragraph => None,
        };
        if open_list != list {
            if let Some(tag) = open_list {
                html.push_str(&format!("</{tag}>"));
            }
            if let Some(tag) = list {
                html.push_str(&format!("<{tag}>"));
            }
            open_list = list;
        }
        let text = escape(&block.text);
        match block.kind {
            BlockKind::Heading => html.push_str(&format!("<{heading}>{text}</{heading}>")),
            BlockKind::Paragraph => html.push_str(&format!("<p>{text}</p>")),
            BlockKind::BulletItem | BlockKind::NumberedItem => {
                html.push_str(&format!("<li>{text}</li>"))
            }
        }
    }
    if let Some(tag) = open_list {
        html.push_str(&format!("</{tag}>"));
    }
    html
}

/// A body of several result pages shown as one text: each page under a "Page N" heading, so
/// the pages read in order and their links are numbered once. One page is shown as it is.
pub fn paged_html(html: &str) -> Cow<'_, str> {
    let pages = crate::analysis::serp_pages::split(html);
    if pages.len() < 2 {
        return Cow::Borrowed(html);
    }
    let mut shown = String::with_capacity(html.len() + pages.len() * 20);
    for (number, page) in (1..).zip(pages) {
        shown.push_str(&format!("<h2>Page {number}</h2>"));
        shown.push_str(page);
    }
    Cow::Owned(shown)
}

/// What an HTML results page is read for: its overview (or why there is none), its related
/// questions and its ranked results.
type PageReading = (OverviewPane, Vec<RelatedQuestion>, Vec<OrganicResult>);

/// Reads the overview, the related questions and (from an HTML page) the ranked results of
/// an answer. Pure and slow (parses HTML): run it off the UI task.
pub fn read_overview(request: &SearchRequest, answer: &SearchAnswer) -> PageReading {
    let awaited = request.awaiting.contains(&Awaiting::Ai);
    let found = |found: AiOverview| {
        let doc = render::html_to_document(&overview_html(&found, "h4"), &RenderOptions::default());
        OverviewPane::Found {
            overview: Box::new(found),
            text: TextBody::document(doc),
        }
    };
    let html = match answer {
        SearchAnswer::Html(html) => html,
        // A JSON page carries the overview as a result of its own, when it has one.
        SearchAnswer::Results(results) => {
            let pane = match results.results.iter().find_map(json_overview) {
                Some(overview) => found(overview),
                None if !awaited => OverviewPane::NotAwaited,
                None => OverviewPane::NotHtml,
            };
            return (pane, Vec::new(), Vec::new());
        }
    };
    let extract = overview::extract(html);
    let pane = match extract.ai_overview {
        Some(overview) => found(overview),
        None if !awaited && request.format == SearchFormat::Html => OverviewPane::NotAwaited,
        None => OverviewPane::NoneOnPage,
    };
    (pane, extract.related_questions, extract.organic)
}

/// The ranked results read from an HTML page, in the shape the JSON page gives them, so the
/// Results view shows them alike, sitelinks included.
fn organic_as_results(organic: Vec<OrganicResult>) -> Vec<SearchResult> {
    organic
        .into_iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let kind = if r.sitelinks.is_empty() {
                "organic"
            } else {
                "organic-with-sitelinks"
            };
            let sitelinks: Vec<serde_json::Value> = r
                .sitelinks
                .iter()
                .enumerate()
                .map(
                    |(n, s)| serde_json::json!({"position": n + 1, "url": s.url, "title": s.title}),
                )
                .collect();
            serde_json::from_value(serde_json::json!({
                "type": kind,
                "page": r.page,
                "section": "main",
                "position": i + 1,
                "url": r.url,
                "title": r.title,
                "site": r.site,
                "visibleUrl": r.visible_url,
                "snippet": r.snippet,
                "sitelinks": sitelinks,
            }))
            .ok()
        })
        .collect()
}

/// The type the JSON page gives its AI overview's result.
const OVERVIEW_TYPE: &str = "ai-overview";

fn is_overview(result: &SearchResult) -> bool {
    matches!(&result.kind, ResultKind::Other(kind) if kind == OVERVIEW_TYPE)
}

/// The overview a JSON page's result holds, read from the result as received.
fn json_overview(result: &SearchResult) -> Option<AiOverview> {
    is_overview(result)
        .then_some(result.raw.as_ref())
        .flatten()
        .and_then(overview::from_json)
}

/// Rows a result takes: a title line, a line of site, URL, date and rating, and the snippet
/// cut to two lines.
fn result_height(result: &SearchResult) -> u16 {
    match result.kind {
        ResultKind::Organic | ResultKind::OrganicWithSitelinks => {
            2 + if result.snippet.is_empty() { 0 } else { 2 }
        }
        ResultKind::AlsoAsked => {
            2 + u16::from(
                result
                    .answer
                    .as_ref()
                    .is_some_and(|a| !a.description.is_empty()),
            )
        }
        ResultKind::TopStory => 2,
        ResultKind::AlsoSearched => 1,
        ResultKind::Other(_) => 2,
    }
}

fn haystack(result: &SearchResult) -> String {
    let mut text = String::new();
    for part in [
        result.heading(),
        &result.site,
        result.target_url(),
        &result.snippet,
        &result.publisher,
    ] {
        if !part.is_empty() {
            text.push_str(part);
            text.push(' ');
        }
    }
    if let Some(answer) = &result.answer {
        text.push_str(&answer.description);
        text.push(' ');
        text.push_str(&answer.site);
    }
    text
}

/// Builds the flat list: a header per page, a header when the section changes away from
/// main, each result followed by its sitelinks and images.
pub fn build_entries(results: &[SearchResult]) -> Vec<Entry> {
    let mut entries = Vec::with_capacity(results.len() * 2);
    let mut page = None;
    let mut section: Option<&str> = None;
    for (i, result) in results.iter().enumerate() {
        if page != Some(result.page) {
            page = Some(result.page);
            section = None;
            entries.push(Entry {
                kind: EntryKind::Page(result.page),
                height: 1,
                page: result.page,
            });
        }
        if section != Some(result.section.as_str()) {
            section = Some(result.section.as_str());
            if !result.section.is_empty() && result.section != "main" {
                entries.push(Entry {
                    kind: EntryKind::Section(result.section.clone()),
                    height: 1,
                    page: result.page,
                });
            }
        }
        entries.push(Entry {
            kind: EntryKind::Result(i),
            height: result_height(result),
            page: result.page,
        });
        for link in 0..result.sitelinks.len() {
            entries.push(Entry {
                kind: EntryKind::Sitelink { result: i, link },
                height: 1,
                page: result.page,
            });
        }
        for image in 0..result.images.len() {
            entries.push(Entry {
                kind: EntryKind::Image { result: i, image },
                height: 1,
                page: result.page,
            });
        }
    }
    entries
}

fn location_of(results: &SearchResults, request: &SearchRequest) -> String {
    let reported: Vec<&str> = [&results.city, &results.subdivision, &results.country]
        .into_iter()
        .filter_map(|p| p.as_deref())
        .collect();
    if reported.is_empty() {
        request.location.describe()
    } else {
        reported.join(", ")
    }
}

fn pretty_json(body: &str) -> String {
    render::pretty_json(body).unwrap_or_else(|| body.to_string())
}

/// Converts a fetched search into its views. Pure and possibly slow: run it off the UI task.
pub fn prepare(request: SearchRequest, fetched: Fetched<SearchAnswer>) -> PreparedSearch {
    let mut header = SearchHeader {
        engine: String::new(),
        terms: request.terms.clone(),
        results_count: None,
        approx_results_count: None,
        page_count: None,
        page_size: None,
        results_offset: None,
        location: request.location.describe(),
        elapsed: fetched.elapsed,
        bytes: fetched.body.len(),
    };
    let (overview, related_questions, organic) = read_overview(&request, &fetched.value);
    match fetched.value {
        SearchAnswer::Results(results) => {
            let results = *results;
            header.engine = results.engine.clone();
            if !results.terms.is_empty() {
                header.terms = results.terms.clone();
            }
            header.results_count = results.results_count;
            header.approx_results_count = results.approx_results_count;
            header.page_count = results.page_count;
            header.page_size = results.page_size;
            header.results_offset = results.results_offset;
            header.location = location_of(&results, &request);
            // The overview shows in its own pane, not as a ranked row.
            let mut results = results;
            results.results.retain(|result| !is_overview(result));
            let entries = build_entries(&results.results);
            let haystacks = results.results.iter().map(haystack).collect();
            let json = TextBody::raw(&pretty_json(&fetched.body));
            PreparedSearch {
                request,
                header,
                views: vec![SearchView::Results, SearchView::Json],
                results: results.results,
                entries,
                haystacks,
                html: None,
                json: Some(json),
                overview,
                related_questions,
                body: fetched.body,
            }
        }
        SearchAnswer::Html(html) => {
            let doc = render::html_to_document(
                &paged_html(&html),
                &RenderOptions {
                    number_links: true,
                    ..RenderOptions::default()
                },
            );
            let links = doc.links().to_vec();
            // The ranked rows, read from the page itself, beside its text.
            let results = organic_as_results(organic);
            let mut views = vec![SearchView::Page, SearchView::Links, SearchView::Html];
            if !results.is_empty() {
                views.insert(0, SearchView::Results);
            }
            let entries = build_entries(&results);
            let haystacks = results.iter().map(haystack).collect();
            PreparedSearch {
                request,
                header,
                views,
                results,
                entries,
                haystacks,
                html: Some(HtmlPage {
                    text: TextBody::document(doc),
                    links,
                    raw: TextBody::raw(&html),
                }),
                json: None,
                overview,
                related_questions,
                body: fetched.body,
            }
        }
    }
}

impl PreparedSearch {
    /// The results as CSV, one row per result; sitelinks joined in one column. An HTML page
    /// exports the ranked results read from it, else its links.
    pub fn export_csv(&self) -> String {
        // An HTML page whose ranked results could be read exports those, as a JSON page does.
        if let Some(html) = self.html.as_ref().filter(|_| self.results.is_empty()) {
            let header = ["n", "text", "url"].map(String::from).to_vec();
            let links =
                html.links.iter().enumerate().map(|(i, link)| {
                    vec![(i + 1).to_string(), link.text.clone(), link.url.clone()]
                });
            return crate::shareable::csv::text(std::iter::once(header).chain(links));
        }
        let header = [
            "page",
            "section",
            "feature",
            "position",
            "type",
            "title",
            "url",
            "site",
            "visible_url",
            "date",
            "snippet",
            "rating",
            "votes",
            "sitelinks",
            "images",
        ]
        .map(String::from)
        .to_vec();
        let rows = self.results.iter().map(|r| {
            let sitelinks: Vec<String> = r
                .sitelinks
                .iter()
                .map(|s| format!("{} <{}>", s.title, s.url))
                .collect();
            let snippet = match &r.answer {
                Some(a) if r.snippet.is_empty() => a.description.clone(),
                _ => r.snippet.clone(),
            };
            vec![
                r.page.to_string(),
                r.section.clone(),
                r.feature.to_string(),
                r.position.to_string(),
                r.kind.type_name().to_string(),
                r.heading().to_string(),
                r.target_url().to_string(),
                r.site.clone(),
                r.visible_url.clone(),
                r.date.clone().unwrap_or_default(),
                snippet,
                r.rating.map_or(String::new(), |v| v.to_string()),
                r.votes.map_or(String::new(), |v| v.to_string()),
                sitelinks.join(" | "),
                r.images.len().to_string(),
            ]
        });
        crate::shareable::csv::text(std::iter::once(header).chain(rows))
    }

    /// The JSON file `e` writes: the body as received, pretty when it is JSON, its control
    /// characters as escapes.
    pub fn export_json(&self) -> String {
        crate::shareable::json::received(&self.body)
    }
}

/// "★★★★☆ 4.6 (1,234)" for a rating out of five.
pub fn stars(rating: f64, votes: Option<u64>) -> String {
    let full = rating.round().clamp(0.0, 5.0) as usize;
    let mut text = format!("{}{} {rating:.1}", "★".repeat(full), "☆".repeat(5 - full));
    if let Some(v) = votes {
        text.push_str(&format!(" ({})", thousands(v)));
    }
    text
}

/// A one-line summary of an unknown result's JSON: its keys and short values.
pub fn summarize_json(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "type" | "page" | "section" | "feature" | "position"
                    )
                })
                .map(|(k, v)| match v {
                    serde_json::Value::String(s) => {
                        format!("{k}: {}", crate::api::request::shorten(s, 40))
                    }
                    serde_json::Value::Array(a) => format!("{k}: [{} items]", a.len()),
                    serde_json::Value::Object(o) => format!("{k}: {{{} keys}}", o.len()),
                    other => format!("{k}: {other}"),
                })
                .collect();
            parts.join(" · ")
        }
        other => crate::api::request::shorten(&other.to_string(), 80),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_and_stars() {
        assert_eq!(thousands(255_000_000), "255,000,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(stars(4.4, Some(1234)), "★★★★☆ 4.4 (1,234)");
    }

    /// A results page of Google's markup with one ranked result.
    fn one_result_page(url: &str, title: &str) -> String {
        format!(
            "<!doctype html><html><head><title>boots - Google Search</title></head><body><div class=\"g tF2Cxc\"><div class=\"yuRUbf\"><a href=\"{url}\"><h3>{title}</h3></a></div></div></body></html>"
        )
    }

    #[test]
    fn two_html_pages_are_browsed_as_two_pages() {
        let html = format!(
            "{}\n\n{}",
            one_result_page("https://one.example.com/", "First"),
            one_result_page("https://two.example.com/", "Second")
        );
        let fetched = Fetched {
            value: SearchAnswer::Html(html.clone()),
            body: html,
            status: 200,
            content_type: "text/html".into(),
            elapsed: Duration::ZERO,
        };
        let prepared = prepare(SearchRequest::new("boots"), fetched);
        let pages: Vec<(u32, &str)> = prepared
            .results
            .iter()
            .map(|r| (r.page, r.heading()))
            .collect();
        assert_eq!(pages, [(1, "First"), (2, "Second")]);
        assert!(prepared.entries.contains(&Entry {
            kind: EntryKind::Page(2),
            height: 1,
            page: 2
        }));
        let text = prepared
            .html
            .as_ref()
            .and_then(|h| h.text.as_document())
            .map(|doc| doc.plain_text())
            .unwrap_or_default();
        let (one, two) = (text.find("Page 1"), text.find("Page 2"));
        assert!(one.is_some() && one < text.find("First"), "{text}");
        assert!(
            two.is_some() && text.find("First") < two && two < text.find("Second"),
            "{text}"
        );
    }
}
