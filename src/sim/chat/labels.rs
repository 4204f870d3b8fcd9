//! The hidden labels of a chat page ("You said:", "ChatGPT said:") in the language of the
//! place asked from: the live pages are served in the proxy's language, so an answer asked
//! from Indonesia reads "Anda bilang:" and "ChatGPT bilang:".

/// A page language's two labels, each with its colon as ChatGPT writes it; `{}` is the
/// model's name.
struct Labels {
    you_said: &'static str,
    model_said: &'static str,
}

const ENGLISH: Labels = Labels {
    you_said: "You said:",
    model_said: "{} said:",
};

/// The language of the pages served in a country, for the countries whose language the
/// simulator knows; English elsewhere.
fn labels_of(country: Option<&str>) -> &'static Labels {
    let code = country.map(str::to_ascii_uppercase);
    let labels: &'static Labels = match code.as_deref() {
        Some("ID") => &Labels {
            you_said: "Anda bilang:",
            model_said: "{} bilang:",
        },
        Some("DE" | "AT" | "CH") => &Labels {
            you_said: "Du hast gesagt:",
            model_said: "{} hat gesagt:",
        },
        Some("FR" | "BE") => &Labels {
            you_said: "Vous avez dit :",
            model_said: "{} a dit :",
        },
        Some("ES" | "MX" | "AR" | "CO" | "CL" | "PE") => &Labels {
            you_said: "Has dicho:",
            model_said: "{} dijo:",
        },
        Some("IT") => &Labels {
            you_said: "Hai detto:",
            model_said: "{} ha detto:",
        },
        Some("BR" | "PT") => &Labels {
            you_said: "Você disse:",
            model_said: "O {} disse:",
        },
        Some("NL") => &Labels {
            you_said: "Je zei:",
            model_said: "{} zei:",
        },
        Some("SE") => &Labels {
            you_said: "Du sa:",
            model_said: "{} sa:",
        },
        Some("JP") => &Labels {
            you_said: "あなた:",
            model_said: "{}:",
        },
        _ => &ENGLISH,
    };
    labels
}

/// The label over the user's prompt: ChatGPT's with its colon ("Anda bilang:"), Gemini's
/// without ("You said").
pub(super) fn you_said(model: &str, country: Option<&str>) -> String {
    punctuated(model, labels_of(country).you_said)
}

/// The label over the answer: "ChatGPT bilang:", "Gemini hat gesagt", "Copilot said".
pub(super) fn model_said(model: &str, country: Option<&str>) -> String {
    let name = match model {
        "gemini" => "Gemini",
        "copilot" => "Copilot",
        "perplexity" => "Perplexity",
        _ => "ChatGPT",
    };
    punctuated(model, &labels_of(country).model_said.replace("{}", name))
}

/// ChatGPT ends its labels with a colon; Gemini and Copilot do not.
fn punctuated(model: &str, label: &str) -> String {
    match model {
        "chatgpt" => label.to_string(),
        _ => label.trim_end_matches(':').trim_end().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_place_and_the_model() {
        assert_eq!(model_said("chatgpt", Some("id")), "ChatGPT bilang:");
        assert_eq!(you_said("chatgpt", Some("ID")), "Anda bilang:");
        assert_eq!(model_said("gemini", Some("DE")), "Gemini hat gesagt");
        assert_eq!(model_said("copilot", None), "Copilot said");
        assert_eq!(model_said("chatgpt", Some("ZZ")), "ChatGPT said:");
        assert_eq!(you_said("gemini", Some("FR")), "Vous avez dit");
    }
}
