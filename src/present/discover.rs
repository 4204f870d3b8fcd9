//! Names the stored answers put forward that no tracked brand covers: the competitor a model
//! recommends most may be one the user never listed. Each name found by part 14's evidence
//! (`analysis::names`), counted over the answers that name it without a caution, with the
//! models and places that did, and one sentence that says it.

use std::collections::{BTreeSet, HashMap, HashSet};

use serde::Serialize;

use crate::analysis::mentions::{self, Brand};
use crate::analysis::stance::Stance;

use super::answer::PreparedAnswer;
use super::compare::summary::location_label;

/// One name nobody tracks, over the answers read.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Untracked {
    pub name: String,
    /// Answers that name it (not only to warn against it, nor to say nothing is known).
    pub answers: usize,
    /// Of those, the answers that recommend it.
    pub recommended: usize,
    pub models: Vec<String>,
    pub places: Vec<String>,
    /// The sentence of the first answer that names it.
    pub sentence: String,
}

/// Stored answers read at most, newest first: a bound on the work whatever is stored.
pub const MAX_STORED_ANSWERS: usize = 2_000;

/// The untracked names of stored answers (request and body as kept), and how many of them
/// could be read. Slow with many answers: off the UI task.
pub fn untracked_in_stored(
    stored: Vec<(crate::api::AiRequest, String)>,
    tracked: &[Brand],
) -> (Vec<Untracked>, usize) {
    let answers: Vec<PreparedAnswer> = stored
        .into_iter()
        .filter_map(|(request, body)| super::answer::prepare_stored(request, &body))
        .collect();
    (untracked(&answers, tracked), answers.len())
}

/// The untracked names of `answers`, most named first (then by models, places, name).
pub fn untracked(answers: &[PreparedAnswer], tracked: &[Brand]) -> Vec<Untracked> {
    // A product of a tracked brand ("Salomon X Ultra") is that brand's: its name or an
    // alias stands in it as a whole word.
    let covered = |name: &str| {
        mentions::mentions(name, &[], tracked)
            .iter()
            .any(|m| m.position.is_some())
    };
    let mut rows: Vec<(Untracked, BTreeSet<String>, BTreeSet<String>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for answer in answers {
        let model = answer.header.model.as_str().to_string();
        let place = location_label(&answer.header.location);
        // The sites the answer cites are its sources, not names it puts forward.
        let cited: HashSet<String> = answer
            .sources
            .iter()
            .flat_map(|s| {
                let host = mentions::host_of(&s.url);
                let label = host.split('.').next().unwrap_or_default().to_string();
                [host, label]
            })
            .collect();
        for name in &answer.candidates {
            let squeezed: String = name
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == '.')
                .collect();
            if covered(name) || name.contains('.') || cited.contains(&squeezed) {
                continue;
            }
            let found = mentions::mentions(&answer.plain_text, &[], &[Brand::named(name)]);
            let Some(mention) = found.first().filter(|m| m.position.is_some()) else {
                continue;
            };
            if mention.stance == Stance::Cautioned {
                continue;
            }
            let key = name.to_lowercase();
            let at = match index.get(&key) {
                Some(&at) => at,
                None => {
                    index.insert(key, rows.len());
                    rows.push((
                        Untracked {
                            name: name.clone(),
                            answers: 0,
                            recommended: 0,
                            models: Vec::new(),
                            places: Vec::new(),
                            sentence: mention.sentence.clone().unwrap_or_default(),
                        },
                        BTreeSet::new(),
                        BTreeSet::new(),
                    ));
                    rows.len() - 1
                }
            };
            let (row, models, places) = &mut rows[at];
            row.answers += 1;
            if mention.stance == Stance::Recommended {
                row.recommended += 1;
            }
            models.insert(model.clone());
            places.insert(place.clone());
        }
    }
    let mut out: Vec<Untracked> = rows
        .into_iter()
        .map(|(mut row, models, places)| {
            row.models = models.into_iter().collect();
            row.places = places.into_iter().collect();
            row
        })
        .collect();
    out.sort_by(|a, b| {
        b.answers
            .cmp(&a.answers)
            .then(b.models.len().cmp(&a.models.len()))
            .then(b.places.len().cmp(&a.places.len()))
            .then(a.name.cmp(&b.name))
    });
    out
}
