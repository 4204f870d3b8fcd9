//! Where the user's own brand is missing: the columns in which a competitor is named or cited
//! and the own brand is neither, and the sites cited in those columns that no column naming
//! the own brand cites. The question a user acts on.

use std::collections::HashSet;

use serde::Serialize;

use crate::analysis::mentions::Mention;
use crate::analysis::samples;
use crate::present::answer::PreparedAnswer;

/// One column where competitors are present and the own brand is not.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ColumnGap {
    /// 1-based, as the matrix numbers columns.
    pub column: usize,
    pub label: String,
    /// "Merrell named 1st", "Keen cited", "Scarpa named 2nd, cited" (over the answers
    /// without the own brand: a competitor's best position there).
    pub competitors: Vec<String>,
    /// With several answers: in how many of them the own brand is missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub missing_in: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gaps {
    pub own: String,
    pub columns: Vec<ColumnGap>,
    /// Sites cited where competitors are present and the own brand is not, that no column
    /// naming or citing the own brand cites.
    pub domains: Vec<String>,
}

/// The sites a column's answers cite, each once, in order: what [`gaps`] reads of a column.
pub fn cited_domains<'a>(answers: impl IntoIterator<Item = &'a PreparedAnswer>) -> Vec<String> {
    let mut cited: Vec<String> = answers
        .into_iter()
        .flat_map(|a| a.sources.iter().map(|s| s.domain.clone()))
        .collect();
    cited.sort();
    cited.dedup();
    cited
}

