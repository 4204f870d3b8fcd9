//! The brands of a comparison: the mention matrix of the answer columns (brand × column, with
//! visibility, average position and share of voice), its sorting, and the brand rows of a
//! search comparison (the best rank of any of a brand's domains per vantage point).

use serde::Serialize;

use crate::analysis::mentions::{self, Brand, BrandSummary, Mention};
use crate::analysis::stance::Stance;
use crate::present::answer::PreparedAnswer;

use super::summary::Ranked;

/// How one answer mentions each tracked brand, read in its shape, given the pages it cites.
pub fn answer_mentions(answer: &PreparedAnswer, brands: &[Brand]) -> Vec<Mention> {
    answer.mentions(brands)
}

/// The matrix of the columns (none for a column without an answer), in the brands' order.
pub fn matrix(answers: &[Option<&PreparedAnswer>], brands: &[Brand]) -> Vec<BrandSummary> {
    if brands.is_empty() {
        return Vec::new();
    }
    let columns: Vec<Option<Vec<Mention>>> = answers
        .iter()
        .map(|answer| answer.map(|a| answer_mentions(a, brands)))
        .collect();
    mentions::summarize(&columns)
}

/// The orders the matrix's rows can take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatrixSort {
    /// As the workspace lists the brands.
    #[default]
    Listed,
    Brand,
    Visibility,
    AveragePosition,
    ShareOfVoice,
}

impl MatrixSort {
    pub const ALL: [MatrixSort; 5] = [
        MatrixSort::Listed,
        MatrixSort::Brand,
        MatrixSort::Visibility,
        MatrixSort::AveragePosition,
        MatrixSort::ShareOfVoice,
    ];

    pub fn label(self) -> &'static str {
        match self {
            MatrixSort::Listed => "the workspace's order",
            MatrixSort::Brand => "brand",
            MatrixSort::Visibility => "visibility",
            MatrixSort::AveragePosition => "average position",
            MatrixSort::ShareOfVoice => "share of voice",
        }
    }

    pub fn next(self) -> MatrixSort {
        let at = MatrixSort::ALL.iter().position(|s| *s == self).unwrap_or(0);
        MatrixSort::ALL[(at + 1) % MatrixSort::ALL.len()]
    }
}

/// The row order for `sort`: indexes into `rows`. Ties keep the listed order; brands never
/// named sort after those that are, whatever the measure.
pub fn sorted_order(rows: &[BrandSummary], sort: MatrixSort) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let desc = |a: f64, b: f64| b.total_cmp(&a);
    match sort {
        MatrixSort::Listed => {}
        MatrixSort::Brand => order.sort_by_key(|&i| rows[i].brand.to_lowercase()),
        MatrixSort::Visibility => {
            order.sort_by(|&a, &b| desc(rows[a].visibility, rows[b].visibility))
        }
        MatrixSort::AveragePosition => order.sort_by(|&a, &b| {
            let key = |i: usize| rows[i].average_position.unwrap_or(f64::INFINITY);
            key(a).total_cmp(&key(b))
        }),
        MatrixSort::ShareOfVoice => {
            order.sort_by(|&a, &b| desc(rows[a].share_of_voice, rows[b].share_of_voice))
        }
    }
    order
}

/// A cell as the matrix shows it: the position in the answer's order (then `+` when the answer
/// recommends the brand, `!` when it cautions against it) or `–`, `*` when a cited page is
/// on the brand's domains; `?` for a column with no answer.
pub fn cell_text(cell: &Option<Mention>) -> String {
    match cell {
        None => "?".to_string(),
        Some(m) => {
            let cited = if m.cited { "*" } else { "" };
            match m.position {
                Some(p) => format!("{p}{}{cited}", m.stance.mark()),
                None => format!("–{cited}"),
            }
        }
    }
}

/// What the marks of [`cell_text`] mean, for every view and export of the matrix.
pub const CELL_KEY: &str = "a cell is the position in the answer's order (+ recommended, ! cautioned; – not named, ? no answer); * a cited page is on the brand's domain";

/// Average position as shown: one decimal, or `–` when never named.
pub fn average_text(row: &BrandSummary) -> String {
    row.average_position
        .map_or("–".to_string(), |p| format!("{p:.1}"))
}

