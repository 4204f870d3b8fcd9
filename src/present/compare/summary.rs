//! The comparison maths, pure: word-set similarity of answers, the source domains several
//! columns cite, the rank table of a search seen from several vantage points, and the text
//! the CLI prints and the Markdown export writes.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use crate::analysis::sources::{Classifier, KindCounts};
use crate::api::Location;
use crate::present::compare::mentions::BrandRanks;

/// How the similarity is computed, stated wherever the matrix is shown.
pub const SIMILARITY_NOTE: &str =
    "Similarity: Jaccard index of the answers' word sets (shared words / all words), 0–100.";

/// The lower-cased words of a text (letters and digits; everything else separates).
pub fn word_set(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

/// |A ∩ B| / |A ∪ B|; two empty texts are identical (1.0).
pub fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 1.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// The symmetric matrix of `jaccard` over the texts; `None` where a column has no answer.
pub fn similarity_matrix(texts: &[Option<&str>]) -> Vec<Vec<Option<f64>>> {
    let sets: Vec<Option<HashSet<String>>> = texts.iter().map(|t| t.map(word_set)).collect();
    sets.iter()
        .map(|a| {
            sets.iter()
                .map(|b| match (a, b) {
                    (Some(a), Some(b)) => Some(jaccard(a, b)),
                    _ => None,
                })
                .collect()
        })
        .collect()
}

/// A domain cited by two or more columns, and which (0-based, ascending).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SharedDomain {
    pub domain: String,
    pub columns: Vec<usize>,
}

/// The domains cited by two or more columns: most widely shared first, then by name.
pub fn shared_domains(domains: &[Vec<String>]) -> Vec<SharedDomain> {
    let mut by_domain: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for (column, list) in domains.iter().enumerate() {
        for domain in list {
            let domain = domain.trim().to_lowercase();
            if !domain.is_empty() {
                by_domain.entry(domain).or_default().insert(column);
            }
        }
    }
    let mut out: Vec<SharedDomain> = by_domain
        .into_iter()
        .filter(|(_, cols)| cols.len() >= 2)
        .map(|(domain, cols)| SharedDomain {
            domain,
            columns: cols.into_iter().collect(),
        })
        .collect();
    out.sort_by(|a, b| {
        b.columns
            .len()
            .cmp(&a.columns.len())
            .then(a.domain.cmp(&b.domain))
    });
    out
}

/// A URL as one row of the rank table: tracking parameters and fragment dropped, host
/// lower-cased, no trailing slash.
pub fn normalise_url(url: &str) -> String {
    let canonical = crate::present::answer::canonical_url(url.trim());
    let canonical = match url::Url::parse(&canonical) {
        // The url crate lower-cases hosts already; a URL it cannot parse is lower-cased whole.
        Ok(parsed) => parsed.to_string(),
        Err(_) => canonical.to_lowercase(),
    };
    canonical.trim_end_matches('/').to_string()
}

/// One result as a vantage point saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ranked {
    pub url: String,
    pub rank: u32,
    pub sitelinks: usize,
}

/// Where a result stands in one column compared with the first column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Movement {
    /// The first column itself, or the same rank.
    Same,
    Up(u32),
    Down(u32),
    /// Ranked here, not in the first column.
    New,
    /// Ranked in the first column, not here.
    Gone,
    /// In neither.
    Absent,
}

impl Movement {
    pub fn of(first: Option<u32>, here: Option<u32>) -> Movement {
        match (first, here) {
            (Some(a), Some(b)) if b < a => Movement::Up(a - b),
            (Some(a), Some(b)) if b > a => Movement::Down(b - a),
            (Some(_), Some(_)) => Movement::Same,
            (None, Some(_)) => Movement::New,
            (Some(_), None) => Movement::Gone,
            (None, None) => Movement::Absent,
        }
    }

    pub fn text(self) -> String {
        match self {
            Movement::Same => "=".to_string(),
            Movement::Up(n) => format!("↑{n}"),
            Movement::Down(n) => format!("↓{n}"),
            Movement::New => "new".to_string(),
            Movement::Gone => "gone".to_string(),
            Movement::Absent => String::new(),
        }
    }
}

/// One cell of the rank table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RankCell {
    pub rank: Option<u32>,
    pub sitelinks: usize,
    pub movement: Movement,
}

