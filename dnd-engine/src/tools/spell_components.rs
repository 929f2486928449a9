//! A material component with a cost (the SRD's "diamonds worth 300 gp, consumed"): the caster
//! must carry it, and a component the spell consumes leaves the inventory with the casting.
//! Components without a cost are a focus or a pouch's business and are not tracked.
//!
//! The component is read from the spell's text once per casting ([`Costly::of`]); an item of
//! the inventory is it when its name holds the component's last word, singular ("diamond"), and
//! the worth it states in its name or note ("Diamond (300 gp)"), if any, is at least the cost.

use super::ToolError;
use crate::srd::Spell;
use crate::state::{Change, Character};

/// A component with a cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Costly {
    /// What an item's name must hold ("diamond").
    key: String,
    /// Its worth in gold pieces.
    gp: u32,
    /// Used up by the casting.
    consumed: bool,
}

impl Costly {
    /// The costly component of `material` ("diamonds worth 300 gp, consumed"), if it has one.
    fn of(material: &str) -> Option<Costly> {
        let lower = material.to_ascii_lowercase();
        let (what, after) = lower.split_once(" worth ")?;
        let after = after.trim_start_matches("at least ");
        let gp: u32 = after.split_once(" gp")?.0.trim().parse().ok()?;
        let last = what.split_whitespace().last()?;
        let key = match last.strip_suffix('s') {
            Some(stem) if stem.len() > 3 && !stem.ends_with('s') => stem,
            _ => last,
        };
        Some(Costly {
            key: key.to_owned(),
            gp,
            consumed: lower.contains("consumed"),
        })
    }
}

/// The first "N gp" in a text.
fn stated_gp(text: &str) -> Option<u32> {
    let lower = text.to_ascii_lowercase();
    let at = lower.find(" gp")?;
    let digits: String = lower[..at]
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

/// What casting `spell` needs of `caster`'s inventory: nothing for a spell without a costly
/// component; otherwise the item must be there (refused with what is needed and what is
/// carried), and a consumed one leaves with the casting (`ItemRemoved`, to commit with it).
pub(super) fn costly_component(
    caster: &Character,
    spell: &Spell,
) -> Result<Vec<Change>, ToolError> {
    let Some(material) = spell.components.material.as_deref() else {
        return Ok(Vec::new());
    };
    let Some(needed) = Costly::of(material) else {
        return Ok(Vec::new());
    };
    let found = caster.inventory.iter().find(|item| {
        item.name.to_ascii_lowercase().contains(&needed.key)
            && stated_gp(&item.name)
                .or_else(|| stated_gp(&item.note))
                .is_none_or(|gp| gp >= needed.gp)
    });
    let Some(item) = found else {
        let carried: Vec<&str> = caster.inventory.iter().map(|i| i.name.as_str()).collect();
        return Err(ToolError::new(format!(
            "{} needs {material} ({} gp), and {} carries none: carried: {}",
            spell.name,
            needed.gp,
            caster.name,
            if carried.is_empty() {
                "nothing".to_owned()
            } else {
                carried.join(", ")
            }
        )));
    };
    Ok(if needed.consumed {
        vec![Change::ItemRemoved {
            character: caster.id.clone(),
            item: item.name.clone(),
            quantity: 1,
        }]
    } else {
        Vec::new()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_srd_texts_give_the_item_its_worth_and_whether_it_is_used_up() {
        let c = |key: &str, gp, consumed| {
            Some(Costly {
                key: key.into(),
                gp,
                consumed,
            })
        };
        assert_eq!(
            Costly::of("diamonds worth 300 gp, consumed"),
            c("diamond", 300, true)
        );
        assert_eq!(
            Costly::of("a pearl worth at least 100 gp and an owl feather"),
            c("pearl", 100, false)
        );
        assert_eq!(
            Costly::of("incense and powdered diamond worth at least 200 gp, consumed"),
            c("diamond", 200, true)
        );
        assert_eq!(Costly::of("a bit of spiderweb"), None);
        assert_eq!(stated_gp("Diamond (300 gp)"), Some(300));
        assert_eq!(stated_gp("worth 50 gp each"), Some(50));
        assert_eq!(stated_gp("a shiny stone"), None);
    }
}
