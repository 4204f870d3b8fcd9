//! Discovery over everything stored: the names each answer puts forward are read once, when
//! first looked for, and kept (`store::names`, with the rules' version); discovery then
//! counts the kept totals, so its time does not grow with the HTML stored. Blocking (it
//! reads answers and waits for the store's writes): off the UI task, not on an async task.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::analysis::READING_RULES;
use crate::analysis::mentions::Brand;
use crate::present::answer::{PreparedAnswer, prepare_to_read};
use crate::present::compare::summary::location_label;
use crate::present::discover::{NameCount, Untracked, names_in, untracked_of};
use crate::store::names::{AnswerNames, AnswersRead, StoredName};
use crate::store::{EntryId, HistoryEntry, RequestParams, Store, StoreError};
use crate::track::stored::Progress;

/// Answers read per batch: one write each, and the work between two looks at `stop`.
const BATCH: usize = 32;

/// Names whose products are looked up, at most.
const WITH_PRODUCTS: usize = 50;

/// The answers of one History entry: its own, or each answered column of a comparison.
fn answers_of(entry: HistoryEntry) -> Vec<(u32, PreparedAnswer)> {
    let Some(body) = entry.response.filter(|b| b.status == 200) else {
        return Vec::new();
    };
    match entry.request {
        RequestParams::Ai(request) => prepare_to_read(request, &body.text)
            .map(|a| vec![(0, a)])
            .unwrap_or_default(),
        RequestParams::Compare(columns) => {
            let stored: Vec<serde_json::Value> =
                serde_json::from_str(&body.text).unwrap_or_default();
            columns
                .into_iter()
                .zip(stored)
                .enumerate()
                .filter_map(|(col, (request, column))| {
                    let (RequestParams::Ai(request), Some(200), Some(text)) =
                        (request, column["status"].as_u64(), column["body"].as_str())
                    else {
                        return None;
                    };
                    let col = u32::try_from(col).ok()?;
                    Some((col, prepare_to_read(request, text)?))
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// One entry read for its names (none kept when it no longer exists).
fn read_entry(store: &Store, id: &EntryId) -> Result<Vec<AnswerNames>, StoreError> {
    let Some(entry) = store.history_entry(id)? else {
        return Ok(Vec::new());
    };
    let at = entry.item.created_at;
    let answers = answers_of(entry);
    if answers.is_empty() {
        // Read, and nothing to count: kept as read so it is not read again.
        return Ok(vec![AnswerNames {
            entry: id.clone(),
            at,
            ..AnswerNames::default()
        }]);
    }
    Ok(answers
        .into_iter()
        .map(|(col, answer)| AnswerNames {
            entry: id.clone(),
            col,
            model: answer.header.model.as_str().to_string(),
            place: location_label(&answer.header.location),
            at,
            read_as_text: answer.read_as_text,
            names: names_in(&answer)
                .into_iter()
                .map(|n| StoredName {
                    products: serde_json::to_string(&n.products).unwrap_or_default(),
                    name: n.name,
                    recommended: n.recommended,
                    sentence: n.sentence,
                })
                .collect(),
        })
        .collect())
}

/// Reads the names of every stored answer (made at or after `since`) not read by the rules
/// of `version` yet, in batches, and keeps them; `false` when `stop` was raised.
pub fn bring_up_to_date(
    store: &Store,
    since: i64,
    version: u32,
    progress: &mut dyn FnMut(Progress),
    stop: &AtomicBool,
) -> Result<bool, StoreError> {
    store.names_prepare(version)?;
    // Counted only when something is to read: the look for one costs less.
    if store.names_unread(since, 1)?.is_empty() {
        return Ok(true);
    }
    let mut done = Progress {
        read: 0,
        total: store.names_unread_count(since)?,
    };
    progress(done);
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        let ids = store.names_unread(since, BATCH)?;
        if ids.is_empty() {
            return Ok(true);
        }
        let mut batch = Vec::new();
        for id in &ids {
            batch.extend(read_entry(store, id)?);
        }
        store.keep_names(version, batch).wait()?;
        done.read = (done.read + ids.len()).min(done.total);
        progress(done);
    }
}

/// The untracked names over every stored answer (made at or after `since`), from the kept
/// names, and how many answers they were read from. Bring them up to date first.
pub fn untracked(
    store: &Store,
    since: Option<i64>,
    tracked: &[Brand],
) -> Result<(Vec<Untracked>, AnswersRead), StoreError> {
    let counts = store
        .name_totals(READING_RULES, since)?
        .into_iter()
        .map(|t| NameCount {
            name: t.name,
            model: t.model,
            place: t.place,
            answers: t.answers as usize,
            recommended: t.recommended as usize,
            sentence: t.sentence,
        })
        .collect();
    let mut found = untracked_of(counts, tracked);
    for row in found.iter_mut().take(WITH_PRODUCTS) {
        for products in store.name_products(&row.name, 20)? {
            let products: Vec<String> = serde_json::from_str(&products).unwrap_or_default();
            for product in products {
                if !row
                    .products
                    .iter()
                    .any(|p| p.eq_ignore_ascii_case(&product))
                {
                    row.products.push(product);
                }
            }
        }
    }
    let read = store.names_read_count(READING_RULES, since.unwrap_or(i64::MIN))?;
    Ok((found, read))
}
