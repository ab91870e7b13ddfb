//! What a signed-in device is called in its account's list of devices (`GET /api/sessions`): a few
//! words read from the `User-Agent` its token was handed out to, "Firefox on Android", "Safari on
//! iPhone", "curl". Only a hint for the account's owner to tell their devices apart: a client may send
//! any `User-Agent` it likes, so nothing is decided by it.

use axum::http::HeaderMap;
use axum::http::header::USER_AGENT;

/// How much of a `User-Agent` is kept (bytes, cut at a character boundary): enough for any browser's,
/// and a client cannot store a novel with its token.
pub const USER_AGENT_KEPT: usize = 256;

/// What a device whose `User-Agent` says nothing recognisable (or none was sent) is called.
pub const UNKNOWN: &str = "Unknown device";

/// The `User-Agent` of a request as it is stored with the token handed out: trimmed, at most
/// [`USER_AGENT_KEPT`] bytes, `None` when missing, empty or not text.
pub fn user_agent(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(USER_AGENT)?.to_str().ok()?.trim();
    if value.is_empty() {
        return None;
    }
    let mut end = value.len().min(USER_AGENT_KEPT);
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    Some(value[..end].to_owned())
}

/// Browsers, by a word of their `User-Agent` (lower case), most specific first: Edge, Opera and Samsung
/// Internet say "Chrome" too, and Chrome says "Safari".
const BROWSERS: &[(&str, &str)] = &[
    ("edg/", "Edge"),
    ("edga/", "Edge"),
    ("edgios/", "Edge"),
    ("opr/", "Opera"),
    ("opera", "Opera"),
    ("samsungbrowser/", "Samsung Internet"),
    ("firefox/", "Firefox"),
    ("fxios/", "Firefox"),
    ("crios/", "Chrome"),
    ("chromium/", "Chromium"),
    ("chrome/", "Chrome"),
    ("safari/", "Safari"),
];

/// Systems, by a word of their `User-Agent` (lower case), most specific first: an iPhone's says "like
/// Mac OS X", Android's says "Linux".
const SYSTEMS: &[(&str, &str)] = &[
    ("iphone", "iPhone"),
    ("ipad", "iPad"),
    ("android", "Android"),
    ("windows", "Windows"),
    ("cros", "ChromeOS"),
    ("macintosh", "macOS"),
    ("mac os x", "macOS"),
    ("linux", "Linux"),
];

/// Programs that are no browser, by how their `User-Agent` begins (lower case).
const PROGRAMS: &[(&str, &str)] = &[
    ("parchis", "parchis CLI"),
    ("curl/", "curl"),
    ("wget/", "Wget"),
    ("python", "Python script"),
    ("node", "Node.js script"),
    ("okhttp/", "Android app"),
];

/// A short description of a device from the `User-Agent` it signed in with: "{browser} on {system}",
/// the browser or the system alone when only one is known, a program's name ("curl"), or
/// [`UNKNOWN`].
pub fn describe(user_agent: Option<&str>) -> String {
    let Some(ua) = user_agent.map(str::trim).filter(|ua| !ua.is_empty()) else {
        return UNKNOWN.to_owned();
    };
    let lower = ua.to_ascii_lowercase();
    if let Some((_, name)) = PROGRAMS.iter().find(|(start, _)| lower.starts_with(start)) {
        return (*name).to_owned();
    }
    let first = |table: &[(&str, &'static str)]| {
        table
            .iter()
            .find(|(word, _)| lower.contains(word))
            .map(|(_, name)| *name)
    };
    // Every browser's says "Mozilla/5.0"; a program that says it is no browser.
    let browser = first(BROWSERS).filter(|_| lower.starts_with("mozilla/"));
    match (browser, first(SYSTEMS)) {
        (Some(browser), Some(system)) => format!("{browser} on {system}"),
        (Some(browser), None) => browser.to_owned(),
        (None, Some(system)) => system.to_owned(),
        (None, None) => UNKNOWN.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn described(ua: &str) -> String {
        describe(Some(ua))
    }

    #[test]
    fn common_browsers_are_named_with_their_system() {
        let cases = [
            (
                "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
                "Firefox on Android",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                 Chrome/131.0.0.0 Safari/537.36",
                "Chrome on Windows",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 \
                 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
                "Safari on iPhone",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 \
                 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
                "Chrome on iPhone",
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like \
                 Gecko) Version/18.1 Safari/605.1.15",
                "Safari on macOS",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) \
                 Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                "Edge on Windows",
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) \
                 SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
                "Samsung Internet on Android",
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) \
                 HeadlessChrome/131.0.0.0 Safari/537.36",
                "Chrome on Linux",
            ),
            (
                "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
                "Firefox on Linux",
            ),
            (
                "Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like \
                 Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
                "Safari on iPad",
            ),
        ];
        for (ua, name) in cases {
            assert_eq!(described(ua), name, "{ua}");
        }
    }

    #[test]
    fn programs_are_named_by_themselves() {
        assert_eq!(described("curl/8.11.1"), "curl");
        assert_eq!(described("parchis-cli/0.1.0"), "parchis CLI");
        assert_eq!(described("python-requests/2.32.3"), "Python script");
        assert_eq!(described("Wget/1.21.4"), "Wget");
    }

    #[test]
    fn what_says_nothing_recognisable_is_an_unknown_device() {
        assert_eq!(describe(None), UNKNOWN);
        assert_eq!(described(""), UNKNOWN);
        assert_eq!(described("   "), UNKNOWN);
        assert_eq!(described("SomeBot/1.0"), UNKNOWN);
        // A program that only claims a browser's word is not taken for a browser.
        assert_eq!(described("Chrome/1.0"), UNKNOWN);
    }

    #[test]
    fn a_browser_or_a_system_alone_is_named_alone() {
        assert_eq!(described("Mozilla/5.0 (X11) Firefox/133.0"), "Firefox");
        assert_eq!(described("Mozilla/5.0 (Linux; Android 14)"), "Android");
    }

    #[test]
    fn the_user_agent_kept_is_trimmed_cut_short_and_none_when_missing_or_empty() {
        let mut headers = HeaderMap::new();
        assert_eq!(user_agent(&headers), None);
        headers.insert(USER_AGENT, HeaderValue::from_static("   "));
        assert_eq!(user_agent(&headers), None);
        headers.insert(USER_AGENT, HeaderValue::from_static(" curl/8.0 "));
        assert_eq!(user_agent(&headers).as_deref(), Some("curl/8.0"));
        headers.insert(
            USER_AGENT,
            HeaderValue::from_str(&"x".repeat(1000)).unwrap(),
        );
        assert_eq!(user_agent(&headers).unwrap().len(), USER_AGENT_KEPT);
        // Not text (bytes beyond ASCII): not kept rather than guessed at.
        headers.insert(USER_AGENT, HeaderValue::from_bytes(b"caf\xc3\xa9").unwrap());
        assert_eq!(user_agent(&headers), None);
    }
}
