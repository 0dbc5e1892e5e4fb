//! A closed-loop load generator for the API (the bounded load test and
//! `examples/load.rs`): `clients` connections each post the same document
//! again and again for `duration`, and the latencies are collected.

use std::time::{Duration, Instant};

/// What a load run measured.
#[derive(Debug, Clone)]
pub struct LoadReport {
    /// Answered requests (any status).
    pub requests: usize,
    /// Requests that failed or did not answer 200.
    pub errors: usize,
    /// Wall time of the run.
    pub elapsed: Duration,
    /// Median latency.
    pub p50: Duration,
    /// 99th-percentile latency.
    pub p99: Duration,
}

impl LoadReport {
    /// Requests per second.
    pub fn rate(&self) -> f64 {
        self.requests as f64 / self.elapsed.as_secs_f64()
    }
}

/// Posts `body` (with `content_type`) to `url` from `clients` concurrent
/// loops for `duration`. Uses plain HTTP/1.1 over tokio TCP streams, one
/// keep-alive connection per client, so that the generator costs little.
pub async fn run(
    url: &str,
    content_type: &str,
    body: &[u8],
    clients: usize,
    duration: Duration,
) -> anyhow::Result<LoadReport> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| anyhow::anyhow!("{url}: only http:// URLs"))?;
    let (authority, path) = rest
        .split_once('/')
        .map_or((rest, "/".to_string()), |(a, p)| (a, format!("/{p}")));
    let addr = tokio::net::lookup_host(authority)
        .await?
        .next()
        .ok_or_else(|| anyhow::anyhow!("{authority}: no address"))?;
    let mut head = format!(
        "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        body.len()
    )
    .into_bytes();
    head.extend_from_slice(body);
    let request = std::sync::Arc::new(head);
    let start = Instant::now();
    let end = start + duration;
    let mut tasks = Vec::new();
    for _ in 0..clients.max(1) {
        let request = request.clone();
        tasks.push(tokio::spawn(
            async move { client(addr, &request, end).await },
        ));
    }
    let (mut lat, mut errors) = (Vec::new(), 0);
    for t in tasks {
        let (l, e) = t.await?;
        lat.extend(l);
        errors += e;
    }
    let elapsed = start.elapsed();
    lat.sort();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 * p) as usize).min(lat.len().saturating_sub(1)))
            .copied()
            .unwrap_or_default()
    };
    Ok(LoadReport {
        requests: lat.len(),
        errors,
        elapsed,
        p50: pct(0.5),
        p99: pct(0.99),
    })
}

/// One client's loop: latencies of its answered requests and its error count.
async fn client(
    addr: std::net::SocketAddr,
    request: &[u8],
    end: Instant,
) -> (Vec<Duration>, usize) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (mut lat, mut errors) = (Vec::new(), 0);
    let mut conn: Option<tokio::net::TcpStream> = None;
    let mut buf = vec![0u8; 1 << 16];
    while Instant::now() < end {
        let t = Instant::now();
        let stream = match conn.as_mut() {
            Some(s) => s,
            None => match tokio::net::TcpStream::connect(addr).await {
                Ok(s) => conn.insert(s),
                Err(_) => {
                    errors += 1;
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
        };
        let ok = async {
            stream.write_all(request).await?;
            // Read the head, then exactly Content-Length bytes of body.
            let mut got = Vec::new();
            let (head_end, len, status) = loop {
                let n = stream.read(&mut buf).await?;
                if n == 0 {
                    return Err(std::io::Error::other("closed"));
                }
                got.extend_from_slice(&buf[..n]);
                if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
                    let head = String::from_utf8_lossy(&got[..i]).to_ascii_lowercase();
                    let len = head
                        .lines()
                        .find_map(|l| {
                            l.strip_prefix("content-length:")
                                .and_then(|v| v.trim().parse::<usize>().ok())
                        })
                        .unwrap_or(0);
                    let status = head.split_whitespace().nth(1).unwrap_or("").to_owned();
                    break (i + 4, len, status);
                }
            };
            while got.len() < head_end + len {
                let n = stream.read(&mut buf).await?;
                if n == 0 {
                    return Err(std::io::Error::other("closed"));
                }
                got.extend_from_slice(&buf[..n]);
            }
            Ok::<bool, std::io::Error>(status == "200")
        }
        .await;
        match ok {
            Ok(true) => lat.push(t.elapsed()),
            Ok(false) => {
                lat.push(t.elapsed());
                errors += 1;
            }
            Err(_) => {
                errors += 1;
                conn = None;
            }
        }
    }
    (lat, errors)
}