/// One URL across the vantage points.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RankRow {
    pub url: String,
    pub cells: Vec<RankCell>,
}

impl RankRow {
    pub fn best(&self) -> u32 {
        self.cells
            .iter()
            .filter_map(|c| c.rank)
            .min()
            .unwrap_or(u32::MAX)
    }

    /// The distance between its best and worst rank where it is ranked.
    pub fn spread(&self) -> u32 {
        let ranks: Vec<u32> = self.cells.iter().filter_map(|c| c.rank).collect();
        match (ranks.iter().min(), ranks.iter().max()) {
            (Some(lo), Some(hi)) => hi - lo,
            _ => 0,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RankSort {
    #[default]
    Best,
    Spread,
}

impl RankSort {
    pub fn label(self) -> &'static str {
        match self {
            RankSort::Best => "best rank",
            RankSort::Spread => "largest spread",
        }
    }

    pub fn next(self) -> RankSort {
        match self {
            RankSort::Best => RankSort::Spread,
            RankSort::Spread => RankSort::Best,
        }
    }
}

/// The rank table: a row per normalised URL (its best rank kept when a column lists it twice),
/// a cell per column, movements against the first column.
pub fn rank_table(columns: &[Vec<Ranked>], sort: RankSort) -> Vec<RankRow> {
    let mut by_url: BTreeMap<String, Vec<Option<(u32, usize)>>> = BTreeMap::new();
    for (i, column) in columns.iter().enumerate() {
        for ranked in column {
            let url = normalise_url(&ranked.url);
            if url.is_empty() {
                continue;
            }
            let cells = by_url
                .entry(url)
                .or_insert_with(|| vec![None; columns.len()]);
            match cells[i] {
                Some((rank, _)) if rank <= ranked.rank => {}
                _ => cells[i] = Some((ranked.rank, ranked.sitelinks)),
            }
        }
    }
    let mut rows: Vec<RankRow> = by_url
        .into_iter()
        .map(|(url, cells)| {
            let first = cells.first().copied().flatten().map(|(r, _)| r);
            let cells = cells
                .iter()
                .enumerate()
                .map(|(i, cell)| {
                    let rank = cell.map(|(r, _)| r);
                    RankCell {
                        rank,
                        sitelinks: cell.map_or(0, |(_, s)| s),
                        movement: if i == 0 {
                            Movement::Same
                        } else {
                            Movement::of(first, rank)
                        },
                    }
                })
                .collect();
            RankRow { url, cells }
        })
        .collect();
    sort_rows(&mut rows, sort);
    rows
}

pub fn sort_rows(rows: &mut [RankRow], sort: RankSort) {
    match sort {
        RankSort::Best => rows.sort_by(|a, b| a.best().cmp(&b.best()).then(a.url.cmp(&b.url))),
        RankSort::Spread => rows.sort_by(|a, b| {
            b.spread()
                .cmp(&a.spread())
                .then(a.best().cmp(&b.best()))
                .then(a.url.cmp(&b.url))
        }),
    }
}

pub use crate::geo::parse_location;

/// A short name for a location: "US/NY/New York", "DE/–/Berlin", "anywhere".
pub fn location_label(location: &Location) -> String {
    if location.is_empty() {
        return "anywhere".to_string();
    }
    let dash = |p: &Option<String>| p.clone().unwrap_or_else(|| "–".to_string());
    let mut label = dash(&location.country);
    if location.subdivision.is_some() || location.city.is_some() {
        label.push('/');
        label.push_str(&dash(&location.subdivision));
    }
    if let Some(city) = &location.city {
        label.push('/');
        label.push_str(city);
    }
    label
}

/// What a summary needs of one answer column.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerFacts {
    pub label: String,
    /// The model and the place of the column, for the groups of "Sources by kind".
    pub model: String,
    pub place: String,
    /// `None` for a column without an answer (failed, cancelled, running).
    pub elapsed: Option<Duration>,
    pub chars: usize,
    pub domains: Vec<String>,
    pub fanouts: Vec<String>,
    #[serde(skip)]
    pub text: Option<String>,
    /// Why there is no answer, when there is none.
    pub error: Option<String>,
}

/// The comparison of answer columns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerSummary {
    pub columns: Vec<AnswerFacts>,
    pub shared: Vec<SharedDomain>,
    pub similarity: Vec<Vec<Option<f64>>>,
    /// The cited sites by kind, per model then per place (empty until classed).
    pub sources_by_kind: Vec<KindCounts>,
}

