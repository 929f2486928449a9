//! `use_item`, `check_inventory`, `add_inventory`, `update_inventory`.
//!
//! Items come from somewhere: loot that lies where the party is (moved with `LootTaken`), or,
//! within a small per-turn allowance, from the story (a purchase, a reward). What the story may
//! give is mundane gear of small value (an SRD weapon, armor or common adventuring gear, see
//! [`crate::srd::Srd::mundane_item`], worth at most [`super::ToolLimits::max_story_value_cp`] in all, or a few
//! coins), and never an item the adventure defines: anything it places as loot, the key of an
//! exit, or an item it describes (a note or an effect). So a model cannot conjure a bag of
//! holding full of potions, nor the key to the last door.

use super::results::{Inventory, InventoryChanged, ItemRemoved, ItemTaken, ItemUsed};
use schemars::JsonSchema;
use serde::Deserialize;

use super::{ToolContext, ToolError};
use crate::effects::{ItemData, ItemKind};
use crate::state::{Change, Character, ItemStack};

/// The name under which adventures leave coins lying about; taken coins go to the purse.
pub const GOLD_ITEM: &str = "Gold pieces";

pub(super) fn character<'a>(
    ctx: &'a ToolContext<'_>,
    name: &str,
) -> Result<&'a Character, ToolError> {
    ctx.state.character(name).ok_or_else(|| {
        ToolError::new(format!(
            "no character {name:?}; valid: {}",
            ctx.state.character_ids().join(", ")
        ))
    })
}

/// Arguments of `use_item`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UseItemArgs {
    /// Who uses it: a character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// The item, as named in the inventory.
    #[schemars(extend("description" = ""))]
    pub item: String,
    /// A potion's drinker (null: the user), or the attack an oil coats (null: a melee weapon).
    #[schemars(description = "A potion's drinker or an oil's weapon.")]
    pub target: Option<String>,
    /// A spell scroll's targets (ids or names; empty for a spell on the reader alone or with no
    /// target); empty for any other item.
    #[serde(default)]
    #[schemars(description = "A spell scroll's.")]
    pub targets: Vec<String>,
}

pub(super) fn use_item(
    args: UseItemArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ItemUsed, ToolError> {
    let user = character(ctx, &args.character)?.clone();
    let Some(stack) = user
        .inventory
        .iter()
        .find(|s| s.name.eq_ignore_ascii_case(&args.item))
        .cloned()
    else {
        let have: Vec<&str> = user.inventory.iter().map(|s| s.name.as_str()).collect();
        return Err(ToolError::new(format!(
            "{} has no {:?}; the inventory holds: {}",
            user.name,
            args.item,
            have.join(", ")
        )));
    };
    // The item's own data (the adventure's), else the SRD's by name: one interpreter for both.
    let data = stack
        .magic
        .clone()
        .filter(ItemData::is_usable)
        .or_else(|| ctx.srd.magic_item(&stack.name).filter(ItemData::is_usable));
    if let Some(data) = &data
        && data.kind == ItemKind::Scroll
    {
        // Reading spends the spell's casting time, which the scroll path asks the gate for.
        return super::item_use::read_scroll(ctx, &user, &stack, &args.targets);
    }
    super::encounter::act(ctx, &args.character, crate::rules::Spend::Action)?;
    let user = character(ctx, &args.character)?.clone();
    if let Some(data) = &data {
        return super::item_use::use_effects(ctx, &user, &stack, data, args.target.as_deref());
    }
    let stack = &stack;
    let here = ctx
        .state
        .party_location()
        .ok_or_else(|| ToolError::new("the party is nowhere"))?;
    let lock = here.exits.iter().find(|e| {
        e.locked
            && e.key
                .as_deref()
                .is_some_and(|k| k.eq_ignore_ascii_case(&stack.name))
    });
    if let Some(exit) = lock {
        let (location, direction) = (here.id.clone(), exit.direction.clone());
        ctx.commit(vec![Change::ExitUnlocked {
            location,
            direction: direction.clone(),
        }])?;
        return Ok(ItemUsed::Unlocked {
            used: stack.name.clone(),
            unlocked_exit: direction,
        });
    }
    Ok(ItemUsed::Narrated {
        used: stack.name.clone(),
        effect: "none the engine resolves; narrate it, and use other tools for any roll or change it causes".to_owned(),
        note: stack.note.clone(),
    })
}

/// Arguments of `check_inventory`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InventoryArgs {
    /// Whose inventory: a character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
}

