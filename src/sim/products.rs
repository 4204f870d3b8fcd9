//! The product fields the simulator knows, each with the products live answers name in it,
//! one per brand: a prompt that names a field ("best running shoes", "CRM software") is
//! answered with these, so a tracker counting brands finds the four to seven a live answer
//! names.

#[derive(Debug)]
pub(crate) struct Field {
    pub key: &'static str,
    /// Words or phrases that name the field, matched at the start of a word.
    triggers: &'static [&'static str],
    /// (brand, product), one product per brand.
    pub products: &'static [(&'static str, &'static str)],
}

static FIELDS: &[Field] = &[
    Field {
        key: "running shoes",
        triggers: &["running shoe", "running sneaker", "trainers for running"],
        products: &[
            ("Brooks", "Brooks Ghost 16"),
            ("Hoka", "Hoka Clifton 9"),
            ("Asics", "Asics Gel-Nimbus 26"),
            ("Nike", "Nike Pegasus 41"),
            ("Saucony", "Saucony Ride 17"),
            ("New Balance", "New Balance Fresh Foam 1080v14"),
            ("On", "On Cloudmonster"),
            ("Adidas", "Adidas Adizero Boston 12"),
            ("Mizuno", "Mizuno Wave Rider 28"),
        ],
    },
    Field {
        key: "hiking boots",
        triggers: &["hiking boot", "hiking shoe", "trekking boot"],
        products: &[
            ("Salomon", "Salomon X Ultra 4 GTX"),
            ("Merrell", "Merrell Moab 3 Mid"),
            ("La Sportiva", "La Sportiva Nucleo High II"),
            ("Lowa", "Lowa Renegade GTX"),
            ("Hoka", "Hoka Kaha 2"),
            ("Keen", "Keen Targhee IV"),
            ("Scarpa", "Scarpa Rush Trek"),
        ],
    },
    Field {
        key: "crm software",
        triggers: &["crm"],
        products: &[
            ("Salesforce", "Salesforce Sales Cloud"),
            ("HubSpot", "HubSpot CRM"),
            ("Zoho", "Zoho CRM"),
            ("Pipedrive", "Pipedrive"),
            ("Microsoft", "Microsoft Dynamics 365 Sales"),
            ("Freshworks", "Freshsales"),
            ("monday.com", "monday sales CRM"),
            ("Close", "Close CRM"),
            ("Copper", "Copper CRM"),
        ],
    },
    Field {
        key: "project management software",
        triggers: &["project management", "task management"],
        products: &[
            ("Asana", "Asana"),
            ("Atlassian", "Jira"),
            ("monday.com", "monday work management"),
            ("Trello", "Trello"),
            ("ClickUp", "ClickUp"),
            ("Notion", "Notion Projects"),
            ("Smartsheet", "Smartsheet"),
            ("Wrike", "Wrike"),
        ],
    },
    Field {
        key: "ai coding tools",
        triggers: &[
            "ai coding",
            "coding assistant",
            "ai code",
            "coding tool",
            "coding agent",
        ],
        products: &[
            ("GitHub", "GitHub Copilot"),
            ("Cursor", "Cursor"),
            ("Anthropic", "Claude Code"),
            ("Windsurf", "Windsurf"),
            ("Tabnine", "Tabnine"),
            ("Replit", "Replit Agent"),
            ("Amazon", "Amazon Q Developer"),
            ("Google", "Gemini Code Assist"),
            ("Sourcegraph", "Sourcegraph Cody"),
            ("JetBrains", "JetBrains AI Assistant"),
        ],
    },
    Field {
        key: "vpn services",
        triggers: &["vpn"],
        products: &[
            ("NordVPN", "NordVPN"),
            ("ExpressVPN", "ExpressVPN"),
            ("Surfshark", "Surfshark"),
            ("Proton", "Proton VPN"),
            ("Mullvad", "Mullvad VPN"),
            ("CyberGhost", "CyberGhost"),
            ("Private Internet Access", "Private Internet Access"),
        ],
    },
    Field {
        key: "password managers",
        triggers: &["password manager"],
        products: &[
            ("1Password", "1Password"),
            ("Bitwarden", "Bitwarden"),
            ("Dashlane", "Dashlane"),
            ("Keeper", "Keeper"),
            ("NordPass", "NordPass"),
            ("Proton", "Proton Pass"),
            ("RoboForm", "RoboForm"),
        ],
    },
    Field {
        key: "laptops",
        triggers: &["laptop", "notebook computer"],
        products: &[
            ("Apple", "Apple MacBook Air 13 (M3)"),
            ("Dell", "Dell XPS 14"),
            ("Lenovo", "Lenovo ThinkPad X1 Carbon Gen 12"),
            ("HP", "HP Spectre x360 14"),
            ("Asus", "Asus Zenbook 14 OLED"),
            ("Framework", "Framework Laptop 13"),
            ("Acer", "Acer Swift Go 14"),
            ("Microsoft", "Microsoft Surface Laptop 7"),
        ],
    },
    Field {
        key: "headphones",
        triggers: &["headphone", "earbud", "earphone"],
        products: &[
            ("Sony", "Sony WH-1000XM5"),
            ("Bose", "Bose QuietComfort Ultra"),
            ("Apple", "Apple AirPods Max"),
            ("Sennheiser", "Sennheiser Momentum 4"),
            ("Jabra", "Jabra Elite 10"),
            ("Anker", "Anker Soundcore Space Q45"),
            ("Bowers & Wilkins", "Bowers & Wilkins Px8"),
        ],
    },
    Field {
        key: "espresso machines",
        triggers: &["espresso machine", "coffee machine", "coffee maker"],
        products: &[
            ("Breville", "Breville Barista Express"),
            ("De'Longhi", "De'Longhi Dedica"),
            ("Gaggia", "Gaggia Classic Pro"),
            ("Rancilio", "Rancilio Silvia"),
            ("Nespresso", "Nespresso Vertuo Next"),
            ("Philips", "Philips 3200 LatteGo"),
            ("Jura", "Jura E8"),
        ],
    },
    Field {
        key: "email marketing software",
        triggers: &["email marketing", "newsletter tool", "newsletter platform"],
        products: &[
            ("Mailchimp", "Mailchimp"),
            ("Brevo", "Brevo"),
            ("Klaviyo", "Klaviyo"),
            ("Kit", "Kit (formerly ConvertKit)"),
            ("MailerLite", "MailerLite"),
            ("ActiveCampaign", "ActiveCampaign"),
            ("Constant Contact", "Constant Contact"),
        ],
    },
    Field {
        key: "robot vacuums",
        triggers: &["robot vacuum", "robot hoover", "robotic vacuum"],
        products: &[
            ("Roborock", "Roborock S8 MaxV Ultra"),
            ("iRobot", "iRobot Roomba j9+"),
            ("Ecovacs", "Ecovacs Deebot X2 Omni"),
            ("Dreame", "Dreame L20 Ultra"),
            ("Eufy", "Eufy X10 Pro Omni"),
            ("Shark", "Shark AI Ultra"),
        ],
    },
];

