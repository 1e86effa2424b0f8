//! Command-line flags built from the mechanics' input descriptions: one reusable piece for
//! `odds`, `roll` and any command that takes a mechanic's situation.
//!
//! A [`FlagSet`] is the vocabulary of a few mechanics (a ruleset's, or one mechanic's): every
//! input becomes a flag named after its key in kebab case (`target_disruption` →
//! `--target-disruption`) unless its [`Spelling`](crate::rules::resolution::Spelling) keeps
//! an older name; a choice option may have a switch of its own (`--opportunity`); a card
//! list's number fields repeat once per card (`--shots 6 --shots 4`); a mechanic that shares
//! its inputs with another is picked by its own switch (`--crash`). Inputs of several
//! mechanics that share a flag share one clap argument, whose help joins theirs. `--help`
//! shows each input's label and help, so nothing is written twice.
//!
//! [`FlagSet::pick`] decides which mechanic the flags given describe, [`FlagSet::read`] turns
//! them into the mechanic's [`Inputs`] (the rules then check them like any front end's), and
//! [`FlagSet::name_the_flag`] words a refusal with the flag the user typed: the one place an
//! input becomes a flag.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;

use anyhow::{Result, anyhow, bail};
use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches};

use super::cards::Cards;
use crate::rules::resolution::{
    Choice, EntryField, InputKind, InputSpec, InputValue, Inputs, ListEntry, Mechanic, ResolveError,
};

