//! Prompts worth tracking, found around a topic: the fanouts a model searched, and the
//! questions and searches Google relates to it, from several places. Near-duplicates (case,
//! punctuation, word order, plurals) are one prompt; each is ranked by how many vantage
//! points raised it, and says who did. Pure: the calls are made by the caller.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use crate::api::{
    AiFormat, AiRequest, Awaiting, Location, Model, ResultKind, SearchFormat, SearchRequest,
    SearchResults,
};

use super::answer::PreparedAnswer;

/// One call of a discovery: a model asked, or Google searched (awaiting its AI Overview).
pub enum TopicAsk {
    Model(AiRequest),
    Google(SearchRequest),
}

/// The calls that ask each of `prompts` of every model and of Google from every place, each
/// with its place's label.
/// The calls [`topic_asks`] makes for `prompts` prompts, by kind: each model and one
/// search from each place.
pub fn topic_calls(prompts: usize, models: usize, places: usize) -> crate::price::Calls {
    crate::price::Calls {
        answers: (prompts * places * models) as u64,
        searches: (prompts * places) as u64,
        pages: 0,
    }
}

pub fn topic_asks(
    prompts: &[String],
    models: &[Model],
    places: &[Location],
) -> Vec<(TopicAsk, String)> {
    let mut asks = Vec::new();
    for prompt in prompts {
        for place in places {
            let label = super::compare::summary::location_label(place);
            for model in models {
                let request = AiRequest {
                    prompt: prompt.clone(),
                    model: Some(*model),
                    location: place.clone(),
                    format: AiFormat::Json,
                    ..AiRequest::default()
                };
                asks.push((TopicAsk::Model(request), label.clone()));
            }
            let search = SearchRequest {
                terms: prompt.clone(),
                location: place.clone(),
                format: SearchFormat::Json,
                awaiting: vec![Awaiting::Ai],
                ..SearchRequest::default()
            };
            asks.push((TopicAsk::Google(search), label));
        }
    }
    asks
}

impl TopicAsk {
    pub fn validate(&self) -> Result<(), crate::api::InvalidRequest> {
        match self {
            TopicAsk::Model(request) => request.validate(),
            TopicAsk::Google(request) => request.validate(),
        }
    }
}

/// Who raised a prompt, from where: "ChatGPT fanout" from "US".
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct Raiser {
    pub by: String,
    pub place: String,
}

/// One prompt and the vantage points that raised it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FoundPrompt {
    /// As first raised.
    pub prompt: String,
    /// How many distinct vantage points (who × where) raised it.
    pub count: usize,
    pub raised_by: Vec<Raiser>,
    /// 1 when raised by the topic itself, 2 when by one of its prompts asked again.
    pub depth: u8,
}

/// The prompts found so far, merged by their near-duplicate key.
#[derive(Debug, Default)]
pub struct PromptPool {
    prompts: Vec<(FoundPrompt, BTreeSet<Raiser>)>,
    index: HashMap<String, usize>,
}

/// The key near-duplicates share: lower case, words without punctuation, a plural's `s`
/// dropped, the words sorted.
pub fn near_key(text: &str) -> String {
    let mut words: Vec<String> = text
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let stem = w
                .strip_suffix("ies")
                .filter(|s| s.len() >= 3)
                .map(|s| format!("{s}y"))
                .or_else(|| {
                    w.strip_suffix('s')
                        .filter(|s| s.len() >= 3 && !s.ends_with('s'))
                        .map(str::to_string)
                });
            stem.unwrap_or_else(|| w.to_string())
        })
        .collect();
    words.sort();
    words.join(" ")
}

impl PromptPool {
    /// Adds a prompt raised by `by` from `place`; a near-duplicate of one already found
    /// counts for it.
    pub fn add(&mut self, text: &str, by: &str, place: &str, depth: u8) {
        let text = text.trim();
        let key = near_key(text);
        if key.is_empty() {
            return;
        }
        let raiser = Raiser {
            by: by.to_string(),
            place: place.to_string(),
        };
        let at = match self.index.get(&key) {
            Some(&at) => at,
            None => {
                self.index.insert(key, self.prompts.len());
                self.prompts.push((
                    FoundPrompt {
                        prompt: text.to_string(),
                        count: 0,
                        raised_by: Vec::new(),
                        depth,
                    },
                    BTreeSet::new(),
                ));
                self.prompts.len() - 1
            }
        };
        let (found, raisers) = &mut self.prompts[at];
        found.depth = found.depth.min(depth);
        if raisers.insert(raiser) {
            found.count = raisers.len();
        }
    }

    /// The fanouts of a model's answer.
    pub fn add_answer(&mut self, answer: &PreparedAnswer, place: &str, depth: u8) {
        let by = format!("{} fanout", answer.header.model.display_name());
        for fanout in &answer.fanouts {
            self.add(fanout, &by, place, depth);
        }
    }

