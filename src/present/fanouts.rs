//! Fan-out coverage of an answer: the searches its model made before answering (its
//! fanouts), made again from the answer's place, and who ranks there — each tracked brand's
//! best rank, the answer's cited sites that rank, and per brand the share of fanouts where
//! it is in the top results. A brand that ranks for the fanouts gets cited; one that does
//! not, does not. Pure: the searches are made by the caller.

use serde::Serialize;

use crate::analysis::mentions::{Brand, host_of, on_domain};
use crate::api::{Location, SearchFormat, SearchRequest};

use super::answer::PreparedAnswer;
use super::compare::ranked_results;
use super::compare::summary::location_label;
use super::search_page::PreparedSearch;

/// How deep a brand may rank and still count as covering a fanout.
pub const TOP: u32 = 10;

/// The search of one fanout from the answer's place (a search takes no device).
pub fn fanout_request(query: &str, location: &Location, language: Option<&str>) -> SearchRequest {
    SearchRequest {
        terms: query.to_string(),
        location: location.clone(),
        language: language.map(str::to_string),
        format: SearchFormat::Json,
        ..SearchRequest::default()
    }
}

/// One organic result of a fanout's search.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FanoutResult {
    pub rank: u32,
    pub domain: String,
    pub url: String,
    pub title: String,
}

/// One fanout and what its search found.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FanoutRow {
    pub query: String,
    /// The top results, best first.
    pub results: Vec<FanoutResult>,
    /// Each tracked brand's best rank (in the brands' order); none where it is not in the
    /// top results.
    pub brands: Vec<Option<u32>>,
    /// The answer's cited sites that rank here, with their best rank.
    pub cited: Vec<CitedRank>,
    /// Why there are no results: the search failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CitedRank {
    pub domain: String,
    pub rank: u32,
}

/// A brand over the fanouts searched.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrandCoverage {
    pub brand: String,
    /// Fanouts where it ranks in the top results.
    pub covered: usize,
    /// Fanouts whose search answered.
    pub searched: usize,
    /// `covered / searched`, 0 to 100.
    pub share: f64,
    pub best_rank: Option<u32>,
    /// Whether the answer named it or cited one of its pages.
    pub in_answer: bool,
    /// Whether the workspace lists its domains: without them it cannot be found ranking.
    pub has_domains: bool,
}

/// The coverage of one answer's fanouts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Coverage {
    pub prompt: String,
    pub model: String,
    pub place: String,
    pub top: u32,
    pub rows: Vec<FanoutRow>,
    pub brands: Vec<BrandCoverage>,
    /// The answer's cited sites, each with the number of fanouts it ranks for.
    pub cited: Vec<CitedCoverage>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CitedCoverage {
    pub domain: String,
    pub fanouts: usize,
}

/// The coverage of `answer`'s fanouts, given each fanout's search (in the fanouts' order) and
/// the tracked brands. `in_answer` says, per brand, whether the answer names or cites it.
pub fn coverage(
    answer: &PreparedAnswer,
    searches: &[Result<&PreparedSearch, String>],
    brands: &[Brand],
    in_answer: &[bool],
) -> Coverage {
    let mut cited_domains: Vec<String> = answer.sources.iter().map(|s| s.domain.clone()).collect();
    cited_domains.sort();
    cited_domains.dedup();
    let rows: Vec<FanoutRow> = answer
        .fanouts
        .iter()
        .zip(searches)
        .map(|(query, search)| match search {
            Ok(page) => {
                let results: Vec<FanoutResult> = ranked_results(page)
                    .into_iter()
                    .filter(|r| r.rank <= TOP)
                    .map(|r| FanoutResult {
                        rank: r.rank,
                        domain: host_of(&r.url),
                        title: page
                            .results
                            .iter()
                            .find(|p| p.url == r.url)
                            .map(|p| p.title.clone())
                            .unwrap_or_default(),
                        url: r.url,
                    })
                    .collect();
                let best = |domains: &[String]| {
                    results
                        .iter()
                        .filter(|r| domains.iter().any(|d| on_domain(&r.url, d)))
                        .map(|r| r.rank)
                        .min()
                };
                FanoutRow {
                    query: query.clone(),
                    brands: brands.iter().map(|b| best(&b.domains)).collect(),
                    cited: cited_domains
                        .iter()
                        .filter_map(|d| {
                            best(std::slice::from_ref(d)).map(|rank| CitedRank {
                                domain: d.clone(),
                                rank,
                            })
                        })
                        .collect(),
                    results,
                    error: None,
                }
            }
            Err(error) => FanoutRow {
                query: query.clone(),
                results: Vec::new(),
                brands: vec![None; brands.len()],
                cited: Vec::new(),
                error: Some(error.clone()),
            },
        })
        .collect();
    let searched = rows.iter().filter(|r| r.error.is_none()).count();
    let brand_rows = brands
        .iter()
        .enumerate()
        .map(|(b, brand)| {
            let ranks: Vec<u32> = rows.iter().filter_map(|r| r.brands[b]).collect();
            BrandCoverage {
                brand: brand.name.clone(),
                covered: ranks.len(),
                searched,
                share: if searched == 0 {
                    0.0
                } else {
                    ranks.len() as f64 * 100.0 / searched as f64
                },
                best_rank: ranks.iter().min().copied(),
                in_answer: in_answer.get(b).copied().unwrap_or(false),
                has_domains: !brand.domains.is_empty(),
            }
        })
        .collect();
    let cited = cited_domains
        .iter()
        .map(|d| CitedCoverage {
            domain: d.clone(),
            fanouts: rows
                .iter()
                .filter(|r| r.cited.iter().any(|c| &c.domain == d))
                .count(),
        })
        .collect();
    Coverage {
        prompt: answer.request.prompt.clone(),
        model: answer.header.model.display_name().to_string(),
        place: location_label(&answer.header.location),
        top: TOP,
        rows,
        brands: brand_rows,
        cited,
    }
}

