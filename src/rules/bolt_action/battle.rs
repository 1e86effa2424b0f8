//! A Bolt Action battle as a plain value: the order-dice bag, the order each unit was given,
//! pins, casualties and units destroyed, and the turn that ends when the bag is empty.
//!
//! The sheet's turn: draw a die from the bag (one die per unit, in its side's colour), give
//! that side's player's chosen unit its order (Fire, Advance, Run, Ambush, Rally, Down), test
//! the order if the unit has pins (a double six is FUBAR), carry it out, and draw again; once
//! the bag is empty the turn ends, and every die goes back in the bag but those of units that
//! keep an Ambush or Down order (data: `battle.kept_orders`). A failed test gives the unit a
//! Down order instead (data: `battle.failed_order`).
//!
//! Every transition is a small pure function from one [`Battle`] to the next, or a
//! [`BattleError`] naming the unit and the reason; nothing here rolls unless handed a
//! [`Roller`], and the dice of the mechanics (order test, shooting, close quarters) come in as
//! their results. What a unit may do in a state is [`Battle::may`].

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::close_quarters::{FightEnd, Winner};
use super::resolve::{OrderResult, OrderTest, ResolveError, morale_of};
use super::tables::{BattleTable, OrderKind};
use super::vehicle_damage::VehicleAfter;
use super::{Category, Quality, UnitProfile};
use crate::rules::dice::{DiceError, Dist, FaceNames, RollRecord, Roller};

/// One of the two sides, each with its own colour of order dice: the battle seam's side.
pub use crate::rules::battle::Side;

/// The side's place in [`Battle::bag`].
pub fn bag_index(side: Side) -> usize {
    match side {
        Side::First => 0,
        Side::Second => 1,
    }
}

/// "first player's", as a die of that colour is named.
pub fn colour(side: Side) -> &'static str {
    match side {
        Side::First => "first player's",
        Side::Second => "second player's",
    }
}

/// The revision of the Bolt Action rulings from which a unit that fired from Ambush no
/// longer keeps its order die over the turn's end.
pub const AMBUSH_FIRED_RELEASED: u32 = 2;

/// A unit's place in [`Battle::units`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct UnitId(pub usize);

/// The order die beside a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GivenOrder {
    pub order: OrderKind,
    /// Kept from an earlier turn (Ambush or Down): not drawn from the bag this turn.
    pub kept: bool,
    /// The FUBAR chart's result, when a double six gave this order.
    pub fubar: Option<String>,
    /// The order has been carried out (it shot, assaulted, rallied).
    pub done: bool,
}

/// What the battle reads of a unit's card: its name, quality and kind — not its weapons or
/// rules, so reading a board of hundreds of units into a battle copies no whole profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitKind {
    pub name: String,
    pub quality: Quality,
    pub category: Category,
}

impl From<&UnitProfile> for UnitKind {
    fn from(profile: &UnitProfile) -> Self {
        UnitKind {
            name: profile.name.clone(),
            quality: profile.quality,
            category: profile.category,
        }
    }
}

/// A unit in the battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BattleUnit {
    pub profile: UnitKind,
    pub side: Side,
    /// Models at the start (1 for a vehicle or gun).
    pub models: u32,
    pub casualties: u32,
    pub pins: u32,
    /// The order die beside it, this turn's or one it kept.
    pub order: Option<GivenOrder>,
    pub immobilised: bool,
    pub destroyed: bool,
}

impl BattleUnit {
    /// A fresh unit of `models` models.
    pub fn new(profile: &UnitProfile, side: Side, models: u32) -> Self {
        BattleUnit {
            profile: UnitKind::from(profile),
            side,
            models,
            casualties: 0,
            pins: 0,
            order: None,
            immobilised: false,
            destroyed: false,
        }
    }

    pub fn name(&self) -> &str {
        &self.profile.name
    }

    pub fn models_left(&self) -> u32 {
        self.models.saturating_sub(self.casualties)
    }

    /// Its die is still in the bag: in the fight, and no order beside it.
    fn die_in_bag(&self) -> bool {
        !self.destroyed && self.order.is_none()
    }
}

