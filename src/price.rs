//! What the service bills, in credits: the one price table. Every cost said before a spend,
//! the Track tab's credits and the simulator's billing read it, so they agree with each
//! other and with the live service. The defaults are the live service's pricing; the config
//! file's `[prices]` table overrides them (a plan priced otherwise).
//!
//! Only successful calls are billed; a usage report costs nothing.

use serde::Deserialize;

/// Credits a call costs, by kind, and the multiplier of the premium parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Prices {
    /// An AI completion (`/ai`).
    pub ai: u64,
    /// A search (`/search`).
    pub search: u64,
    /// A fetched page (`/browser`).
    pub browser: u64,
    /// A usage report (`/usage`).
    pub usage: u64,
    /// What a browser call sent with `speed = ridiculous` is multiplied by.
    pub ridiculous_speed: u64,
}

/// The keys of the config file's `[prices]` table, the only words of its lines quoted back.
pub const PRICE_KEYS: [&str; 5] = ["ai", "search", "browser", "usage", "ridiculous_speed"];

impl Default for Prices {
    fn default() -> Self {
        Prices {
            ai: 5,
            search: 1,
            browser: 1,
            usage: 0,
            ridiculous_speed: 2,
        }
    }
}

/// What a call is, as far as its price goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Billed {
    Ai,
    Search,
    Browser { ridiculous_speed: bool },
    Usage,
}

impl From<crate::api::JobKind> for Billed {
    /// A call as vantage sends it: never with a premium speed.
    fn from(kind: crate::api::JobKind) -> Billed {
        match kind {
            crate::api::JobKind::Ai => Billed::Ai,
            crate::api::JobKind::Search => Billed::Search,
            crate::api::JobKind::Browser => Billed::Browser {
                ridiculous_speed: false,
            },
        }
    }
}

impl Prices {
    /// The credits one successful call costs.
    pub fn of(&self, call: Billed) -> u64 {
        match call {
            Billed::Ai => self.ai,
            Billed::Search => self.search,
            Billed::Browser {
                ridiculous_speed: false,
            } => self.browser,
            Billed::Browser {
                ridiculous_speed: true,
            } => self.browser.saturating_mul(self.ridiculous_speed),
            Billed::Usage => self.usage,
        }
    }
}

/// The calls of one spend, counted by kind, so their cost can be said term by term.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Calls {
    pub answers: u64,
    pub searches: u64,
    pub pages: u64,
}

impl Calls {
    /// One call of this kind.
    pub fn one(call: Billed) -> Calls {
        let mut calls = Calls::default();
        calls.add(call);
        calls
    }

    pub fn searches(n: usize) -> Calls {
        Calls {
            searches: n as u64,
            ..Calls::default()
        }
    }

    /// Counts one more call of this kind (a usage report is not a call that spends).
    pub fn add(&mut self, call: Billed) {
        match call {
            Billed::Ai => self.answers += 1,
            Billed::Search => self.searches += 1,
            Billed::Browser { .. } => self.pages += 1,
            Billed::Usage => {}
        }
    }

    pub fn total(&self) -> u64 {
        self.answers + self.searches + self.pages
    }

    /// What the calls cost if every one succeeds.
    pub fn credits(&self, prices: &Prices) -> u64 {
        self.answers.saturating_mul(prices.ai)
            + self.searches.saturating_mul(prices.search)
            + self.pages.saturating_mul(prices.browser)
    }

    /// "8 answers × 5 + 2 searches × 1 = 42 credits": each kind with calls, at its price.
    pub fn credits_in_words(&self, prices: &Prices) -> String {
        let terms: Vec<String> = [
            (self.answers, "answer", prices.ai),
            (self.searches, "search", prices.search),
            (self.pages, "page", prices.browser),
        ]
        .into_iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|(n, what, price)| format!("{} × {price}", counted(n, what)))
        .collect();
        let credits = counted(self.credits(prices), "credit");
        if terms.is_empty() {
            credits
        } else {
            format!("{} = {credits}", terms.join(" + "))
        }
    }

    /// "10 calls (8 answers × 5 + 2 searches × 1 = 42 credits)".
    pub fn in_words(&self, prices: &Prices) -> String {
        format!(
            "{} ({})",
            counted(self.total(), "call"),
            self.credits_in_words(prices)
        )
    }
}

/// True when a balance (when known) covers `credits`; an unknown balance refuses nothing.
pub fn covers(balance: Option<u64>, credits: u64) -> bool {
    balance.is_none_or(|left| left >= credits)
}

/// "1 answer", "2 searches", "42 credits".
fn counted(n: u64, what: &str) -> String {
    match (n, what) {
        (1, _) => format!("1 {what}"),
        (_, "search") => format!("{n} searches"),
        _ => format!("{n} {what}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_live_services_prices() {
        let prices = Prices::default();
        assert_eq!(prices.of(Billed::Ai), 5);
        assert_eq!(prices.of(Billed::Search), 1);
        assert_eq!(
            prices.of(Billed::Browser {
                ridiculous_speed: false
            }),
            1
        );
        assert_eq!(
            prices.of(Billed::Browser {
                ridiculous_speed: true
            }),
            2
        );
        assert_eq!(prices.of(Billed::Usage), 0);
    }

    #[test]
    fn a_spend_is_said_term_by_term_with_its_sum() {
        let prices = Prices::default();
        let calls = Calls {
            answers: 8,
            searches: 2,
            pages: 0,
        };
        assert_eq!(calls.credits(&prices), 42);
        assert_eq!(
            calls.in_words(&prices),
            "10 calls (8 answers × 5 + 2 searches × 1 = 42 credits)"
        );
        assert_eq!(
            Calls::searches(1).in_words(&prices),
            "1 call (1 search × 1 = 1 credit)"
        );
        assert_eq!(Calls::default().in_words(&prices), "0 calls (0 credits)");
        let dearer = Prices {
            search: 3,
            ..prices
        };
        assert_eq!(
            Calls::searches(2).credits_in_words(&dearer),
            "2 searches × 3 = 6 credits"
        );
    }

    #[test]
    fn an_unknown_balance_refuses_nothing() {
        assert!(covers(None, 500));
        assert!(covers(Some(500), 500));
        assert!(!covers(Some(499), 500));
    }

    #[test]
    fn the_config_table_overrides_some_prices_and_refuses_what_is_not_a_price() {
        let prices: Prices = toml::from_str("ai = 7\nridiculous_speed = 3").unwrap();
        assert_eq!(prices.ai, 7);
        assert_eq!(prices.search, 1);
        assert_eq!(prices.ridiculous_speed, 3);
        assert!(toml::from_str::<Prices>("ai = -1").is_err());
        assert!(toml::from_str::<Prices>("ai = 1.5").is_err());
        assert!(toml::from_str::<Prices>("gpt = 5").is_err());
    }
}