/// The product field a prompt names, if the simulator knows it.
pub(crate) fn field_of(text: &str) -> Option<&'static Field> {
    let lower = text.to_lowercase();
    FIELDS.iter().find(|field| {
        field
            .triggers
            .iter()
            .any(|trigger| starts_a_word(&lower, trigger))
    })
}

/// Whether `phrase` occurs in `text` where a word starts ("crm" in "best CRM tools", not in
/// "scrum").
fn starts_a_word(text: &str, phrase: &str) -> bool {
    text.match_indices(phrase).any(|(at, _)| {
        text[..at]
            .chars()
            .next_back()
            .is_none_or(|before| !before.is_alphanumeric())
    })
}

impl Field {
    /// The brand of one of this field's products.
    pub(crate) fn brand_of(&self, product: &str) -> Option<&'static str> {
        self.products
            .iter()
            .find(|(_, name)| *name == product)
            .map(|(brand, _)| *brand)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_finds_its_field_at_word_starts() {
        let key = |text: &str| field_of(text).map(|f| f.key);
        assert_eq!(key("best running shoes"), Some("running shoes"));
        assert_eq!(key("CRM software for a small team"), Some("crm software"));
        assert_eq!(
            key("What are the best AI coding tools right now?"),
            Some("ai coding tools")
        );
        assert_eq!(key("scrum ceremonies explained"), None);
        assert_eq!(key("what is mcp"), None);
    }

    #[test]
    fn every_field_names_one_product_per_brand_and_enough_of_them() {
        for field in FIELDS {
            let mut brands: Vec<&str> = field.products.iter().map(|(b, _)| *b).collect();
            brands.sort_unstable();
            brands.dedup();
            assert_eq!(brands.len(), field.products.len(), "{}", field.key);
            assert!(field.products.len() >= 6, "{}", field.key);
        }
    }
}
