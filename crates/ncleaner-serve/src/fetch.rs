//! Fetching a page by URL for the demo (`--allow-fetch` only).
//!
//! A server that fetches what clients name can be turned against the
//! network it runs in, so fetching is off by default and, when on, refuses
//! private, loopback, link-local and other non-global addresses unless
//! `--allow-private` is given. The check is made on the addresses the name
//! resolves to, by the resolver that the HTTP client then connects to (so a
//! name cannot resolve to a public address for the check and a private one
//! for the connection), and again on every redirect; redirects are limited,
//! the whole fetch has a time limit and the body a size cap.
//!
//! The environment's proxy settings (`HTTP_PROXY`, `HTTPS_PROXY`,
//! `ALL_PROXY`) are ignored: through a proxy the name is resolved by the
//! proxy, and the check on its addresses would never run. An operator who
//! needs a proxy names it ([`FetchConfig::proxy`], `serve --fetch-proxy`);
//! every fetch then goes through it, and the guard can check only what the
//! URL itself says: its scheme, and that its host (and every redirect's) is
//! not a private or loopback address literal nor `localhost`. A name
//! (`intranet.corp`) is resolved by the proxy, which reaches what it
//! reaches: the proxy's own rules must keep it out of private networks.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// How pages are fetched.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// Allow private, loopback and link-local addresses.
    pub allow_private: bool,
    /// Time limit of one fetch (connect, redirects, body).
    pub timeout: Duration,
    /// Largest body in bytes.
    pub max_bytes: usize,
    /// Most redirects followed.
    pub max_redirects: usize,
    /// The proxy every fetch goes through (an `http://` or `https://` URL);
    /// `None`: none, whatever the environment says.
    pub proxy: Option<String>,
}

impl Default for FetchConfig {
    fn default() -> Self {
        FetchConfig {
            allow_private: false,
            timeout: Duration::from_secs(10),
            max_bytes: 10 << 20,
            max_redirects: 5,
            proxy: None,
        }
    }
}

/// Why a fetch failed: an HTTP status for the client (400 a bad URL, 403 a
/// refused address, 413 too large, 415 not a page (a PDF, an image), 502
/// the other server failed, 504 too slow, headers or body) and words.
#[derive(Debug)]
pub struct FetchError(pub u16, pub String);

/// Whether an address is one a public fetcher must not reach.
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || v4.is_multicast()
                || o[0] == 0
                || (o[0] == 100 && (o[1] & 0xc0) == 64) // 100.64.0.0/10, shared address space
                || (o[0] == 198 && (o[1] & 0xfe) == 18) // 198.18.0.0/15, benchmarking
                || o[0] >= 240
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_private(IpAddr::V4(v4));
            }
            let s = v6.segments();
            let embedded = |hi: u16, lo: u16| {
                let [a, b] = hi.to_be_bytes();
                let [c, d] = lo.to_be_bytes();
                is_private(IpAddr::V4(std::net::Ipv4Addr::new(a, b, c, d)))
            };
            // IPv4-compatible ::a.b.c.d (deprecated, but some stacks still
            // route it to the IPv4 address); :: and ::1 are handled below.
            if s[..6] == [0; 6] && !(s[6] == 0 && s[7] <= 1) {
                return embedded(s[6], s[7]);
            }
            // NAT64 well-known prefix 64:ff9b::/96: a translator reaches a.b.c.d.
            if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                return embedded(s[6], s[7]);
            }
            // 6to4 2002:AABB:CCDD::/48 reaches a.b.c.d through a relay.
            if s[0] == 0x2002 {
                return embedded(s[1], s[2]);
            }
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || (s[0] == 0x64 && s[1] == 0xff9b && s[2] == 1) // 64:ff9b:1::/48, local-use NAT64
                || (s[0] == 0x2001 && s[1] == 0) // Teredo 2001::/32 (tunnels to an obfuscated IPv4)
        }
    }
}

/// A resolver that drops non-global addresses (and fails when none is left).
struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let addrs: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let public: Vec<SocketAddr> =
                addrs.into_iter().filter(|a| !is_private(a.ip())).collect();
            if public.is_empty() {
                return Err(
                    format!("{host} resolves only to private or loopback addresses").into(),
                );
            }
            Ok(Box::new(public.into_iter()) as Addrs)
        })
    }
}

/// An HTTP client for fetching pages.
#[derive(Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    config: FetchConfig,
}

impl Fetcher {
    /// A fetcher with `config`.
    pub fn new(config: FetchConfig) -> anyhow::Result<Fetcher> {
        let allow_private = config.allow_private;
        let max = config.max_redirects;
        let policy = reqwest::redirect::Policy::custom(move |attempt| {
            if attempt.previous().len() > max {
                attempt.error(format!("more than {max} redirects"))
            } else if !allow_private && literal_private(attempt.url()) {
                attempt.error("redirect to a private or loopback address")
            } else {
                attempt.follow()
            }
        });
        let mut b = reqwest::Client::builder()
            .redirect(policy)
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .user_agent(concat!(
                "ncleaner/",
                env!("CARGO_PKG_VERSION"),
                " (demo fetch)"
            ));
        match &config.proxy {
            Some(p) => {
                let url = reqwest::Url::parse(p)
                    .map_err(|e| anyhow::anyhow!("the fetch proxy {p:?} is not a URL: {e}"))?;
                anyhow::ensure!(
                    matches!(url.scheme(), "http" | "https"),
                    "the fetch proxy {p:?} must be an http:// or https:// URL"
                );
                b = b.proxy(reqwest::Proxy::all(url)?);
            }
            None => b = b.no_proxy(),
        }
        // Without a proxy, names are resolved here and checked; through a
        // proxy the resolver would resolve the proxy's own name alone
        // (often a private address).
        if !allow_private && config.proxy.is_none() {
            b = b.dns_resolver(Arc::new(PublicOnly));
        }
        Ok(Fetcher {
            client: b.build()?,
            config,
        })
    }

