//! What the seeded fuzz tests (`fuzz_ws.rs`, `fuzz_rest.rs`) share: the seed (`FUZZ_SEED` replaces a
//! test's own, to explore other sequences) and generators of odd strings, move-like texts, JSON values of
//! any type and text that is not a command.

use rand::RngExt;
use rand::rngs::StdRng;
use serde_json::Value;

/// `default`, or the seed `FUZZ_SEED` gives (to explore other sequences; the tests' own are fixed).
pub fn seed(default: u64) -> u64 {
    let Ok(text) = std::env::var("FUZZ_SEED") else {
        return default;
    };
    let parsed = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.unwrap_or_else(|_| panic!("FUZZ_SEED={text} is not a number"))
}

/// Strings that have broken parsers and displays elsewhere: empty, control characters and NUL, right-to-left
/// and zero-width marks, combining marks, emoji, look-alikes, text that looks like JSON or a move.
pub const ODD: &[&str] = &[
    "",
    " ",
    "\u{0}",
    "a\u{0}b",
    "\u{202E}gnp.exe",
    "\u{2066}y1\u{2069}",
    "\u{200B}",
    "\u{200D}\u{FEFF}",
    "e\u{301}\u{301}\u{301}",
    "👨‍👩‍👧‍👦",
    "ÿ1:5-12",
    "ｙ１：５－１２",
    "y1:5-12\u{0}",
    " y1:h-5 ",
    "y1:h-5+y2:h-10",
    "\n\r\t",
    "{\"type\":\"roll\"}",
    "null",
    "<script>alert(1)</script>",
    "'; DROP TABLE games; --",
    "\u{7F}\u{80}\u{9F}",
    "\u{FFFF}\u{10FFFF}",
    "y",
    "y0",
    "y255:255-255",
    "y1:l200-goal",
    "y99999999999999999999:1-2",
    "+",
    ":",
    "-",
    "y1:-",
    "y1:h-",
    "y1::h-5",
    "y1:h-5+",
    "y1:h-5+y1:h-5+y1:h-5",
    "g4:goal-h",
];

/// A JSON string literal of `s`.
pub fn lit(s: &str) -> String {
    Value::String(s.to_owned()).to_string()
}

/// A random string: odd, long, random characters or a random move-like text.
pub fn random_string(rng: &mut StdRng) -> String {
    match rng.random_range(0..6) {
        0 | 1 => ODD[rng.random_range(0..ODD.len())].to_owned(),
        2 => {
            let n = rng.random_range(0..800);
            let c = ['x', 'é', '\u{202E}', '\u{0}', '😀', '\u{200B}'][rng.random_range(0..6)];
            std::iter::repeat_n(c, n).collect()
        }
        3 => (0..rng.random_range(0..40))
            .map(|_| char::from_u32(rng.random_range(0..0x11_0000u32)).unwrap_or('\u{FFFD}'))
            .collect(),
        _ => random_move_text(rng),
    }
}

/// A random text shaped like a move: a piece, a route, maybe a companion, maybe odd characters.
pub fn random_move_text(rng: &mut StdRng) -> String {
    let piece = |rng: &mut StdRng| {
        let colour = ['y', 'b', 'r', 'g', 'x', 'Y'][rng.random_range(0..6)];
        format!("{colour}{}", rng.random_range(0..6u32))
    };
    let place = |rng: &mut StdRng| match rng.random_range(0..5) {
        0 => "h".to_owned(),
        1 => "goal".to_owned(),
        2 => format!("l{}", rng.random_range(0..10u32)),
        3 => format!("{}", rng.random_range(0..300u32)),
        _ => format!("{}", rng.random_range(1..=68u32)),
    };
    let mut text = piece(rng);
    if rng.random_bool(0.8) {
        text = format!("{text}:{}-{}", place(rng), place(rng));
    }
    if rng.random_bool(0.2) {
        text = format!("{text}+{}:{}-{}", piece(rng), place(rng), place(rng));
    }
    if rng.random_bool(0.15) {
        let at = rng.random_range(0..=text.len());
        let odd = ODD[rng.random_range(0..ODD.len())];
        if text.is_char_boundary(at) {
            text.insert_str(at, odd);
        }
    }
    text
}

/// A random JSON value as raw text, of any type, including numbers no integer type holds, escapes of lone
/// surrogates (not valid JSON text for serde) and nested objects.
pub fn random_value(rng: &mut StdRng, depth: u32) -> String {
    match rng.random_range(0..16) {
        0 => "null".into(),
        1 => ["true", "false"][rng.random_range(0..2)].into(),
        2 => [
            "-1",
            "0",
            "-0",
            "1.5",
            "1e308",
            "-1e308",
            "1e400",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "99999999999999999999999999999",
            "0.0000001",
            "4294967296",
            "65536",
            "256",
        ][rng.random_range(0..15)]
        .into(),
        3 => rng.random_range(0..1_000_000u64).to_string(),
        4 => rng.random::<u64>().to_string(),
        5 => format!("{}", rng.random::<i64>()),
        6 | 7 => lit(&random_string(rng)),
        8 => r#""\ud800""#.into(),
        9 if depth < 3 => {
            let n = rng.random_range(0..4);
            let items: Vec<String> = (0..n).map(|_| random_value(rng, depth + 1)).collect();
            format!("[{}]", items.join(","))
        }
        10 if depth < 3 => {
            let n = rng.random_range(0..4);
            let items: Vec<String> = (0..n)
                .map(|_| {
                    let key =
                        ["type", "id", "move", "version", "text", "x"][rng.random_range(0..6)];
                    format!("{}:{}", lit(key), random_value(rng, depth + 1))
                })
                .collect();
            format!("{{{}}}", items.join(","))
        }
        11 => lit(&random_move_text(rng)),
        _ => rng.random_range(0..100u32).to_string(),
    }
}

/// Renders fields (duplicates kept) as a JSON object's text.
pub fn render(fields: &[(String, String)]) -> String {
    let inner: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", lit(k)))
        .collect();
    format!("{{{}}}", inner.join(","))
}

/// Text that is not a command: not JSON, JSON that is not an object, broken JSON.
pub fn garbage(rng: &mut StdRng) -> String {
    match rng.random_range(0..8) {
        0 => [
            "",
            " ",
            "{",
            "}",
            "[]",
            "null",
            "0",
            "\"roll\"",
            "{\"type\":}",
            "{\"type\":\"roll\",}",
            "{'type':'roll'}",
            "{\"type\":\"roll\"} {\"type\":\"roll\"}",
            "\u{FEFF}{\"type\":\"roll\"}",
            "{\"type\":\"roll\"\u{0}}",
            "[{\"type\":\"roll\"}]",
            "{\"type\":\"roll\",\"version\":NaN}",
            "{\"type\":\"roll\",\"version\":Infinity}",
        ][rng.random_range(0..17)]
        .into(),
        1 => random_value(rng, 0),
        2 => "[".repeat(rng.random_range(1..2000)),
        3 => format!("{}{}", "{\"a\":".repeat(rng.random_range(1..800)), "1"),
        4 => random_string(rng),
        _ => {
            let n = rng.random_range(0..200);
            (0..n)
                .map(|_| char::from(rng.random_range(0x20..0x7Fu8)))
                .collect()
        }
    }
}