pub(super) fn check_inventory(
    args: InventoryArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<Inventory, ToolError> {
    let c = character(ctx, &args.character)?;
    Ok(Inventory {
        character: c.name.clone(),
        items: c.inventory.as_ref().clone(),
        gold: c.gold,
    })
}

/// Arguments of `add_inventory`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddItemArgs {
    /// Who receives it: a character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// The item's name.
    #[schemars(extend("description" = ""))]
    pub item: String,
    /// How many (at least 1).
    #[schemars(extend("description" = ""))]
    pub quantity: u32,
    /// Where it is taken from: the id of a found feature where the party is, "floor" for loot
    /// lying in the open, or null to look in both (and, failing that, to grant it from the story,
    /// within the per-turn allowance).
    #[schemars(description = "A found feature's id, \"floor\", or null: either, else the story.")]
    pub from: Option<String>,
}

pub(super) fn add_inventory(
    args: AddItemArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<ItemTaken, ToolError> {
    give(
        ctx,
        &args.character,
        &args.item,
        args.quantity,
        args.from.as_deref(),
    )
}

fn give(
    ctx: &mut ToolContext<'_>,
    who: &str,
    item: &str,
    quantity: u32,
    from: Option<&str>,
) -> Result<ItemTaken, ToolError> {
    if quantity == 0 {
        return Err(ToolError::new("quantity must be at least 1"));
    }
    let c = character(ctx, who)?.clone();
    let here = ctx
        .state
        .party_location()
        .ok_or_else(|| ToolError::new("the party is nowhere"))?;
    let on_floor = here.loot.iter().any(|s| s.name.eq_ignore_ascii_case(item));
    let in_feature = here
        .features
        .iter()
        .find(|f| f.is_known() && f.loot.iter().any(|s| s.name.eq_ignore_ascii_case(item)))
        .map(|f| f.id.clone());
    let source = match from {
        Some("floor") if on_floor => Some(None),
        Some("floor") => return Err(ToolError::new(format!("no {item:?} lies in the open here"))),
        Some(feature) => {
            let known: Vec<&str> = here
                .features
                .iter()
                .filter(|f| f.is_known())
                .map(|f| f.id.as_str())
                .collect();
            if !known.contains(&feature) {
                return Err(ToolError::new(format!(
                    "no found feature {feature:?} here; valid: floor, {}",
                    known.join(", ")
                )));
            }
            Some(Some(feature.to_owned()))
        }
        None if on_floor => Some(None),
        None => in_feature.map(Some),
    };
    // Taking from a trapped feature touches it (`tools::traps`).
    if let Some(Some(feature)) = &source {
        super::traps::on_touch(ctx, &c.id, feature, super::traps::Touch::Loot)?;
    }
    let here = ctx
        .state
        .party_location()
        .ok_or_else(|| ToolError::new("the party is nowhere"))?;
    let mut changes = Vec::new();
    let origin = match source {
        Some(feature) => {
            changes.push(Change::LootTaken {
                character: c.id.clone(),
                feature: feature.clone(),
                item: item.to_owned(),
                quantity,
            });
            feature.unwrap_or_else(|| "floor".into())
        }
        None => {
            from_the_story(ctx, item, quantity)?;
            if ctx.log.new_items >= ctx.limits.new_items_per_turn
                || quantity > ctx.limits.max_new_item_quantity
            {
                let loot: Vec<String> = here
                    .loot
                    .iter()
                    .chain(
                        here.features
                            .iter()
                            .filter(|f| f.is_known())
                            .flat_map(|f| f.loot.iter()),
                    )
                    .map(|s| format!("{} ×{}", s.name, s.quantity))
                    .collect();
                return Err(ToolError::new(format!(
                    "{item:?} is not lying here, and items from nowhere are limited to {} a turn of at most {} each; loot here: {}",
                    ctx.limits.new_items_per_turn,
                    ctx.limits.max_new_item_quantity,
                    if loot.is_empty() {
                        "none".into()
                    } else {
                        loot.join(", ")
                    }
                )));
            }
            changes.push(Change::ItemAdded {
                character: c.id.clone(),
                item: ItemStack::new(item, quantity),
            });
            "the story".into()
        }
    };
    if item.eq_ignore_ascii_case(GOLD_ITEM) {
        // Coins go to the purse, not the pack.
        changes.push(Change::ItemRemoved {
            character: c.id.clone(),
            item: GOLD_ITEM.into(),
            quantity,
        });
        changes.push(Change::Gold {
            character: c.id.clone(),
            delta: i64::from(quantity),
        });
    }
    ctx.commit(changes)?;
    if origin == "the story" {
        ctx.log.new_items += 1;
    }
    let after = character(ctx, &c.id)?;
    Ok(ItemTaken {
        character: after.name.clone(),
        took: item.to_owned(),
        quantity,
        from: origin.to_string(),
        now_has: after.item_quantity(item),
        gold: after.gold,
    })
}

/// Whether the story may hand out `quantity` of `item` (see the module docs): refused, with
/// what is allowed, for an item the adventure defines, for anything but mundane gear, and past
/// the value bound.
fn from_the_story(ctx: &ToolContext<'_>, item: &str, quantity: u32) -> Result<(), ToolError> {
    let is_gold = item.eq_ignore_ascii_case(GOLD_ITEM);
    if !is_gold && let Some(place) = defined_by_the_adventure(ctx.state, item) {
        return Err(ToolError::new(format!(
            "{item:?} is an item of this adventure ({place}): it is had only where the adventure puts it (take it from loot where the party is, with add_inventory's from), never from the story"
        )));
    }
    let unit_cp = if is_gold {
        100
    } else {
        ctx.srd
            .mundane_item(item)
            .ok_or_else(|| {
                ToolError::new(format!(
                    "{item:?} is not mundane gear: the story may give only an SRD weapon, armor or common adventuring gear (a torch, rope, rations, a dagger...) worth at most {} gp in all, or a few gold pieces; anything else is found where the adventure places it",
                    ctx.limits.max_story_value_cp / 100
                ))
            })?
            .cost_cp
    };
    let value = u64::from(unit_cp) * u64::from(quantity);
    if value > u64::from(ctx.limits.max_story_value_cp) {
        return Err(ToolError::new(format!(
            "{quantity} × {item:?} is worth {} cp: what the story gives is worth at most {} cp ({} gp) a time; give less, or something cheaper",
            value,
            ctx.limits.max_story_value_cp,
            ctx.limits.max_story_value_cp / 100
        )));
    }
    Ok(())
}

/// Where the adventure defines an item of this name, if it does: loot anywhere (found or not),
/// an exit's key, or an item with a note or an effect in anyone's inventory.
fn defined_by_the_adventure(state: &crate::state::GameState, item: &str) -> Option<&'static str> {
    let named = |s: &ItemStack| s.name.eq_ignore_ascii_case(item);
    for location in state.locations.iter() {
        if location.loot.iter().any(named)
            || location.features.iter().any(|f| f.loot.iter().any(named))
        {
            return Some("placed as loot");
        }
        if location.exits.iter().any(|e| {
            e.key
                .as_deref()
                .is_some_and(|k| k.eq_ignore_ascii_case(item))
        }) {
            return Some("the key of an exit");
        }
    }
    let described = |s: &ItemStack| named(s) && (!s.note.is_empty() || s.magic.is_some());
    state
        .characters
        .iter()
        .any(|c| c.inventory.iter().any(described))
        .then_some("described by the adventure")
}

