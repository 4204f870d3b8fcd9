//! A comparison as tidy tables, one observation a row, for DuckDB, pandas or a spreadsheet's
//! pivot table: one row per column, sample and tracked brand (what the answer says of it),
//! and one row per column, sample and cited source. Every row names its vantage point in
//! its own fields (model, device, country, subdivision, city), so rows of several
//! comparisons or runs can be stacked and grouped. A sample that gave no answer has no rows.

use crate::analysis::mentions::{Brand, on_domain};
use crate::present::answer::PreparedAnswer;
use crate::shareable::csv;

use super::Vantage;
use super::mentions::answer_mentions;
use super::overview::AI_OVERVIEW_NAME;

/// The header of [`brands_csv`].
pub const BRAND_FIELDS: [&str; 13] = [
    "model",
    "device",
    "country",
    "subdivision",
    "city",
    "sample",
    "brand",
    "named",
    "position",
    "rank",
    "stance",
    "count",
    "cited",
];

/// The header of [`sources_csv`].
pub const SOURCE_FIELDS: [&str; 12] = [
    "model",
    "device",
    "country",
    "subdivision",
    "city",
    "sample",
    "source",
    "domain",
    "url",
    "title",
    "site",
    "brand",
];

/// One column: where it asked from, and each sample's answer (none when it gave none).
pub struct TidyCell<'a> {
    pub vantage: &'a Vantage,
    pub answers: Vec<Option<&'a PreparedAnswer>>,
}

/// The vantage fields every row starts with, and the sample's number (from 1).
fn vantage_fields(vantage: &Vantage, sample: usize) -> Vec<String> {
    let model = match vantage.overview {
        true => AI_OVERVIEW_NAME.to_string(),
        false => vantage
            .model
            .unwrap_or(crate::api::Model::Chatgpt)
            .as_str()
            .to_string(),
    };
    let place = &vantage.location;
    vec![
        model,
        vantage
            .device
            .clone()
            .unwrap_or_else(|| crate::devices::DESKTOP.to_string()),
        place.country.clone().unwrap_or_default(),
        place.subdivision.clone().unwrap_or_default(),
        place.city.clone().unwrap_or_default(),
        sample.to_string(),
    ]
}

/// The answered samples of every column, with their number.
fn answered<'a>(
    cells: &'a [TidyCell<'a>],
) -> impl Iterator<Item = (&'a Vantage, usize, &'a PreparedAnswer)> + 'a {
    cells.iter().flat_map(|cell| {
        cell.answers
            .iter()
            .enumerate()
            .filter_map(move |(i, answer)| answer.map(|a| (cell.vantage, i + 1, a)))
    })
}

/// One row per column, sample and brand. `named` is true or false; a brand not named has
/// empty position, rank and stance, and a count of 0.
pub fn brands_csv(cells: &[TidyCell], brands: &[Brand]) -> String {
    let mut rows: Vec<Vec<String>> = vec![BRAND_FIELDS.iter().map(|f| f.to_string()).collect()];
    for (vantage, sample, answer) in answered(cells) {
        for mention in answer_mentions(answer, brands) {
            let named = mention.position.is_some();
            let number = |n: Option<usize>| n.map(|n| n.to_string()).unwrap_or_default();
            let mut row = vantage_fields(vantage, sample);
            row.extend([
                mention.brand.clone(),
                named.to_string(),
                number(mention.position),
                number(mention.rank),
                match named {
                    true => mention.stance.label().to_string(),
                    false => String::new(),
                },
                mention.count.to_string(),
                mention.cited.to_string(),
            ]);
            rows.push(row);
        }
    }
    csv::text(rows)
}

/// One row per column, sample and source the answer cites, in the answer's order; `brand`
/// is the tracked brand whose domain the source is on, if any.
pub fn sources_csv(cells: &[TidyCell], brands: &[Brand]) -> String {
    let mut rows: Vec<Vec<String>> = vec![SOURCE_FIELDS.iter().map(|f| f.to_string()).collect()];
    for (vantage, sample, answer) in answered(cells) {
        for (i, source) in answer.sources.iter().enumerate() {
            let brand = brands
                .iter()
                .find(|b| b.domains.iter().any(|d| on_domain(&source.url, d)))
                .map(|b| b.name.clone())
                .unwrap_or_default();
            let mut row = vantage_fields(vantage, sample);
            row.extend([
                (i + 1).to_string(),
                source.domain.clone(),
                source.url.clone(),
                source.title.clone(),
                source.site.clone(),
                brand,
            ]);
            rows.push(row);
        }
    }
    csv::text(rows)
}