/// What giving a flag does in one mechanic.
#[derive(Debug, Clone)]
enum Sets {
    /// Turns a toggle on.
    Toggle(&'static str),
    /// Names a choice's option (a flag given alone picks `bare`).
    Choice {
        key: &'static str,
        bare: Option<&'static str>,
    },
    /// Picks one option of a choice (`--opportunity`).
    Option {
        key: &'static str,
        option: &'static str,
    },
    /// Whole numbers for these counts, one value each, in order (`--command-dice 6 5`).
    Counts(Vec<&'static str>),
    /// A measurement.
    Number(&'static str),
    /// A card, by name.
    Card(&'static str),
    /// The cards of a list, one per flag given (`--target A --target B`).
    CardList(&'static str),
    /// A number field of a card list's entries: one for all, or one per card.
    Field {
        list: &'static str,
        field: &'static str,
    },
    /// Picks the mechanic itself (`--crash`).
    Mechanic,
}

/// How clap reads a flag: flags shared by several mechanics must read alike.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Switch,
    Text { bare: Option<&'static str> },
    Int,
    Ints(usize),
    Float,
    RepeatedText,
    RepeatedInt,
}

impl Sets {
    fn shape(&self) -> Shape {
        match self {
            Sets::Toggle(_) | Sets::Option { .. } | Sets::Mechanic => Shape::Switch,
            Sets::Choice { bare, .. } => Shape::Text { bare: *bare },
            Sets::Counts(keys) if keys.len() == 1 => Shape::Int,
            Sets::Counts(keys) => Shape::Ints(keys.len()),
            Sets::Number(_) => Shape::Float,
            Sets::Card(_) => Shape::Text { bare: None },
            Sets::CardList(_) => Shape::RepeatedText,
            Sets::Field { .. } => Shape::RepeatedInt,
        }
    }

    /// The input keys this use sets.
    fn keys(&self) -> Vec<&'static str> {
        match self {
            Sets::Toggle(k)
            | Sets::Choice { key: k, .. }
            | Sets::Option { key: k, .. }
            | Sets::Number(k)
            | Sets::Card(k)
            | Sets::CardList(k) => vec![k],
            Sets::Counts(keys) => keys.clone(),
            Sets::Field { field, .. } => vec![field],
            Sets::Mechanic => Vec::new(),
        }
    }
}

/// One use of a flag: by which mechanic, setting what, described how.
#[derive(Debug, Clone)]
struct Use {
    mechanic: &'static Mechanic,
    sets: Sets,
    help: String,
    /// Options a choice flag takes, for `--help`.
    options: Vec<Choice>,
    value_names: Vec<String>,
}

/// One flag of the set and its uses.
#[derive(Debug, Clone)]
struct Flag {
    name: String,
    aliases: Vec<&'static str>,
    uses: Vec<Use>,
}

/// The flags of some mechanics, merged by name.
#[derive(Debug, Clone)]
pub struct FlagSet {
    mechanics: Vec<&'static Mechanic>,
    flags: Vec<Flag>,
    /// Flags two mechanics spell alike but read differently (a test keeps this empty).
    conflicts: Vec<String>,
}

/// Flags every command adds beside the mechanics' own: never an input's name.
pub const RESERVED: [&str; 5] = ["json", "seed", "dice", "data-dir", "help"];

/// "[0–2, default 0]".
fn range_note(min: impl ToString, max: impl ToString, default: impl ToString) -> String {
    format!(
        " [{}–{}, default {}]",
        min.to_string(),
        max.to_string(),
        default.to_string()
    )
}

fn sentence(label: &str, help: &str) -> String {
    format!("{label}: {help}")
}

/// The uses one input declares (its own flag, and a switch per option that has one).
fn input_uses(
    mechanic: &'static Mechanic,
    spec: &InputSpec,
) -> Vec<(String, Vec<&'static str>, Use)> {
    let name = spec.flag_name().into_owned();
    let aliases = spec.spelling.aliases.to_vec();
    let plain = |sets: Sets, help: String| Use {
        mechanic,
        sets,
        help,
        options: Vec::new(),
        value_names: Vec::new(),
    };
    let valued = |sets: Sets, value_name: String, help: String| Use {
        value_names: vec![value_name],
        ..plain(sets, help)
    };
    let about = sentence(spec.label, spec.help);
    let mut uses = Vec::new();
    match &spec.kind {
        InputKind::Toggle => uses.push((name, aliases, plain(Sets::Toggle(spec.key), about))),
        InputKind::Choice(options) => {
            let default = match spec.default {
                InputValue::Choice(key) => key.replace('_', "-"),
                _ => String::new(),
            };
            let bare = spec
                .spelling
                .bare
                .map(|b| format!("; alone: {}", b.replace('_', "-")))
                .unwrap_or_default();
            let listed = if options.len() > MAX_POSSIBLE_VALUES {
                let some: Vec<&str> = options.iter().skip(1).take(3).map(|o| o.label).collect();
                format!(
                    " (one of {} by name, any case: {}, …)",
                    options.len(),
                    some.join(", ")
                )
            } else {
                String::new()
            };
            uses.push((
                name.clone(),
                aliases,
                Use {
                    options: options.to_vec(),
                    value_names: vec![spec.key.to_uppercase()],
                    ..plain(
                        Sets::Choice {
                            key: spec.key,
                            bare: spec.spelling.bare,
                        },
                        format!("{about}{listed} [default {default}{bare}]"),
                    )
                },
            ));
            for option in options.iter().filter(|o| !o.flags.is_empty()) {
                let (first, rest) = option.flags.split_at(1);
                uses.push((
                    first.concat(),
                    rest.to_vec(),
                    plain(
                        Sets::Option {
                            key: spec.key,
                            option: option.key,
                        },
                        format!(
                            "{}: {} (--{name} {})",
                            spec.label,
                            option.label,
                            option.key.replace('_', "-")
                        ),
                    ),
                ));
            }
        }
        InputKind::Count { min, max } => {
            let default = match spec.default {
                InputValue::Count(n) => n,
                _ => 0,
            };
            let help = format!("{about}{}", range_note(min, max, default));
            let one = valued(Sets::Counts(vec![spec.key]), spec.key.to_uppercase(), help);
            uses.push((name, aliases, one));
        }
        InputKind::Number { min, max } => {
            let default = match spec.default {
                InputValue::Number(x) => x,
                _ => 0.0,
            };
            let help = format!("{about}{}", range_note(min, max, default));
            uses.push((
                name,
                aliases,
                valued(Sets::Number(spec.key), "N".into(), help),
            ));
        }
        InputKind::Card { optional, .. } => {
            let need = if *optional { "optional" } else { "needed" };
            let help = format!("{about} (a card name, any case; {need})");
            uses.push((
                name,
                aliases,
                valued(Sets::Card(spec.key), "NAME".into(), help),
            ));
        }
        InputKind::CardList { max, fields, .. } => {
            let help = format!("{about} (a card name; repeat for up to {max})");
            let one = valued(Sets::CardList(spec.key), "NAME".into(), help);
            uses.push((name.clone(), aliases, one));
            uses.extend(
                fields
                    .iter()
                    .map(|field| field_use(mechanic, spec, &name, field)),
            );
        }
    }
    uses
}

fn field_use(
    mechanic: &'static Mechanic,
    spec: &InputSpec,
    list_flag: &str,
    field: &EntryField,
) -> (String, Vec<&'static str>, Use) {
    (
        field.flag_name().into_owned(),
        Vec::new(),
        Use {
            mechanic,
            sets: Sets::Field {
                list: spec.key,
                field: field.key,
            },
            help: format!(
                "{}: {} One for every --{list_flag}, or one per --{list_flag} in order{}",
                field.label,
                field.help,
                range_note(field.min, field.max, 0)
            ),
            options: Vec::new(),
            value_names: vec!["N".into()],
        },
    )
}

/// Choices with more options than this list none in `--help` (a weapons chart).
const MAX_POSSIBLE_VALUES: usize = 10;

impl FlagSet {
    /// The flags of `mechanics` (a ruleset's, or one); those that need a switch of their own
    /// get it.
    pub fn of(mechanics: impl IntoIterator<Item = &'static Mechanic>) -> Self {
        let mechanics: Vec<&'static Mechanic> = mechanics.into_iter().collect();
        let mut set = FlagSet {
            mechanics: mechanics.clone(),
            flags: Vec::new(),
            conflicts: Vec::new(),
        };
        for &mechanic in &mechanics {
            if mechanic.needs_flag && mechanics.len() > 1 {
                set.add(
                    mechanic.key.replace('_', "-"),
                    Vec::new(),
                    Use {
                        mechanic,
                        sets: Sets::Mechanic,
                        help: format!(
                            "Resolve {} (and not {})",
                            mechanic.label,
                            others(&mechanics, mechanic)
                        ),
                        options: Vec::new(),
                        value_names: Vec::new(),
                    },
                );
            }
            let mut counts: BTreeMap<String, usize> = BTreeMap::new();
            for spec in (mechanic.inputs)() {
                for (name, aliases, one) in input_uses(mechanic, &spec) {
                    // Counts sharing one name are given together (`--command-dice 6 5`).
                    if let Sets::Counts(keys) = &one.sets
                        && let Some(&i) = counts.get(&name)
                        && let Some(last) = set.flags[i].uses.last_mut()
                        && let Sets::Counts(earlier) = &mut last.sets
                    {
                        earlier.extend(keys);
                        last.help = format!("{}, then {}", last.help, one.help);
                        last.value_names.extend(one.value_names);
                        continue;
                    }
                    let index = set.add(name.clone(), aliases, one);
                    counts.insert(name, index);
                }
            }
        }
        set
    }

    /// Adds one use of flag `name`; returns the flag's index.
    fn add(&mut self, name: String, aliases: Vec<&'static str>, one: Use) -> usize {
        if RESERVED.contains(&name.as_str()) {
            self.conflicts.push(format!(
                "--{name} ({}) is a reserved flag",
                one.mechanic.title()
            ));
        }
        if let Some(i) = self.flags.iter().position(|f| f.name == name) {
            let flag = &mut self.flags[i];
            let shape = flag.uses[0].sets.shape();
            if shape != one.sets.shape() {
                self.conflicts.push(format!(
                    "--{name}: {:?} in {} but {:?} in {}",
                    shape,
                    flag.uses[0].mechanic.title(),
                    one.sets.shape(),
                    one.mechanic.title()
                ));
                return i;
            }
            for alias in aliases {
                if !flag.aliases.contains(&alias) {
                    flag.aliases.push(alias);
                }
            }
            flag.uses.push(one);
            return i;
        }
        self.flags.push(Flag {
            name,
            aliases,
            uses: vec![one],
        });
        self.flags.len() - 1
    }

    /// The same set without the flags of these inputs (a command that supplies them itself).
    pub fn without_inputs(mut self, keys: &[&str]) -> Self {
        for flag in &mut self.flags {
            flag.uses
                .retain(|u| !u.sets.keys().iter().any(|k| keys.contains(k)));
        }
        self.flags.retain(|f| !f.uses.is_empty());
        self
    }

    /// Every flag's name, without the dashes.
    pub fn names(&self) -> BTreeSet<String> {
        self.flags.iter().map(|f| f.name.clone()).collect()
    }

    /// Flags spelt alike that read differently, or that take a reserved name: empty in a
    /// correct build (a test checks every ruleset).
    pub fn conflicts(&self) -> &[String] {
        &self.conflicts
    }

    /// The clap arguments, one per flag.
    pub fn args(&self) -> Vec<Arg> {
        self.flags.iter().map(|flag| self.arg(flag)).collect()
    }

    fn arg(&self, flag: &Flag) -> Arg {
        let first = &flag.uses[0];
        let mut arg = Arg::new(flag.name.clone())
            .long(flag.name.clone())
            .help(self.help(flag));
        for alias in &flag.aliases {
            arg = arg.visible_alias(*alias);
        }
        let names: Vec<String> = first.value_names.clone();
        match first.sets.shape() {
            Shape::Switch => arg.action(ArgAction::SetTrue),
            Shape::Text { bare } => {
                let mut options: Vec<Choice> = Vec::new();
                for u in &flag.uses {
                    for o in &u.options {
                        if !options.iter().any(|known| known.key == o.key) {
                            options.push(*o);
                        }
                    }
                }
                arg = arg
                    .action(ArgAction::Set)
                    .value_name(names.first().cloned().unwrap_or_else(|| "VALUE".into()))
                    .value_parser(OptionNames::of(&options));
                if let Some(bare) = bare {
                    arg = arg.num_args(0..=1).default_missing_value(bare);
                }
                arg
            }
            Shape::Int => arg
                .action(ArgAction::Set)
                .value_name(names.first().cloned().unwrap_or_else(|| "N".into()))
                .allow_negative_numbers(true)
                .value_parser(clap::value_parser!(i64)),
            Shape::Ints(n) => arg
                .action(ArgAction::Set)
                .num_args(n)
                .value_names(names)
                .allow_negative_numbers(true)
                .value_parser(clap::value_parser!(i64)),
            Shape::Float => arg
                .action(ArgAction::Set)
                .value_name("N")
                .allow_negative_numbers(true)
                .value_parser(clap::value_parser!(f64)),
            Shape::RepeatedText => arg.action(ArgAction::Append).value_name("NAME"),
            Shape::RepeatedInt => arg
                .action(ArgAction::Append)
                .value_name("N")
                .allow_negative_numbers(true)
                .value_parser(clap::value_parser!(i64)),
        }
    }

    /// A flag's help: its input's, or, where mechanics share it and say different things,
    /// each mechanic's in turn.
    fn help(&self, flag: &Flag) -> String {
        let mut helps: Vec<(&str, &str)> = Vec::new();
        for u in &flag.uses {
            if !helps.iter().any(|(_, h)| *h == u.help) {
                helps.push((u.mechanic.label, &u.help));
            }
        }
        if helps.len() == 1 || self.mechanics.len() == 1 {
            return helps
                .first()
                .map(|(_, h)| h.to_string())
                .unwrap_or_default();
        }
        helps
            .iter()
            .map(|(mechanic, h)| format!("{mechanic} — {h}"))
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// The mechanics' flags, for a `--help` summary: how each is picked.
    pub fn summary(&self) -> String {
        let lines: Vec<String> = self
            .mechanics
            .iter()
            .map(|m| match self.picking_flag(m) {
                Some(flag) => format!("{} (--{flag})", m.label),
                None => m.label.to_string(),
            })
            .collect();
        lines.join(", ")
    }

    /// The flag that most plainly picks `mechanic`: its switch, else its first card flag no
    /// other mechanic has, else its first such flag.
    pub(super) fn picking_flag(&self, mechanic: &Mechanic) -> Option<String> {
        let own: Vec<&Flag> = self
            .flags
            .iter()
            .filter(|f| f.uses.iter().all(|u| std::ptr::eq(u.mechanic, mechanic)))
            .collect();
        own.iter()
            .find(|f| matches!(f.uses[0].sets, Sets::Mechanic))
            .or_else(|| {
                own.iter()
                    .find(|f| matches!(f.uses[0].sets, Sets::Card(_) | Sets::CardList(_)))
            })
            .or_else(|| own.first())
            .map(|f| f.name.clone())
    }

    /// The flags given on the command line.
    fn given<'a>(&'a self, matches: &ArgMatches) -> Vec<&'a Flag> {
        self.flags
            .iter()
            .filter(|f| matches.value_source(&f.name) == Some(ValueSource::CommandLine))
            .collect()
    }

    /// The inputs of `mechanic` that the flags given on the command line set (not those left
    /// at their defaults): what a command passes on when the rules fill in the rest.
    pub fn given_inputs(&self, mechanic: &Mechanic, matches: &ArgMatches) -> Vec<&'static str> {
        self.given(matches)
            .into_iter()
            .flat_map(|f| &f.uses)
            .filter(|u| std::ptr::eq(u.mechanic, mechanic))
            .flat_map(|u| u.sets.keys())
            .collect()
    }

    /// The mechanic the given flags describe: the one whose switch is given, else the only
    /// one (of those needing no switch) that takes every flag given.
    ///
    /// # Errors
    /// When the flags fit no mechanic, or several, saying which flags go where.
    pub fn pick(&self, matches: &ArgMatches) -> Result<&'static Mechanic> {
        let given = self.given(matches);
        let takes = |m: &Mechanic, f: &Flag| f.uses.iter().any(|u| std::ptr::eq(u.mechanic, m));
        let switches: Vec<&'static Mechanic> = given
            .iter()
            .flat_map(|f| &f.uses)
            .filter(|u| matches!(u.sets, Sets::Mechanic))
            .map(|u| u.mechanic)
            .collect();
        let candidates: Vec<&'static Mechanic> = match switches.as_slice() {
            [one] => vec![*one],
            [] if self.mechanics.len() == 1 => self.mechanics.clone(),
            [] => self
                .mechanics
                .iter()
                .copied()
                .filter(|m| !m.needs_flag)
                .collect(),
            several => bail!(
                "{}: give one",
                several
                    .iter()
                    .map(|m| format!("--{}", m.key.replace('_', "-")))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let fitting: Vec<&'static Mechanic> = candidates
            .iter()
            .copied()
            .filter(|m| given.iter().all(|f| takes(m, f)))
            .collect();
        match fitting.as_slice() {
            [one] => Ok(*one),
            [] if candidates.is_empty() => bail!("say what to resolve: {}", self.choose_one()),
            [] => {
                // The candidate taking most of the flags given is the one meant.
                let best = candidates
                    .iter()
                    .copied()
                    .max_by_key(|m| {
                        (
                            given.iter().filter(|f| takes(m, f)).count(),
                            std::cmp::Reverse(self.position(m)),
                        )
                    })
                    .unwrap_or(candidates[0]);
                let stray: Vec<String> = given
                    .iter()
                    .filter(|f| !takes(best, f))
                    .map(|f| {
                        let elsewhere: Vec<String> = self
                            .mechanics
                            .iter()
                            .filter(|m| takes(m, f))
                            .map(|m| match self.picking_flag(m) {
                                Some(p) if m.needs_flag => format!("{} (--{p})", m.label),
                                _ => m.label.to_string(),
                            })
                            .collect();
                        if elsewhere.is_empty() {
                            format!("--{}", f.name)
                        } else {
                            format!("--{} (it belongs to {})", f.name, elsewhere.join(", "))
                        }
                    })
                    .collect();
                let verb = if stray.len() == 1 { "does" } else { "do" };
                bail!("{} {verb} not apply to {}", stray.join(", "), best.label)
            }
            _ => bail!("say what to resolve: {}", self.choose_one()),
        }
    }

    fn position(&self, mechanic: &Mechanic) -> usize {
        self.mechanics
            .iter()
            .position(|m| std::ptr::eq(*m, mechanic))
            .unwrap_or(usize::MAX)
    }

    /// "--attacker (fire), --command-dice (command dice), …".
    fn choose_one(&self) -> String {
        self.mechanics
            .iter()
            .map(|m| match self.picking_flag(m) {
                Some(flag) => format!("--{flag} ({})", m.label),
                None => m.label.to_string(),
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The inputs of `mechanic` as the flags given set them, over `inputs` (its defaults, or
    /// a battle's situation); cards are looked up in `cards`.
    ///
    /// # Errors
    /// An unknown card or option name, numbers that do not match the cards of a list, two
    /// flags setting one choice, or a flag that does not apply to the situation the others
    /// describe (`--battle` with direct fire) — each naming the flag.
    pub fn read(
        &self,
        mechanic: &'static Mechanic,
        matches: &ArgMatches,
        cards: &Cards,
        mut inputs: Inputs,
    ) -> Result<Inputs> {
        let specs = (mechanic.inputs)();
        let given: Vec<(&Flag, &Use)> = self
            .given(matches)
            .into_iter()
            .filter_map(|f| {
                f.uses
                    .iter()
                    .find(|u| std::ptr::eq(u.mechanic, mechanic))
                    .map(|u| (f, u))
            })
            .collect();
        // Which flag set each choice, to refuse two flags for one.
        let mut chosen_by: BTreeMap<&'static str, String> = BTreeMap::new();
        let mut list_fields = Vec::new();
        for &(flag, one) in &given {
            let name = &flag.name;
            match &one.sets {
                Sets::Toggle(key) => inputs.set(key, InputValue::Flag(true)),
                Sets::Choice { key, .. } => {
                    let spec = spec_of(&specs, key)?;
                    let text = matches.get_one::<String>(name).map_or("", String::as_str);
                    let option = spec
                        .option_named(text)
                        .map_err(|e| self.name_the_flag(mechanic, matches, e))?;
                    once(&mut chosen_by, key, name, spec)?;
                    inputs.set(key, InputValue::Choice(option));
                }
                Sets::Option { key, option } => {
                    let spec = spec_of(&specs, key)?;
                    once(&mut chosen_by, key, name, spec)?;
                    inputs.set(key, InputValue::Choice(option));
                }
                Sets::Counts(keys) => {
                    let values: Vec<i64> = matches
                        .get_many::<i64>(name)
                        .map(|v| v.copied().collect())
                        .unwrap_or_default();
                    for (key, n) in keys.iter().zip(values) {
                        inputs.set(key, InputValue::Count(n));
                    }
                }
                Sets::Number(key) => {
                    if let Some(x) = matches.get_one::<f64>(name) {
                        inputs.set(key, InputValue::Number(*x));
                    }
                }
                Sets::Card(key) => {
                    let text = matches.get_one::<String>(name).map_or("", String::as_str);
                    let pick = cards.pick(&format!("--{name}"), text)?;
                    inputs.set(key, InputValue::Card(Some(pick)));
                }
                Sets::CardList(key) => {
                    let entries = matches
                        .get_many::<String>(name)
                        .into_iter()
                        .flatten()
                        .map(|text| {
                            Ok(ListEntry {
                                card: Some(cards.pick(&format!("--{name}"), text)?),
                                numbers: BTreeMap::new(),
                            })
                        })
                        .collect::<Result<Vec<_>>>()?;
                    inputs.set(key, InputValue::CardList(entries));
                }
                Sets::Field { list, field } => {
                    let values: Vec<i64> = matches
                        .get_many::<i64>(name)
                        .map(|v| v.copied().collect())
                        .unwrap_or_default();
                    list_fields.push((*list, *field, name.clone(), values));
                }
                Sets::Mechanic => {}
            }
        }
        for (list, field, name, values) in list_fields {
            spread_field(&mut inputs, list, field, &name, &values)?;
        }
        imply_choices(&specs, &given, &chosen_by, &mut inputs);
        refuse_hidden(&specs, &given, &inputs)?;
        Ok(inputs)
    }

    /// A refusal worded with the flag the user typed ("--target-disruption: …" rather than
    /// "target_disruption: …"); dice rolled at the table are named by `--dice`.
    pub fn name_the_flag(
        &self,
        mechanic: &Mechanic,
        matches: &ArgMatches,
        error: ResolveError,
    ) -> anyhow::Error {
        match error {
            ResolveError::Invalid { field, message } => {
                let flag = self.flag_for(mechanic, matches, field);
                anyhow!("--{flag}: {message}")
            }
            ResolveError::Dice(e) if e.is_table_dice() => anyhow!("--dice {e}"),
            other => other.into(),
        }
    }

    /// The flag of input `field`: the one given for it if any (`--light-cover`), else its own.
    fn flag_for(&self, mechanic: &Mechanic, matches: &ArgMatches, field: &str) -> Cow<'_, str> {
        let setting: Vec<&Flag> = self
            .flags
            .iter()
            .filter(|f| {
                f.uses
                    .iter()
                    .any(|u| std::ptr::eq(u.mechanic, mechanic) && u.sets.keys().contains(&field))
            })
            .collect();
        let given = setting
            .iter()
            .find(|f| matches.value_source(&f.name) == Some(ValueSource::CommandLine));
        match given.or_else(|| {
            setting
                .iter()
                .find(|f| !matches!(f.uses[0].sets, Sets::Option { .. }))
        }) {
            Some(flag) => Cow::Borrowed(flag.name.as_str()),
            None => Cow::Owned(field.replace('_', "-")),
        }
    }
}

/// "fire, command dice and rally" without `mechanic`.
fn others(all: &[&'static Mechanic], mechanic: &Mechanic) -> String {
    let labels: Vec<&str> = all
        .iter()
        .filter(|m| !std::ptr::eq(**m, mechanic))
        .map(|m| m.label)
        .collect();
    match labels.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

fn spec_of<'a>(specs: &'a [InputSpec], key: &str) -> Result<&'a InputSpec> {
    specs
        .iter()
        .find(|s| s.key == key)
        .ok_or_else(|| anyhow!("{key}: not an input"))
}

/// Refuses a second flag for one choice ("--soft-cover and --hard-cover both set …").
fn once(
    chosen_by: &mut BTreeMap<&'static str, String>,
    key: &'static str,
    flag: &str,
    spec: &InputSpec,
) -> Result<()> {
    if let Some(earlier) = chosen_by.insert(key, flag.to_string())
        && earlier != flag
    {
        bail!(
            "--{earlier} and --{flag} both set {}: give one",
            spec.label.to_lowercase()
        );
    }
    Ok(())
}

/// Spreads a list field's values over the list's cards: one value for all, or one each.
fn spread_field(
    inputs: &mut Inputs,
    list: &'static str,
    field: &'static str,
    flag: &str,
    values: &[i64],
) -> Result<()> {
    let Some(InputValue::CardList(entries)) = inputs.get_mut(list) else {
        return Ok(());
    };
    let n = entries.len();
    if values.len() > 1 && values.len() != n {
        bail!(
            "--{flag}: {} values for {n} {}: give one for all, or one each",
            values.len(),
            if n == 1 { "card" } else { "cards" }
        );
    }
    for (i, entry) in entries.iter_mut().enumerate() {
        if let Some(&v) = values.get(i).or(values.first()) {
            entry.numbers.insert(field, v);
        }
    }
    Ok(())
}

/// Flags whose inputs show only under some values of a choice that was not given pick the
/// one value all of them allow: `--artillery M7` fires a mission. Flags that agree on no
/// value pick none (and are refused as not applying).
fn imply_choices(
    specs: &[InputSpec],
    given: &[(&Flag, &Use)],
    chosen_by: &BTreeMap<&'static str, String>,
    inputs: &mut Inputs,
) {
    let mut allowed: BTreeMap<&'static str, Vec<&'static str>> = BTreeMap::new();
    for (_, one) in given {
        for key in one.sets.keys() {
            let shown = specs
                .iter()
                .find(|s| s.key == key)
                .and_then(|s| s.shown_when);
            if let Some((choice, values)) = shown
                && !chosen_by.contains_key(choice)
            {
                allowed
                    .entry(choice)
                    .and_modify(|all| all.retain(|v| values.contains(v)))
                    .or_insert_with(|| values.to_vec());
            }
        }
    }
    for (choice, values) in allowed {
        if let [only] = values.as_slice() {
            inputs.set(choice, InputValue::Choice(only));
        }
    }
}

/// Refuses flags whose inputs do not apply to the situation the others describe.
fn refuse_hidden(specs: &[InputSpec], given: &[(&Flag, &Use)], inputs: &Inputs) -> Result<()> {
    let mut hidden: Vec<String> = Vec::new();
    let mut because = None;
    for (flag, one) in given {
        for key in one.sets.keys() {
            let Some(spec) = specs.iter().find(|s| s.key == key) else {
                continue;
            };
            if !spec.shown(inputs) {
                hidden.push(format!("--{}", flag.name));
                because = spec.shown_when.map(|(choice, _)| choice);
            }
        }
    }
    hidden.dedup();
    let Some(choice) = because else {
        return Ok(());
    };
    let situation = specs
        .iter()
        .find(|s| s.key == choice)
        .and_then(|s| match &s.kind {
            InputKind::Choice(options) => options
                .iter()
                .find(|o| o.key == inputs.choice(choice))
                .map(|o| o.label.to_lowercase()),
            _ => None,
        })
        .unwrap_or_else(|| choice.replace('_', " "));
    let verb = if hidden.len() == 1 { "does" } else { "do" };
    bail!("{} {verb} not apply to {situation}", hidden.join(", "))
}

/// A choice's value as typed: any text (the rules name the option, or the nearest ones), with
/// the options listed in `--help`.
#[derive(Clone)]
struct OptionNames(Vec<PossibleValue>);

impl OptionNames {
    fn of(options: &[Choice]) -> Self {
        if options.len() > MAX_POSSIBLE_VALUES {
            return OptionNames(Vec::new());
        }
        OptionNames(
            options
                .iter()
                .map(|o| {
                    let kebab = o.key.replace('_', "-");
                    let mut value = PossibleValue::new(kebab.clone()).help(o.label);
                    if kebab != o.key {
                        value = value.alias(o.key);
                    }
                    value.aliases(o.aliases.iter().copied())
                })
                .collect(),
        )
    }
}

impl TypedValueParser for OptionNames {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        if self.0.is_empty() {
            None
        } else {
            Some(Box::new(self.0.iter().cloned()))
        }
    }
}
