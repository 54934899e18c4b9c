/**
 * Where the e2e suite's main server (playwright.config.ts) writes everything it prints, stdout and
 * stderr, so that e2e/after-run.spec.ts can read every line of the whole run. Ignored by git (`*.log`).
 */
export const E2E_SERVER_LOG = '.e2e-server.log';
