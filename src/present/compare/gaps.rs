//! Where the user's own brand is missing: the columns in which a competitor is named or cited
//! and the own brand is neither, and the sites cited in those columns that no column naming
//! the own brand cites. The question a user acts on.

use std::collections::HashSet;

use serde::Serialize;

use crate::analysis::mentions::Mention;

/// One column where competitors are present and the own brand is not.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ColumnGap {
    /// 1-based, as the matrix numbers columns.
    pub column: usize,
    pub label: String,
    /// "Merrell named 1st", "Keen cited", "Scarpa named 2nd, cited".
    pub competitors: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gaps {
    pub own: String,
    pub columns: Vec<ColumnGap>,
    /// Sites cited where competitors are present and the own brand is not, that no column
    /// naming or citing the own brand cites.
    pub domains: Vec<String>,
}

/// The gaps of `own` over the columns' mentions (none for a column without an answer) and
/// cited domains.
pub fn gaps(
    own: &str,
    labels: &[String],
    mentions: &[Option<Vec<Mention>>],
    domains: &[Vec<String>],
) -> Gaps {
    let present = |m: &Mention| m.position.is_some() || m.cited;
    let mut columns = Vec::new();
    let mut with_own: HashSet<&str> = HashSet::new();
    let mut in_gaps: Vec<&str> = Vec::new();
    for (i, found) in mentions.iter().enumerate() {
        let Some(found) = found else {
            continue;
        };
        let cited = domains.get(i).map(Vec::as_slice).unwrap_or_default();
        let own_present = found
            .iter()
            .any(|m| m.brand.eq_ignore_ascii_case(own) && present(m));
        if own_present {
            with_own.extend(cited.iter().map(String::as_str));
            continue;
        }
        let mut others: Vec<&Mention> = found
            .iter()
            .filter(|m| !m.brand.eq_ignore_ascii_case(own) && present(m))
            .collect();
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
        if competitors.is_empty() {
            continue;
        }
        in_gaps.extend(cited.iter().map(String::as_str));
        columns.push(ColumnGap {
            column: i + 1,
            label: labels.get(i).cloned().unwrap_or_default(),
            competitors,
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
            out.push_str(&format!(
                "  {:>2}  {}: {}\n",
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
            Some(mentions("Lowa and Merrell.", &[], &brands)),
            Some(mentions(
                "Merrell is the best.",
                &["https://merrell.com/x"],
                &brands,
            )),
            None,
            Some(mentions("Nothing named.", &[], &brands)),
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
}
