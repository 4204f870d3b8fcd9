//! The Compare tab's readings of the answers: the mention matrix, the sources of a column and
//! the word diff of two columns. Each is computed when its inputs change (a column lands, the
//! brands change, another pair of columns is chosen), never per frame.

use crate::analysis::diff::{self, WordDiff};
use crate::analysis::mentions::{Brand, BrandSummary, Mention};
use crate::analysis::samples::{self, SampledBrand};
use crate::analysis::stance::Stance;
use crate::app::App;
use crate::present::compare::gaps::{Gaps, cited_domains, gaps};
use crate::present::compare::mentions::{self as brand_mentions, BrandRanks, MatrixSort};
use crate::present::compare::{CompareMode, ranked_results};

use super::{ComparePane, CompareState};

/// The word diff on screen: which columns, and of which answers.
#[derive(Debug)]
pub struct DiffCache {
    pub base: usize,
    pub other: usize,
    /// The `generation` of the columns it was computed from.
    pub generation: u64,
    pub diff: WordDiff,
}

/// The brands' readings of the columns, as last computed.
#[derive(Debug, Default)]
pub struct BrandViews {
    /// The brands they were computed with.
    pub brands: Vec<Brand>,
    /// The `generation` of the columns they were computed from.
    pub generation: Option<u64>,
    /// Answers: the mention matrix, in the brands' order.
    pub matrix: Vec<BrandSummary>,
    pub sort: MatrixSort,
    /// Search: the best rank of any of a brand's domains per column.
    pub ranks: Vec<BrandRanks>,
    /// Answers: where the own brand is missing, when the workspace marks one.
    pub gaps: Option<Gaps>,
    /// Answers asked several times: each brand's count and interval per column.
    pub sampled: Option<Vec<SampledBrand>>,
    /// Per column and brand (in the brands' order), the answers that caution against it,
    /// numbered as the column steps through them (1 its first).
    pub cautioned_in: Vec<Vec<Vec<usize>>>,
}

impl BrandViews {
    /// The matrix's rows in the chosen order.
    pub fn sorted(&self) -> Vec<&BrandSummary> {
        brand_mentions::sorted_order(&self.matrix, self.sort)
            .into_iter()
            .map(|i| &self.matrix[i])
            .collect()
    }
}

impl CompareState {
    fn compute_brand_views(&mut self, brands: &[Brand]) {
        let fresh = self.brand_views.generation == Some(self.generation)
            && self.brand_views.brands.as_slice() == brands;
        if fresh {
            return;
        }
        let sampled = self.sampled();
        let views = &mut self.brand_views;
        views.brands = brands.to_vec();
        views.generation = Some(self.generation);
        match self.mode {
            CompareMode::Answers => {
                let answers: Vec<_> = self.columns.iter().map(|c| c.answer()).collect();
                views.matrix = brand_mentions::matrix(&answers, brands);
                views.ranks.clear();
                // Every answer of each column, numbered as the column steps through them (1
                // its first, the matrix's; then its samples').
                let numbered: Vec<Vec<(usize, Vec<Mention>)>> = self
                    .columns
                    .iter()
                    .enumerate()
                    .map(|(i, column)| {
                        let first = column.answer().map(|_| {
                            let found = views
                                .matrix
                                .iter()
                                .filter_map(|row| row.columns.get(i).cloned().flatten())
                                .collect::<Vec<Mention>>();
                            (1, found)
                        });
                        first
                            .into_iter()
                            .chain(column.samples.iter().enumerate().filter_map(|(k, s)| {
                                let answer = s.answer.as_deref()?;
                                Some((k + 2, brand_mentions::answer_mentions(answer, brands)))
                            }))
                            .collect()
                    })
                    .collect();
                views.cautioned_in = numbered
                    .iter()
                    .map(|answers| {
                        (0..brands.len())
                            .map(|b| {
                                answers
                                    .iter()
                                    .filter(|(_, found)| {
                                        found.get(b).is_some_and(|m| {
                                            m.position.is_some() && m.stance == Stance::Cautioned
                                        })
                                    })
                                    .map(|(n, _)| *n)
                                    .collect()
                            })
                            .collect()
                    })
                    .collect();
                let sampled_answers: Vec<Vec<Vec<Mention>>> = numbered
                    .into_iter()
                    .map(|answers| answers.into_iter().map(|(_, found)| found).collect())
                    .collect();
                let sampled = sampled && !brands.is_empty();
                views.sampled = sampled.then(|| samples::summarize(&sampled_answers));
                views.gaps =
                    self.own.as_deref().map(|own| {
                        let labels: Vec<String> = self
                            .columns
                            .iter()
                            .map(|c| c.vantage.label(CompareMode::Answers))
                            .collect();
                        let domains: Vec<Vec<String>> =
                            self.columns
                                .iter()
                                .map(|c| {
                                    cited_domains(c.answer().into_iter().chain(
                                        c.samples.iter().filter_map(|s| s.answer.as_deref()),
                                    ))
                                })
                                .collect();
                        gaps(own, &labels, &sampled_answers, &domains)
                    });
            }
            CompareMode::Search => {
                let ranked: Vec<_> = self
                    .columns
                    .iter()
                    .map(|c| c.results().map(ranked_results).unwrap_or_default())
                    .collect();
                views.ranks = brand_mentions::brand_ranks(&ranked, brands);
                views.matrix.clear();
                views.sampled = None;
            }
        }
    }

