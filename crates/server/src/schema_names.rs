//! The closed sets of names the API takes and gives (rule sets, modes, colours) as named schemas with an
//! `enum`, written from the rules crate's own lists (`RuleSet::ALL`, `Mode::ALL`, `Colour::ALL`), so that
//! a new rule set or mode is in the document the moment the referee knows it.

use std::borrow::Cow;

use parchis_rules::{Colour, Mode, RuleSet};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

/// A string schema whose only values are `names`.
fn one_of(description: &str, names: impl IntoIterator<Item = &'static str>) -> RefOr<Schema> {
    let names: Vec<&str> = names.into_iter().collect();
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(description))
        .examples(names.first().map(|&name| serde_json::Value::from(name)))
        .enum_values(Some(names))
        .into()
}

/// A rule set's name as the API spells it (`playgridia`, `ludoteka`, `morocco`).
pub struct RuleSetName;

impl PartialSchema for RuleSetName {
    fn schema() -> RefOr<Schema> {
        one_of(
            "A rule set (`GET /api/rules` describes each)",
            RuleSet::ALL.map(RuleSet::name),
        )
    }
}

impl ToSchema for RuleSetName {
    fn name() -> Cow<'static, str> {
        "RuleSet".into()
    }
}

/// A mode's name as the API spells it (`individual`, `quick`, `pairs`, `1v1`, `6-piece`, `3v3`).
pub struct ModeName;

impl PartialSchema for ModeName {
    fn schema() -> RefOr<Schema> {
        one_of(
            "A game mode: who sits where and who plays together (`GET /api/rules` lists each rule set's)",
            Mode::ALL.map(Mode::name),
        )
    }
}

impl ToSchema for ModeName {
    fn name() -> Cow<'static, str> {
        "Mode".into()
    }
}

/// A colour's name as the API spells it (`yellow` … `turquoise`).
pub struct ColourName;

impl PartialSchema for ColourName {
    fn schema() -> RefOr<Schema> {
        one_of(
            "A colour (the four-colour board uses the first four)",
            Colour::ALL.map(Colour::name),
        )
    }
}

impl ToSchema for ColourName {
    fn name() -> Cow<'static, str> {
        "Colour".into()
    }
}