/// Something a unit may try to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Shoot (Fire, Advance, or from Ambush).
    Shoot,
    /// Move (Advance or Run).
    Move,
    /// Assault in close quarters (Run, infantry only).
    Assault,
    /// Shed pins (Rally).
    Rally,
}

impl Action {
    fn words(self) -> &'static str {
        match self {
            Action::Shoot => "shoot",
            Action::Move => "move",
            Action::Assault => "assault",
            Action::Rally => "rally",
        }
    }
}

/// Why the battle refuses a step.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BattleError {
    #[error("no unit number {0} in this battle")]
    NoSuchUnit(usize),
    #[error("{unit} is destroyed")]
    Destroyed { unit: String },
    #[error("a battle needs units on both sides")]
    OneSided,
    #[error("{unit}: a unit starts with at least one model")]
    NoModels { unit: String },
    #[error("a {} die is already drawn: give it to a unit first", colour(*side))]
    DiePending { side: Side },
    #[error("no {} die is left in the bag", colour(*side))]
    NoDieLeft { side: Side },
    #[error("the bag is empty: end the turn")]
    BagEmpty,
    #[error("{dice} dice in the bag: a random draw takes at most 255 (draw by hand)")]
    BagTooBig { dice: u32 },
    #[error("draw a die before giving an order")]
    NothingDrawn,
    #[error("the drawn die is the {}; {unit} is the {}", colour(*drawn), colour(*side))]
    WrongSide {
        unit: String,
        side: Side,
        drawn: Side,
    },
    #[error("{unit} already has a {order} order this turn")]
    AlreadyOrdered { unit: String, order: &'static str },
    #[error("{unit} has {pins} pins: take an order test first")]
    TestNeeded { unit: String, pins: u32 },
    #[error("{unit} is immobilised: it cannot {action}")]
    Immobilised { unit: String, action: &'static str },
    #[error("{unit} has no order yet this turn: it cannot {action}")]
    NoOrder { unit: String, action: &'static str },
    #[error("{unit} rolled FUBAR ({result}): it cannot {action}")]
    Fubar {
        unit: String,
        result: String,
        action: &'static str,
    },
    #[error("{unit} has a {order} order: it cannot {action}")]
    OrderForbids {
        unit: String,
        order: &'static str,
        action: &'static str,
    },
    #[error("{unit} has already carried out its {order} order this turn")]
    Done { unit: String, order: &'static str },
    #[error("{unit} is not infantry: only infantry fight in close quarters")]
    NotInfantry { unit: String },
    #[error("{unit} is not a vehicle")]
    NotAVehicle { unit: String },
    #[error("{unit} is a vehicle: use its damage results")]
    IsAVehicle { unit: String },
    #[error("{unit} is on the same side")]
    SameSide { unit: String },
    #[error("the vehicle's state does not start from {unit}'s {pins} pins")]
    StaleVehicle { unit: String, pins: u32 },
    #[error("{left} dice still in the bag: give them out before the turn ends")]
    TurnNotOver { left: u32 },
    #[error("{unit} has no Friendly Fire from the FUBAR chart to carry out")]
    NotFriendlyFire { unit: String },
    #[error("{unit} does not keep its order: only {kept} orders stay by a unit")]
    NotKept { unit: String, kept: String },
    #[error(transparent)]
    Rules(#[from] ResolveError),
    #[error(transparent)]
    Dice(#[from] DiceError),
}

/// A Bolt Action battle: its turn, its units, the dice in the bag and a die drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Battle {
    pub turn: u32,
    pub units: Vec<BattleUnit>,
    /// Dice in the bag, by side.
    pub bag: [u32; 2],
    /// A die drawn and not yet given to a unit.
    pub drawn: Option<Side>,
}

fn rules() -> Result<&'static BattleTable, BattleError> {
    super::DATA
        .for_resolution(|d| &d.battle)
        .map_err(BattleError::Rules)
}

impl Battle {
    /// Turn 1 with every unit's die in the bag.
    ///
    /// # Errors
    /// [`BattleError::OneSided`] without units on both sides; [`BattleError::NoModels`].
    pub fn new(units: Vec<BattleUnit>) -> Result<Battle, BattleError> {
        for side in [Side::First, Side::Second] {
            if !units.iter().any(|u| u.side == side) {
                return Err(BattleError::OneSided);
            }
        }
        if let Some(u) = units.iter().find(|u| u.models == 0) {
            return Err(BattleError::NoModels {
                unit: u.name().to_string(),
            });
        }
        let mut battle = Battle {
            turn: 1,
            units,
            bag: [0, 0],
            drawn: None,
        };
        battle.bag = battle.dice_due();
        Ok(battle)
    }

    /// One die per unit still in the fight with no order beside it, by side.
    fn dice_due(&self) -> [u32; 2] {
        let mut bag = [0, 0];
        for u in self.units.iter().filter(|u| u.die_in_bag()) {
            bag[bag_index(u.side)] += 1;
        }
        bag
    }

    pub fn unit(&self, id: UnitId) -> Result<&BattleUnit, BattleError> {
        self.units.get(id.0).ok_or(BattleError::NoSuchUnit(id.0))
    }

    /// The unit, refused when it is destroyed.
    fn alive(&self, id: UnitId) -> Result<&BattleUnit, BattleError> {
        let unit = self.unit(id)?;
        if unit.destroyed {
            return Err(BattleError::Destroyed {
                unit: unit.name().to_string(),
            });
        }
        Ok(unit)
    }

    /// Dice left in the bag.
    pub fn dice_left(&self) -> u32 {
        self.bag.iter().sum()
    }

    /// The turn is over: the bag is empty and no die waits for a unit.
    pub fn turn_over(&self) -> bool {
        self.dice_left() == 0 && self.drawn.is_none()
    }

    /// The exact chance of each side's colour on the next draw; `None` with an empty bag.
    pub fn draw_odds(&self) -> Option<Dist<Side>> {
        Dist::from_weights([
            (Side::First, u128::from(self.bag[0])),
            (Side::Second, u128::from(self.bag[1])),
        ])
        .ok()
    }

    /// A `side` die drawn from the bag (the players' own draw).
    ///
    /// # Errors
    /// A die already waiting, an empty bag, or none of that colour left.
    pub fn draw(&self, side: Side) -> Result<Battle, BattleError> {
        if let Some(drawn) = self.drawn {
            return Err(BattleError::DiePending { side: drawn });
        }
        if self.dice_left() == 0 {
            return Err(BattleError::BagEmpty);
        }
        if self.bag[bag_index(side)] == 0 {
            return Err(BattleError::NoDieLeft { side });
        }
        let mut next = self.clone();
        next.bag[bag_index(side)] -= 1;
        next.drawn = Some(side);
        Ok(next)
    }

    /// A die drawn at random: one die numbered 1 to the dice in the bag, the first side's
    /// dice numbered first. The players who draw from their own bag say its colour
    /// ("second"): the request names the faces by colour, so they never count dice.
    ///
    /// # Errors
    /// As [`Battle::draw`]; [`BattleError::Dice`] for more than 255 dice in the bag.
    pub fn draw_with(&self, roller: &mut Roller) -> Result<(Battle, RollRecord), BattleError> {
        if let Some(drawn) = self.drawn {
            return Err(BattleError::DiePending { side: drawn });
        }
        let left = self.dice_left();
        let sides = u8::try_from(left).map_err(|_| BattleError::BagTooBig { dice: left })?;
        if sides == 0 {
            return Err(BattleError::BagEmpty);
        }
        let first = u8::try_from(self.bag[0]).unwrap_or(sides);
        let colours = FaceNames::Bag {
            first,
            names: ("first", "second"),
        };
        let record = roller.roll_named("order_die", sides, 1, colours)?;
        let face = u32::from(record.dice.first().copied().unwrap_or(1));
        let side = if face <= self.bag[0] {
            Side::First
        } else {
            Side::Second
        };
        Ok((self.draw(side)?, record))
    }

    /// The order test `unit` must take before an order, if any: it has pins (`officer` lends
    /// his bonus; `modifier` is −3 to assault an enclosed vehicle without anti-tank weapons).
    ///
    /// # Errors
    /// As [`Battle::may_order`].
    pub fn order_test_for(
        &self,
        id: UnitId,
        officer: Option<String>,
        modifier: i32,
    ) -> Result<Option<OrderTest>, BattleError> {
        self.may_order(id)?;
        let unit = self.unit(id)?;
        if unit.pins == 0 && modifier == 0 {
            return Ok(None);
        }
        Ok(Some(OrderTest {
            quality: unit.profile.quality,
            pins: unit.pins,
            officer,
            modifier,
        }))
    }

    /// Whether `unit` may take the drawn die now.
    ///
    /// # Errors
    /// Nothing drawn, the other side's die, the unit destroyed or already ordered.
    pub fn may_order(&self, id: UnitId) -> Result<(), BattleError> {
        let unit = self.alive(id)?;
        let drawn = self.drawn.ok_or(BattleError::NothingDrawn)?;
        if unit.side != drawn {
            return Err(BattleError::WrongSide {
                unit: unit.name().to_string(),
                side: unit.side,
                drawn,
            });
        }
        if let Some(given) = &unit.order {
            return Err(BattleError::AlreadyOrdered {
                unit: unit.name().to_string(),
                order: given.order.label(),
            });
        }
        Ok(())
    }

    /// The drawn die given to `unit` with `order`. A unit with pins must bring its order
    /// test's result (from [`Battle::order_test_for`] and the order-test mechanic), and so
    /// must one tested for another reason (an assault at −3): passed, it takes the order;
    /// failed, it goes down; a FUBAR gives Fire (Friendly Fire) or Run (Panic) as the chart
    /// says.
    ///
    /// # Errors
    /// As [`Battle::may_order`]; a pinned unit without its test; a move for an immobilised
    /// vehicle.
    pub fn give_order(
        &self,
        id: UnitId,
        order: OrderKind,
        test: Option<&OrderResult>,
    ) -> Result<Battle, BattleError> {
        self.may_order(id)?;
        let unit = self.unit(id)?;
        let name = || unit.name().to_string();
        if unit.immobilised && matches!(order, OrderKind::Advance | OrderKind::Run) {
            return Err(BattleError::Immobilised {
                unit: name(),
                action: "move",
            });
        }
        let given = match (unit.pins, test) {
            (0, None) => GivenOrder::new(order, None),
            (pins, None) => return Err(BattleError::TestNeeded { unit: name(), pins }),
            (_, Some(test)) => GivenOrder::tested(order, test)?,
        };
        let mut next = self.clone();
        next.units[id.0].order = Some(given);
        next.drawn = None;
        Ok(next)
    }

    /// Whether `unit` may do `action` now, with the reason when not.
    ///
    /// # Errors
    /// The unit destroyed, without an order, its order forbidding it or already carried out.
    pub fn may(&self, id: UnitId, action: Action) -> Result<(), BattleError> {
        let unit = self.alive(id)?;
        let name = || unit.name().to_string();
        let given = unit.order.as_ref().ok_or_else(|| BattleError::NoOrder {
            unit: name(),
            action: action.words(),
        })?;
        // A FUBAR order is the chart's, not the player's: the refusal names the FUBAR.
        let forbids = || match &given.fubar {
            Some(result) => BattleError::Fubar {
                unit: name(),
                result: result.clone(),
                action: action.words(),
            },
            None => BattleError::OrderForbids {
                unit: name(),
                order: given.order.label(),
                action: action.words(),
            },
        };
        if given.done {
            return Err(BattleError::Done {
                unit: name(),
                order: given.order.label(),
            });
        }
        let panic = given.fubar.is_some() && given.order == OrderKind::Run;
        match (action, given.order) {
            (Action::Shoot, OrderKind::Fire | OrderKind::Advance | OrderKind::Ambush) => {}
            (Action::Move, OrderKind::Advance | OrderKind::Run) if unit.immobilised => {
                return Err(BattleError::Immobilised {
                    unit: name(),
                    action: action.words(),
                });
            }
            (Action::Move, OrderKind::Advance | OrderKind::Run) => {}
            (Action::Assault, OrderKind::Run) if panic => return Err(forbids()),
            (Action::Assault, OrderKind::Run) => {
                if unit.profile.category != Category::Infantry {
                    return Err(BattleError::NotInfantry { unit: name() });
                }
            }
            (Action::Rally, OrderKind::Rally) => {}
            _ => return Err(forbids()),
        }
        Ok(())
    }

    /// `unit`'s order carried out (it shot, moved, assaulted or rallied).
    fn done(&mut self, id: UnitId) {
        if let Some(given) = self.units[id.0].order.as_mut() {
            given.done = true;
        }
    }

    /// `unit` sheds `d6` pins by its Rally order.
    ///
    /// # Errors
    /// As [`Battle::may`] for [`Action::Rally`].
    pub fn rally(&self, id: UnitId, d6: u32) -> Result<Battle, BattleError> {
        self.may(id, Action::Rally)?;
        let mut next = self.clone();
        let unit = &mut next.units[id.0];
        unit.pins = unit.pins.saturating_sub(d6);
        next.done(id);
        Ok(next)
    }

    /// `shooter` has shot (its Fire, Advance or Ambush order is spent).
    ///
    /// # Errors
    /// As [`Battle::may`] for [`Action::Shoot`].
    pub fn shot(&self, shooter: UnitId) -> Result<Battle, BattleError> {
        self.may(shooter, Action::Shoot)?;
        let mut next = self.clone();
        next.done(shooter);
        Ok(next)
    }

    /// A unit on foot takes a shooting attack's casualties and pins; with no model left it is
    /// destroyed (and its die, if still in the bag, comes out).
    ///
    /// # Errors
    /// The target destroyed already, or a vehicle (see [`Battle::vehicle_hit`]).
    pub fn take_hits(&self, id: UnitId, casualties: u32, pins: u32) -> Result<Battle, BattleError> {
        let unit = self.alive(id)?;
        if unit.profile.category.is_vehicle() {
            return Err(BattleError::IsAVehicle {
                unit: unit.name().to_string(),
            });
        }
        let mut next = self.clone();
        let unit = &mut next.units[id.0];
        unit.casualties = (unit.casualties + casualties).min(unit.models);
        unit.pins += pins;
        if unit.models_left() == 0 {
            next.destroy(id);
        }
        Ok(next)
    }

    /// The vehicle as damage results start on it: its morale, its pins, immobilised or not.
    /// Feed it to the shooting or assault mechanic, then its end to [`Battle::vehicle_hit`].
    ///
    /// # Errors
    /// The unit destroyed, or not a vehicle.
    pub fn vehicle_state(&self, id: UnitId) -> Result<VehicleAfter, BattleError> {
        let unit = self.alive(id)?;
        if !unit.profile.category.is_vehicle() {
            return Err(BattleError::NotAVehicle {
                unit: unit.name().to_string(),
            });
        }
        Ok(VehicleAfter::new(
            morale_of(unit.profile.quality)?,
            unit.pins,
            unit.immobilised,
        ))
    }

    /// A vehicle after its damage results: its pins, immobilised, knocked out; halted with a
    /// down order when its crew was stunned or its fire put out (a down die from its side's
    /// bag if it had no order yet), and when immobilised after it acted.
    ///
    /// # Errors
    /// As [`Battle::vehicle_state`]; an `after` that did not start from the unit's pins.
    pub fn vehicle_hit(&self, id: UnitId, after: &VehicleAfter) -> Result<Battle, BattleError> {
        let unit = self.alive(id)?;
        self.vehicle_state(id)?;
        if after.pins < unit.pins {
            return Err(BattleError::StaleVehicle {
                unit: unit.name().to_string(),
                pins: unit.pins,
            });
        }
        let mut next = self.clone();
        if after.knocked_out.is_some() {
            next.destroy(id);
            next.units[id.0].pins = after.pins;
            return Ok(next);
        }
        let side = unit.side;
        let acted = unit.order.as_ref().is_some_and(|o| o.done);
        let halted = after.down || (after.immobilised && !unit.immobilised && acted);
        let vehicle = &mut next.units[id.0];
        vehicle.pins = after.pins;
        vehicle.immobilised |= after.immobilised;
        if halted {
            match vehicle.order.as_mut() {
                Some(given) => {
                    given.order = OrderKind::Down;
                    given.done = true;
                }
                None => {
                    vehicle.order = Some(GivenOrder {
                        done: true,
                        ..GivenOrder::new(OrderKind::Down, None)
                    });
                    next.bag[bag_index(side)] = next.bag[bag_index(side)].saturating_sub(1);
                }
            }
        }
        Ok(next)
    }

    /// A close quarters fight fought: `attacker` (with a Run order) against `defender`; the
    /// loser is destroyed, the winner keeps the models left.
    ///
    /// # Errors
    /// As [`Battle::may`] for [`Action::Assault`]; a defender destroyed, on the same side or
    /// a vehicle.
    pub fn close_quarters(
        &self,
        attacker: UnitId,
        defender: UnitId,
        end: FightEnd,
    ) -> Result<Battle, BattleError> {
        self.may(attacker, Action::Assault)?;
        let target = self.alive(defender)?;
        if target.side == self.unit(attacker)?.side {
            return Err(BattleError::SameSide {
                unit: target.name().to_string(),
            });
        }
        if target.profile.category.is_vehicle() {
            return Err(BattleError::IsAVehicle {
                unit: target.name().to_string(),
            });
        }
        let (winner, loser) = match end.winner {
            Winner::Attackers => (attacker, defender),
            Winner::Defenders => (defender, attacker),
        };
        let mut next = self.clone();
        next.done(attacker);
        let unit = &mut next.units[winner.0];
        unit.casualties = unit.models.saturating_sub(end.left.min(unit.models_left()));
        next.destroy(loser);
        Ok(next)
    }

    /// Infantry `attacker` (with a Run order) assaults `vehicle`. A test it had to take (at
    /// −3 without anti-tank weapons against an enclosed armoured vehicle) and did not pass
    /// turns its order as [`Battle::give_order`] would, and its action ends there; otherwise
    /// it has assaulted, and the vehicle takes `after` (its state after the damage; `None`:
    /// no damage).
    ///
    /// # Errors
    /// As [`Battle::may`] for [`Action::Assault`]; the target destroyed, on the same side or
    /// not a vehicle; as [`Battle::vehicle_hit`].
    pub fn vehicle_assault(
        &self,
        attacker: UnitId,
        vehicle: UnitId,
        test: Option<&OrderResult>,
        after: Option<&VehicleAfter>,
    ) -> Result<Battle, BattleError> {
        self.may(attacker, Action::Assault)?;
        self.vehicle_state(vehicle)?;
        let target = self.unit(vehicle)?;
        if target.side == self.unit(attacker)?.side {
            return Err(BattleError::SameSide {
                unit: target.name().to_string(),
            });
        }
        let mut next = self.clone();
        if let Some(test @ (OrderResult::Failed | OrderResult::Fubar { .. })) = test {
            let asked = self
                .unit(attacker)?
                .order
                .as_ref()
                .map_or(OrderKind::Run, |o| o.order);
            next.units[attacker.0].order = Some(GivenOrder::tested(asked, test)?);
            next.done(attacker);
            return Ok(next);
        }
        next.done(attacker);
        match after {
            Some(after) => next.vehicle_hit(vehicle, after),
            None => Ok(next),
        }
    }

    /// `id` is destroyed; a die of its still in the bag comes out.
    fn destroy(&mut self, id: UnitId) {
        let unit = &mut self.units[id.0];
        if unit.die_in_bag() {
            let side = bag_index(unit.side);
            self.bag[side] = self.bag[side].saturating_sub(1);
        }
        unit.destroyed = true;
        unit.casualties = unit.models;
    }

    /// A unit whose FUBAR gave it Friendly Fire finds no friendly unit to fire at: it does not
    /// fire and goes Down instead (sheet 004, FUBAR chart), its order carried out.
    ///
    /// # Errors
    /// The unit destroyed, or its order is not the FUBAR chart's Friendly Fire still to carry
    /// out.
    pub fn friendly_fire_down(&self, id: UnitId) -> Result<Battle, BattleError> {
        let unit = self.alive(id)?;
        let friendly_fire = unit
            .order
            .as_ref()
            .is_some_and(|o| o.order == OrderKind::Fire && o.fubar.is_some() && !o.done);
        if !friendly_fire {
            return Err(BattleError::NotFriendlyFire {
                unit: unit.name().to_string(),
            });
        }
        let mut next = self.clone();
        next.units[id.0].order = Some(GivenOrder {
            done: true,
            ..GivenOrder::new(OrderKind::Down, None)
        });
        Ok(next)
    }

    /// The turn ends under the current rules ([`Battle::end_turn_under`]).
    ///
    /// # Errors
    /// As [`Battle::end_turn_under`].
    pub fn end_turn(&self, release: &[UnitId]) -> Result<Battle, BattleError> {
        self.end_turn_under(release, AMBUSH_FIRED_RELEASED)
    }

    /// The turn ends: every die back in the bag but those of units still waiting in Ambush or
    /// Down, less the ones in `release` whose players take their dice back. Under the rules
    /// of `revision` 1 a unit that had fired from its Ambush kept it too (corrected in
    /// revision [`AMBUSH_FIRED_RELEASED`]: sheet 004, Turn End, only units retaining an
    /// Ambush keep their die, and one that fired has used it).
    ///
    /// # Errors
    /// Dice still in the bag or a die drawn; a released unit that keeps no order.
    pub fn end_turn_under(&self, release: &[UnitId], revision: u32) -> Result<Battle, BattleError> {
        if !self.turn_over() {
            return Err(BattleError::TurnNotOver {
                left: self.dice_left() + u32::from(self.drawn.is_some()),
            });
        }
        let kept = &rules()?.kept_orders;
        let keeps = |u: &BattleUnit| {
            !u.destroyed
                && u.order.as_ref().is_some_and(|o| {
                    let fired_ambush = o.order == OrderKind::Ambush && o.done;
                    kept.contains(&o.order) && !(fired_ambush && revision >= AMBUSH_FIRED_RELEASED)
                })
        };
        for &id in release {
            let unit = self.unit(id)?;
            if !keeps(unit) {
                let kept: Vec<&str> = kept.iter().map(|o| o.label()).collect();
                return Err(BattleError::NotKept {
                    unit: unit.name().to_string(),
                    kept: kept.join(" and "),
                });
            }
        }
        let mut next = self.clone();
        for (i, unit) in next.units.iter_mut().enumerate() {
            unit.order = match unit.order.take() {
                Some(given) if keeps(&self.units[i]) && !release.contains(&UnitId(i)) => {
                    Some(GivenOrder {
                        kept: true,
                        done: false,
                        fubar: None,
                        ..given
                    })
                }
                _ => None,
            };
        }
        next.turn += 1;
        next.bag = next.dice_due();
        Ok(next)
    }
}

impl GivenOrder {
    /// The order a unit ends up with after its test: the one asked for when passed, Down
    /// when failed, the FUBAR chart's (Friendly Fire: Fire; Panic: Run) after a double six.
    fn tested(order: OrderKind, test: &OrderResult) -> Result<Self, BattleError> {
        Ok(match test {
            OrderResult::Passed => GivenOrder::new(order, None),
            OrderResult::Failed => GivenOrder::new(rules()?.failed_order, None),
            OrderResult::Fubar { result } => {
                let order = if result == "Friendly Fire" {
                    OrderKind::Fire
                } else {
                    OrderKind::Run
                };
                GivenOrder::new(order, Some(result.clone()))
            }
        })
    }

    fn new(order: OrderKind, fubar: Option<String>) -> Self {
        GivenOrder {
            order,
            kept: false,
            fubar,
            done: false,
        }
    }
}

#[cfg(test)]
mod tests;