/// The matrix as CSV: per brand, per column its position, count and whether cited; then its
/// visibility and share of voice.
pub fn matrix_csv(labels: &[String], rows: &[BrandSummary]) -> String {
    let mut header = vec!["brand".to_string()];
    for label in labels {
        header.push(format!("{label} position"));
        header.push(format!("{label} count"));
        header.push(format!("{label} cited"));
        header.push(format!("{label} stance"));
    }
    header.extend([
        "visibility %".to_string(),
        "average position".to_string(),
        "share of voice %".to_string(),
    ]);
    let records = rows.iter().map(|row| {
        let mut record = vec![row.brand.clone()];
        for cell in &row.columns {
            match cell {
                Some(m) => {
                    record.push(m.position.map_or(String::new(), |p| p.to_string()));
                    record.push(m.count.to_string());
                    record.push(m.cited.to_string());
                    record.push(match m.position {
                        Some(_) => m.stance.label().to_string(),
                        None if m.stance == Stance::NotFound => m.stance.label().to_string(),
                        None => String::new(),
                    });
                }
                None => record.extend([String::new(), String::new(), String::new(), String::new()]),
            }
        }
        record.push(format!("{:.1}", row.visibility));
        record.push(
            row.average_position
                .map_or(String::new(), |p| format!("{p:.2}")),
        );
        record.push(format!("{:.1}", row.share_of_voice));
        record
    });
    crate::shareable::csv::text(std::iter::once(header).chain(records))
}

/// The matrix as a Markdown table.
pub fn matrix_markdown(labels: &[String], rows: &[BrandSummary]) -> String {
    use crate::shareable::markdown;
    let mut out = String::from("| Brand | Visibility | Avg position | Share of voice |");
    for n in 1..=labels.len() {
        out.push_str(&format!(" {n} |"));
    }
    out.push_str("\n|---|---:|---:|---:|");
    out.push_str(&"---:|".repeat(labels.len()));
    out.push('\n');
    for row in rows {
        out.push_str(&format!(
            "| {} | {:.0}% | {} | {:.0}% |",
            markdown::text(&row.brand),
            row.visibility,
            average_text(row),
            row.share_of_voice
        ));
        for cell in &row.columns {
            out.push_str(&format!(" {} |", markdown::text(&cell_text(cell))));
        }
        out.push('\n');
    }
    out.push_str("\nColumns: ");
    let named: Vec<String> = labels
        .iter()
        .enumerate()
        .map(|(i, l)| format!("{}. {}", i + 1, markdown::text(l)))
        .collect();
    out.push_str(&named.join("; "));
    out.push_str(&format!(
        ". {}{}.\n",
        CELL_KEY[..1].to_uppercase(),
        &CELL_KEY[1..]
    ));
    out
}

/// A brand in a search comparison: per vantage point, the best rank of any result on one of
/// its domains.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BrandRanks {
    pub brand: String,
    pub ranks: Vec<Option<u32>>,
}

/// The brand rows of a search comparison, for the brands that have domains.
pub fn brand_ranks(columns: &[Vec<Ranked>], brands: &[Brand]) -> Vec<BrandRanks> {
    brands
        .iter()
        .filter(|b| !b.domains.is_empty())
        .map(|brand| BrandRanks {
            brand: brand.name.clone(),
            ranks: columns
                .iter()
                .map(|results| {
                    results
                        .iter()
                        .filter(|r| brand.domains.iter().any(|d| mentions::on_domain(&r.url, d)))
                        .map(|r| r.rank)
                        .min()
                })
                .collect(),
        })
        .collect()
}

/// The brand rows as text, as the app shows them under a search comparison: the best rank
/// of any of each brand's domains per column, and the brands left out for want of a domain.
pub fn brand_ranks_text(rows: &[BrandRanks], brands: &[Brand]) -> String {
    let mut out = String::from("\nBrands (best rank of any of their domains per column)\n");
    let width = rows
        .iter()
        .map(|r| r.brand.chars().count())
        .max()
        .unwrap_or(0)
        .max(5);
    for row in rows {
        out.push_str(&format!("  {:<width$}  ", row.brand));
        for rank in &row.ranks {
            out.push_str(&format!(
                "{:<12}",
                rank.map_or("–".to_string(), |r| r.to_string())
            ));
        }
        out = out.trim_end().to_string();
        out.push('\n');
    }
    if rows.is_empty() {
        out.push_str("  none of the brands has a domain\n");
    }
    let without: Vec<&str> = brands
        .iter()
        .filter(|b| b.domains.is_empty())
        .map(|b| b.name.as_str())
        .collect();
    if !without.is_empty() {
        out.push_str(&format!(
            "  Not ranked, for want of a domain: {} (give one as name=domain)\n",
            without.join(", ")
        ));
    }
    out
}

