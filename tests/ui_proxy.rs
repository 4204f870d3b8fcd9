//! The Proxy tab: snapshots on `TestBackend`, and `update` checked without a terminal.

mod common;

use common::view::{draw, press};
use std::time::{Duration, Instant};
use vantage::app::{CallEffect, OsEffect};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use vantage::api::Secret;
use vantage::api::proxy::{ExitInfo, Protocol, ProxyEndpoints, ProxyError, ProxyResponse};
use vantage::app::proxy::{self, ProxyDefaults, ProxyState};
use vantage::app::{App, Connection, Credits, Effect, Msg, Tab, Tag, update};

const KEY: &str = "sk-live-0123456789abcdef";

fn app_with(key: Option<&str>) -> App {
    let mut app = App::new(
        Connection {
            demo: false,
            host: "render.joinmassive.com".into(),
            token: Some("••••cdef".into()),
            token_hint: "the config file".into(),
        },
        Instant::now(),
    );
    app.credits = Credits::Known(997);
    app.proxy = ProxyState::new(ProxyDefaults {
        username: Some("acme".into()),
        key: key.and_then(Secret::new),
        endpoints: Some(ProxyEndpoints::live(
            "network.joinmassive.com",
            "isp.joinmassive.com",
        )),
        target_url: "https://example.com/ip".into(),
    });
    app.tab = Tab::Proxy;
    app
}

fn keys(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// Types into the text field a key opened, replacing what it held, and accepts it.
fn set_text(app: &mut App, key: char, text: &str) {
    press(app, KeyCode::Char(key));
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL)),
    );
    keys(app, text);
    press(app, KeyCode::Enter);
}

/// SOCKS5 from Berlin, Germany, on a mobile exit, with a session of 30 minutes.
fn set_options(app: &mut App) {
    keys(app, "pp");
    press(app, KeyCode::Char('c'));
    keys(app, "germany");
    press(app, KeyCode::Enter);
    press(app, KeyCode::Char('t'));
    keys(app, "berlin");
    press(app, KeyCode::Enter);
    press(app, KeyCode::Char('m'));
    set_text(app, 'S', "run-1");
    set_text(app, 'T', "30");
}

fn send(app: &mut App) -> Tag {
    let effects = press(app, KeyCode::Enter);
    match effects.as_slice() {
        [Effect::Call(CallEffect::SendProxy { tag, request })] => {
            assert_eq!(request.key.expose(), KEY);
            *tag
        }
        other => panic!("expected one SendProxy, got {other:?}"),
    }
}

fn json_response() -> ProxyResponse {
    ProxyResponse {
        status: 200,
        elapsed: Duration::from_millis(412),
        exit: ExitInfo {
            ip: Some("203.0.113.7".into()),
            country: Some("DE".into()),
            timezone: Some("Europe/Berlin".into()),
            asn: Some("AS64500".into()),
        },
        headers: vec![
            ("content-type".into(), "application/json".into()),
            ("x-exit-ip".into(), "203.0.113.7".into()),
            ("x-exit-country".into(), "DE".into()),
        ],
        body:
            r#"{"ip":"203.0.113.7","country":"DE","options":{"city":"Berlin","session":"run-1"}}"#
                .into(),
        content_type: "application/json".into(),
        username: "acme-country-DE-city-Berlin-type-mobile-session-run%2D1-sessionttl-30".into(),
        proxy_url: "socks5h://network.joinmassive.com:65533".into(),
    }
}

#[test]
fn the_username_preview_follows_the_options() {
    let mut app = app_with(Some(KEY));
    assert_eq!(app.proxy.full_username(), "acme");
    set_options(&mut app);
    assert_eq!(
        app.proxy.full_username(),
        "acme-country-DE-city-Berlin-type-mobile-session-run%2D1-sessionttl-30"
    );
    assert_eq!(
        app.proxy.proxy_url().as_deref(),
        Some("socks5h://network.joinmassive.com:65533")
    );
    insta::assert_snapshot!(draw(&mut app, 100, 30));
}

