//! The Compare tab with a grid larger than is asked at once (24 and 48 columns, through the
//! queue), at 80×24 and 160×45: columns paged, each labelled by model, device and place.

mod common;

use common::view::{demo_connection, draw, press};
use std::time::{Duration, Instant};

use crossterm::event::KeyCode;

use vantage::api::{AiAnswer, AiRequest, ApiError, Completion, Fetched, Model};
use vantage::app::{App, Credits, Msg, Tab, update};
use vantage::present::answer;
use vantage::present::compare::summary::parse_location;

fn answer_of(model: Model, device: &str, place: &str) -> Box<answer::PreparedAnswer> {
    let completion = Completion {
        model: model.as_str().into(),
        completion: format!(
            "<div><p>From {place} on {device}, most hikers pick the Salomon X Ultra; the Merrell Moab 3 is the budget pick.</p></div>"
        ),
        sources: "<ol><li><a href=\"https://www.rei.com/boots\">REI</a></li></ol>".into(),
        ..Completion::default()
    };
    let mut request = AiRequest::new("best hiking boots");
    request.model = Some(model);
    let fetched = Fetched {
        value: AiAnswer::Completion(Box::new(completion)),
        body: "{}".into(),
        status: 200,
        content_type: "application/json".into(),
        elapsed: Duration::from_millis(4100),
    };
    Box::new(answer::prepare(request, fetched))
}

/// Four models × desktop and a phone × `places`, sent through the queue; every column in
/// but the second (failed) and the last (its job still out).
fn grid(places: &[&str]) -> App {
    let mut app = App::new(demo_connection(), Instant::now());
    app.credits = Credits::Known(2000);
    app.tab = Tab::Compare;
    app.compare.set_prompt("best hiking boots");
    app.compare.axes.models = Model::ALL.to_vec();
    app.compare.axes.devices = vec!["desktop".into(), "iPhone 15".into()];
    app.compare.axes.locations = places.iter().map(|p| parse_location(p).unwrap()).collect();
    app.compare.rebuild();
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('y'));
    assert!(app.compare.grid.is_some(), "through the queue");
    let columns: Vec<_> = app
        .compare
        .columns
        .iter()
        .map(|c| (c.call.tag().expect("queued"), c.vantage.clone()))
        .collect();
    let last = columns.len() - 1;
    for (i, (tag, vantage)) in columns.into_iter().enumerate() {
        let result = match i {
            1 => Err(ApiError::Unanswered(
                "Its job 9a85717b ended failed with no answer: R asks the column again.".into(),
            )),
            _ if i == last => continue,
            _ => Ok(answer_of(
                vantage.model.unwrap_or(Model::Chatgpt),
                vantage.device.as_deref().unwrap_or("desktop"),
                &vantage::present::compare::summary::location_label(&vantage.location),
            )),
        };
        update(&mut app, Msg::AiDone { tag, result });
    }
    // The run's flash names its entry, made afresh each run.
    app.flash = None;
    app
}

const THREE: [&str; 3] = ["us:co:Denver", "de::Berlin", "gb::London"];
const SIX: [&str; 6] = [
    "us:co:Denver",
    "de::Berlin",
    "gb::London",
    "fr::Paris",
    "jp::Tokyo",
    "br::Sao+Paulo",
];

#[test]
fn twenty_four_columns_at_80_by_24() {
    let mut app = grid(&THREE);
    assert_eq!(app.compare.columns.len(), 24);
    insta::assert_snapshot!(draw(&mut app, 80, 24));
}

#[test]
fn twenty_four_columns_at_160_by_45() {
    let mut app = grid(&THREE);
    insta::assert_snapshot!(draw(&mut app, 160, 45));
}

#[test]
fn forty_eight_columns_at_80_by_24_paged_to_the_last() {
    let mut app = grid(&SIX);
    assert_eq!(app.compare.columns.len(), 48);
    press(&mut app, KeyCode::Esc);
    for _ in 0..47 {
        press(&mut app, KeyCode::Right);
    }
    insta::assert_snapshot!(draw(&mut app, 80, 24));
}

#[test]
fn forty_eight_columns_at_160_by_45_with_the_summary() {
    let mut app = grid(&SIX);
    press(&mut app, KeyCode::Char(']'));
    insta::assert_snapshot!(draw(&mut app, 160, 45));
}
