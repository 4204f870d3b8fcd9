//! The AI overview and the related questions of a Google results page.
//!
//! Google marks the overview's content with the class `pOOWX` (paragraphs in `div.n6owBd`,
//! headings as a lone `strong`, lists of `li`), its cited pages as links inside it, and each
//! related question as a `related-question-pair` element whose `data-q` is the question and
//! whose `hgKElc` span, when expanded, is the answer. The simulator writes the same markup,
//! so one reading serves both. Class names are Google's and change; the reading is kept in
//! this one place for that reason.

use std::collections::{HashMap, HashSet};

use scraper::{ElementRef, Html, Node};
use serde::Serialize;

/// The name `--models`, the model picker and workspace sets give a results page's AI
/// Overview, read as one more model.
pub const AI_OVERVIEW: &str = "ai-overview";

/// Elements nested deeper than this below the overview are not read; real overviews are
/// about 30 levels deep.
const MAX_DEPTH: usize = 200;

const OVERVIEW_CLASS: &str = "pOOWX";
const QUESTION_CLASS: &str = "related-question-pair";
const ANSWER_CLASS: &str = "hgKElc";
/// The title of a cited page in the overview's list of sources.
const SOURCE_TITLE_CLASS: &str = "Nn35F";

/// What a results page says beyond its ranked links.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PageExtract {
    pub ai_overview: Option<AiOverview>,
    pub related_questions: Vec<RelatedQuestion>,
    /// The ranked web results, in the page's order, with their sitelinks.
    pub organic: Vec<OrganicResult>,
}

