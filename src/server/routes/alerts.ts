import { Hono } from 'hono';
import type { Kysely } from 'kysely';
import * as z from 'zod/mini';
import {
  AlertRuleInput,
  AlertRuleUpdate,
  type AlertRulesAnswer,
  type AlertsAnswer,
} from '@/contract/alerts-api';
import { privateAddressReason } from '@/contract/client-url';
import type { AppEnv } from '../app-env';
import {
  createRule,
  deleteRule,
  listAlerts,
  listRules,
  undeliveredAlerts,
  updateRule,
} from '../alerts/alert-store';
import { ProxyError, requireStore, storeUnavailable } from '../errors';
import { requireRole } from '../middleware/access';
import type { Database } from '../store/database';
import { validate } from '../validation';

const unavailable = storeUnavailable('alerts and their rules cannot be read or saved now');

const RuleId = z.object({ id: z.string().check(z.regex(/^[1-9]\d{0,8}$/, 'a rule id is a number')) });

/**
 * Haulview posts alerts itself, from inside the operator's network: an address of this machine or a
 * private network, or plain http, is refused unless the operator allowed its origin
 * (`ALERT_WEBHOOK_ALLOW`). A 400 naming `webhookUrl`.
 */
export function checkWebhookUrl(url: string | null, allowed: readonly string[]): void {
  if (url === null || allowed.includes(new URL(url).origin)) return;
  const refuse = (message: string) => {
    throw new ProxyError(400, 'invalid_request', `webhookUrl: ${message}`, [{ path: 'webhookUrl', message }]);
  };
  if (new URL(url).protocol !== 'https:') refuse('a webhook URL is an https:// URL');
  const reason = privateAddressReason(url);
  if (reason !== undefined)
    refuse(`${reason.replace(/: the webhook service could not reach it$/, '')}: alerts are not posted there`);
}

/**
 * `/api/alerts`: every role reads the alerts fired; admins set the rules (`/rules`), each change
 * audited, and see the webhook deliveries that fail.
 */
export function alertRoutes(db: Kysely<Database> | undefined, webhookAllow: readonly string[]) {
  const store = () => requireStore(db);
  const rules = new Hono<AppEnv>()
    .use(requireRole('admin'))
    .get('/', async (c) => {
      const [all, failing] = await Promise.all([listRules(store()), undeliveredAlerts(store())]).catch(
        unavailable,
      );
      return c.json({ rules: all, failing } satisfies AlertRulesAnswer);
    })
    .post('/', validate('json', AlertRuleInput), async (c) => {
      const input = c.req.valid('json');
      checkWebhookUrl(input.webhookUrl, webhookAllow);
      return c.json(await createRule(store(), input, c.get('user').name).catch(unavailable), 201);
    })
    .put('/:id', validate('param', RuleId), validate('json', AlertRuleUpdate), async (c) => {
      const input = c.req.valid('json');
      checkWebhookUrl(input.webhookUrl, webhookAllow);
      const id = Number(c.req.valid('param').id);
      return c.json(await updateRule(store(), id, input, c.get('user').name).catch(unavailable));
    })
    .delete('/:id', validate('param', RuleId), async (c) => {
      await deleteRule(store(), Number(c.req.valid('param').id), c.get('user').name).catch(unavailable);
      return c.body(null, 204);
    });
  return new Hono<AppEnv>()
    .get('/', validate('query', z.strictObject({})), async (c) => {
      const alerts = await listAlerts(store()).catch(unavailable);
      return c.json({ alerts } satisfies AlertsAnswer);
    })
    .route('/rules', rules);
}