    /// The two columns the diff compares: the base, and the focused column.
    pub fn diff_pair(&self) -> (usize, usize) {
        (self.diff_base, self.selected)
    }

    fn compute_diff(&mut self) {
        if self.pane != ComparePane::Diff {
            return;
        }
        let (base, other) = self.diff_pair();
        let fresh = self
            .diff
            .as_ref()
            .is_some_and(|d| d.base == base && d.other == other && d.generation == self.generation);
        if fresh {
            return;
        }
        let text = |i: usize| {
            self.columns
                .get(i)
                .and_then(|c| c.answer())
                .map(|a| a.plain_text.as_str())
        };
        self.diff = match (text(base), text(other)) {
            (Some(old), Some(new)) if base != other => Some(DiffCache {
                base,
                other,
                generation: self.generation,
                diff: diff::words(old, new),
            }),
            _ => None,
        };
    }

    /// Rows the scrollable views have, for clamping the scroll.
    pub(crate) fn view_len(&self) -> usize {
        match self.pane {
            // With samples each brand has its row, its verdict and its focused-column line.
            ComparePane::Matrix => self.brand_views.matrix.len() * 3 + self.columns.len() + 8,
            ComparePane::Sources => self
                .columns
                .get(self.selected)
                .and_then(|c| c.answer())
                .map_or(0, |a| a.sources.len() * 2 + 2),
            // Wrapped lines are not known here: a line per 20 characters bounds them.
            ComparePane::Diff => self.diff.as_ref().map_or(0, |d| {
                d.diff
                    .pieces
                    .iter()
                    .map(|p| p.text.len() / 20 + p.text.matches('\n').count() + 1)
                    .sum()
            }),
            ComparePane::Columns | ComparePane::Summary => 0,
        }
    }
}

/// Brings the matrix, the brand rows and the diff up to date with the columns and
/// `app.brands`. Cheap when nothing changed: call it after anything that may have.
pub(crate) fn refresh_views(app: &mut App) {
    let workspace = app.brands_pane.workspace.as_ref();
    let classifier = match workspace {
        Some(workspace) => workspace.classifier(),
        None => crate::analysis::sources::Classifier::new(&app.brands, None, Vec::new()),
    };
    let own = workspace.and_then(|w| w.own()).map(str::to_string);
    // The summary is classed again only when the workspace's kinds change.
    if classifier != app.compare.classifier {
        app.compare.classifier = classifier;
        app.compare.refresh_summary();
    }
    if own != app.compare.own {
        app.compare.own = own;
        // The gaps are of the brand views: computed again with them.
        app.compare.brand_views.generation = None;
    }
    app.compare.compute_brand_views(&app.brands);
    app.compare.compute_diff();
}
