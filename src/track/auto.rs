//! A run of a set with `samples = "auto"`, round by round: its answered calls counted by cell
//! (one request asked several times), the next round's asks chosen by `analysis::adaptive`,
//! and what it spent against asking every cell the most. Pure: the run's calls and their
//! readings in, the calls to add and the sentences out.

use std::collections::HashMap;

use crate::analysis::adaptive::{self, CellCount, Plan, Pooled};
use crate::store::readings::{ANSWER, StoredReading};
use crate::store::{RequestParams, RunItem};

/// The sampled cells of a run: each sampled request (an answer, or a prompt's AI Overview)
/// with what its answers so far named, in the run's order; and the request of each.
pub fn cells(
    items: &[RunItem],
    readings: &[StoredReading],
    brands: &[String],
) -> (Vec<CellCount>, Vec<RequestParams>) {
    let by_seq: HashMap<u32, &StoredReading> = readings.iter().map(|r| (r.seq, r)).collect();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut counts: Vec<CellCount> = Vec::new();
    let mut requests: Vec<RequestParams> = Vec::new();
    for item in items {
        let sampled = match &item.request {
            RequestParams::Ai(_) => true,
            RequestParams::Search(search) => {
                crate::present::compare::overview::is_overview_request(search)
            }
            _ => false,
        };
        if !sampled {
            continue;
        }
        let key = item.request.to_json();
        let at = *index.entry(key).or_insert_with(|| {
            counts.push(CellCount {
                named: vec![0; brands.len()],
                ..CellCount::default()
            });
            requests.push(item.request.clone());
            counts.len() - 1
        });
        let Some(reading) = by_seq.get(&item.seq).filter(|r| r.kind == ANSWER) else {
            continue;
        };
        let cell = &mut counts[at];
        cell.model.clone_from(&reading.model);
        cell.place.clone_from(&reading.place);
        cell.device.clone_from(&reading.device);
        cell.answers += 1;
        for (b, name) in brands.iter().enumerate() {
            if reading
                .brands
                .iter()
                .any(|s| &s.brand == name && s.position.is_some())
            {
                cell.named[b] += 1;
            }
        }
    }
    (counts, requests)
}

/// The calls of the next round: each cell the plan asks again, once more.
pub fn next_calls(
    cells: &[CellCount],
    requests: &[RequestParams],
    brands: usize,
    plan: &Plan,
) -> Vec<RequestParams> {
    adaptive::next_round(cells, brands, plan)
        .into_iter()
        .zip(requests)
        .flat_map(|(n, request)| std::iter::repeat_n(request.clone(), n))
        .collect()
}

/// What the run's samples came to: the widest pooled interval (with its brand's name), and
/// whether every pool is within the precision.
pub fn reached(cells: &[CellCount], brands: &[String], plan: &Plan) -> String {
    let Some(widest) = adaptive::widest(cells, brands.len()) else {
        return "No answer was read, so no brand's visibility could be measured.".to_string();
    };
    let name = brands.get(widest.brand).map_or("", String::as_str);
    let within = widest.half <= f64::from(plan.precision);
    let at_most = cells
        .iter()
        .all(|c| c.answers >= plan.most || c.answers == 0);
    match (within, at_most) {
        (true, _) => format!(
            "Every brand's visibility by model and by place is within ±{} points; the widest is {}.",
            plan.precision,
            pooled_text(name, &widest)
        ),
        (false, true) => format!(
            "The widest is still {}: every cell had its {} answers (more would take a higher most).",
            pooled_text(name, &widest),
            plan.most
        ),
        (false, false) => format!(
            "The widest is still {}: some answers gave none, so the next run goes on.",
            pooled_text(name, &widest)
        ),
    }
}

/// "Salomon by gemini 45 % ±9.7 (12 cells, 41 answers)".
pub fn pooled_text(brand: &str, pooled: &Pooled) -> String {
    format!(
        "{brand} {} {:.0} % ±{:.1} ({} cells, {} answers)",
        pooled.pool.text(),
        pooled.visibility,
        pooled.half,
        pooled.cells,
        pooled.answers
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::AiRequest;
    use crate::store::readings::StoredBrand;

    fn item(seq: u32, prompt: &str, answered: bool) -> RunItem {
        RunItem {
            seq,
            request: RequestParams::Ai(AiRequest::new(prompt)),
            job_id: None,
            state: None,
            sends: 1,
            refused: None,
            body: answered.then(String::new),
        }
    }

    fn reading(seq: u32, named: &[&str]) -> StoredReading {
        StoredReading {
            seq,
            kind: ANSWER.to_string(),
            model: "chatgpt".into(),
            place: "US".into(),
            brands: named
                .iter()
                .map(|b| StoredBrand {
                    brand: b.to_string(),
                    position: Some(1),
                    ..StoredBrand::default()
                })
                .collect(),
            ..StoredReading::default()
        }
    }

    #[test]
    fn a_runs_calls_are_counted_by_cell_and_the_split_one_asked_again() {
        let items: Vec<RunItem> = (0..12)
            .map(|seq| item(seq, &format!("p{}", seq / 3), seq != 11))
            .collect();
        // Cells p0–p2 all name Keen; p3 names it in one of its two answers (one failed).
        let readings: Vec<StoredReading> = (0..11)
            .map(|seq| reading(seq, if seq == 10 { &[] } else { &["Keen"] }))
            .collect();
        let brands = vec!["Keen".to_string()];
        let (cells, requests) = cells(&items, &readings, &brands);
        assert_eq!(cells.len(), 4);
        assert_eq!(
            cells
                .iter()
                .map(|c| (c.answers, c.named[0]))
                .collect::<Vec<_>>(),
            [(3, 3), (3, 3), (3, 3), (2, 1)]
        );
        let next = next_calls(&cells, &requests, 1, &Plan::default());
        assert_eq!(next, vec![requests[3].clone()], "{next:?}");
    }
}
