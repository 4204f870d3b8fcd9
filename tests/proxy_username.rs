//! Hostile option values never break the username's `-key-value` grammar.

use proptest::prelude::*;
use vantage::api::proxy::{
    ConnectionType, ProxyOptions, SessionMode, build_username, decode_value, encode_value,
    parse_username,
};

fn text() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop_oneof![
        any::<String>(),
        "[-a-z%:@ ]{0,12}",
        Just("country-US".to_string()),
        Just("-".to_string()),
    ])
}

fn options() -> impl Strategy<Value = ProxyOptions> {
    (
        (
            text(),
            text(),
            text(),
            text(),
            prop::option::of(any::<u32>()),
        ),
        (
            prop::option::of(prop::sample::select(ConnectionType::ALL.to_vec())),
            text(),
            prop::option::of(any::<u32>()),
            prop::option::of(prop::sample::select(SessionMode::ALL.to_vec())),
            text(),
            text(),
        ),
    )
        .prop_map(
            |(
                (country, subdivision, city, zipcode, asn),
                (kind, session, sessionttl, sessionmode, sessionerr, subaccount),
            )| ProxyOptions {
                country,
                subdivision,
                city,
                zipcode,
                asn,
                kind,
                session,
                sessionttl,
                sessionmode,
                sessionerr,
                subaccount,
            },
        )
}

proptest! {
    #[test]
    fn parse_inverts_build(user in "[a-z0-9]{1,10}(-[a-z0-9]{1,8})?", options in options()) {
        let built = build_username(&user, &options);
        prop_assert!(!built.contains(':'));
        prop_assert!(built.is_ascii());
        prop_assert_eq!(parse_username(&built), Ok((user, options)));
    }

    #[test]
    fn values_encode_without_separators(value in any::<String>()) {
        let encoded = encode_value(&value);
        prop_assert!(!encoded.contains('-') && !encoded.contains(':'));
        prop_assert_eq!(decode_value(&encoded), Some(value));
    }
}
