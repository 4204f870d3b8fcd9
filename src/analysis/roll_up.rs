//! Who recommends whom, the cells pooled: per brand, by model, by place and by device, its
//! visibility and recommended share with their 95 % intervals (pooled as `adaptive` pools
//! them: every cell weighing the same) and its average position with its own. Read by
//! `compare --samples` over its columns and by the report over a run's cells. Pure: each
//! cell's answers in, rows out.

use serde::Serialize;

use super::adaptive::{self, CellCount, Pool};
use super::samples::Z95;

/// One brand in one answer, as the roll-up reads it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BrandRead {
    /// Its position among the brands the answer names; none when not named.
    pub position: Option<u32>,
    pub recommended: bool,
}

/// One cell (a model, device and place asked one prompt, once or more): per answer, per
/// brand in the order given to [`roll_up`], how it read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CellAnswers {
    pub model: String,
    /// Empty when the service picks the device.
    pub device: String,
    pub place: String,
    pub answers: Vec<Vec<BrandRead>>,
}

impl CellAnswers {
    /// Its counts of answers where brand `b` `counts`.
    fn count(&self, brands: usize, counts: impl Fn(&BrandRead) -> bool) -> CellCount {
        CellCount {
            model: self.model.clone(),
            device: self.device.clone(),
            place: self.place.clone(),
            answers: self.answers.len(),
            named: (0..brands)
                .map(|b| {
                    self.answers
                        .iter()
                        .filter(|answer| answer.get(b).is_some_and(&counts))
                        .count()
                })
                .collect(),
        }
    }
}

/// One brand pooled over the cells of one model, place or device.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RollRow {
    pub brand: String,
    pub pool: Pool,
    pub cells: usize,
    pub answers: usize,
    /// Percent of answers naming it (the mean of the cells' shares), ± its half-width.
    pub visibility: f64,
    pub visibility_half: f64,
    /// Percent of answers recommending it, ± its half-width.
    pub recommended: f64,
    pub recommended_half: f64,
    /// Its average position where named, ± its half-width (none from one answer).
    pub position: Option<f64>,
    pub position_half: Option<f64>,
}

impl RollRow {
    /// "named 45% ±9.7, recommended 20% ±8.1, at 2.3 ±0.4" (a cell of a table each).
    pub fn named_text(&self) -> String {
        format!("{:.0}% ±{:.1}", self.visibility, self.visibility_half)
    }

    pub fn recommended_text(&self) -> String {
        format!("{:.0}% ±{:.1}", self.recommended, self.recommended_half)
    }

    /// "@2.3 ±0.4", "@1.0" from one answer, "not named".
    pub fn position_text(&self) -> String {
        match (self.position, self.position_half) {
            (Some(p), Some(half)) => format!("@{p:.1} ±{half:.1}"),
            (Some(p), None) => format!("@{p:.1}"),
            (None, _) => super::mentions::NOT_NAMED.to_string(),
        }
    }
}

/// Every brand of `brands` in every pool of `cells` (each model's, each place's, each named
/// device's), pools in first-seen order, models first; a pool with no answered cell is left
/// out.
pub fn roll_up(cells: &[CellAnswers], brands: &[String]) -> Vec<RollRow> {
    let named: Vec<CellCount> = cells
        .iter()
        .map(|c| c.count(brands.len(), |r| r.position.is_some()))
        .collect();
    let recommended: Vec<CellCount> = cells
        .iter()
        .map(|c| c.count(brands.len(), |r| r.position.is_some() && r.recommended))
        .collect();
    let mut rows = Vec::new();
    for pool in adaptive::pools(&named) {
        for (b, brand) in brands.iter().enumerate() {
            let (Some(seen), Some(liked)) = (
                adaptive::pooled(&named, b, &pool),
                adaptive::pooled(&recommended, b, &pool),
            ) else {
                continue;
            };
            let positions: Vec<f64> = cells
                .iter()
                .zip(&named)
                .filter(|(_, count)| pool.takes(count))
                .flat_map(|(cell, _)| cell.answers.iter())
                .filter_map(|answer| answer.get(b).and_then(|r| r.position))
                .map(f64::from)
                .collect();
            let (position, position_half) = mean_with_half(&positions);
            rows.push(RollRow {
                brand: brand.clone(),
                pool: pool.clone(),
                cells: seen.cells,
                answers: seen.answers,
                visibility: seen.visibility,
                visibility_half: seen.half,
                recommended: liked.visibility,
                recommended_half: liked.half,
                position,
                position_half,
            });
        }
    }
    rows
}

/// The mean of `values` and its 95 % half-width (none from fewer than two).
fn mean_with_half(values: &[f64]) -> (Option<f64>, Option<f64>) {
    if values.is_empty() {
        return (None, None);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (Some(mean), None);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (Some(mean), Some(Z95 * (variance / n).sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(position: Option<u32>, recommended: bool) -> Vec<BrandRead> {
        vec![BrandRead {
            position,
            recommended,
        }]
    }

    fn cell(model: &str, place: &str, answers: Vec<Vec<BrandRead>>) -> CellAnswers {
        CellAnswers {
            model: model.to_string(),
            device: String::new(),
            place: place.to_string(),
            answers,
        }
    }

    #[test]
    fn pools_by_model_and_place_with_positions_and_their_spread() {
        let cells = vec![
            cell(
                "ChatGPT",
                "US",
                vec![answer(Some(1), true), answer(Some(3), false)],
            ),
            cell(
                "ChatGPT",
                "DE",
                vec![answer(None, false), answer(None, false)],
            ),
            cell("Gemini", "US", vec![answer(Some(2), true)]),
        ];
        let rows = roll_up(&cells, &["Salomon".to_string()]);
        let pools: Vec<String> = rows.iter().map(|r| r.pool.text()).collect();
        assert_eq!(pools, ["by ChatGPT", "by Gemini", "at US", "at DE"]);
        let chatgpt = &rows[0];
        assert_eq!((chatgpt.cells, chatgpt.answers), (2, 4));
        assert!((chatgpt.visibility - 50.0).abs() < 1e-9);
        assert!((chatgpt.recommended - 25.0).abs() < 1e-9);
        assert_eq!(chatgpt.position, Some(2.0));
        assert!(chatgpt.position_half.is_some_and(|h| h > 1.0));
        assert_eq!(chatgpt.position_text(), "@2.0 ±2.0");
        // One answer has a position and no spread; no named answer has none.
        assert_eq!(rows[1].position_text(), "@2.0");
        assert_eq!(rows[3].position_text(), "not named");
    }
}
