//! [`Options`] as JSON: every option by its name, with the values house rules and the notation use, not the
//! Rust names of the enums (`"six": "7player"`, not `{"SevenWhenNoneHome": "Player"}`), so what a client reads
//! in a view it can send back as a house rule.

use crate::options::{OptionValues, Options, RuleSet};
use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// One option's value as JSON carries it.
#[derive(Deserialize)]
#[serde(untagged)]
enum Value {
    Flag(bool),
    Number(u64),
    Text(String),
}

impl Value {
    /// The value in the text form of [`Options::set`].
    fn into_text(self) -> String {
        match self {
            Value::Flag(on) => if on { "1" } else { "0" }.to_owned(),
            Value::Number(n) => n.to_string(),
            Value::Text(text) => text,
        }
    }
}

/// Whether option `name` is written as a JSON number: a number, or a choice of numbers only (pieces per
/// colour: 4 or 6). `six` is a text: its choices include `7player`.
fn is_number(name: &str) -> bool {
    match Options::values(name) {
        Some(OptionValues::Number { .. }) => true,
        Some(OptionValues::OneOf(choices)) => choices
            .iter()
            .all(|c| c.bytes().all(|b| b.is_ascii_digit())),
        _ => false,
    }
}

impl Serialize for Options {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(Options::NAMES.len()))?;
        for name in Options::NAMES {
            let text = self.get(name).unwrap_or_default();
            match Options::values(name) {
                Some(OptionValues::Flag) => map.serialize_entry(name, &(text == "1"))?,
                _ if is_number(name) => {
                    let n: u8 = text.parse().map_err(serde::ser::Error::custom)?;
                    map.serialize_entry(name, &n)?
                }
                _ => map.serialize_entry(name, &text)?,
            }
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Options {
    /// Every option must be named once, with a value [`Options::set`] takes: a view's options read back
    /// exactly, and nothing is filled in quietly from a preset.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OptionsVisitor;

        impl<'de> Visitor<'de> for OptionsVisitor {
            type Value = Options;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of every option name to its value")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Options, A::Error> {
                let mut options = RuleSet::Playgridia.options();
                let mut seen = [false; Options::NAMES.len()];
                while let Some(name) = map.next_key::<String>()? {
                    let Some(index) = Options::NAMES.iter().position(|n| *n == name) else {
                        return Err(de::Error::custom(format_args!(
                            "no option is named `{name}`"
                        )));
                    };
                    if std::mem::replace(&mut seen[index], true) {
                        return Err(de::Error::custom(format_args!(
                            "option `{name}` given twice"
                        )));
                    }
                    let value = map.next_value::<Value>()?.into_text();
                    options.set(&name, &value).map_err(de::Error::custom)?;
                }
                if let Some(index) = seen.iter().position(|s| !s) {
                    let missing = Options::NAMES[index];
                    return Err(de::Error::custom(format_args!(
                        "option `{missing}` is missing"
                    )));
                }
                options.check().map_err(de::Error::custom)?;
                Ok(options)
            }
        }

        deserializer.deserialize_map(OptionsVisitor)
    }
}
