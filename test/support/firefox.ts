// Test helper: headless Firefox (Debian's `firefox-esr` package, 140 ESR; .ci/run installs it)
// on a page, with the contract of openInChromium (browser-page.ts runBrowserUntil): its own
// profile directory, the leader of its own process group (Firefox starts content, socket and
// utility processes), killed as a group and waited for once the page has posted, the profile
// removed. The profile's user.js turns off what Firefox would otherwise do at start and in the
// background: first-run and what's-new pages, updates (the application, add-ons, system add-ons,
// media plugins, search engines), telemetry and studies, Safe Browsing and tracking-protection
// lists, captive-portal and connectivity checks, remote settings, DNS over HTTPS, OCSP,
// speculative connections and prefetching, geolocation and region lookups, Web Push. The test
// machines have only loopback: a call left on would wait on a network that is not there, or fail
// in the log. Checked by pointing the profile's proxy at a loopback server that records what it is
// asked for (loopback itself is never proxied): with these prefs nothing in 20 s; without
// MOZ_REMOTE_SETTINGS_DEVTOOLS, firefox.settings.services.mozilla.com; without the dom.push prefs,
// push.services.mozilla.com. Under strace, the only TCP connect() of a run is to the page's server.

import "./test-env.ts"; // the era cache off (test-env.ts)
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import process from "node:process";
import { runBrowserUntil } from "./browser-page.ts";

/** The Firefox executable on PATH (`firefox-esr`, else `firefox`), or undefined. */
export function findFirefox(): string | undefined {
  for (const name of ["firefox-esr", "firefox"]) {
    for (const dir of (process.env.PATH ?? "").split(delimiter)) {
      const path = join(dir, name);
      if (dir !== "" && existsSync(path)) return path;
    }
  }
  return undefined;
}

/**
 * A test option `skip`: the reason when there is no Firefox and this is not CI (on CI the test
 * runs, and fails if Firefox is missing: .ci/run installs it); false otherwise.
 */
export function firefoxSkip(): string | false {
  if (findFirefox() !== undefined || process.env.CI) return false;
  return "firefox is not installed (apt-get install --no-install-recommends firefox-esr); .ci/run installs it, and on CI this test runs";
}

/** A pref's value in user.js. */
export type FirefoxPref = boolean | number | string;

