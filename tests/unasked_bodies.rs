//! Bodies and tokens that are not what a call needs (part 29): a page where JSON was asked,
//! a token no header can carry. Each is a failed call with a sentence, never an answer.

mod common;

use common::{client, quick, start};
use vantage::api::{
    AiAnswer, AiFormat, AiRequest, ApiError, Client, ClientSettings, SearchFormat, SearchRequest,
    Secret,
};
use vantage::sim::Fault;

fn json_search(terms: &str) -> SearchRequest {
    SearchRequest {
        format: SearchFormat::Json,
        ..SearchRequest::new(terms)
    }
}

#[tokio::test]
async fn a_gateway_page_sent_with_200_where_json_was_asked_is_a_failed_call_not_an_answer() {
    let sim = start(quick()).await;
    let api = client(&sim);
    let balance = sim.credits();
    sim.script(vec![Some(Fault::GatewayPage), Some(Fault::GatewayPage)]);
    let error = api
        .ai(&AiRequest::new("best hiking boots"))
        .await
        .unwrap_err();
    let ApiError::BadBody { what, excerpt } = &error else {
        panic!("{error:?}");
    };
    assert!(
        what.contains("the JSON asked for did not come") && what.contains("text/html"),
        "{what}"
    );
    assert!(excerpt.contains("502 Bad Gateway"), "{excerpt}");
    assert_eq!(error.exit_code(), 4);
    let error = api.search(&json_search("hiking boots")).await.unwrap_err();
    assert!(matches!(error, ApiError::BadBody { .. }), "{error:?}");
    assert_eq!(sim.credits(), balance, "neither is billed");
    // A page asked for is taken as the page it is.
    sim.script(vec![Some(Fault::GatewayPage)]);
    let rendered = AiRequest {
        format: AiFormat::Rendered,
        ..AiRequest::new("best hiking boots")
    };
    let page = api.ai(&rendered).await.unwrap();
    assert!(matches!(page.value, AiAnswer::Html(_)));
}

#[tokio::test]
async fn a_token_with_a_line_break_inside_is_refused_with_a_sentence_and_never_sent() {
    let sim = start(quick()).await;
    for token in ["sk-live-abc\r\ndef", "sk-live abc", "sk-live-ä"] {
        let settings = ClientSettings::new(&sim.url(), &sim.url(), Secret::new(token));
        let error = Client::new(settings)
            .unwrap()
            .ai(&AiRequest::new("hi"))
            .await
            .unwrap_err();
        assert!(
            matches!(error, ApiError::UnusableToken { .. }),
            "{token:?}: {error:?}"
        );
        assert!(error.to_string().contains("line break"), "{error}");
        assert_eq!(error.exit_code(), 3);
        assert!(
            !error.to_string().contains("abc"),
            "the token is not in the sentence"
        );
    }
    assert_eq!(sim.requests_received(), 0);
}