/// One ranked web result of a results page, as Google marks it (`div.yuRUbf > a` with its
/// `h3` title, the site's name and address, the snippet in `.VwiC3b`), with its sitelinks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OrganicResult {
    pub url: String,
    pub title: String,
    pub site: String,
    pub visible_url: String,
    pub snippet: String,
    pub sitelinks: Vec<Source>,
    /// The results page it is on, from 1.
    pub page: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AiOverview {
    /// The whole text, one block a line, list items marked as in Markdown.
    pub text: String,
    pub blocks: Vec<Block>,
    /// The pages it cites, in order of first mention, each once.
    pub sources: Vec<Source>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Block {
    pub kind: BlockKind,
    pub text: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockKind {
    Heading,
    Paragraph,
    BulletItem,
    NumberedItem,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Source {
    pub title: String,
    pub url: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RelatedQuestion {
    pub question: String,
    /// The answer, when the page shows one (Google expands only some).
    pub answer: Option<String>,
    /// The page the answer is quoted from, when shown.
    pub source: Option<Source>,
}

/// Reads the AI overview, the related questions and the ranked results of a results body,
/// each of its pages apart (`serp_pages`): the overview is the first page's that has one.
pub fn extract(html: &str) -> PageExtract {
    let mut whole = PageExtract::default();
    for (page, document) in (1..).zip(super::serp_pages::split(html)) {
        let mut read = extract_page(document);
        whole.ai_overview = whole.ai_overview.or(read.ai_overview);
        whole.related_questions.append(&mut read.related_questions);
        whole.organic.extend(
            read.organic
                .into_iter()
                .map(|result| OrganicResult { page, ..result }),
        );
    }
    whole
}

fn extract_page(html: &str) -> PageExtract {
    // A page too costly to parse is read as nothing (its view says why, as plain text).
    if crate::html_cost::check(html).is_err() {
        return PageExtract::default();
    }
    let document = Html::parse_document(html);
    let root = document.root_element();
    PageExtract {
        ai_overview: overview(root),
        related_questions: related_questions(root),
        organic: organic(root),
    }
}

fn has_class(element: ElementRef<'_>, class: &str) -> bool {
    element.value().classes().any(|c| c == class)
}

fn inside_class(element: ElementRef<'_>, class: &str) -> bool {
    element
        .ancestors()
        .filter_map(ElementRef::wrap)
        .any(|ancestor| has_class(ancestor, class))
}

/// Overview roots: `pOOWX` blocks that are not a related question's answer (which Google
/// also marks `pOOWX`) and not inside another root.
fn overview_roots(root: ElementRef<'_>) -> Vec<ElementRef<'_>> {
    root.descendent_elements()
        .filter(|e| has_class(*e, OVERVIEW_CLASS))
        .filter(|e| !inside_class(*e, QUESTION_CLASS) && !inside_class(*e, OVERVIEW_CLASS))
        .collect()
}

fn overview(root: ElementRef<'_>) -> Option<AiOverview> {
    let mut blocks = Vec::new();
    let mut sources: Vec<Source> = Vec::new();
    for overview_root in overview_roots(root) {
        let mut inline = Inline::default();
        walk_blocks(overview_root, 0, &mut inline, &mut blocks);
        inline.flush(&mut blocks);
        collect_sources(overview_root, &mut sources);
    }
    of_blocks(blocks, sources)
}

/// An overview of these blocks, its text one block a line; `None` without any block.
fn of_blocks(blocks: Vec<Block>, sources: Vec<Source>) -> Option<AiOverview> {
    if blocks.is_empty() {
        return None;
    }
    let text = blocks
        .iter()
        .map(|block| match block.kind {
            BlockKind::Heading => format!("## {}", block.text),
            BlockKind::BulletItem => format!("- {}", block.text),
            BlockKind::NumberedItem => format!("1. {}", block.text),
            BlockKind::Paragraph => block.text.clone(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    Some(AiOverview {
        text,
        blocks,
        sources,
    })
}

/// The AI overview a JSON results page carries as a result of type `ai-overview` (its
/// `text`, an optional `heading` over its `points` of `label` and `text`, and `sources` of
/// `url` and `title`), read as the HTML page's is. `None` when it holds no text.
pub fn from_json(result: &serde_json::Value) -> Option<AiOverview> {
    let text_of = |value: &serde_json::Value, key: &str| -> String {
        value
            .get(key)
            .and_then(serde_json::Value::as_str)
            .map(collapse)
            .unwrap_or_default()
    };
    let mut blocks = Vec::new();
    let mut push = |kind: BlockKind, text: String| {
        if !text.is_empty() {
            blocks.push(Block { kind, text });
        }
    };
    push(BlockKind::Paragraph, text_of(result, "text"));
    let points = result
        .get("points")
        .and_then(serde_json::Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    if !points.is_empty() {
        push(BlockKind::Heading, text_of(result, "heading"));
    }
    for point in points {
        let (label, text) = (text_of(point, "label"), text_of(point, "text"));
        push(
            BlockKind::BulletItem,
            match (label.is_empty(), text.is_empty()) {
                (false, false) => format!("{label}: {text}"),
                (false, true) => label,
                _ => text,
            },
        );
    }
    let mut sources: Vec<Source> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for source in result
        .get("sources")
        .and_then(serde_json::Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
    {
        let url = text_of(source, "url");
        if url.is_empty() || !seen.insert(url.clone()) {
            continue;
        }
        sources.push(Source {
            title: text_of(source, "title"),
            url,
        });
    }
    of_blocks(blocks, sources)
}

/// Citation chips, the panel of sources and page machinery carry no overview text.
fn skipped(element: ElementRef<'_>) -> bool {
    let value = element.value();
    matches!(
        value.name(),
        "script" | "style" | "svg" | "button" | "noscript" | "template" | "img" | "head"
    ) || value.attr("role") == Some("dialog")
        || value.attr("aria-hidden") == Some("true")
        || has_class(element, "notranslate")
}

fn is_block(name: &str) -> bool {
    matches!(
        name,
        "div"
            | "p"
            | "section"
            | "article"
            | "ul"
            | "ol"
            | "li"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "table"
            | "tr"
            | "blockquote"
            | "header"
            | "footer"
    )
}

fn is_heading(element: ElementRef<'_>) -> bool {
    let value = element.value();
    matches!(value.name(), "h1" | "h2" | "h3" | "h4" | "h5" | "h6")
        || value.attr("role") == Some("heading")
}

/// Running inline text of the block being read, and whether all of it is emphasised (a
/// lone bold line is how the overview writes a heading).
#[derive(Default)]
struct Inline {
    text: String,
    all_strong: bool,
    any_text: bool,
}

impl Inline {
    fn push(&mut self, text: &str, strong: bool) {
        if text.trim().is_empty() {
            self.text.push_str(text);
            return;
        }
        self.all_strong = if self.any_text {
            self.all_strong && strong
        } else {
            strong
        };
        self.any_text = true;
        self.text.push_str(text);
    }

    fn flush(&mut self, blocks: &mut Vec<Block>) {
        let text = collapse(&self.text);
        if !text.is_empty() {
            let kind = if self.all_strong {
                BlockKind::Heading
            } else {
                BlockKind::Paragraph
            };
            blocks.push(Block { kind, text });
        }
        *self = Inline::default();
    }
}

fn walk_blocks(element: ElementRef<'_>, depth: usize, inline: &mut Inline, out: &mut Vec<Block>) {
    if depth > MAX_DEPTH {
        return;
    }
    for child in element.children() {
        match child.value() {
            Node::Text(text) => inline.push(text, false),
            Node::Element(_) => {
                let Some(child) = ElementRef::wrap(child) else {
                    continue;
                };
                if skipped(child) {
                    continue;
                }
                let name = child.value().name();
                if name == "br" {
                    inline.push(" ", false);
                } else if is_heading(child) || name == "li" {
                    inline.flush(out);
                    let kind = if name != "li" {
                        BlockKind::Heading
                    } else if ordered(child) {
                        BlockKind::NumberedItem
                    } else {
                        BlockKind::BulletItem
                    };
                    let text = inline_text(child);
                    if !text.is_empty() {
                        out.push(Block { kind, text });
                    }
                } else if is_block(name) {
                    inline.flush(out);
                    walk_blocks(child, depth + 1, inline, out);
                    inline.flush(out);
                } else {
                    let strong = matches!(name, "strong" | "b");
                    inline.push(&raw_inline_text(child, 0), strong);
                }
            }
            _ => {}
        }
    }
}

fn ordered(item: ElementRef<'_>) -> bool {
    item.ancestors()
        .filter_map(ElementRef::wrap)
        .map(|a| a.value().name())
        .find(|name| *name == "ol" || *name == "ul")
        == Some("ol")
}

/// The visible text of an element, whitespace collapsed, skipping what [`skipped`] skips.
fn inline_text(element: ElementRef<'_>) -> String {
    collapse(&raw_inline_text(element, 0))
}

fn raw_inline_text(element: ElementRef<'_>, depth: usize) -> String {
    let mut out = String::new();
    if depth > MAX_DEPTH {
        return out;
    }
    for child in element.children() {
        match child.value() {
            Node::Text(text) => out.push_str(text),
            Node::Element(_) => {
                if let Some(child) = ElementRef::wrap(child)
                    && !skipped(child)
                {
                    if child.value().name() == "br" {
                        out.push(' ');
                    } else {
                        if is_block(child.value().name()) {
                            out.push(' ');
                        }
                        out.push_str(&raw_inline_text(child, depth + 1));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn web_url(href: &str) -> Option<String> {
    let url = url::Url::parse(href).ok()?;
    matches!(url.scheme(), "http" | "https").then(|| url.to_string())
}

/// Every page the overview links to, titled by the link's text, else by the title shown
/// beside it in the list of sources, else by its host.
fn collect_sources(overview_root: ElementRef<'_>, sources: &mut Vec<Source>) {
    // Each list item's title once, however many links it holds; each URL once.
    let mut listed_titles = HashMap::new();
    let mut index: HashMap<String, usize> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| (s.url.clone(), i))
        .collect();
    for link in overview_root
        .descendent_elements()
        .filter(|e| e.value().name() == "a")
    {
        let Some(url) = link.value().attr("href").and_then(web_url) else {
            continue;
        };
        let mut title = inline_text(link);
        if title.is_empty()
            && let Some(item) = link
                .ancestors()
                .filter_map(ElementRef::wrap)
                .find(|a| a.value().name() == "li")
        {
            title = listed_titles
                .entry(item.id())
                .or_insert_with(|| {
                    item.descendent_elements()
                        .find(|e| has_class(*e, SOURCE_TITLE_CLASS))
                        .map(inline_text)
                        .unwrap_or_default()
                })
                .clone();
        }
        match index.get(&url) {
            Some(&known) if sources[known].title.is_empty() => sources[known].title = title,
            Some(_) => {}
            None => {
                index.insert(url.clone(), sources.len());
                sources.push(Source { title, url });
            }
        }
    }
    for source in sources.iter_mut().filter(|s| s.title.is_empty()) {
        source.title = url::Url::parse(&source.url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_default();
    }
}

fn related_questions(root: ElementRef<'_>) -> Vec<RelatedQuestion> {
    let mut questions: Vec<RelatedQuestion> = Vec::new();
    let mut asked: HashSet<String> = HashSet::new();
    for pair in root
        .descendent_elements()
        .filter(|e| has_class(*e, QUESTION_CLASS))
    {
        let question = pair
            .value()
            .attr("data-q")
            .map(collapse)
            .filter(|q| !q.is_empty())
            .or_else(|| {
                pair.descendent_elements()
                    .find(|e| is_heading(*e) || has_class(*e, "CSkcDe"))
                    .map(inline_text)
            })
            .unwrap_or_default();
        if question.is_empty() || !asked.insert(question.clone()) {
            continue;
        }
        let answer = pair
            .descendent_elements()
            .find(|e| has_class(*e, ANSWER_CLASS))
            .map(inline_text)
            .filter(|a| !a.is_empty());
        let source = answer.as_ref().and_then(|_| answer_source(pair));
        questions.push(RelatedQuestion {
            question,
            answer,
            source,
        });
    }
    questions
}

/// The quoted page: the first link with a title heading inside the pair.
/// The ranked results: each `yuRUbf` title block outside the related questions (whose
/// answers quote a page in the same markup) and outside the AI overview.
fn organic(root: ElementRef<'_>) -> Vec<OrganicResult> {
    let mut found: Vec<OrganicResult> = Vec::new();
    let mut ranked: HashSet<String> = HashSet::new();
    for title_block in root
        .descendent_elements()
        .filter(|e| has_class(*e, "yuRUbf"))
    {
        if inside_class(title_block, QUESTION_CLASS) || inside_class(title_block, OVERVIEW_CLASS) {
            continue;
        }
        let Some(link) = title_block
            .descendent_elements()
            .find(|e| e.value().name() == "a")
        else {
            continue;
        };
        let Some(url) = link.value().attr("href").and_then(web_url) else {
            continue;
        };
        if !ranked.insert(url.clone()) {
            continue;
        }
        let first_text = |within: ElementRef<'_>, wanted: &dyn Fn(ElementRef<'_>) -> bool| {
            within
                .descendent_elements()
                .find(|e| wanted(*e))
                .map(inline_text)
                .unwrap_or_default()
        };
        // The result's whole block: the nearest ancestor marked as one.
        let block = title_block
            .ancestors()
            .filter_map(ElementRef::wrap)
            .find(|e| has_class(*e, "tF2Cxc") || has_class(*e, "g"))
            .unwrap_or(title_block);
        let sitelinks = block
            .descendent_elements()
            .filter(|e| e.value().name() == "a" && !inside_class(*e, "yuRUbf"))
            .filter_map(|a| {
                let url = a.value().attr("href").and_then(web_url)?;
                let title = inline_text(a);
                (!title.is_empty()).then_some(Source { title, url })
            })
            .collect();
        found.push(OrganicResult {
            title: first_text(link, &|e| e.value().name() == "h3"),
            site: first_text(link, &|e| has_class(e, "VuuXrf")),
            visible_url: first_text(link, &|e| e.value().name() == "cite"),
            snippet: first_text(block, &|e| has_class(e, "VwiC3b")),
            sitelinks,
            url,
            page: 1,
        });
    }
    found
}

fn answer_source(pair: ElementRef<'_>) -> Option<Source> {
    pair.descendent_elements()
        .filter(|e| e.value().name() == "a")
        .find_map(|link| {
            let url = link.value().attr("href").and_then(web_url)?;
            let title = link
                .descendent_elements()
                .find(|e| e.value().name() == "h3")
                .map(inline_text)?;
            Some(Source { title, url })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structure_sources_and_questions_are_read() {
        let html = r#"<html><body>
            <div class="pOOWX"><script>var x = 1;</script>
              <div class="n6owBd">Rust is <mark>a language</mark> for systems.<span class="uJ19be notranslate"><a class="muU3oe" href="https://www.rust-lang.org/"></a><button>Rust +2</button></span></div>
              <div class="n6owBd"><strong class="Yjhzub">Features</strong></div>
              <ul><li><strong>Safety:</strong> no data races.</li><li>Speed</li></ul>
              <ol><li>Install</li></ol>
              <div class="notranslate"><ul><li><a href="https://doc.rust-lang.org/book/"></a><div class="Nn35F"><span>The Book</span></div></li></ul></div>
            </div>
            <div class="related-question-pair" data-q="Is Rust fast?"><span class="hgKElc pOOWX">Yes,<br>very.</span>
              <div class="yuRUbf"><a href="https://example.org/fast"><h3>Fast Rust</h3></a></div></div>
            <div class="related-question-pair" data-q="Is Rust new?"></div>
            <div class="related-question-pair" data-q="Is Rust fast?"></div>
            </body></html>"#;
        let page = extract(html);
        let overview = page.ai_overview.unwrap_or_else(|| panic!("no overview"));
        let kinds: Vec<BlockKind> = overview.blocks.iter().map(|b| b.kind).collect();
        assert_eq!(
            kinds,
            [
                BlockKind::Paragraph,
                BlockKind::Heading,
                BlockKind::BulletItem,
                BlockKind::BulletItem,
                BlockKind::NumberedItem
            ]
        );
        assert_eq!(overview.blocks[0].text, "Rust is a language for systems.");
        assert_eq!(overview.blocks[2].text, "Safety: no data races.");
        assert!(overview.text.starts_with("Rust is a language"));
        assert!(overview.text.contains("\n## Features\n- Safety"));
        assert!(
            !overview.text.contains("The Book"),
            "source panel is not text"
        );
        assert_eq!(
            overview.sources,
            [
                Source {
                    title: "www.rust-lang.org".into(),
                    url: "https://www.rust-lang.org/".into()
                },
                Source {
                    title: "The Book".into(),
                    url: "https://doc.rust-lang.org/book/".into()
                }
            ]
        );
        assert_eq!(page.related_questions.len(), 2);
        assert_eq!(
            page.related_questions[0].answer.as_deref(),
            Some("Yes, very.")
        );
        assert_eq!(
            page.related_questions[0]
                .source
                .as_ref()
                .map(|s| s.title.as_str()),
            Some("Fast Rust")
        );
        assert_eq!(page.related_questions[1].answer, None);
    }

    #[test]
    fn a_page_without_either_yields_nothing() {
        assert_eq!(
            extract("<p>plain</p>"),
            PageExtract {
                ai_overview: None,
                related_questions: Vec::new(),
                organic: Vec::new(),
            }
        );
        assert_eq!(extract(""), PageExtract::default());
    }

    #[test]
    fn ranked_results_are_read_with_their_sitelinks_and_not_from_the_questions() {
        let html = r#"<div class="g tF2Cxc"><div class="yuRUbf"><a href="https://rei.com/boots"><h3>Boots | REI</h3><div><span class="VuuXrf">REI</span><cite>https://rei.com › boots</cite></div></a></div>
            <div class="VwiC3b"><span>Tested boots.</span></div><table class="sitelinks"><tr><td><a href="https://rei.com/deals">Deals</a></td></tr></table></div>
            <div class="related-question-pair"><div class="yuRUbf"><a href="https://quoted.example/"><h3>Quoted</h3></a></div></div>
            <div class="g tF2Cxc"><div class="yuRUbf"><a href="https://keen.com/"><h3>Keen</h3></a></div><div class="VwiC3b">Wide.</div></div>"#;
        let organic = extract(html).organic;
        let urls: Vec<&str> = organic.iter().map(|r| r.url.as_str()).collect();
        assert_eq!(urls, ["https://rei.com/boots", "https://keen.com/"]);
        assert_eq!(organic[0].title, "Boots | REI");
        assert_eq!(organic[0].site, "REI");
        assert_eq!(organic[0].snippet, "Tested boots.");
        assert_eq!(organic[0].sitelinks.len(), 1);
        assert_eq!(organic[0].sitelinks[0].title, "Deals");
        assert!(organic[1].sitelinks.is_empty());
    }

    #[test]
    fn hostile_input_is_bounded() {
        let deep = format!(
            "<div class=\"pOOWX\">{}deep{}</div>",
            "<div>".repeat(5_000),
            "</div>".repeat(5_000)
        );
        // Too deep to read, but read without overflowing the stack.
        assert_eq!(extract(&deep).ai_overview, None);
        // Too costly to parse at all: read as nothing, at once.
        let soup = "<b><i><table><tr><td><span><a href=x>".repeat(30_000);
        assert_eq!(extract(&soup), PageExtract::default());
    }
}
