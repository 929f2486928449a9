//! The browser side of the page's test: Debian's `chromedriver` started on a free port of
//! 127.0.0.1, headless `chromium` sessions through it (each with its own profile directory),
//! and small waiting helpers over `fantoccini`.
//!
//! The machine's network is closed, so chromium runs with every background connection turned
//! off: without those flags it stalls on DNS and update checks before it opens the page.

pub mod page;

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

/// How long any one wait for the page lasts before the test fails with what it waited for.
pub const WAIT: Duration = Duration::from_secs(30);

/// Where chromedriver is looked for: `$CHROMEDRIVER`, then Debian's path, then the `PATH`.
fn chromedriver_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMEDRIVER") {
        return Some(PathBuf::from(path));
    }
    let debian = Path::new("/usr/bin/chromedriver");
    if debian.exists() {
        return Some(debian.to_path_buf());
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|dir| dir.join("chromedriver"))
            .find(|candidate| candidate.exists())
    })
}

/// The chromium binary chromedriver should start, when it is at Debian's path.
fn chromium_path() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|path| path.exists())
}

/// Whether this run is CI's, where a missing browser is a failure rather than a skip.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|value| !value.is_empty())
}

/// A running chromedriver, killed when dropped.
pub struct Driver {
    child: Child,
    port: u16,
    /// Each session's profile directory, removed after the driver is gone.
    profiles: Vec<tempfile::TempDir>,
}

impl Driver {
    /// Starts chromedriver, or says why it cannot: `Err` carries the reason to print (a
    /// local run skips) or to fail with (under CI).
    pub fn start() -> Result<Driver, String> {
        let path = chromedriver_path().ok_or_else(|| {
            "chromedriver not found (install Debian's chromium and chromium-driver, or set CHROMEDRIVER)"
                .to_owned()
        })?;
        let port =
            free_port().map_err(|error| format!("no free port for chromedriver: {error}"))?;
        let child = Command::new(&path)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| format!("could not start {}: {error}", path.display()))?;
        let mut driver = Driver {
            child,
            port,
            profiles: Vec::new(),
        };
        let deadline = Instant::now() + WAIT;
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = driver.child.try_wait() {
                return Err(format!("chromedriver exited at once ({status})"));
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "chromedriver did not listen on port {port} within {WAIT:?}"
                ));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(driver)
    }

    /// A new headless browser session of the given window size, with a fresh profile (so its
    /// localStorage is its own: a second session is a second player's browser).
    pub async fn session(&mut self, width: u32, height: u32) -> Result<Client, String> {
        let profile =
            tempfile::tempdir().map_err(|error| format!("no profile directory: {error}"))?;
        let mut options = json!({
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                format!("--user-data-dir={}", profile.path().display()),
                format!("--window-size={width},{height}"),
            ],
        });
        // A desktop chromium window is at least 500 pixels wide: narrower, a phone's screen
        // is emulated (its width, its height, one device pixel per CSS pixel).
        if width < 500 {
            options["mobileEmulation"] =
                json!({"deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0}});
        }
        if let Some(binary) = chromium_path() {
            options["binary"] = json!(binary.display().to_string());
        }
        let mut capabilities = serde_json::Map::new();
        capabilities.insert("browserName".into(), json!("chrome"));
        capabilities.insert("goog:chromeOptions".into(), options);
        self.profiles.push(profile);
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .map_err(|error| format!("chromium did not start through chromedriver: {error}"))?;
        Ok(client)
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // Only what this test started: chromedriver by its handle, and any chromium left
        // behind by a failed test, found by its own profile directory on its command line.
        let _ = self.child.kill();
        let _ = self.child.wait();
        for profile in &self.profiles {
            kill_by_profile(profile.path());
        }
    }
}

/// Kills the processes whose command line names `profile` as their user data directory (the
/// chromium this test started, if a failure left it running). Linux only; elsewhere a no-op.
fn kill_by_profile(profile: &Path) {
    let needle = format!("--user-data-dir={}", profile.display());
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let found = cmdline
            .split(|b| *b == 0)
            .any(|arg| arg == needle.as_bytes());
        if found {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
        }
    }
}

/// A port nobody listens on now (the OS picks it; chromedriver takes it a moment later).
fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The element `css` matches, once it is there (fails after [`WAIT`] naming the selector).
pub async fn find(client: &Client, css: &str) -> Element {
    client
        .wait()
        .at_most(WAIT)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|error| panic!("no element matched {css} within {WAIT:?}: {error}"))
}

/// Evaluates `script` (a function body that returns a value) in the page.
pub async fn eval(client: &Client, script: &str) -> Value {
    client
        .execute(script, Vec::new())
        .await
        .unwrap_or_else(|error| panic!("script failed in the page: {error}\n{script}"))
}

/// Waits until `script` returns true in the page; fails after [`WAIT`] with `what`.
pub async fn wait_until(client: &Client, what: &str, script: &str) {
    let deadline = Instant::now() + WAIT;
    loop {
        if eval(client, script).await == Value::Bool(true) {
            return;
        }
        if Instant::now() > deadline {
            let error = eval(
                client,
                "return document.getElementById('error')?.textContent ?? ''",
            )
            .await;
            panic!("waited {WAIT:?} for {what}; the page's error box says: {error}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The text of the first element `css` matches, or "" when none does.
pub async fn text_of(client: &Client, css: &str) -> String {
    let script = format!(
        "const e = document.querySelector({}); return e ? e.textContent : '';",
        json!(css)
    );
    eval(client, &script)
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// How many elements `css` matches.
pub async fn count(client: &Client, css: &str) -> u64 {
    let script = format!("return document.querySelectorAll({}).length;", json!(css));
    eval(client, &script).await.as_u64().unwrap_or(0)
}

/// Saves a screenshot as `target/browser-screenshots/NAME.png`, for a person to look at.
pub async fn screenshot(client: &Client, name: &str) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .map(|target| target.join("browser-screenshots"))
        .unwrap_or_else(|| PathBuf::from("browser-screenshots"));
    std::fs::create_dir_all(&dir).expect("create the screenshot directory");
    let png = client.screenshot().await.expect("take a screenshot");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("write the screenshot");
}