/// The brand rows as CSV: one record per brand, the best rank per column.
pub fn brand_ranks_csv(labels: &[String], rows: &[BrandRanks]) -> String {
    let header = std::iter::once("brand".to_string()).chain(labels.iter().cloned());
    let records = rows.iter().map(|row| {
        std::iter::once(row.brand.clone())
            .chain(
                row.ranks
                    .iter()
                    .map(|r| r.map_or(String::new(), |r| r.to_string())),
            )
            .collect::<Vec<_>>()
    });
    crate::shareable::csv::text(std::iter::once(header.collect()).chain(records))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mention(position: Option<usize>, count: usize, cited: bool) -> Option<Mention> {
        Some(Mention {
            brand: String::new(),
            position,
            rank: None,
            count,
            sentence: None,
            cited,
            stance: Default::default(),
        })
    }

    fn row(brand: &str, visibility: f64, average: Option<f64>, share: f64) -> BrandSummary {
        BrandSummary {
            brand: brand.into(),
            columns: vec![mention(Some(1), 1, false)],
            visibility,
            average_position: average,
            share_of_voice: share,
        }
    }

    #[test]
    fn sorting_orders_by_each_measure_and_puts_the_unnamed_last() {
        let rows = vec![
            row("merrell", 50.0, Some(2.0), 30.0),
            row("Lowa", 100.0, Some(1.5), 50.0),
            row("Salomon", 0.0, None, 0.0),
        ];
        assert_eq!(sorted_order(&rows, MatrixSort::Listed), vec![0, 1, 2]);
        assert_eq!(sorted_order(&rows, MatrixSort::Brand), vec![1, 0, 2]);
        assert_eq!(sorted_order(&rows, MatrixSort::Visibility), vec![1, 0, 2]);
        assert_eq!(
            sorted_order(&rows, MatrixSort::AveragePosition),
            vec![1, 0, 2]
        );
        assert_eq!(sorted_order(&rows, MatrixSort::ShareOfVoice), vec![1, 0, 2]);
        assert_eq!(MatrixSort::ShareOfVoice.next(), MatrixSort::Listed);
    }

    #[test]
    fn cells_say_position_citation_and_missing_answers() {
        assert_eq!(cell_text(&mention(Some(2), 3, true)), "2*");
        assert_eq!(cell_text(&mention(None, 0, false)), "–");
        assert_eq!(cell_text(&mention(None, 0, true)), "–*");
        assert_eq!(cell_text(&None), "?");
    }

    #[test]
    fn brand_rows_take_the_best_rank_of_any_domain() {
        let ranked = |urls: &[&str]| -> Vec<Ranked> {
            urls.iter()
                .enumerate()
                .map(|(i, u)| Ranked {
                    url: u.to_string(),
                    rank: i as u32 + 1,
                    sitelinks: 0,
                })
                .collect()
        };
        let brands = vec![
            Brand {
                name: "Salomon".into(),
                domains: vec!["salomon.com".into(), "salomon.de".into()],
                ..Brand::default()
            },
            Brand::named("NoDomains"),
        ];
        let columns = vec![
            ranked(&[
                "https://a.com",
                "https://shop.salomon.de/x",
                "https://www.salomon.com/",
            ]),
            ranked(&["https://a.com"]),
        ];
        let rows = brand_ranks(&columns, &brands);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].ranks, vec![Some(2), None]);
    }

    #[test]
    fn csv_carries_position_count_and_citation_per_column() {
        let rows = vec![BrandSummary {
            brand: "Lowa".into(),
            columns: vec![mention(Some(1), 2, true), None],
            visibility: 100.0,
            average_position: Some(1.0),
            share_of_voice: 40.0,
        }];
        let csv = matrix_csv(&["A".into(), "B".into()], &rows);
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some(
                "brand,A position,A count,A cited,A stance,B position,B count,B cited,B stance,visibility %,average position,share of voice %"
            )
        );
        assert_eq!(
            lines.next(),
            Some("Lowa,1,2,true,listed,,,,,100.0,1.00,40.0")
        );
    }
}
