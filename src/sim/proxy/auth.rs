//! Proxy credentials as the simulator reads them: `USER-key-value-…:KEY`, the options parsed
//! and checked as the live service does, and the exit each accepted request gets.

use std::fmt::Write as _;

use base64::Engine as _;

use crate::sim::seed::{Mix, hash_parts};

/// Options the service knows, in the order its documentation lists them.
const KNOWN: [&str; 11] = [
    "country",
    "subdivision",
    "city",
    "zipcode",
    "asn",
    "type",
    "session",
    "sessionttl",
    "sessionmode",
    "sessionerr",
    "subaccount",
];

/// Options that place the exit: each needs `country`, and the ISP network takes none.
/// `asn` counts as one: it picks a network within a country.
const GEO: [&str; 5] = ["country", "subdivision", "city", "zipcode", "asn"];

/// Countries the simulator "has no capacity" in, answered with 521.
const NO_CAPACITY: [&str; 1] = ["AQ"];

/// Which proxy network a listener belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Network {
    Residential,
    Isp,
}

impl Network {
    pub fn as_str(self) -> &'static str {
        match self {
            Network::Residential => "residential",
            Network::Isp => "isp",
        }
    }
}

/// Why a request was refused before anything was forwarded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// 407: missing or wrong credentials.
    Credentials(String),
    /// 400: options the service does not accept.
    Options(String),
    /// 521: no exits for that location.
    NoCapacity(String),
}

impl Refusal {
    pub fn status(&self) -> u16 {
        match self {
            Refusal::Credentials(_) => 407,
            Refusal::Options(_) => 400,
            Refusal::NoCapacity(_) => 521,
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Refusal::Credentials(m) | Refusal::Options(m) | Refusal::NoCapacity(m) => m,
        }
    }
}

/// The exit a request leaves from, derived from its options so that the same session
/// always gets the same address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    pub network: Network,
    pub ip: String,
    pub country: String,
    pub timezone: &'static str,
    pub asn: String,
    /// Options as received, decoded, in the order they came.
    pub options: Vec<(String, String)>,
}

impl Exit {
    #[cfg(test)]
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The exit headers, as sent on CONNECT answers and forwarded responses.
    pub fn headers(&self) -> [(&'static str, String); 4] {
        [
            ("X-Exit-IP", self.ip.clone()),
            ("X-Exit-Country", self.country.clone()),
            ("X-Exit-Timezone", self.timezone.to_string()),
            ("X-Exit-ASN", self.asn.clone()),
        ]
    }
}

/// The credentials the listeners accept.
#[derive(Clone, Debug)]
pub struct Credentials {
    pub username: String,
    pub key: String,
}

impl Credentials {
    /// Checks a `Proxy-Authorization` header value (`Basic base64(user:key)`).
    pub fn check_header(
        &self,
        header: Option<&str>,
        network: Network,
        draw: u64,
    ) -> Result<Exit, Refusal> {
        let Some(header) = header else {
            return Err(Refusal::Credentials(
                "Proxy authentication required: send USERNAME:API_KEY as basic proxy auth"
                    .to_string(),
            ));
        };
        let encoded = header
            .trim()
            .strip_prefix("Basic ")
            .or_else(|| header.trim().strip_prefix("basic "))
            .ok_or_else(|| bad_credentials("only basic proxy auth is accepted"))?;
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(encoded.trim())
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .ok_or_else(|| bad_credentials("the credentials are not valid base64 text"))?;
        let (user, key) = decoded
            .split_once(':')
            .ok_or_else(|| bad_credentials("the credentials have no ':' before the key"))?;
        self.check(user, key, network, draw)
    }