/// Arguments of `update_inventory`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateItemArgs {
    /// Whose inventory: a character id or name.
    #[schemars(extend("description" = ""))]
    pub character: String,
    /// The item's name.
    #[schemars(extend("description" = ""))]
    pub item: String,
    /// How many to add (positive) or remove (negative: used, dropped, given away, sold).
    #[schemars(description = "Negative removes.")]
    pub change: i32,
}

pub(super) fn update_inventory(
    args: UpdateItemArgs,
    ctx: &mut ToolContext<'_>,
) -> Result<InventoryChanged, ToolError> {
    match args.change {
        0 => Err(ToolError::new("change must not be 0")),
        n if n > 0 => give(ctx, &args.character, &args.item, n.unsigned_abs(), None)
            .map(InventoryChanged::Added),
        n => {
            let c = character(ctx, &args.character)?.clone();
            ctx.commit(vec![Change::ItemRemoved {
                character: c.id.clone(),
                item: args.item.clone(),
                quantity: n.unsigned_abs(),
            }])?;
            let after = character(ctx, &c.id)?;
            Ok(InventoryChanged::Removed(ItemRemoved {
                character: after.name.clone(),
                now_has: after.item_quantity(&args.item),
                removed: args.item,
                quantity: n.unsigned_abs(),
            }))
        }
    }
}
