//! The enumerations of the contract, kept in one place: models, formats, IP types, job kinds.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The four chat models, in the interface's order; the first is the service's default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Model {
    Chatgpt,
    Gemini,
    Perplexity,
    Copilot,
}

impl Model {
    pub const ALL: [Model; 4] = [
        Model::Chatgpt,
        Model::Gemini,
        Model::Perplexity,
        Model::Copilot,
    ];

    /// The value the service takes.
    pub fn as_str(self) -> &'static str {
        match self {
            Model::Chatgpt => "chatgpt",
            Model::Gemini => "gemini",
            Model::Perplexity => "perplexity",
            Model::Copilot => "copilot",
        }
    }

    /// The name people know the chatbot by.
    pub(crate) fn display_name(self) -> &'static str {
        match self {
            Model::Chatgpt => "ChatGPT",
            Model::Gemini => "Gemini",
            Model::Perplexity => "Perplexity",
            Model::Copilot => "Copilot",
        }
    }

    /// Observed time of one sync call on the live service, in seconds (API.md).
    pub(crate) fn typical_seconds(self) -> (u32, u32) {
        match self {
            Model::Gemini => (7, 21),
            Model::Chatgpt => (14, 17),
            Model::Perplexity => (18, 51),
            Model::Copilot => (35, 150),
        }
    }

    /// The element that carries the model's visually hidden "… said:" label when it is not
    /// already hidden by class (Copilot labels its answer with a bare `h6`).
    pub(crate) fn hidden_label_tag(self) -> Option<&'static str> {
        match self {
            Model::Copilot => Some("h6"),
            _ => None,
        }
    }

    /// Only ChatGPT exposes the queries it searched.
    pub(crate) fn exposes_fanouts(self) -> bool {
        self == Model::Chatgpt
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Model {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.trim().to_ascii_lowercase();
        Model::ALL
            .into_iter()
            .find(|m| m.as_str() == lower)
            .ok_or_else(|| {
                format!(
                    "unknown model {s:?}; choose one of {}",
                    Model::ALL.map(Model::as_str).join(", ")
                )
            })
    }
}

macro_rules! value_enum {
    // The first variant listed is the default.
    ($(#[$meta:meta])* $name:ident { $first:ident => $first_text:literal $(, $variant:ident => $text:literal)* $(,)? }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum $name { #[default] $first, $($variant),* }

        impl $name {
            pub const ALL: &'static [$name] = &[$name::$first, $($name::$variant),*];
            /// The value as the service (and the command line) writes it.
            pub fn as_str(self) -> &'static str {
                match self { $name::$first => $first_text, $($name::$variant => $text),* }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let lower = s.trim().to_ascii_lowercase();
                $name::ALL.iter().copied().find(|v| v.as_str() == lower).ok_or_else(|| {
                    let names: Vec<&str> = $name::ALL.iter().map(|v| v.as_str()).collect();
                    format!("unknown value {s:?}; choose one of {}", names.join(", "))
                })
            }
        }
    };
}

/// Every small enumeration of the contract (here and in `proxy`) is made the same way.
pub(crate) use value_enum;

value_enum!(
    /// Output of `GET /ai`: the JSON completion, or the chat page as HTML.
    AiFormat { Json => "json", Rendered => "rendered", Raw => "raw" }
);

value_enum!(
    /// Output of `GET /search`. The service's default is HTML; the app asks for JSON unless told.
    SearchFormat { Json => "json", Html => "html" }
);

value_enum!(
    /// The IP type a search is made from; unset means the service picks at random.
    IpType { Residential => "residential", Isp => "isp" }
);

value_enum!(
    /// What a search waits for before the page is captured (API.md, beyond the contract).
    Awaiting { Ai => "ai", Answers => "answers", Ads => "ads" }
);

value_enum!(
    /// The three kinds of queued job and where each is retrieved.
    JobKind { Ai => "ai", Search => "search", Browser => "browser" }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_parse_case_insensitively_and_round_trip() {
        for model in Model::ALL {
            assert_eq!(model.as_str().to_uppercase().parse::<Model>(), Ok(model));
        }
        assert!("claude".parse::<Model>().unwrap_err().contains("chatgpt"));
    }

    #[test]
    fn value_enums_parse() {
        assert_eq!("RAW".parse::<AiFormat>(), Ok(AiFormat::Raw));
        assert_eq!("isp".parse::<IpType>(), Ok(IpType::Isp));
        assert!("mobile".parse::<IpType>().is_err());
        assert_eq!("browser".parse::<JobKind>(), Ok(JobKind::Browser));
    }
}
