import { Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { NOT_RECORDED_HEADER, type WebhooksAnswer } from '@/contract/admin-api';
import { privateAddressReason } from '@/contract/client-url';
import { CLIENT_URL_MAX_LENGTH, readCreatedWebhook, type Webhook } from '@/contract/webhook';
import type { AppEnv } from '../app-env';
import type { DriftReport } from '../drift-report';
import { requireStore, storeUnavailable } from '../errors';
import type { Database } from '../store/database';
import type { UpstreamClient } from '../upstream-client';
import { validate } from '../validation';
import { listWebhooks, recordWebhook } from '../webhooks/registry';

/**
 * The shape is checked here, and one thing more: a client URL of this machine or a private network
 * is refused (400 naming `clientUrl`), so the service is never asked to call into a network it should
 * not reach. Otherwise the values go to the upstream as typed, so that its own 422 (an event type
 * outside its enum, an address that is not https) reaches the form where it belongs.
 */
const WebhookBody = z.strictObject({
  eventType: z.string().max(200),
  clientUrl: z
    .string()
    .max(CLIENT_URL_MAX_LENGTH, `an address of at most ${CLIENT_URL_MAX_LENGTH} characters`)
    .superRefine((url, ctx) => {
      const reason = privateAddressReason(url.trim());
      if (reason) ctx.addIssue({ code: 'custom', message: reason });
    }),
});

/** The operation a created subscription's departures are counted under on /diagnostics. */
export const CREATE_WEBHOOK = 'create-webhook';

const BEARER = /^Bearer [\w\-.~+/]+=*$/;

/**
 * `POST /api/webhooks`: the browser's bearer token (never logged, never stored) and body, relayed;
 * a webhook the service accepted is recorded with who created it. `GET /api/webhooks` lists them.
 * Admins only (mounted behind `adminOnly`).
 */
export function webhookRoutes(
  upstream: UpstreamClient,
  db: Kysely<Database> | undefined,
  drift: DriftReport,
) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const webhooks = await listWebhooks(requireStore(db)).catch(
        storeUnavailable('the webhook list waits for it'),
      );
      return c.json({ webhooks } satisfies WebhooksAnswer);
    })
    .post('/', validate('json', WebhookBody), async (c) => {
      const input = c.req.valid('json');
      const authorization = c.req.header('authorization');
      const answer = await upstream.createWebhook(
        input,
        authorization && BEARER.test(authorization) ? authorization : undefined,
      );
      c.set('upstreamCalls', 1);
      if (answer.location) c.header('Location', answer.location);
      let created: Webhook | undefined;
      if (answer.status >= 200 && answer.status < 300) {
        const read = readCreatedWebhook(answer.body, answer.location);
        drift.record(CREATE_WEBHOOK, read.issues);
        created = read.webhook;
      }
      if (created && db !== undefined) {
        // The webhook exists at the service whatever happens here: a store that fails still gets
        // the 201, marked, so the page can say it is missing from the list.
        await recordWebhook(
          db,
          {
            uuid: created.uuid,
            eventType: created.eventType ?? input.eventType,
            clientUrl: created.clientUrl ?? input.clientUrl.trim(),
          },
          c.get('user').name,
        ).catch(() => c.header(NOT_RECORDED_HEADER, 'store_unavailable'));
      }
      // A created subscription goes to the page as read here (unwrapped, its uuid found), so that the
      // page shows what was recorded.
      return c.json((created ?? answer.body) as object, answer.status as ContentfulStatusCode);
    });
}
