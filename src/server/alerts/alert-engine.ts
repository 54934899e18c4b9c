import type { Kysely } from 'kysely';
import { ALERT_KIND_TEXT, type AlertRule } from '@/contract/alerts-api';
import { alertCondition, alertText } from '@/domain/alert-conditions';
import type { Load } from '@/domain/model';
import { loadRefOf } from '@/domain/paperwork';
import type { StalenessThresholds } from '@/domain/staleness';
import { endPassedAcks } from '../exceptions/exception-acks';
import type { Database } from '../store/database';
import { claimDueDeliveries, fireAlert, firedKey, listRules, recordAttempt } from './alert-store';

/** After the first attempt fails: 1 min, 5 min, 30 min, then the delivery has failed for good. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000] as const;
/** How long an instance holds a claimed delivery before another may try it (it crashed mid-attempt). */
const CLAIM_HOLD_MS = 5 * 60_000;
const SEND_TIMEOUT_MS = 10_000;

export interface AlertEngineOptions {
  db: Kysely<Database>;
  /** The loads to judge: the ones the proxy holds (`TrackCache.held`). */
  loads: () => Load[] | Promise<Load[]>;
  now: () => number;
  thresholds: StalenessThresholds;
  log: (line: string) => void;
  /** Posts a webhook; `fetch` unless a test brings its own. */
  fetch?: typeof fetch;
  retryDelaysMs?: readonly number[];
}

/**
 * Judges the held loads against the enabled rules and delivers what fired (issue 36 part 5). Every
 * instance may run it: the store's unique key on (rule, load, occurrence) lets one instance fire each
 * alert, and a conditional update lets one instance make each delivery attempt.
 */
export function createAlertEngine(o: AlertEngineOptions) {
  const send = o.fetch ?? fetch;
  const delays = o.retryDelaysMs ?? RETRY_DELAYS_MS;
  /** Keys this instance stored or found stored, while their condition holds: no need to ask the store again. */
  const fired = new Set<string>();
  /** When a condition with no moment of its own was first seen holding, by key. */
  const firstSeen = new Map<string, number>();

  async function evaluate(): Promise<number> {
    const rules = (await listRules(o.db)).filter((r) => r.enabled);
    if (rules.length === 0) return 0;
    const now = o.now();
    const seen = new Set<string>();
    let count = 0;
    for (const load of await o.loads()) {
      const ref = loadRefOf(load);
      for (const rule of rules) count += await judge(rule, load, ref, now, seen);
    }
    // A condition that stopped holding starts its wait afresh when it comes back; the memory of what
    // fired stays as large as what holds now (should it come back, the store's key still refuses it).
    for (const key of firstSeen.keys()) if (!seen.has(key)) firstSeen.delete(key);
    for (const key of fired) if (!seen.has(key)) fired.delete(key);
    return count;
  }

  async function judge(rule: AlertRule, load: Load, ref: string, now: number, seen: Set<string>) {
    const c = alertCondition(rule.kind, load, now, o.thresholds, rule.minMinutes);
    if (!c) return 0;
    const key = firedKey(rule.id, ref, c.occurrence);
    seen.add(key);
    if (fired.has(key)) return 0;
    let since = c.since;
    if (since === undefined) {
      since = firstSeen.get(key) ?? now;
      firstSeen.set(key, since);
    }
    // pod-overdue's wait is its condition (hours after delivery on the track's clock).
    if (rule.kind !== 'pod-overdue' && now - since < rule.minMinutes * 60_000) return 0;
    const id = await fireAlert(
      o.db,
      {
        ruleId: rule.id,
        kind: rule.kind,
        load: ref,
        occurrence: c.occurrence,
        text: alertText(ALERT_KIND_TEXT[rule.kind], load, c),
        since: c.since,
        webhookUrl: rule.webhookUrl,
      },
      now,
    );
    fired.add(key);
    firstSeen.delete(key);
    return id === undefined ? 0 : 1;
  }

  /** Makes the webhook attempts due now, each recorded; a failure is tried again after its delay. */
  async function deliver(): Promise<number> {
    const now = o.now();
    const claimed = await claimDueDeliveries(o.db, now, CLAIM_HOLD_MS);
    for (const d of claimed) {
      const at = new Date(o.now()).toISOString();
      let status: number | undefined;
      let error: string | undefined;
      try {
        const response = await send(d.url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ text: d.text }),
          // A redirect could lead to an address the rule's check refused.
          redirect: 'manual',
          signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
        });
        status = response.status;
        await response.body?.cancel();
        if (!response.ok) error = `HTTP ${response.status}`;
      } catch (e) {
        // Node's fetch says only "fetch failed"; the cause names it (ECONNREFUSED, ENOTFOUND, a timeout).
        const cause = e instanceof Error && e.cause instanceof Error ? e.cause : undefined;
        const code = (cause as { code?: unknown } | undefined)?.code;
        const said =
          e instanceof Error
            ? `${e.message}${cause ? ` (${typeof code === 'string' ? code : cause.message})` : ''}`
            : String(e);
        // Shown to admins and logged: the address, which may hold the receiver's secret, never.
        error = said.split(d.url).join('the webhook URL');
      }
      const delay = delays[d.attempts];
      await recordAttempt(
        o.db,
        d.alertId,
        { at, ...(status !== undefined && { status }), ...(error !== undefined && { error }) },
        error === undefined
          ? { delivered: true }
          : { delivered: false, retryAt: delay === undefined ? undefined : o.now() + delay },
      );
      if (error !== undefined)
        o.log(JSON.stringify({ t: at, level: 'warn', alert: d.alertId, attempt: d.attempts + 1, error }));
    }
    return claimed.length;
  }

  /** Ends the acknowledgements whose exception is over, judged on the held loads now. */
  async function endAcks(): Promise<number> {
    return endPassedAcks(o.db, o.loads, o.now(), o.thresholds);
  }

  /**
   * One pass: acknowledgements whose exception ended, then alerts judged and delivered. A store that
   * fails is logged; the next pass tries again.
   */
  async function tick(): Promise<void> {
    try {
      await endAcks();
      await evaluate();
      await deliver();
    } catch (e) {
      o.log(
        JSON.stringify({
          t: new Date().toISOString(),
          level: 'error',
          job: 'alerts',
          message: e instanceof Error ? e.message : String(e),
        }),
      );
    }
  }

  return { evaluate, deliver, endAcks, tick };
}
export type AlertEngine = ReturnType<typeof createAlertEngine>;

/** Runs `job` every `ms` (unref'd), never two passes at once. */
export function every(ms: number, job: () => Promise<void>) {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= job().finally(() => (running = undefined));
  }, ms);
  timer.unref();
  return {
    stop: () => clearInterval(timer),
    running: () => running ?? Promise.resolve(),
  };
}
