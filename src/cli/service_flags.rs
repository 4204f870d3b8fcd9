//! `--demo`, `--render-url` and `--search-url` after a subcommand: each subcommand that
//! calls the service or reads the data folder takes them (for its own subcommands too), and
//! only those list them in their help. `vantage --demo …` before the subcommand is the same.

use clap::Args;

/// `--demo` alone, for the subcommands that read the data folder but call no service.
#[derive(Debug, Clone, Default, Args)]
pub struct DemoFlag {
    /// Use the demo's own data and embedded simulator: no token, no network
    #[arg(long, global = true)]
    pub demo: bool,
}

/// `--demo` and the service's URLs, for the subcommands that call the service.
#[derive(Debug, Clone, Default, Args)]
pub struct ServiceFlags {
    #[command(flatten)]
    pub demo: DemoFlag,
    /// Base URL of the rendering service (/ai, /ai/devices, /browser)
    #[arg(long, global = true, value_name = "URL")]
    pub render_url: Option<String>,
    /// Base URL of the search service (/search, /search/results)
    #[arg(long, global = true, value_name = "URL")]
    pub search_url: Option<String>,
}

impl ServiceFlags {
    /// These flags, each given here or else `before` (the ones before the subcommand).
    pub fn or(self, before: ServiceFlags) -> ServiceFlags {
        ServiceFlags {
            demo: DemoFlag {
                demo: self.demo.demo || before.demo.demo,
            },
            render_url: self.render_url.or(before.render_url),
            search_url: self.search_url.or(before.search_url),
        }
    }
}

impl From<DemoFlag> for ServiceFlags {
    fn from(demo: DemoFlag) -> Self {
        ServiceFlags {
            demo,
            ..ServiceFlags::default()
        }
    }
}

impl super::Command {
    /// The flags given after the subcommand, where it takes them.
    pub fn service_flags(&self) -> ServiceFlags {
        use super::Command as C;
        match self {
            C::Ai(args) => args.flags.clone(),
            C::Devices { flags, .. } => flags.clone(),
            C::Search(args) => args.flags.clone(),
            C::Page(args) => args.flags.clone(),
            C::Usage(args) => args.flags.clone(),
            C::Job(args) => args.flags.clone(),
            C::Jobs(args) => args.flags.clone(),
            C::Compare(args) => args.flags.clone(),
            C::CompareSearch(args) => args.flags.clone(),
            C::Fanouts(args) => args.flags.clone(),
            C::Track(args) => args.flags.clone(),
            C::Discover(args) => args.flags.clone(),
            C::Proxy(args) => args.demo.clone().into(),
            C::Store { demo, .. } => demo.clone().into(),
            C::History(args) => args.demo.clone().into(),
            C::Brands(args) => args.demo.clone().into(),
            C::Sim(_)
            | C::Completions { .. }
            | C::Man { .. }
            | C::Schema { .. }
            | C::Keys { .. } => ServiceFlags::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::Cli;

    /// The flags in effect for a command line, as `main` reads them.
    fn flags_of(args: &[&str]) -> ServiceFlags {
        let cli = Cli::try_parse_from(args).unwrap();
        let before = ServiceFlags {
            demo: DemoFlag { demo: cli.demo },
            render_url: cli.render_url,
            search_url: cli.search_url,
        };
        cli.command.unwrap().service_flags().or(before)
    }

    #[test]
    fn the_flags_work_before_or_after_the_subcommand_that_takes_them() {
        assert!(flags_of(&["vantage", "--demo", "ai", "boots"]).demo.demo);
        assert!(flags_of(&["vantage", "ai", "boots", "--demo"]).demo.demo);
        assert!(
            flags_of(&["vantage", "track", "run", "boots", "--demo"])
                .demo
                .demo
        );
        assert!(
            flags_of(&["vantage", "history", "show", "ab12", "--demo"])
                .demo
                .demo
        );
        assert!(!flags_of(&["vantage", "ai", "boots"]).demo.demo);
        let after = flags_of(&[
            "vantage",
            "--render-url",
            "http://before",
            "ai",
            "boots",
            "--render-url",
            "http://after",
        ]);
        assert_eq!(after.render_url.as_deref(), Some("http://after"));
        let before = flags_of(&["vantage", "--search-url", "http://before", "search", "b"]);
        assert_eq!(before.search_url.as_deref(), Some("http://before"));
        // Where they mean nothing they are not taken.
        assert!(Cli::try_parse_from(["vantage", "man", "--demo"]).is_err());
        assert!(Cli::try_parse_from(["vantage", "history", "--render-url", "x"]).is_err());
    }
}
