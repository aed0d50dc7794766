// Test helper: the browsers a page test runs in (issue 28: current Chromium and Firefox), each
// with the same contract (browser-page.ts runBrowserUntil), so a suite is written once as a
// function of the browser and run for each: test/runtime/browser.test.ts, browser-oauth.test.ts.

import { openInChromium } from "./browser-page.ts";
import { chromiumSkip } from "./chromium.ts";
import { firefoxSkip, openInFirefox } from "./firefox.ts";

/** A browser a page runs in: what to call it, whether it is there, how to open a page in it. */
export interface PageBrowser {
  /** "Chromium", "Firefox": for test names and messages. */
  name: string;
  /** The test option: a reason when the browser is missing (and this is not CI). */
  skip: string | false;
  /** What navigator.userAgent holds in it: a page's report proves where it ran. */
  userAgent: RegExp;
  /**
   * Opens `url` and resolves with what `until` resolves to (openInChromium's contract). `popups`:
   * a page may open a window with no user gesture (nobody gives a headless browser one).
   */
  open<T>(url: string, until: Promise<T>, timeoutMs: number, options?: { popups?: boolean }): Promise<T>;
}

export const BROWSERS: readonly PageBrowser[] = [
  {
    name: "Chromium",
    skip: chromiumSkip(),
    userAgent: /Chrome\/\d+/, // HeadlessChrome/150.0.0.0
    open: (url, until, timeoutMs, options) => openInChromium(url, until, timeoutMs, options?.popups ? ["--disable-popup-blocking"] : []),
  },
  {
    name: "Firefox",
    skip: firefoxSkip(),
    userAgent: /\bFirefox\/\d+/,
    open: (url, until, timeoutMs, options) => openInFirefox(url, until, timeoutMs, options?.popups ? { "dom.disable_open_during_load": false } : {}),
  },
];

/** The skip option of a suite of all BROWSERS: a reason only when every one of them is skipped. */
export function allBrowsersSkip(): string | false {
  return BROWSERS.every((browser) => browser.skip !== false) ? BROWSERS.map((browser) => browser.skip).join("; ") : false;
}