impl BrandCoverage {
    /// "2 of 3 fanouts (67 %), best rank 1", or why it cannot be said.
    pub fn coverage_text(&self) -> String {
        if !self.has_domains {
            return "no domains listed in the workspace file, so its rank is not known".to_string();
        }
        format!(
            "{} of {} ({:.0} %), best rank {}",
            self.covered,
            crate::plural::count(self.searched as u64, "fanout", "fanouts"),
            self.share,
            self.best_rank.map_or("–".to_string(), |r| r.to_string())
        )
    }
}

impl Coverage {
    /// The coverage as text: per brand its share, then each fanout with its top results.
    pub fn text(&self, shown_results: usize) -> String {
        let mut out = format!(
            "Fan-out coverage of {} from {}: {} searched from the same place (top {})\n",
            self.model,
            self.place,
            crate::plural::count(self.rows.len() as u64, "fanout", "fanouts"),
            self.top
        );
        if !self.brands.is_empty() {
            out.push_str("\nBrands: fanouts where they rank in the top results\n");
            let width = self
                .brands
                .iter()
                .map(|b| b.brand.chars().count())
                .max()
                .unwrap_or(5);
            for b in &self.brands {
                let named = if b.in_answer {
                    " · in the answer"
                } else {
                    " · not in the answer"
                };
                out.push_str(&format!(
                    "  {:<width$}  {}{named}\n",
                    b.brand,
                    b.coverage_text()
                ));
            }
        }
        if !self.cited.is_empty() {
            out.push_str("\nThe answer's cited sites: fanouts they rank for\n");
            let width = self
                .cited
                .iter()
                .map(|c| c.domain.chars().count())
                .max()
                .unwrap_or(0);
            for c in &self.cited {
                out.push_str(&format!(
                    "  {:<width$}  {} of {}\n",
                    c.domain,
                    c.fanouts,
                    self.rows.len()
                ));
            }
        }
        for (i, row) in self.rows.iter().enumerate() {
            out.push_str(&format!("\n{}. \"{}\"\n", i + 1, row.query));
            if let Some(error) = &row.error {
                out.push_str(&format!("  the search failed: {error}\n"));
                continue;
            }
            for r in row.results.iter().take(shown_results) {
                let cited = if row.cited.iter().any(|c| c.rank == r.rank) {
                    " · cited by the answer"
                } else {
                    ""
                };
                out.push_str(&format!(
                    "  {:>2}  {}  {}{cited}\n",
                    r.rank, r.domain, r.title
                ));
            }
        }
        out
    }

    /// One CSV row per fanout and brand: the brand's best rank there, or empty.
    pub fn csv(&self) -> String {
        let header = ["fanout", "brand", "rank", "cited sites ranking", "error"].map(String::from);
        let mut records = Vec::new();
        for row in &self.rows {
            let cited: Vec<String> = row
                .cited
                .iter()
                .map(|c| format!("{}@{}", c.domain, c.rank))
                .collect();
            for (b, brand) in self.brands.iter().enumerate() {
                records.push(vec![
                    row.query.clone(),
                    brand.brand.clone(),
                    row.brands
                        .get(b)
                        .copied()
                        .flatten()
                        .map_or(String::new(), |r| r.to_string()),
                    cited.join(" "),
                    row.error.clone().unwrap_or_default(),
                ]);
            }
            if self.brands.is_empty() {
                records.push(vec![
                    row.query.clone(),
                    String::new(),
                    String::new(),
                    cited.join(" "),
                    row.error.clone().unwrap_or_default(),
                ]);
            }
        }
        crate::shareable::csv::text(std::iter::once(header.to_vec()).chain(records))
    }
}
