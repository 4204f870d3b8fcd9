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
