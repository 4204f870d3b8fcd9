//! A comparison's exports (Markdown, HTML, JSON, CSV), made from what
//! the Compare tab takes of it, so that the file is made where it is
//! written, off the UI task. What came from outside is written through
//! [`crate::shareable`].

use crate::analysis::mentions::BrandSummary;
use crate::analysis::samples::SampledBrand;
use crate::present::compare::CompareMode;
use crate::present::compare::mentions::{self as brand_mentions, BrandRanks};
use crate::present::compare::summary::{self, AnswerSummary, RankRow, RankSort};

/// One column as the exports write it.
#[derive(Clone, Debug, PartialEq)]
pub struct ColumnExport {
    /// Where it asked from, as the answers' columns are labelled.
    pub label: String,
    /// Its header line and its answer as Markdown, when it answered.
    pub answer: Option<(String, String)>,
    /// Why it did not, when its call failed.
    pub error: Option<String>,
}

/// What a comparison's exports are made of.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareExport {
    pub mode: CompareMode,
    pub prompt: String,
    pub columns: Vec<ColumnExport>,
    /// The columns' labels in the comparison's mode.
    pub labels: Vec<String>,
    pub summary: Option<AnswerSummary>,
    /// The mention matrix in its sorted order (empty without brands).
    pub mention_rows: Vec<BrandSummary>,
    pub sampled: Option<Vec<SampledBrand>>,
    /// Answers asked per column.
    pub samples: usize,
    pub samples_per_column: usize,
    pub sort: RankSort,
    pub table: Vec<RankRow>,
    pub ranks: Vec<BrandRanks>,
}

impl CompareExport {
    /// The comparison as one page to share: the Markdown export, as HTML.
    pub fn html(&self) -> String {
        crate::present::html_page::page(
            "Comparison · vantage",
            &crate::shareable::markdown::to_html(&self.markdown()),
        )
    }

    /// The prompt, each answer, then the summary and the mentions.
    pub fn markdown(&self) -> String {
        use crate::present::text::demote_headings;
        use crate::shareable::markdown;
        let prompt: Vec<String> = self.prompt.lines().map(markdown::text).collect();
        let mut out = format!("# Comparison\n\n> {}\n", prompt.join("\n> "));
        for (i, column) in self.columns.iter().enumerate() {
            let label = markdown::text(&column.label);
            out.push_str(&format!("\n## {}. {label}\n\n", i + 1));
            match (&column.answer, &column.error) {
                (Some((header, answer)), _) => {
                    out.push_str(&format!("*{}*\n\n", markdown::text(header)));
                    // The answer's own headings sit under the column's.
                    let text = markdown::foreign(answer);
                    out.push_str(demote_headings(&text, 2).trim_end());
                    out.push('\n');
                }
                (None, Some(error)) => {
                    out.push_str(&format!("The call failed: {}\n", markdown::text(error)))
                }
                (None, None) => out.push_str("No answer.\n"),
            }
        }
        if let Some(summary) = &self.summary {
            out.push_str("\n# What differs\n");
            out.push_str(&summary.text(true));
        }
        if !self.mention_rows.is_empty() {
            out.push_str("\n# Mentions\n\n");
            out.push_str(&brand_mentions::matrix_markdown(
                &self.labels,
                &self.mention_rows,
            ));
        }
        if let Some(sampled) = &self.sampled {
            out.push_str(&format!(
                "\n# Mentions over {} samples per column\n\n",
                self.samples
            ));
            out.push_str(&markdown::preformatted(
                &crate::analysis::samples::matrix_text(&self.labels, sampled),
            ));
        }
        out
    }

    /// The summary (answers) or the rank table (search).
    pub fn json(&self) -> String {
        let value = match self.mode {
            CompareMode::Answers => serde_json::json!({
                "prompt": self.prompt,
                "summary": self.summary,
                "answers": self.columns.iter().map(|c| serde_json::json!({
                    "column": c.label,
                    "markdown": c.answer.as_ref().map(|(_, markdown)| markdown),
                    "error": c.error,
                })).collect::<Vec<_>>(),
                "mentions": self.mention_rows,
                "samples": self.samples_per_column,
                "sampled": self.sampled,
            }),
            CompareMode::Search => serde_json::json!({
                "terms": self.prompt,
                "columns": self.labels,
                "sort": self.sort,
                "rows": self.table,
                "brand_rows": self.ranks,
            }),
        };
        let json = serde_json::to_string_pretty(&value).unwrap_or_default();
        crate::shareable::json::escape_controls(&json).into_owned()
    }

    /// The search rank table, or the mention matrix of answers.
    pub fn csv(&self) -> String {
        match self.mode {
            CompareMode::Search => summary::rank_table_csv(&self.labels, &self.table, &self.ranks),
            CompareMode::Answers => match &self.sampled {
                Some(sampled) => crate::analysis::samples::matrix_csv(&self.labels, sampled),
                None => brand_mentions::matrix_csv(&self.labels, &self.mention_rows),
            },
        }
    }
}