impl AnswerSummary {
    pub fn of(columns: Vec<AnswerFacts>) -> AnswerSummary {
        let domains: Vec<Vec<String>> = columns.iter().map(|c| c.domains.clone()).collect();
        let texts: Vec<Option<&str>> = columns.iter().map(|c| c.text.as_deref()).collect();
        let similarity = similarity_matrix(&texts);
        AnswerSummary {
            shared: shared_domains(&domains),
            similarity,
            sources_by_kind: Vec::new(),
            columns,
        }
    }

    /// Classes the columns' cited sites by kind, per model and per place (each group over
    /// every citation of its columns).
    pub fn with_source_kinds(mut self, classifier: &Classifier) -> AnswerSummary {
        let answered = self.columns.iter().filter(|c| c.elapsed.is_some());
        self.sources_by_kind = KindCounts::by_model_and_place(
            answered.map(|c| (c.model.as_str(), c.place.as_str(), c.domains.as_slice())),
            classifier,
        );
        self
    }

    /// Distinct domains of a column, in order of first citation.
    pub fn distinct(domains: impl IntoIterator<Item = String>) -> Vec<String> {
        let mut seen = HashSet::new();
        domains
            .into_iter()
            .filter(|d| !d.is_empty() && seen.insert(d.clone()))
            .collect()
    }

    /// The summary as plain text (the CLI) or Markdown (`markdown`: headings and tables).
    pub fn text(&self, markdown: bool) -> String {
        let mut out = String::new();
        // In Markdown a value from outside is escaped text (a label, a domain, an error).
        let shown = |value: &str| match markdown {
            true => crate::shareable::markdown::text(value),
            false => value.to_string(),
        };
        let h = |out: &mut String, title: &str| {
            if markdown {
                let _ = writeln!(out, "\n## {title}\n");
            } else {
                let _ = writeln!(out, "\n{title}");
            }
        };
        h(&mut out, "Columns");
        if markdown {
            out.push_str(
                "| # | vantage point | time | length | sources |\n|---|---|---|---|---|\n",
            );
        }
        for (i, c) in self.columns.iter().enumerate() {
            let (time, length, sources) = match (&c.elapsed, &c.error) {
                (Some(e), _) => (
                    crate::measure::duration(*e),
                    crate::plural::count(c.chars as u64, "char", "chars"),
                    crate::plural::count(c.domains.len() as u64, "source", "sources"),
                ),
                (None, Some(error)) => (
                    format!("failed: {}", shown(&error.to_string())),
                    String::new(),
                    String::new(),
                ),
                (None, None) => ("no answer".to_string(), String::new(), String::new()),
            };
            if markdown {
                let _ = writeln!(
                    out,
                    "| {} | {} | {time} | {length} | {sources} |",
                    i + 1,
                    shown(&c.label)
                );
            } else {
                let _ = writeln!(
                    out,
                    "  {:>2}  {:<36} {time:>8}  {length:>12}  {sources}",
                    i + 1,
                    c.label
                );
            }
        }
        h(&mut out, "Sources cited by two or more columns");
        if self.shared.is_empty() {
            out.push_str("  none\n");
        }
        for s in &self.shared {
            let cols: Vec<String> = s.columns.iter().map(|c| (c + 1).to_string()).collect();
            if markdown {
                let _ = writeln!(out, "- {} — columns {}", shown(&s.domain), cols.join(", "));
            } else {
                let _ = writeln!(out, "  {:<36} columns {}", s.domain, cols.join(", "));
            }
        }
        if !self.sources_by_kind.is_empty() {
            h(&mut out, "Sources by kind");
            for (group, kinds) in KindCounts::aligned(&self.sources_by_kind) {
                if markdown {
                    let _ = writeln!(out, "- {}: {kinds}", shown(group.trim_end()));
                } else {
                    let _ = writeln!(out, "  {group}  {kinds}");
                }
            }
        }
        h(&mut out, "Similarity of the answers");
        let _ = writeln!(out, "{}{SIMILARITY_NOTE}", if markdown { "" } else { "  " });
        if markdown {
            out.push('\n');
        }
        out.push_str(&matrix_text(&self.similarity, markdown));
        h(&mut out, "Fanout queries");
        for (i, c) in self.columns.iter().enumerate() {
            let list = if c.fanouts.is_empty() {
                "none".to_string()
            } else {
                shown(&c.fanouts.join(" · "))
            };
            let bullet = if markdown { "- " } else { "  " };
            let _ = writeln!(out, "{bullet}{}: {list}", i + 1);
        }
        out
    }
}