    /// The questions ("People also ask") and searches Google relates to a search.
    pub fn add_results(&mut self, results: &SearchResults, place: &str, depth: u8) {
        self.add_search_results(&results.results, place, depth);
    }

    /// The same from a prepared results page's rows.
    pub fn add_search_results(
        &mut self,
        results: &[crate::api::SearchResult],
        place: &str,
        depth: u8,
    ) {
        for result in results {
            match result.kind {
                ResultKind::AlsoAsked if !result.question.is_empty() => {
                    self.add(&result.question, "Google related question", place, depth);
                }
                ResultKind::AlsoSearched if !result.query.is_empty() => {
                    self.add(&result.query, "Google related search", place, depth);
                }
                _ => {}
            }
        }
    }

    /// Every prompt, most raised first (then shallower, then alphabetically), each with its
    /// raisers in order; `leave_out` (the topic itself) is not listed.
    pub fn ranked(&self, leave_out: &str) -> Vec<FoundPrompt> {
        let skip = near_key(leave_out);
        let mut ranked: Vec<FoundPrompt> = self
            .prompts
            .iter()
            .filter(|(p, _)| near_key(&p.prompt) != skip)
            .map(|(prompt, raisers)| FoundPrompt {
                raised_by: raisers.iter().cloned().collect(),
                ..prompt.clone()
            })
            .collect();
        ranked.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then(a.depth.cmp(&b.depth))
                .then_with(|| a.prompt.to_lowercase().cmp(&b.prompt.to_lowercase()))
        });
        ranked
    }
}

/// The prompt column's width at most; longer prompts are printed whole past it.
const PROMPT_COLUMN: usize = 48;

/// The prompts as aligned text: count, prompt, who raised it. Each prompt is whole, as it
/// is pasted into `--prompt`: one longer than the column pushes its raisers along.
pub fn prompts_text(prompts: &[FoundPrompt]) -> String {
    let width = prompts
        .iter()
        .map(|p| p.prompt.chars().count())
        .max()
        .unwrap_or(6)
        .clamp(6, PROMPT_COLUMN);
    let mut out = format!("{:>5}  {:<width$}  RAISED BY\n", "COUNT", "PROMPT");
    for p in prompts {
        let prompt = &p.prompt;
        let by: Vec<String> = p
            .raised_by
            .iter()
            .map(|r| format!("{} ({})", r.by, r.place))
            .collect();
        let depth = if p.depth > 1 { " [depth 2]" } else { "" };
        out.push_str(&format!(
            "{:>5}  {prompt:<width$}  {}{depth}\n",
            p.count,
            by.join("; ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_duplicates_are_one_prompt_counted_once_per_vantage_point() {
        assert_eq!(
            near_key("Hiking Boots, reviews!"),
            near_key("review hiking boot")
        );
        assert_eq!(near_key("best boots?"), near_key("Boots best"));
        assert_eq!(near_key("activities"), near_key("activity"));
        assert_ne!(near_key("boots for men"), near_key("boots for women"));
        let mut pool = PromptPool::default();
        pool.add("Hiking boots reviews", "ChatGPT fanout", "US", 1);
        pool.add("hiking boot review", "ChatGPT fanout", "DE", 1);
        pool.add("reviews, hiking boots", "ChatGPT fanout", "US", 2);
        pool.add("hiking boots", "Google related search", "US", 1);
        pool.add("waterproof boots", "Google related question", "US", 2);
        let ranked = pool.ranked("Hiking Boots");
        assert_eq!(ranked.len(), 2, "the topic itself is left out: {ranked:?}");
        assert_eq!(ranked[0].prompt, "Hiking boots reviews");
        assert_eq!(ranked[0].count, 2, "US twice is one vantage point");
        assert_eq!(ranked[0].depth, 1);
        assert_eq!(ranked[1].depth, 2);
        let text = prompts_text(&ranked);
        assert!(
            text.contains("ChatGPT fanout (DE); ChatGPT fanout (US)"),
            "{text}"
        );
    }

    #[test]
    fn a_prompt_longer_than_the_column_is_printed_whole() {
        let long = "which waterproof hiking boots last longest on rocky alpine trails in winter";
        let mut pool = PromptPool::default();
        pool.add(long, "ChatGPT fanout", "US", 1);
        pool.add("short one", "ChatGPT fanout", "US", 1);
        let text = prompts_text(&pool.ranked("boots"));
        let line = text.lines().find(|line| line.contains("alpine")).unwrap();
        assert!(line.contains(long), "{text}");
        assert!(line.ends_with("ChatGPT fanout (US)"), "{text}");
        assert!(!text.contains('…'), "{text}");
    }
}
