// Where Debian's Chromium is, and the flags it runs with here. Shared by Playwright and scripts.
import { existsSync } from 'node:fs';

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  // Each new page of a headless Chromium 156 also started a renderer for the omnibox popup's WebUI
  // (chrome://omnibox-popup.top-chrome), which no headless page shows: a trace of one first draw caught
  // it using 1.2 s of CPU on this 2-core machine while the page read its answer. Chromium merges this
  // list with Playwright's own --disable-features.
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI',
];

/** CHROMIUM_PATH, else /usr/bin/chromium. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

export function chromiumFound(): boolean {
  return existsSync(chromiumPath());
}