/// A similarity as a percentage, or "–" where a column has no answer.
pub fn percent(value: Option<f64>) -> String {
    value.map_or("–".to_string(), |v| format!("{:.0}", v * 100.0))
}

fn matrix_text(matrix: &[Vec<Option<f64>>], markdown: bool) -> String {
    let mut out = String::new();
    let n = matrix.len();
    if markdown {
        let head: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
        let _ = writeln!(out, "|   | {} |", head.join(" | "));
        let _ = writeln!(out, "|---|{}", "---|".repeat(n));
        for (i, row) in matrix.iter().enumerate() {
            let cells: Vec<String> = row.iter().map(|v| percent(*v)).collect();
            let _ = writeln!(out, "| {} | {} |", i + 1, cells.join(" | "));
        }
    } else {
        let _ = write!(out, "      ");
        for i in 1..=n {
            let _ = write!(out, "{i:>5}");
        }
        out.push('\n');
        for (i, row) in matrix.iter().enumerate() {
            let _ = write!(out, "  {:>2}  ", i + 1);
            for v in row {
                let _ = write!(out, "{:>5}", percent(*v));
            }
            out.push('\n');
        }
    }
    out
}

/// The rank table as text: a header of column numbers, then per URL its rank (with sitelinks
/// as `+N`) and movement in each column.
pub fn rank_table_text(labels: &[String], rows: &[RankRow], sort: RankSort) -> String {
    let mut out = String::new();
    out.push_str("Columns\n");
    for (i, label) in labels.iter().enumerate() {
        let _ = writeln!(out, "  {:>2}  {label}", i + 1);
    }
    let _ = writeln!(
        out,
        "\nRanks (movement against column 1; +N sitelinks), by {}",
        sort.label()
    );
    let _ = write!(out, "  ");
    for i in 1..=labels.len() {
        let _ = write!(out, "{:<12}", format!("#{i}"));
    }
    out.push_str("url\n");
    for row in rows {
        let _ = write!(out, "  ");
        for cell in &row.cells {
            let _ = write!(out, "{:<12}", cell_text(cell));
        }
        let _ = writeln!(out, "{}", row.url);
    }
    out
}

/// "3 ↑2 +4": the rank, the movement, the sitelinks; "–" when not ranked.
pub fn cell_text(cell: &RankCell) -> String {
    let mut text = cell.rank.map_or("–".to_string(), |r| r.to_string());
    let movement = cell.movement.text();
    if !movement.is_empty() && movement != "=" {
        text.push(' ');
        text.push_str(&movement);
    }
    if cell.sitelinks > 0 {
        let _ = write!(text, " +{}", cell.sitelinks);
    }
    text
}

impl Movement {
    /// Places gained against the first column, signed (`+2`, `-3`, `0`); None when the URL
    /// is ranked in only one of the two.
    pub fn places(self) -> Option<i64> {
        match self {
            Movement::Same => Some(0),
            Movement::Up(n) => Some(i64::from(n)),
            Movement::Down(n) => Some(-i64::from(n)),
            Movement::New | Movement::Gone | Movement::Absent => None,
        }
    }

    /// "new" or "gone" against the first column, else empty.
    pub fn presence(self) -> &'static str {
        match self {
            Movement::New => "new",
            Movement::Gone => "gone",
            _ => "",
        }
    }
}

/// `+2`, `-3`, `0`: a number a spreadsheet reads, its sign shown.
fn signed(n: i64) -> String {
    if n == 0 {
        "0".to_string()
    } else {
        format!("{n:+}")
    }
}