#[test]
fn the_isp_network_refuses_a_country_at_its_field_and_sends_nothing() {
    let mut app = app_with(Some(KEY));
    press(&mut app, KeyCode::Char('c'));
    keys(&mut app, "germany");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(
        app.proxy.proxy_url().as_deref(),
        Some("https://isp.joinmassive.com:4080")
    );
    let effects = press(&mut app, KeyCode::Enter);
    assert!(effects.is_empty(), "nothing is sent: {effects:?}");
    assert!(!app.proxy.call.is_running());
    let at_country = app
        .proxy
        .errors_at(vantage::api::proxy::ProxyField::Country);
    assert_eq!(at_country.len(), 1);
    assert!(at_country[0].contains("ISP network takes no geo options"));
    let text = draw(&mut app, 100, 30);
    assert!(
        text.contains("✗ country: the ISP network takes no geo options"),
        "{text}"
    );
    // Back on the residential network the same form may be sent.
    press(&mut app, KeyCode::Char('n'));
    assert!(app.proxy.errors().is_empty());
    assert!(matches!(
        press(&mut app, KeyCode::Enter).as_slice(),
        [Effect::Call(CallEffect::SendProxy { .. })]
    ));
}

#[test]
fn a_typed_key_is_masked_and_only_the_copied_curl_command_holds_it() {
    let mut app = app_with(None);
    assert!(
        app.proxy
            .errors()
            .iter()
            .any(|e| e.field == vantage::api::proxy::ProxyField::Key)
    );
    assert!(press(&mut app, KeyCode::Enter).is_empty());
    press(&mut app, KeyCode::Char('K'));
    keys(&mut app, KEY);
    let typing = draw(&mut app, 100, 30);
    assert!(!typing.contains(KEY), "{typing}");
    assert!(typing.contains("••••••••"), "{typing}");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.proxy.key.as_ref().map(Secret::expose), Some(KEY));
    assert!(!format!("{:?}", app.proxy.key).contains(KEY));

    let effects = press(&mut app, KeyCode::Char('y'));
    let [Effect::Os(OsEffect::Copy(command))] = effects.as_slice() else {
        panic!("expected a copy, got {effects:?}");
    };
    let command = command.make();
    let (export, curl) = command.split_once('\n').unwrap();
    assert!(
        export.starts_with(&format!(" export VANTAGE_PROXY_KEY={KEY} ")),
        "{export}"
    );
    assert_eq!(
        curl,
        "curl -x https://network.joinmassive.com:65535 --proxy-user 'acme:'\"$VANTAGE_PROXY_KEY\" https://example.com/ip"
    );
    let text = draw(&mut app, 100, 30);
    assert!(!text.contains(KEY), "{text}");
    assert!(text.contains("key ••••"), "{text}");
}

#[test]
fn a_success_shows_status_exit_headers_and_the_json_body() {
    let mut app = app_with(Some(KEY));
    set_options(&mut app);
    let tag = send(&mut app);
    assert!(app.proxy.call.is_running());
    update(
        &mut app,
        Msg::ProxyDone {
            tag,
            result: Ok(Box::new(proxy::prepare(json_response()))),
        },
    );
    insta::assert_snapshot!(draw(&mut app, 100, 30));
}

#[test]
fn a_success_at_80_columns() {
    let mut app = app_with(Some(KEY));
    set_options(&mut app);
    let tag = send(&mut app);
    update(
        &mut app,
        Msg::ProxyDone {
            tag,
            result: Ok(Box::new(proxy::prepare(json_response()))),
        },
    );
    insta::assert_snapshot!(draw(&mut app, 80, 24));
}

#[test]
fn a_407_is_diagnosed_in_a_sentence() {
    let mut app = app_with(Some(KEY));
    keys(&mut app, "pp");
    let tag = send(&mut app);
    update(
        &mut app,
        Msg::ProxyDone {
            tag,
            result: Err(ProxyError::AuthRequired {
                message: "Proxy Authentication Required".into(),
                protocol: Protocol::Socks5,
                port: 65533,
            }),
        },
    );
    let text = draw(&mut app, 100, 30);
    assert!(text.contains("407"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn esc_cancels_a_running_request_and_its_late_answer_is_dropped() {
    let mut app = app_with(Some(KEY));
    let tag = send(&mut app);
    assert_eq!(
        press(&mut app, KeyCode::Esc),
        vec![Effect::Call(CallEffect::Cancel(tag))]
    );
    update(
        &mut app,
        Msg::ProxyDone {
            tag,
            result: Ok(Box::new(proxy::prepare(json_response()))),
        },
    );
    assert!(app.proxy.response.is_none());
}
