//! What every request and answer goes through before and after its route:
//! the `Host` allow-list and the security headers.
//!
//! **Hosts.** A page on another site can point a name of its own at the
//! server's address (DNS rebinding): the browser then takes the server for
//! that site, and the page reads the API's answers, and with
//! `--allow-fetch --allow-private` uses the server as a proxy into the
//! network it runs in. The browser still sends the page's name as `Host`,
//! so the server answers only to names it knows: an IP address (the
//! address it is bound to among them: no page can make a browser send an
//! address as `Host` without being at that address itself), `localhost`
//! and `*.localhost` (which browsers resolve to the loopback themselves),
//! and the names given with `--allow-host`; others get 403. A request
//! without `Host` (HTTP/1.0) passes: browsers always send one.
//!
//! **Headers.** Every answer says `X-Content-Type-Options: nosniff` (an
//! answer is read as its type says, never as a script or a page it might
//! look like), `Referrer-Policy: no-referrer`, and a Content-Security-Policy
//! with `frame-ancestors 'none'` (and `X-Frame-Options: DENY` for older
//! browsers): no other site can frame the demo. The page's policy allows its
//! one inline script and style by their SHA-256 and requests to its own
//! origin only; the API's allow nothing.

use std::sync::{Arc, LazyLock};

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use serde_json::json;
use sha2::{Digest, Sha256};

use crate::AppState;

/// The names a server answers to besides IP addresses and `localhost`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Hosts {
    /// Lowercase, without a final dot.
    names: Vec<String>,
    /// `*` was given: any name.
    any: bool,
}

impl Hosts {
    /// The names of `--allow-host` (`*`: any name).
    pub fn new(names: &[String]) -> Hosts {
        Hosts {
            names: names.iter().map(|n| normalise(n)).collect(),
            any: names.iter().any(|n| n == "*"),
        }
    }

    /// Whether a `Host` header's value names this server.
    fn allows(&self, host: &str) -> bool {
        let name = host_name(host);
        if name.starts_with('[') {
            // An IPv6 literal with its brackets; anything else in brackets
            // is no host.
            return name
                .strip_prefix('[')
                .and_then(|n| n.strip_suffix(']'))
                .is_some_and(|a| a.parse::<std::net::Ipv6Addr>().is_ok());
        }
        let name = normalise(name);
        self.any
            || name.parse::<std::net::Ipv4Addr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self.names.contains(&name)
    }
}

/// A name lowercased, without the final dot of a fully qualified name.
fn normalise(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// The host of a `Host` header's value, without its port.
fn host_name(host: &str) -> &str {
    let host = host.trim();
    if host.starts_with('[') {
        return match host.find(']') {
            Some(end) => &host[..=end],
            None => host,
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// Refuses a request whose `Host` the server does not answer to, and adds
/// the security headers to every answer.
pub(crate) async fn guard(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let hosts = &st.hosts;
    let host = req
        .headers()
        .get(header::HOST)
        .map(|h| String::from_utf8_lossy(h.as_bytes()).into_owned())
        .or_else(|| req.uri().authority().map(|a| a.to_string()));
    let mut response = match host {
        Some(h) if !hosts.allows(&h) => {
            let name = host_name(&h);
            (
                StatusCode::FORBIDDEN,
                Json(json!({ "error": format!(
                    "this server does not answer to the host {name:?} (a name pointed at \
                     it by another site?); start it with --allow-host {name} to serve that name"
                ) })),
            )
                .into_response()
        }
        _ => next.run(req).await,
    };
    let page = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
    secure(response.headers_mut(), page);
    response
}

/// The Content-Security-Policy of the demo page: its inline script and
/// style by their hashes, requests to its own origin, nothing else.
static PAGE_POLICY: LazyLock<HeaderValue> = LazyLock::new(|| {
    let page = include_str!("page.html");
    let hash = |open: &str, close: &str| {
        let start = page.find(open).expect("the page has the element") + open.len();
        let end = start + page[start..].find(close).expect("closed");
        let digest = Sha256::digest(&page.as_bytes()[start..end]);
        format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(digest)
        )
    };
    let policy = format!(
        "default-src 'none'; script-src {}; style-src {}; connect-src 'self'; \
         img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        hash("<script>", "</script>"),
        hash("<style>", "</style>"),
    );
    HeaderValue::from_str(&policy).expect("a valid header")
});

/// The security headers of an answer (`page`: the demo page).
fn secure(h: &mut HeaderMap, page: bool) {
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    let policy = if page {
        PAGE_POLICY.clone()
    } else {
        HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'")
    };
    h.insert(header::CONTENT_SECURITY_POLICY, policy);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        let h = Hosts::new(&["Demo.Example.org.".to_string()]);
        for ok in [
            "127.0.0.1:8080",
            "10.1.2.3",
            "[::1]:8080",
            "[fe80::1]",
            "localhost:8080",
            "LOCALHOST.",
            "app.localhost:1",
            "demo.example.org:443",
            "demo.example.org.",
        ] {
            assert!(h.allows(ok), "{ok}");
        }
        for refused in [
            "evil.example:8080",
            "example.org",
            "localhost.evil.example",
            "127.0.0.1.evil.example",
            "[evil.example]",
            "",
        ] {
            assert!(!h.allows(refused), "{refused}");
        }
        assert!(Hosts::new(&["*".to_string()]).allows("anything.example"));
    }

    #[test]
    fn the_page_policy_names_its_script_and_style() {
        let p = PAGE_POLICY.to_str().unwrap();
        assert_eq!(p.matches("'sha256-").count(), 2, "{p}");
        assert!(p.contains("frame-ancestors 'none'"), "{p}");
        // One inline script and one style: a second one would need its own hash.
        let page = include_str!("page.html");
        assert_eq!(page.matches("<script").count(), 1);
        assert_eq!(page.matches("<style").count(), 1);
        assert!(!page.contains(" style=") && !page.contains(" onclick="));
    }
}