    /// Checks a username (with its options) and key; `draw` varies the exit of requests
    /// without a session.
    pub fn check(
        &self,
        user: &str,
        key: &str,
        network: Network,
        draw: u64,
    ) -> Result<Exit, Refusal> {
        let rest = user
            .strip_prefix(self.username.as_str())
            .filter(|rest| rest.is_empty() || rest.starts_with('-'));
        let (Some(rest), true) = (rest, key == self.key) else {
            return Err(bad_credentials("unknown username or wrong API key"));
        };
        let options = parse_options(rest)?;
        check_rules(&options, network)?;
        Ok(exit_for(options, network, draw))
    }
}

fn bad_credentials(why: &str) -> Refusal {
    Refusal::Credentials(format!("Invalid proxy credentials: {why}"))
}

/// `-country-US-city-New%20York` → [("country","US"), ("city","New York")].
fn parse_options(rest: &str) -> Result<Vec<(String, String)>, Refusal> {
    let mut options: Vec<(String, String)> = Vec::new();
    if rest.is_empty() {
        return Ok(options);
    }
    let parts: Vec<&str> = rest[1..].split('-').collect();
    if !parts.len().is_multiple_of(2) {
        return Err(Refusal::Options(format!(
            "Malformed username options: {:?} has no value",
            parts.last().copied().unwrap_or_default()
        )));
    }
    for pair in parts.chunks(2) {
        let key = pair[0].to_ascii_lowercase();
        if !KNOWN.contains(&key.as_str()) {
            return Err(Refusal::Options(format!("Unknown option: {}", pair[0])));
        }
        let value = percent_decode(pair[1])
            .ok_or_else(|| Refusal::Options(format!("Badly encoded value for {key}")))?;
        if value.is_empty() {
            return Err(Refusal::Options(format!("Empty value for {key}")));
        }
        if options.iter().any(|(k, _)| *k == key) {
            return Err(Refusal::Options(format!("Option given twice: {key}")));
        }
        options.push((key, value));
    }
    Ok(options)
}

/// A `%XX`-escaped value; `None` for a malformed escape or bytes that are not UTF-8.
fn percent_decode(text: &str) -> Option<String> {
    // The library passes a malformed escape through unchanged; the service refuses it.
    let hex_pair = |pair: &str| pair.bytes().all(|b| b.is_ascii_hexdigit());
    if !text
        .split('%')
        .skip(1)
        .all(|after| after.get(..2).is_some_and(hex_pair))
    {
        return None;
    }
    percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .ok()
        .map(Into::into)
}

fn check_rules(options: &[(String, String)], network: Network) -> Result<(), Refusal> {
    let get = |key: &str| {
        options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    if network == Network::Isp
        && let Some((key, _)) = options.iter().find(|(k, _)| GEO.contains(&k.as_str()))
    {
        return Err(Refusal::Options(format!(
            "The ISP network supports no geo options ({key} given)"
        )));
    }
    if get("country").is_none()
        && let Some((key, _)) = options.iter().find(|(k, _)| GEO.contains(&k.as_str()))
    {
        return Err(Refusal::Options(format!("Option {key} requires country")));
    }
    if let Some(country) = get("country")
        && !(country.len() == 2 && country.chars().all(|c| c.is_ascii_alphabetic()))
    {
        return Err(Refusal::Options(format!(
            "Invalid country: {country} (two-letter ISO code expected)"
        )));
    }
    if let Some(asn) = get("asn")
        && asn.parse::<u32>().is_err()
    {
        return Err(Refusal::Options(format!("Invalid asn: {asn}")));
    }
    if let Some(kind) = get("type")
        && !["mobile", "common", "tv"].contains(&kind.to_ascii_lowercase().as_str())
    {
        return Err(Refusal::Options(format!(
            "Invalid type: {kind} (mobile, common or tv)"
        )));
    }
    if let Some(ttl) = get("sessionttl")
        && !ttl.parse::<u32>().is_ok_and(|m| (1..=240).contains(&m))
    {
        return Err(Refusal::Options(format!(
            "Invalid sessionttl: {ttl} (minutes, 1 to 240)"
        )));
    }
    if let Some(mode) = get("sessionmode")
        && !["strict", "flex", "norotate"].contains(&mode.to_ascii_lowercase().as_str())
    {
        return Err(Refusal::Options(format!(
            "Invalid sessionmode: {mode} (strict, flex or norotate)"
        )));
    }
    if let Some(country) = get("country")
        && NO_CAPACITY.contains(&country.to_ascii_uppercase().as_str())
    {
        return Err(Refusal::NoCapacity(format!(
            "No capacity for the requested location ({})",
            country.to_ascii_uppercase()
        )));
    }
    Ok(())
}

/// Countries the simulator's exits are spread over when none is asked for.
const DEFAULT_COUNTRIES: [&str; 6] = ["US", "GB", "DE", "FR", "JP", "BR"];

fn timezone_of(country: &str) -> &'static str {
    match country {
        "US" => "America/New_York",
        "CA" => "America/Toronto",
        "MX" => "America/Mexico_City",
        "BR" => "America/Sao_Paulo",
        "AR" => "America/Argentina/Buenos_Aires",
        "GB" => "Europe/London",
        "IE" => "Europe/Dublin",
        "DE" => "Europe/Berlin",
        "FR" => "Europe/Paris",
        "ES" => "Europe/Madrid",
        "IT" => "Europe/Rome",
        "NL" => "Europe/Amsterdam",
        "PL" => "Europe/Warsaw",
        "SE" => "Europe/Stockholm",
        "CH" => "Europe/Zurich",
        "TR" => "Europe/Istanbul",
        "RU" => "Europe/Moscow",
        "IN" => "Asia/Kolkata",
        "CN" => "Asia/Shanghai",
        "JP" => "Asia/Tokyo",
        "KR" => "Asia/Seoul",
        "SG" => "Asia/Singapore",
        "ID" => "Asia/Jakarta",
        "AE" => "Asia/Dubai",
        "AU" => "Australia/Sydney",
        "NZ" => "Pacific/Auckland",
        "ZA" => "Africa/Johannesburg",
        "NG" => "Africa/Lagos",
        "EG" => "Africa/Cairo",
        _ => "UTC",
    }
}

/// Exit addresses come from the documentation ranges (RFC 5737) and ASNs from the
/// documentation range (RFC 5398), so nothing here names a real network.
fn exit_for(options: Vec<(String, String)>, network: Network, draw: u64) -> Exit {
    let get = |key: &str| {
        options
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let session = get("session").map(str::to_string);
    // A session pins the exit; without one every request may leave from elsewhere.
    let seed = match &session {
        Some(session) => hash_parts(&[
            "session",
            network.as_str(),
            session,
            get("country").unwrap_or(""),
            get("subaccount").unwrap_or(""),
        ]),
        None => hash_parts(&["rotating", network.as_str(), &draw.to_string()]),
    };
    let mut mix = Mix::new(seed);
    let country = match get("country") {
        Some(c) => c.to_ascii_uppercase(),
        None => (*mix.pick(&DEFAULT_COUNTRIES)).to_string(),
    };
    let prefix = match network {
        Network::Residential => "203.0.113",
        Network::Isp => "198.51.100",
    };
    let host = 1 + mix.next_u64() % 254;
    let asn = match get("asn") {
        Some(asn) => format!("AS{asn}"),
        None => {
            let n = 64496 + hash_parts(&[&country, network.as_str()]) % 16;
            format!("AS{n}")
        }
    };
    let mut ip = String::new();
    let _ = write!(ip, "{prefix}.{host}");
    Exit {
        network,
        ip,
        timezone: timezone_of(&country),
        country,
        asn,
        options,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creds() -> Credentials {
        Credentials {
            username: "demo-user".into(),
            key: "k".into(),
        }
    }

    #[test]
    fn options_are_parsed_and_checked_like_the_service() {
        let c = creds();
        let exit = c
            .check(
                "demo-user-country-US-city-New%20York-session-a%2Db",
                "k",
                Network::Residential,
                0,
            )
            .unwrap();
        assert_eq!(exit.country, "US");
        assert_eq!(exit.option("city"), Some("New York"));
        assert_eq!(exit.option("session"), Some("a-b"));
        assert!(exit.ip.starts_with("203.0.113."));

        let status = |user: &str, network| {
            c.check(user, "k", network, 0)
                .err()
                .map_or(200, |r| r.status())
        };
        assert_eq!(status("demo-user", Network::Residential), 200);
        assert_eq!(status("demo-user", Network::Isp), 200);
        assert_eq!(status("demo-username", Network::Residential), 407);
        assert_eq!(status("demo-user-city-Paris", Network::Residential), 400);
        assert_eq!(status("demo-user-colour-red", Network::Residential), 400);
        assert_eq!(status("demo-user-country", Network::Residential), 400);
        assert_eq!(status("demo-user-country-DE", Network::Isp), 400);
        assert_eq!(status("demo-user-session-x", Network::Isp), 200);
        assert_eq!(status("demo-user-country-AQ", Network::Residential), 521);
        assert_eq!(status("demo-user-session-a%2", Network::Residential), 400);
        assert_eq!(status("demo-user-session-a%zz", Network::Residential), 400);
        assert_eq!(
            status("demo-user-sessionttl-241", Network::Residential),
            400
        );
        assert_eq!(
            c.check("demo-user", "wrong", Network::Residential, 0)
                .err()
                .map(|r| r.status()),
            Some(407)
        );
    }

    #[test]
    fn a_session_keeps_its_exit_and_no_session_rotates() {
        let c = creds();
        let a = c
            .check("demo-user-session-s1", "k", Network::Residential, 1)
            .unwrap();
        let b = c
            .check("demo-user-session-s1", "k", Network::Residential, 2)
            .unwrap();
        assert_eq!(a.ip, b.ip);
        let ips: std::collections::HashSet<String> = (0..10)
            .map(|d| c.check("demo-user", "k", Network::Isp, d).unwrap().ip)
            .collect();
        assert!(ips.len() > 1);
    }
}