/** The profile's prefs: nothing at start but the page, nothing in the background (see the header). */
const PREFS: Readonly<Record<string, FirefoxPref>> = {
  // start: no first-run, welcome, what's-new or default-browser pages; no session restore
  "browser.startup.page": 0,
  "browser.startup.homepage": "about:blank",
  "browser.startup.homepage_override.mstone": "ignore",
  "startup.homepage_welcome_url": "about:blank",
  "startup.homepage_welcome_url.additional": "",
  "startup.homepage_override_url": "",
  "browser.aboutwelcome.enabled": false,
  "trailhead.firstrun.didSeeAboutWelcome": true,
  "browser.shell.checkDefaultBrowser": false,
  "browser.sessionstore.resume_from_crash": false,
  "toolkit.startup.max_resumed_crashes": -1,
  "browser.tabs.warnOnClose": false,
  "browser.warnOnQuit": false,
  "browser.newtabpage.enabled": false,
  "browser.newtabpage.activity-stream.feeds.system.topstories": false,
  "browser.newtabpage.activity-stream.feeds.section.topstories": false,
  "browser.newtabpage.activity-stream.feeds.topsites": false,
  "browser.newtabpage.activity-stream.feeds.snippets": false,
  "browser.newtabpage.activity-stream.telemetry": false,
  "browser.newtabpage.activity-stream.default.sites": "",
  "browser.topsites.contile.enabled": false,
  "browser.ping-centre.telemetry": false,
  "browser.uitour.enabled": false,
  "browser.discovery.enabled": false,
  "extensions.pocket.enabled": false,
  "identity.fxaccounts.enabled": false,
  "browser.translations.enable": false,
  "browser.ml.enable": false,
  // updates: the application, add-ons, system add-ons, media plugins, search engines
  "app.update.disabledForTesting": true,
  "app.update.auto": false,
  "app.update.checkInstallTime": false,
  "extensions.update.enabled": false,
  "extensions.update.autoUpdateDefault": false,
  "extensions.getAddons.cache.enabled": false,
  "extensions.systemAddon.update.enabled": false,
  "extensions.systemAddon.update.url": "",
  "extensions.blocklist.enabled": false,
  "extensions.getAddons.showPane": false,
  "extensions.htmlaboutaddons.recommendations.enabled": false,
  "media.gmp-manager.updateEnabled": false,
  "media.gmp-manager.url": "",
  "media.gmp-gmpopenh264.enabled": false,
  "media.gmp-widevinecdm.enabled": false,
  "browser.search.update": false,
  "browser.search.suggest.enabled": false,
  // telemetry, health report, studies (Normandy, Nimbus), crash reports
  "datareporting.policy.dataSubmissionEnabled": false,
  "datareporting.policy.dataSubmissionPolicyBypassNotification": true,
  "datareporting.healthreport.uploadEnabled": false,
  "toolkit.telemetry.enabled": false,
  "toolkit.telemetry.unified": false,
  "toolkit.telemetry.archive.enabled": false,
  "toolkit.telemetry.server": "",
  "toolkit.telemetry.newProfilePing.enabled": false,
  "toolkit.telemetry.shutdownPingSender.enabled": false,
  "toolkit.telemetry.firstShutdownPing.enabled": false,
  "toolkit.telemetry.updatePing.enabled": false,
  "toolkit.telemetry.bhrPing.enabled": false,
  "app.normandy.enabled": false,
  "app.normandy.api_url": "",
  "app.shield.optoutstudies.enabled": false,
  "messaging-system.rsexperimentloader.enabled": false,
  "browser.crashReports.unsubmittedCheck.autoSubmit2": false,
  // Safe Browsing and the tracking-protection lists (both fetched from list servers)
  "browser.safebrowsing.malware.enabled": false,
  "browser.safebrowsing.phishing.enabled": false,
  "browser.safebrowsing.downloads.enabled": false,
  "browser.safebrowsing.downloads.remote.enabled": false,
  "browser.safebrowsing.blockedURIs.enabled": false,
  "browser.safebrowsing.provider.google.updateURL": "",
  "browser.safebrowsing.provider.google4.updateURL": "",
  "browser.safebrowsing.provider.mozilla.updateURL": "",
  "privacy.trackingprotection.enabled": false,
  "privacy.trackingprotection.pbmode.enabled": false,
  "privacy.trackingprotection.cryptomining.enabled": false,
  "privacy.trackingprotection.fingerprinting.enabled": false,
  "privacy.trackingprotection.socialtracking.enabled": false,
  "privacy.query_stripping.enabled": false,
  // captive-portal and connectivity checks, DNS over HTTPS and its rollout
  "network.captive-portal-service.enabled": false,
  "network.connectivity-service.enabled": false,
  "captivedetect.canonicalURL": "",
  "network.trr.mode": 5,
  "doh-rollout.disable-heuristics": true,
  // Web Push (a WebSocket to push.services.mozilla.com at start)
  "dom.push.enabled": false,
  "dom.push.connection.enabled": false,
  "dom.push.serverURL": "",
  // remote settings (blocklists, CRLite, intermediates, experiments): a server that is not there
  // (honoured with MOZ_REMOTE_SETTINGS_DEVTOOLS=1, see openInFirefox)
  "services.settings.server": "data:,#remote-settings-dummy/v1",
  "security.remote_settings.crlite_filters.enabled": false,
  "security.remote_settings.intermediates.enabled": false,
  "security.certerrors.mitm.priming.enabled": false,
  "security.OCSP.enabled": 0,
  // speculative connections and prefetching, geolocation and region lookups
  "network.dns.disablePrefetch": true,
  "network.prefetch-next": false,
  "network.predictor.enabled": false,
  "network.http.speculative-parallel-limit": 0,
  "browser.urlbar.speculativeConnect.enabled": false,
  "browser.places.speculativeConnect.enabled": false,
  "geo.enabled": false,
  "geo.provider.network.url": "",
  "browser.region.network.url": "",
  "browser.region.update.enabled": false,
  "browser.search.geoip.url": "",
  // no proxy: the page and the servers are on loopback
  "network.proxy.type": 0,
  // no modal dialog from a slow page (there is nobody to answer it)
  "dom.max_script_run_time": 0,
};

/** `user_pref(name, value);` lines for user.js. */
function userJs(prefs: Readonly<Record<string, FirefoxPref>>): string {
  return Object.entries(prefs).map(([name, value]) => `user_pref(${JSON.stringify(name)}, ${JSON.stringify(value)});\n`).join("");
}

/**
 * Opens `url` in headless Firefox (its own profile, the leader of its own process group) and
 * resolves with what `until` resolves to; rejects when `until` rejects, when Firefox exits first
 * or cannot start, or after timeoutMs. In every case the process group is killed and waited for,
 * and the profile removed, before this settles; Firefox's last output is in the error's message
 * (openInChromium's contract). `prefs` are added to the profile's (`dom.disable_open_during_load:
 * false` for a page that opens a popup with no user gesture, which nobody gives headless Firefox).
 */
export async function openInFirefox<T>(url: string, until: Promise<T>, timeoutMs = 90_000, prefs: Readonly<Record<string, FirefoxPref>> = {}): Promise<T> {
  const executable = findFirefox() ?? "firefox-esr";
  const profile = mkdtempSync(join(tmpdir(), "mcpwire-firefox-"));
  try {
    writeFileSync(join(profile, "user.js"), userJs({ ...PREFS, ...prefs }));
    mkdirSync(join(profile, "home"));
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  // HOME in the profile: Firefox keeps crash reports, pending pings and a cache under ~/.mozilla
  // and ~/.cache/mozilla even with --profile, and a test writes only in temp dirs. No crash
  // reporter. MOZ_REMOTE_SETTINGS_DEVTOOLS: a release build honours services.settings.server
  // (in PREFS) only with it, and otherwise syncs from firefox.settings.services.mozilla.com.
  const home = join(profile, "home");
  const env = { ...process.env, HOME: home, XDG_CACHE_HOME: join(home, ".cache"), MOZ_CRASHREPORTER_DISABLE: "1", MOZ_REMOTE_SETTINGS_DEVTOOLS: "1" };
  const args = ["--headless", "--no-remote", "--profile", profile, url];
  return await runBrowserUntil({ name: "firefox", debianPackage: "firefox-esr", executable, args, profile, env }, url, until, timeoutMs);
}