    /// Fetches `url`: its body, its final URL and its `Content-Type` charset label.
    pub async fn fetch(&self, url: &str) -> Result<(Vec<u8>, String, Option<String>), FetchError> {
        self.fetch_charged(url, |_| true).await
    }

    /// Like [`Fetcher::fetch`], calling `charge(n)` before keeping each `n`
    /// bytes of the body: when it answers `false` (the server's byte budget
    /// is spent) the fetch stops with 503.
    pub async fn fetch_charged(
        &self,
        url: &str,
        mut charge: impl FnMut(usize) -> bool + Send,
    ) -> Result<(Vec<u8>, String, Option<String>), FetchError> {
        let parsed = reqwest::Url::parse(url)
            .map_err(|e| FetchError(400, format!("{url:?} is not a URL: {e}")))?;
        if !matches!(parsed.scheme(), "http" | "https") {
            return Err(FetchError(
                400,
                format!("{url}: only http and https URLs are fetched"),
            ));
        }
        if !self.config.allow_private && literal_private(&parsed) {
            return Err(FetchError(
                403,
                format!("{url}: private and loopback addresses are not fetched"),
            ));
        }
        let work = async {
            let mut resp = self.client.get(parsed).send().await.map_err(|e| {
                let msg = chain(&e);
                let status = if msg.contains("private") {
                    403
                } else if e.is_timeout() {
                    504
                } else {
                    502
                };
                FetchError(status, format!("fetching {url}: {msg}"))
            })?;
            if !resp.status().is_success() {
                return Err(FetchError(
                    502,
                    format!("fetching {url}: the server answered {}", resp.status()),
                ));
            }
            let content_type = resp
                .headers()
                .get(reqwest::header::CONTENT_TYPE)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("");
            let media = content_type
                .split(';')
                .next()
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            // A PDF, an image, an archive: not a page (the bytes are
            // checked again when the media type says nothing).
            let page = media.is_empty()
                || media.starts_with("text/")
                || media.ends_with("html")
                || media.ends_with("+xml")
                || media == "application/xml"
                || media == "application/octet-stream";
            if !page {
                return Err(FetchError(
                    415,
                    format!(
                        "fetching {url}: not a document: the page is {media}, not HTML or text"
                    ),
                ));
            }
            let charset = Some(content_type)
                .filter(|ct| !ct.is_empty())
                .and_then(|ct| {
                    ct.split(';').find_map(|p| {
                        p.trim()
                            .strip_prefix("charset=")
                            .map(|c| c.trim_matches('"').to_owned())
                    })
                });
            let final_url = resp.url().to_string();
            let mut body = Vec::new();
            while let Some(chunk) = resp.chunk().await.map_err(|e| {
                // A body slower than the time limit is a timeout (504), as a
                // slow answer is, not a bad gateway.
                let status = if e.is_timeout() { 504 } else { 502 };
                FetchError(status, format!("reading {url}: {}", chain(&e)))
            })? {
                if body.len() + chunk.len() > self.config.max_bytes {
                    return Err(FetchError(
                        413,
                        format!(
                            "{url}: the page is larger than {} bytes",
                            self.config.max_bytes
                        ),
                    ));
                }
                if !charge(chunk.len()) {
                    return Err(FetchError(
                        503,
                        "server busy: too many bytes pending".to_string(),
                    ));
                }
                body.extend_from_slice(&chunk);
            }
            Ok((body, final_url, charset))
        };
        match tokio::time::timeout(self.config.timeout, work).await {
            Ok(r) => r,
            Err(_) => Err(FetchError(
                504,
                format!(
                    "fetching {url}: no complete answer within {:?}",
                    self.config.timeout
                ),
            )),
        }
    }
}

/// Whether a URL's host is a private IP literal (names are checked by the resolver).
fn literal_private(url: &reqwest::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(a)) => is_private(IpAddr::V4(a)),
        Some(url::Host::Ipv6(a)) => is_private(IpAddr::V6(a)),
        Some(url::Host::Domain(d)) => {
            d.eq_ignore_ascii_case("localhost") || d.to_ascii_lowercase().ends_with(".localhost")
        }
        None => true,
    }
}

/// An error and its causes, in one line.
fn chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_addresses() {
        for a in [
            "127.0.0.1",
            "10.1.2.3",
            "192.168.0.1",
            "172.16.5.4",
            "169.254.169.254",
            "0.0.0.0",
            "100.64.0.1",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::127.0.0.1",
            "::10.0.0.1",
            "::169.254.169.254",
            "64:ff9b::7f00:1",
            "64:ff9b::10.1.2.3",
            "64:ff9b:1::1",
            "2002:7f00:1::1",
            "2002:c0a8:101::1",
            "2001:0:4136:e378::1",
        ] {
            assert!(is_private(a.parse().unwrap()), "{a}");
        }
        for a in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700:4700::1111",
            "::8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
        ] {
            assert!(!is_private(a.parse().unwrap()), "{a}");
        }
    }
}
