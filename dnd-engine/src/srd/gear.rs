//! Mundane goods and their prices: the SRD's weapons and armor (bundled as data), and a short
//! list of common adventuring gear with its SRD price, which the bundled data does not hold.
//!
//! The list is what a story may plausibly hand a hero without an adventure placing it (bought
//! in a village, found in a cart, given by a guide): light, common and cheap. It is not the
//! whole equipment chapter; anything missing is simply not available "from the story".

use super::{Srd, slugify};

/// Adventuring gear by name (and other names it goes by) with its price in copper pieces,
/// from the SRD's equipment tables.
const ADVENTURING_GEAR: &[(&str, &[&str], u32)] = &[
    ("Backpack", &[], 200),
    ("Bedroll", &[], 100),
    ("Bell", &[], 100),
    ("Blanket", &[], 50),
    ("Bucket", &[], 5),
    ("Candle", &[], 1),
    ("Chalk", &["piece of chalk"], 1),
    ("Clothes, common", &["common clothes"], 50),
    ("Clothes, traveler's", &["travelers clothes"], 200),
    ("Crowbar", &[], 200),
    ("Fishing tackle", &[], 100),
    ("Flask", &["tankard"], 2),
    ("Grappling hook", &[], 200),
    ("Hammer", &[], 100),
    ("Iron spikes (10)", &["iron spikes", "iron spike"], 100),
    ("Jug", &["pitcher"], 2),
    ("Lamp", &[], 50),
    ("Mess kit", &[], 20),
    ("Oil (flask)", &["flask of oil", "oil"], 10),
    ("Piton", &[], 5),
    ("Pouch", &[], 50),
    (
        "Rations (1 day)",
        &["rations", "ration", "trail rations"],
        50,
    ),
    ("Rope, hempen (50 feet)", &["rope", "hempen rope"], 100),
    ("Sack", &[], 1),
    ("Shovel", &[], 200),
    ("Signal whistle", &["whistle"], 5),
    ("Soap", &[], 2),
    ("Ten-foot pole", &["pole", "10-foot pole"], 5),
    ("Tinderbox", &[], 50),
    ("Torch", &["torches"], 1),
    ("Waterskin", &[], 20),
    ("Arrows (20)", &["arrows", "arrow"], 100),
    (
        "Crossbow bolts (20)",
        &["crossbow bolts", "bolts", "bolt"],
        100,
    ),
    ("Sling bullets (20)", &["sling bullets", "sling bullet"], 4),
];

/// A mundane item: its name as the rules write it, and its price.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MundaneItem {
    /// The name in the equipment tables ("Torch", "Dagger").
    pub name: String,
    /// Its price in copper pieces.
    pub cost_cp: u32,
}

impl Srd {
    /// A mundane item by name, in any case or spelling the lookups accept: an SRD weapon or
    /// armor from the bundled data, or common adventuring gear (the list above). `None` for
    /// anything else: magic items, treasure, an adventure's own items.
    pub fn mundane_item(&self, name: &str) -> Option<MundaneItem> {
        let wanted = slugify(name);
        let same = |n: &str| slugify(n) == wanted;
        if let Some(w) = self
            .weapons
            .iter()
            .find(|w| same(&w.name) || w.slug == wanted)
        {
            return Some(MundaneItem {
                name: w.name.clone(),
                cost_cp: w.cost_cp,
            });
        }
        if let Some(a) = self
            .armor
            .iter()
            .find(|a| same(&a.name) || a.slug == wanted)
        {
            return Some(MundaneItem {
                name: a.name.clone(),
                cost_cp: a.cost_cp,
            });
        }
        ADVENTURING_GEAR
            .iter()
            .find(|(n, aliases, _)| same(n) || aliases.iter().any(|a| same(a)))
            .map(|(n, _, cost)| MundaneItem {
                name: (*n).to_owned(),
                cost_cp: *cost,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mundane_gear_has_its_srd_price_and_magic_has_none() {
        let srd = Srd::bundled();
        let price = |n: &str| srd.mundane_item(n).map(|i| i.cost_cp);
        assert_eq!(price("torch"), Some(1));
        assert_eq!(price("Rope"), Some(100));
        assert_eq!(price("DAGGER"), Some(200), "2 gp, from the bundled weapons");
        assert_eq!(price("Longsword"), Some(1_500));
        assert_eq!(price("Plate"), Some(150_000));
        for magic in [
            "Rime Key",
            "Potion of Healing",
            "Bag of Holding",
            "Vorpal Sword",
            "+1 Longsword",
            "Chain Mail +2",
            "Spell Scroll (Fireball)",
        ] {
            assert_eq!(price(magic), None, "{magic}");
        }
    }
}