/// The rank table as CSV: url, then per column the rank, the places gained against the first
/// column as a signed number, "new" or "gone", and the sitelinks; numbers a spreadsheet sorts.
///
/// Brand rows follow the URL rows: the `brand` column names the brand (empty on URL rows), the
/// rank is its best of any of its domains, and the per-URL columns (change, new or gone,
/// sitelinks) stay empty, as they mean nothing for a brand.
pub fn rank_table_csv(labels: &[String], rows: &[RankRow], brands: &[BrandRanks]) -> String {
    let mut header = vec!["url".to_string(), "brand".to_string()];
    for label in labels {
        header.push(format!("{label} rank"));
        header.push(format!("{label} change"));
        header.push(format!("{label} new or gone"));
        header.push(format!("{label} sitelinks"));
    }
    let url_records = rows.iter().map(|row| {
        let mut record = vec![row.url.clone(), String::new()];
        for cell in &row.cells {
            record.push(cell.rank.map_or(String::new(), |r| r.to_string()));
            record.push(cell.movement.places().map_or(String::new(), signed));
            record.push(cell.movement.presence().to_string());
            record.push(cell.sitelinks.to_string());
        }
        record
    });
    let brand_records = brands.iter().map(|row| {
        let mut record = vec![String::new(), row.brand.clone()];
        for rank in &row.ranks {
            record.push(rank.map_or(String::new(), |r| r.to_string()));
            record.extend([String::new(), String::new(), String::new()]);
        }
        record
    });
    crate::shareable::csv::text(
        std::iter::once(header)
            .chain(url_records)
            .chain(brand_records),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(text: &str) -> HashSet<String> {
        word_set(text)
    }

    #[test]
    fn the_rank_csv_holds_signed_numbers_and_new_or_gone_apart() {
        let cell = |rank: Option<u32>, movement| RankCell {
            rank,
            sitelinks: 0,
            movement,
        };
        let rows = vec![
            RankRow {
                url: "https://a.example/".into(),
                cells: vec![
                    cell(Some(1), Movement::Same),
                    cell(Some(3), Movement::Down(2)),
                ],
            },
            RankRow {
                url: "https://b.example/".into(),
                cells: vec![
                    cell(Some(4), Movement::Same),
                    cell(Some(2), Movement::Up(2)),
                ],
            },
            RankRow {
                url: "https://c.example/".into(),
                cells: vec![cell(None, Movement::Absent), cell(Some(5), Movement::New)],
            },
            RankRow {
                url: "https://d.example/".into(),
                cells: vec![cell(Some(6), Movement::Same), cell(None, Movement::Gone)],
            },
        ];
        let brands = vec![
            BrandRanks {
                brand: "Merrell".into(),
                ranks: vec![Some(2), None],
            },
            BrandRanks {
                brand: "Lowa".into(),
                ranks: vec![None, Some(1)],
            },
        ];
        let csv = rank_table_csv(&["US".into(), "DE".into()], &rows, &brands);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines,
            vec![
                "url,brand,US rank,US change,US new or gone,US sitelinks,DE rank,DE change,DE new or gone,DE sitelinks",
                "https://a.example/,,1,0,,0,3,-2,,0",
                "https://b.example/,,4,0,,0,2,+2,,0",
                "https://c.example/,,,,,0,5,,new,0",
                "https://d.example/,,6,0,,0,,,gone,0",
                ",Merrell,2,,,,,,,",
                ",Lowa,,,,,1,,,",
            ]
        );
    }

    #[test]
    fn jaccard_counts_shared_words_over_all_words() {
        assert_eq!(jaccard(&set("a b c"), &set("b c d")), 0.5);
        assert_eq!(jaccard(&set("Boots, boots!"), &set("boots")), 1.0);
        assert_eq!(jaccard(&set(""), &set("")), 1.0);
        assert_eq!(jaccard(&set("a"), &set("")), 0.0);
    }

    #[test]
    fn the_matrix_is_symmetric_and_leaves_missing_answers_out() {
        let m = similarity_matrix(&[Some("a b"), Some("b c"), None]);
        assert_eq!(m[0][0], Some(1.0));
        assert_eq!(m[0][1], m[1][0]);
        assert_eq!(m[0][1], Some(1.0 / 3.0));
        assert_eq!(m[2][0], None);
    }

    #[test]
    fn shared_domains_need_two_columns_and_list_them() {
        let shared = shared_domains(&[
            vec!["rei.com".into(), "a.com".into(), "rei.com".into()],
            vec!["REI.com".into(), "b.com".into()],
            vec!["b.com".into(), "rei.com".into()],
        ]);
        assert_eq!(
            shared,
            vec![
                SharedDomain {
                    domain: "rei.com".into(),
                    columns: vec![0, 1, 2]
                },
                SharedDomain {
                    domain: "b.com".into(),
                    columns: vec![1, 2]
                },
            ]
        );
    }

    #[test]
    fn urls_are_normalised_for_rows() {
        assert_eq!(
            normalise_url("https://WWW.Example.com/a/?utm_source=x#top"),
            "https://www.example.com/a"
        );
        assert_eq!(normalise_url("https://example.com/"), "https://example.com");
        assert_eq!(
            normalise_url("https://example.com/A?q=1"),
            "https://example.com/A?q=1"
        );
    }

    fn r(url: &str, rank: u32, sitelinks: usize) -> Ranked {
        Ranked {
            url: url.into(),
            rank,
            sitelinks,
        }
    }

    #[test]
    fn ranks_move_against_the_first_column() {
        let rows = rank_table(
            &[
                vec![
                    r("https://a.com/", 1, 0),
                    r("https://b.com", 2, 3),
                    r("https://c.com", 5, 0),
                ],
                vec![
                    r("https://b.com", 1, 2),
                    r("https://A.com", 4, 0),
                    r("https://d.com", 2, 0),
                ],
            ],
            RankSort::Best,
        );
        let find = |u: &str| rows.iter().find(|row| row.url == u).unwrap();
        assert_eq!(find("https://a.com").cells[1].movement, Movement::Down(3));
        assert_eq!(find("https://b.com").cells[1].movement, Movement::Up(1));
        assert_eq!(find("https://b.com").cells[0].sitelinks, 3);
        assert_eq!(find("https://c.com").cells[1].movement, Movement::Gone);
        assert_eq!(find("https://d.com").cells[1].movement, Movement::New);
        // Best rank first, ties by URL.
        let order: Vec<&str> = rows.iter().map(|r| r.url.as_str()).collect();
        assert_eq!(
            order,
            [
                "https://a.com",
                "https://b.com",
                "https://d.com",
                "https://c.com"
            ]
        );
        let mut by_spread = rows.clone();
        sort_rows(&mut by_spread, RankSort::Spread);
        assert_eq!(by_spread[0].url, "https://a.com");
        assert_eq!(cell_text(&find("https://a.com").cells[1]), "4 ↓3");
        assert_eq!(cell_text(&find("https://b.com").cells[1]), "1 ↑1 +2");
    }

    #[test]
    fn locations_parse_with_empty_parts_and_plus_for_spaces() {
        let l = parse_location("us:ny:New+York").unwrap();
        assert_eq!(l.country.as_deref(), Some("US"));
        assert_eq!(l.subdivision.as_deref(), Some("NY"));
        assert_eq!(l.city.as_deref(), Some("New York"));
        let l = parse_location("de::Berlin").unwrap();
        assert_eq!(l.subdivision, None);
        assert_eq!(location_label(&l), "DE/–/Berlin");
        assert_eq!(location_label(&parse_location("fr").unwrap()), "FR");
        assert!(parse_location(":ny:").is_err());
        assert!(parse_location("a:b:c:d").is_err());
        assert!(parse_location("").unwrap().is_empty());
    }

    #[test]
    fn the_summary_text_names_shared_domains_and_the_method() {
        let facts = |label: &str, text: &str, domains: &[&str]| AnswerFacts {
            label: label.into(),
            model: label.to_lowercase(),
            place: "US".into(),
            elapsed: Some(Duration::from_millis(1500)),
            chars: text.len(),
            domains: domains.iter().map(|d| d.to_string()).collect(),
            fanouts: Vec::new(),
            text: Some(text.into()),
            error: None,
        };
        let summary = AnswerSummary::of(vec![
            facts("ChatGPT", "a b", &["rei.com"]),
            facts("Gemini", "a b", &["rei.com", "x.com"]),
        ]);
        let text = summary.text(false);
        assert!(text.contains("rei.com"), "{text}");
        assert!(text.contains("columns 1, 2"), "{text}");
        assert!(text.contains("Jaccard"), "{text}");
        assert!(summary.text(true).contains("| 1 | 100 | 100 |"));
        let classed = summary.with_source_kinds(&Classifier::default());
        let text = classed.text(false);
        assert!(text.contains("Sources by kind"), "{text}");
        assert!(text.contains("model chatgpt  retailer 100%"), "{text}");
        assert!(
            text.contains("place US       retailer 67% · user-generated 33%"),
            "{text}"
        );
    }
}
