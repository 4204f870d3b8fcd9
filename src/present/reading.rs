//! vantage's reading of one answer, for scripts: who was asked from where, the answer as
//! text and Markdown, its sources as cards, its fanouts and the tracked brands' mentions.
//! `vantage ai --json` prints one; every column of `vantage compare --json` carries one.

use serde::Serialize;

use crate::analysis::mentions::Mention;
use crate::analysis::overview::AI_OVERVIEW;
use crate::api::Location;

use super::answer::{PreparedAnswer, SourceLink};

/// One answer as vantage reads it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AnswerReading {
    /// chatgpt, gemini, perplexity or copilot, as the service says it answered; `ai-overview`
    /// for the AI Overview of a results page (a comparison's `ai-overview` column).
    pub model: String,
    pub prompt: String,
    /// The device the service says it emulated, when it says.
    pub device: Option<String>,
    pub location: Place,
    /// The answer as plain text: a line per paragraph, heading, list item or table row (its
    /// cells joined by " | "), no markup, no citation chips.
    pub text: String,
    pub markdown: String,
    /// The pages it cites, the answer's sources panel first, each page once.
    pub sources: Vec<SourceReading>,
    /// The searches the model made before answering (ChatGPT only).
    pub fanouts: Vec<String>,
    /// The tracked brands: position, count, stance, cited, the sentence; empty without
    /// brands.
    pub mentions: Vec<Mention>,
    /// The AI Overview, where the answer is one: its text and the pages it cites. `null` for
    /// a chatbot's answer, and for a results page that showed no overview.
    pub overview: Option<OverviewReading>,
}

/// Where the answer was asked from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Place {
    pub country: Option<String>,
    pub subdivision: Option<String>,
    pub city: Option<String>,
}

/// A cited page as its card reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceReading {
    /// Its number in the answer's list of sources, from 1.
    pub n: usize,
    /// `null` when the citation names only its site (ChatGPT's pills).
    pub title: Option<String>,
    /// The site's own label ("Wikipedia"), else its domain.
    pub site: String,
    /// Without tracking parameters or the chatbot's text highlight.
    pub url: String,
    /// What the card quotes from the page; `null` when it quotes nothing.
    pub snippet: Option<String>,
}

/// A results page's AI Overview.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OverviewReading {
    pub text: String,
    pub sources: Vec<SourceReading>,
}

impl AnswerReading {
    /// The reading of `answer`, with the mentions of the tracked brands found in it
    /// ([`super::compare::mentions::answer_mentions`]).
    pub fn of(answer: &PreparedAnswer, mentions: Vec<Mention>) -> AnswerReading {
        let Location {
            country,
            subdivision,
            city,
        } = answer.header.location.clone();
        let sources: Vec<SourceReading> = answer
            .sources
            .iter()
            .enumerate()
            .map(|(i, source)| SourceReading::of(i + 1, source))
            .collect();
        let overview =
            (answer.ai_overview && !answer.plain_text.is_empty()).then(|| OverviewReading {
                text: answer.plain_text.clone(),
                sources: sources.clone(),
            });
        AnswerReading {
            model: match answer.ai_overview {
                true => AI_OVERVIEW.to_string(),
                false => answer.header.model.as_str().to_string(),
            },
            prompt: answer.request.prompt.clone(),
            device: answer.header.device.clone(),
            location: Place {
                country,
                subdivision,
                city,
            },
            text: answer.plain_text.clone(),
            markdown: answer.markdown.clone(),
            sources,
            fanouts: answer.fanouts.clone(),
            mentions,
            overview,
        }
    }
}

impl SourceReading {
    fn of(n: usize, source: &SourceLink) -> SourceReading {
        let given = |text: &str| (!text.is_empty()).then(|| text.to_string());
        SourceReading {
            n,
            title: given(&source.title),
            site: source.site.clone(),
            url: source.url.clone(),
            snippet: given(&source.snippet),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::api::{AiAnswer, AiRequest, Completion, Fetched, Model};
    use crate::present::answer;

    fn prepared(completion: Completion) -> PreparedAnswer {
        let mut request = AiRequest::new("best hiking boots");
        request.model = Some(Model::Gemini);
        answer::prepare(
            request,
            Fetched {
                value: AiAnswer::Completion(Box::new(completion)),
                body: "{}".into(),
                status: 200,
                content_type: "application/json".into(),
                elapsed: Duration::from_millis(5),
            },
        )
    }

    #[test]
    fn the_reading_says_who_from_where_and_reads_the_cards() {
        let answer = prepared(Completion {
            model: "gemini".into(),
            completion: "<h2 class=\"cdk-visually-hidden\">Gemini said</h2><p>Try the \
                         <b>Salomon X Ultra</b> first.</p>"
                .into(),
            sources: "<a href=\"https://www.rei.com/boots#:~:text=Fit\"><div>REI</div>\
                      <div>rei.com</div><div>Boots that fit | REI</div><div>Fit first.</div></a>\
                      <a href=\"https://en.wikipedia.org/wiki/Boot\">Wikipedia</a>"
                .into(),
            device: Some("iPhone 15".into()),
            country: Some("DE".into()),
            city: Some("Berlin".into()),
            ..Completion::default()
        });
        let reading = AnswerReading::of(&answer, Vec::new());
        assert_eq!(reading.model, "gemini");
        assert_eq!(reading.prompt, "best hiking boots");
        assert_eq!(reading.device.as_deref(), Some("iPhone 15"));
        assert_eq!(
            reading.location,
            Place {
                country: Some("DE".into()),
                subdivision: None,
                city: Some("Berlin".into()),
            }
        );
        assert_eq!(reading.text, "Try the Salomon X Ultra first.");
        assert_eq!(
            reading.markdown.trim(),
            "Try the **Salomon X Ultra** first."
        );
        assert_eq!(
            reading.sources,
            [
                SourceReading {
                    n: 1,
                    title: Some("Boots that fit | REI".into()),
                    site: "REI".into(),
                    url: "https://www.rei.com/boots".into(),
                    snippet: Some("Fit first.".into()),
                },
                SourceReading {
                    n: 2,
                    title: None,
                    site: "Wikipedia".into(),
                    url: "https://en.wikipedia.org/wiki/Boot".into(),
                    snippet: None,
                },
            ]
        );
        assert!(reading.overview.is_none() && reading.mentions.is_empty());
        let json = serde_json::to_value(&reading).expect("serializes");
        assert_eq!(json["sources"][1]["title"], serde_json::Value::Null);
        assert_eq!(json["location"]["city"], "Berlin");
        assert!(json["mentions"].as_array().is_some_and(Vec::is_empty));
    }

    #[test]
    fn an_ai_overview_is_named_as_such_and_carried_where_there_is_one() {
        let mut answer = prepared(Completion {
            completion: "<p>Boots should fit.</p>".into(),
            ..Completion::default()
        });
        answer.ai_overview = true;
        let reading = AnswerReading::of(&answer, Vec::new());
        assert_eq!(reading.model, "ai-overview");
        let overview = reading.overview.expect("an overview");
        assert_eq!(overview.text, "Boots should fit.");
        answer.plain_text.clear();
        assert!(AnswerReading::of(&answer, Vec::new()).overview.is_none());
    }
}