/// The gaps of `own` over the columns' answers (each answer's mentions; none for a column
/// without an answer, several for a column asked several times) and cited domains. A column
/// is a gap where one of its answers names or cites a competitor and not `own`; with
/// several answers, it says in how many.
pub fn gaps(
    own: &str,
    labels: &[String],
    answers: &[Vec<Vec<Mention>>],
    domains: &[Vec<String>],
) -> Gaps {
    let present = |m: &Mention| m.position.is_some() || m.cited;
    let is_own = |m: &Mention| m.brand.eq_ignore_ascii_case(own);
    let mut columns = Vec::new();
    let mut with_own: HashSet<&str> = HashSet::new();
    let mut in_gaps: Vec<&str> = Vec::new();
    for (i, found) in answers.iter().enumerate() {
        let cited = domains.get(i).map(Vec::as_slice).unwrap_or_default();
        if found
            .iter()
            .any(|answer| answer.iter().any(|m| is_own(m) && present(m)))
        {
            with_own.extend(cited.iter().map(String::as_str));
        }
        let missing: Vec<Vec<Mention>> = found
            .iter()
            .filter(|answer| {
                !answer.iter().any(|m| is_own(m) && present(m))
                    && answer.iter().any(|m| !is_own(m) && present(m))
            })
            .cloned()
            .collect();
        let Some(merged) = samples::merged(&missing) else {
            continue;
        };
        let mut others: Vec<&Mention> =
            merged.iter().filter(|m| !is_own(m) && present(m)).collect();
        // Named ones by position, then those only cited.
        others.sort_by_key(|m| m.position.unwrap_or(usize::MAX));
        let competitors: Vec<String> = others
            .into_iter()
            .map(|m| match (m.position, m.cited) {
                (Some(p), true) => format!("{} named {}, cited", m.brand, ordinal(p)),
                (Some(p), false) => format!("{} named {}", m.brand, ordinal(p)),
                (None, _) => format!("{} cited", m.brand),
            })
            .collect();
        in_gaps.extend(cited.iter().map(String::as_str));
        let sampled = found.len() > 1;
        columns.push(ColumnGap {
            column: i + 1,
            label: labels.get(i).cloned().unwrap_or_default(),
            competitors,
            missing_in: sampled.then_some(missing.len()),
            answers: sampled.then_some(found.len()),
        });
    }
    let mut seen = HashSet::new();
    let domains = in_gaps
        .into_iter()
        .filter(|d| !with_own.contains(d) && seen.insert(*d))
        .map(str::to_string)
        .collect();
    Gaps {
        own: own.to_string(),
        columns,
        domains,
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl Gaps {
    /// The gaps as plain text.
    pub fn text(&self) -> String {
        let mut out = format!(
            "Gaps: where {} (your brand) is missing and a competitor is named or cited\n",
            self.own
        );
        if self.columns.is_empty() {
            out.push_str("  none\n");
        }
        for gap in &self.columns {
            let share = match (gap.missing_in, gap.answers) {
                (Some(missing), Some(answers)) => {
                    format!(
                        " (in {missing} of {})",
                        crate::plural::count(answers as u64, "answer", "answers")
                    )
                }
                _ => String::new(),
            };
            // The share first: a narrow screen cuts the end of the line.
            out.push_str(&format!(
                "  {:>2}  {}{share}: {}\n",
                gap.column,
                gap.label,
                gap.competitors.join("; ")
            ));
        }
        out.push_str(&format!(
            "Sites cited there that no answer naming {} cites: {}\n",
            self.own,
            if self.domains.is_empty() {
                "none".to_string()
            } else {
                self.domains.join(", ")
            }
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::mentions::{Brand, mentions};

    #[test]
    fn columns_where_competitors_stand_without_the_own_brand() {
        let brands = [
            Brand::named("Lowa"),
            Brand {
                name: "Merrell".into(),
                domains: vec!["merrell.com".into()],
                ..Brand::default()
            },
        ];
        let columns = vec![
            vec![mentions("Lowa and Merrell.", &[], &brands)],
            vec![mentions(
                "Merrell is the best.",
                &["https://merrell.com/x"],
                &brands,
            )],
            Vec::new(),
            vec![mentions("Nothing named.", &[], &brands)],
        ];
        let labels: Vec<String> = ["a", "b", "c", "d"].iter().map(|s| s.to_string()).collect();
        let domains = vec![
            vec!["rei.com".to_string()],
            vec!["rei.com".to_string(), "reddit.com".to_string()],
            Vec::new(),
            vec!["x.com".to_string()],
        ];
        let gaps = gaps("Lowa", &labels, &columns, &domains);
        assert_eq!(gaps.columns.len(), 1);
        assert_eq!(gaps.columns[0].column, 2);
        assert_eq!(gaps.columns[0].competitors, ["Merrell named 1st, cited"]);
        assert_eq!(gaps.domains, ["reddit.com"]);
        let text = gaps.text();
        assert!(text.contains("   2  b: Merrell named 1st, cited"), "{text}");
        assert!(
            text.contains("no answer naming Lowa cites: reddit.com"),
            "{text}"
        );
        assert_eq!(ordinal(11), "11th");
        assert_eq!(ordinal(22), "22nd");
    }

    #[test]
    fn with_samples_a_column_is_a_gap_in_the_answers_that_miss_the_own_brand() {
        let brands = [Brand::named("Lowa"), Brand::named("Merrell")];
        let answer = |text: &str| mentions(text, &[], &brands);
        let columns = vec![
            vec![
                answer("Lowa first, then Merrell."),
                answer("Merrell alone."),
                answer("Merrell, then nothing else."),
            ],
            vec![answer("Lowa alone."), answer("Lowa again.")],
        ];
        let labels = vec!["a".to_string(), "b".to_string()];
        let domains = vec![vec!["rei.com".to_string()], vec!["x.com".to_string()]];
        let gaps = gaps("Lowa", &labels, &columns, &domains);
        assert_eq!(gaps.columns.len(), 1);
        let gap = &gaps.columns[0];
        assert_eq!(
            (gap.column, gap.missing_in, gap.answers),
            (1, Some(2), Some(3))
        );
        assert_eq!(gap.competitors, ["Merrell named 1st"]);
        // Column 1 also names Lowa in one answer: its sites are not Lowa-free.
        assert!(gaps.domains.is_empty());
        assert!(
            gaps.text()
                .contains("   1  a (in 2 of 3 answers): Merrell named 1st")
        );
    }
}
